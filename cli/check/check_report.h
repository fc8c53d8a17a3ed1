/*
 * What `mdsim check` reports: a line per item per student on stdout, and
 * the same results as JSON or CSV in a file (docs/check.md).
 */
#ifndef MDSIM_CHECK_REPORT_H
#define MDSIM_CHECK_REPORT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "check_run.h"

struct check_report {
    FILE *text, *json, *csv; /* NULL: not written */
    const char *check;       /* the check file's name, for the JSON */
    int results, failed;
};

/* json and csv name files to write, "-" for stdout (which then holds only
 * that), or NULL. False with err set when one cannot be opened. */
bool check_report_open(struct check_report *rep, const char *check, const char *json, const char *csv, char *err,
                       size_t errlen);
/* A check_sink: ctx is the report. */
void check_report_add(void *ctx, const struct check_result *r);
/* Ends the files; false with err set when one could not be written. */
bool check_report_close(struct check_report *rep, char *err, size_t errlen);

#endif
