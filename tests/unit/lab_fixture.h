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
#include "lab/topology.h"

static char dbpath[64];
static struct lab *lab;
static strbuf out;

static void capture(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    sb_add(&out, s, n);
}

/* A fresh lab: the default one (lab_text NULL), or the lab file text. */
static void lab_fixture_open(const char *lab_text)
{
    snprintf(dbpath, sizeof dbpath, "/tmp/mdsim-test-XXXXXX");
    int fd = mkstemp(dbpath);
    close(fd);
    unlink(dbpath);
    char err[512];
    if (lab_text)
        ck_assert_msg(topology_create(dbpath, "test.lab", lab_text, err, sizeof err) == 0, "%s", err);
    lab = lab_open(dbpath, err, sizeof err);
    ck_assert_msg(lab != NULL, "%s", err);
    sb_init(&out);
}

static inline void setup(void) { lab_fixture_open(NULL); }

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
