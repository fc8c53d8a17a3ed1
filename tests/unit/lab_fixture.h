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

/* Runs the lines (NULL-terminated) on switch sw in one session, each of
 * which must succeed; what they print goes to `out`. */
static inline void lab_fixture_run(int sw, const char *const *lines)
{
    struct session s;
    session_init(&s, lab, sw, (struct session_io){.write = capture});
    for (; *lines; lines++)
        ck_assert_msg(session_exec(&s, *lines) == 0, "'%s' failed: %s", *lines, s.last_error);
    session_free(&s);
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
