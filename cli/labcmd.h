/* `mdsim lab list|show|reset` on an open lab, run by its owner, for
 * itself or for an attached mdsim. */
#ifndef MDSIM_LABCMD_H
#define MDSIM_LABCMD_H
#include <stdio.h>

struct lab;

/* Runs `lab WHAT`; -1 when WHAT is not one of these, else the exit code. */
int labcmd_run(struct lab *lab, const char *what, FILE *out, FILE *err);
/* `lab reset`: switch sw (its index), or every switch when sw < 0, back
 * to its starting configuration (docs/lab-files.md); the exit code. */
int labcmd_reset(struct lab *lab, int sw, FILE *out, FILE *err);

/* `lab export --series FILE [--plots DIR]`: the lab's recording
 * (docs/series.md) as CSV (JSON when FILE ends in .json), the plots into
 * DIR; 1 with a message when nothing was recorded or a file cannot be
 * written. The paths are the caller's: an owner is given absolute ones. */
int labcmd_export(struct lab *lab, const char *series_path, const char *plots, FILE *out, FILE *err);

#endif
