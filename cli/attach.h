/*
 * The attached side of DESIGN.md rule 7: an mdsim that finds its lab
 * owned by another process runs its job there, over the owner's socket.
 */
#ifndef MDSIM_ATTACH_H
#define MDSIM_ATTACH_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct labown;

/* The owner as it greeted us. */
struct attach_owner {
    int fd;        /* connected */
    pid_t pid;
    char what[32]; /* its own job: "serve", "console", ... */
};

/* Takes the lab's lock, or connects to its owner, retrying while an owner
 * starts or stops. Returns 1 (owner: o->fd is the lock), 0 (attached to
 * *ow) or -1 (err set). */
int attach_or_own(struct labown *o, struct attach_owner *ow, char *err, size_t errlen);

struct attach_job {
    const char *job;   /* "console", "replay", "lab-list", "lab-show", "lab-reset" */
    const char *sw;    /* --switch, or NULL */
    bool check, verify, stop_on_error, follow_prompts;
    int pace_s;        /* replay --pace */
    const char *series, *plots; /* lab-export: absolute paths (the owner's cwd is not ours) */
    const char *capture;        /* lab-capture-start: an absolute path or "-"; replay: --pcap's */
    const char *ports, *format; /* lab-capture-start: "SW:S/P,..." and "pcap" | "pcapng" */
    char **files;      /* replay: the files, "-" = stdin */
    int nfiles;
};

/* Runs the job in the owner; returns its exit code (2 with usage: -2). */
int attach_run(const struct attach_owner *ow, const struct attach_job *j);

#endif
