/*
 * Running a check file's steps on one student's lab: on a snapshot of the
 * lab file in memory (lab_snapshot), never on the lab itself, with lab
 * time of its own that starts at 0 (docs/check.md).
 */
#ifndef MDSIM_CHECK_RUN_H
#define MDSIM_CHECK_RUN_H
#include <stdbool.h>
#include "check_file.h"

/* The outcome of one item for one student. */
struct check_result {
    const char *student;
    const char *sw;   /* as the check file names it */
    int line;         /* the item's line in the check file */
    const char *item; /* what it checks, as a line of the report says it */
    bool pass;
    const char *why;  /* on a failure: what was found instead */
};

typedef void (*check_sink)(void *ctx, const struct check_result *r);

/* Runs every step of cf on a copy of the lab at path; sink gets each
 * item's result, in the file's order. A lab that cannot be read fails
 * every item, saying why. */
void check_run(const struct check_file *cf, const char *student, const char *path, check_sink sink, void *ctx);

#endif
