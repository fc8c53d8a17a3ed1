/*
 * `mdsim lab capture start|stop` in the lab's owner (docs/capture.md): the
 * lab's one capture slot (LAB_OBS_CAPTURE, also taken by `replay --pcap`
 * and ethanalyzer) held by a capture the owner writes, either into a
 * regular file at the client's absolute path (the job ends at once, the
 * capture runs until `lab capture stop` or the lab closes) or as a stream
 * of W_OUT frames to the client that asked (the job lasts until the
 * capture stops, the client leaves or the owner ends).
 */
#ifndef MDSIM_LAB_CAPTURE_H
#define MDSIM_LAB_CAPTURE_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

struct lab;

enum {
    LABCAP_PORTS_MAX = 64,        /* --port options of one capture */
    LABCAP_PATH_MAX = 4096,       /* an absolute path, with its NUL */
    LABCAP_BACKLOG = 8 << 20,     /* bytes a stream's reader may be behind */
};

struct labcap_req {
    const char *path;   /* absolute, or "-": stream to the client */
    const char *ports;  /* "SW:S/P,SW:S/P", or "" for every port */
    const char *format; /* "pcap", "pcapng", or "" (by the file's name) */
};

/* The `lab-capture-start` job: 0, or the exit code after a message on err
 * (1 refused, 2 bad request). fd is the client's socket (streams);
 * stop is the owner's "every session ends now". */
int labcap_start(struct lab *lab, const struct labcap_req *rq, int fd, atomic_bool *stop, FILE *out, FILE *err);
/* The `lab-capture-stop` job: ends the capture `lab capture start` made,
 * saying how many packets it holds; 1 when none is running. */
int labcap_stop(struct lab *lab, FILE *out, FILE *err);

#endif
