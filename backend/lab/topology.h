/*
 * Lab files: the switches of a lab, their chassis and modules, the cables
 * between their ports and the lab's seed, in a line-based format read by
 * the grammar machinery in MODE_LAB (docs/lab-files.md).
 */
#ifndef MDSIM_TOPOLOGY_H
#define MDSIM_TOPOLOGY_H
#include "grammar.h"
#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

struct lab;

/* The lines of a lab file, as grammar data (topology_cmds.c). */
extern const struct cmd_def topology_cmds[];

/* examples/labs/san-extension.lab, compiled in: the default lab. */
extern const char topology_default_text[];

/* Builds the lab that `text` describes into db, which holds the schema and
 * no switch yet, in one savepoint: all of it or, on the first error,
 * nothing. `file` names the text in errors ("file:line: message"). The
 * switches' starting configurations (`config` blocks) are stored, not
 * applied: that needs an open lab (topology_create). */
int topology_build(sqlite3 *db, const char *file, const char *text, char *err, size_t errlen);

/* Creates a new lab file at `path` from `text`: refuses an existing path,
 * builds in a temporary file beside it, brings each switch to its starting
 * configuration (replayed through the parser: a line the switch refuses
 * fails the whole file) and renames it into place, so a failure leaves no
 * file behind. Returns 0, or -1 with err set. */
int topology_create(const char *path, const char *file, const char *text, char *err, size_t errlen);

/* Prints the lab as a lab file: seed, switches, modules, cables, starting
 * configurations. */
void topology_print(struct lab *lab, FILE *out);

/* Switch sw, or every switch when sw < 0, back to where the lab starts:
 * its starting configuration, also saved as its startup-config, or the
 * factory configuration with no startup-config; the topology stays. One
 * transaction, under the lab lock it takes. Says which on out ("lab reset:
 * MDS1 reset to its starting configuration"); false with err set and
 * nothing changed. */
bool topology_reset(struct lab *lab, int sw, FILE *out, char *err, size_t errlen);

#endif
