/* The storage array feature (docs/array.md): the lab's arrays from the
 * store to the engine, and their SMcli shell. */
#ifndef MDSIM_ARRAY_H
#define MDSIM_ARRAY_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "array_model.h"
#include "grammar.h"

struct lab;

/* An array's settings as the store holds them (h: its host index). */
struct array_row {
    int host;
    struct array_conf conf;
    int disks;
    int interval_s, iterations;
    bool has_fc;
    char pwwn[24];
    int fc_switch_id, vsan;
};
bool array_row_get(struct lab *lab, int h, struct array_row *out);
/* The host indexes of the lab's arrays, in host order. */
int array_hosts(struct lab *lab, int *out, int max);

bool array_set_ld_flag(struct lab *lab, int h, int ld, const char *column, bool on); /* ld -1: all */
bool array_set_online(struct lab *lab, int h, int ctrl, bool on);
bool array_set_monitor(struct lab *lab, int h, int interval_s, int iterations);
bool array_file_put(struct lab *lab, int h, const char *name, const char *content);
/* The file's content (malloc'ed), NULL when none. */
char *array_file_get(struct lab *lab, int h, const char *name);

/* Array h as lab-file lines (lab show). */
void array_print_one(struct lab *lab, int h, FILE *out);

/* The engine's array of host h (NULL: none), in line with the store. */
struct array *array_engine(struct lab *lab, int h);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature array_feature;
extern const struct cmd_def array_cmds[];
/* Handlers of array_cmds defined beside their shows. */
int array_cmd_profile(struct session *s, const struct cmd_args *a);
int array_cmd_iscsi_perf(struct session *s, const struct cmd_args *a);
struct mode_info;
/* a storage array's SMcli shell, its only mode (docs/array.md, docs/registry.md). */
extern const struct mode_info array_mode;

#endif
