#ifndef MDSIM_SYSTEM_H
#define MDSIM_SYSTEM_H
#include <stddef.h>
#include "grammar.h"

struct session;
struct cmd_args;
struct lab;

/* The NX-OS release the switches run. */
#define SYSTEM_RELEASE "5.2(8)"

/* Switch sw's clock as ctime(3) prints it, for `!Time:` lines. */
void system_ctime(struct lab *lab, int sw, char *buf, size_t n);
int system_show_version(struct session *s, const struct cmd_args *a);
int system_show_module(struct session *s, const struct cmd_args *a);
int system_show_inventory(struct session *s, const struct cmd_args *a);
int system_show_license_host_id(struct session *s, const struct cmd_args *a);

/* The modules in the switch's slots, in slot order. */
enum { SYSTEM_MAX_SLOTS = 13 };
struct module_row {
    int slot;
    const struct module_model *m;
};
int system_modules(struct session *s, struct module_row *rows, int max);
/* Serial numbers, the same in every show command that prints them. */
void system_module_serial(struct session *s, int slot, char *buf, size_t n);
void system_chassis_serial(struct session *s, char *buf, size_t n);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature system_feature;
extern const struct cmd_def system_cmds[];

#endif
