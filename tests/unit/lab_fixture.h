/* A fresh lab in a temporary file for each test, and a session output
 * sink: shared by the unit tests that drive whole commands. Header-only:
 * each test is its own executable. */
#ifndef MDSIM_TEST_LAB_FIXTURE_H
#define MDSIM_TEST_LAB_FIXTURE_H
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "session.h"
#include "lab/lab.h"

static char dbpath[64];
static struct lab *lab;
static strbuf out;

static void capture(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    sb_add(&out, s, n);
}

static void setup(void)
{
    snprintf(dbpath, sizeof dbpath, "/tmp/mdsim-test-XXXXXX");
    int fd = mkstemp(dbpath);
    close(fd);
    unlink(dbpath);
    char err[256];
    lab = lab_open(dbpath, err, sizeof err);
    ck_assert_msg(lab != NULL, "%s", err);
    sb_init(&out);
}

static void teardown(void)
{
    static const char *const suffix[] = {"", "-wal", "-shm"};
    lab_close(lab);
    sb_free(&out);
    for (int i = 0; i < 3; i++) {
        char p[80];
        snprintf(p, sizeof p, "%s%s", dbpath, suffix[i]);
        unlink(p);
    }
}

#endif
