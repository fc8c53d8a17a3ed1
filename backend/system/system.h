#ifndef MDSIM_SYSTEM_H
#define MDSIM_SYSTEM_H
#include <stddef.h>

struct session;
struct cmd_args;
struct lab;

/* The NX-OS release the switches run. */
#define SYSTEM_RELEASE "5.2(8)"

/* Lab time as ctime(3) prints it, for `!Time:` lines. */
void system_ctime(struct lab *lab, char *buf, size_t n);
int system_show_version(struct session *s, const struct cmd_args *a);
int system_show_module(struct session *s, const struct cmd_args *a);

#endif
