/* Batch runs: scripts, captured transcripts, and commands piped to stdin. */
#ifndef MDSIM_REPLAY_H
#define MDSIM_REPLAY_H
#define REPLAY_PACE_MAX_S 3600
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

struct lab;

struct replay_opts {
    bool check;         /* run, print, then undo every change */
    bool stop_on_error;
    bool verify;        /* compare output with the transcript's own lines */
    bool follow_prompts; /* run each line in the mode its prompt names (docs/replay.md); the default */
    int pace_s;         /* --pace: seconds of lab time before each command, as a person types */
    int start_switch;   /* where plain script lines run first */
    const char *pcap;   /* --pcap FILE: capture every port while it runs (docs/capture.md) */
    const char *series; /* --series FILE: every time series, sampled on lab time (docs/series.md) */
    const char *plots;  /* --plots DIR: their plots (with --series) */
    /* For a replay run by the lab's owner for an attached mdsim: where
     * the transcript and the errors go (NULL: stdout, stderr), and how a
     * file is opened (NULL: the file system, "-" = stdin). */
    FILE *out, *err;
    FILE *(*open)(void *ctx, const char *name);
    void *open_ctx;
    const char *cwd; /* the sessions' session.cwd */
    /* Set when the owner stops (serve's SIGTERM): a wait ends, and the
     * replay with it. NULL: never. */
    const atomic_bool *stop;
};

/* Replays each file ("-" = stdin) in turn and prints the transcript.
 * Returns 0 when every line succeeded (and matched, with verify), else 1. */
int replay_files(struct lab *lab, char **files, int n, const struct replay_opts *o);

#endif
