/*
 * The SAN Extension Tuner on the engine (engine-model.md §4.6): virtual N
 * ports that log in to the fabric and keep `outstanding` SCSI reads or
 * writes in flight to a target N port, across the FCIP tunnels of the
 * path; every N port is also a target that answers after
 * TUNER_SERVICE_NS. No store, no session: the sanext feature reconciles it.
 *
 * One I/O, as frames through the fabric (2048-byte data frames):
 *   read:  FCP_CMND ->, data <-, FCP_RSP <-
 *   write: FCP_CMND ->, XFER_RDY <- (or a write-accelerating tunnel's
 *          proxy), data ->, FCP_RSP <-
 * An I/O unanswered after TUNER_IO_TIMEOUT_NS is aborted, counted as an
 * error and issued again. Counter definitions: docs/tuner-counters.md.
 */
#ifndef MDSIM_SANEXT_TUNER_H
#define MDSIM_SANEXT_TUNER_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "fabric/fabric.h"

#define TUNER_SERVICE_NS (400 * ENGINE_NS_PER_US)
#define TUNER_IO_TIMEOUT_NS (3 * ENGINE_NS_PER_SEC)
#define TUNER_RETRY_NS ENGINE_NS_PER_SEC /* a target not in the name server yet */
#define TUNER_FRAME 2048u
#define TUNER_CMND_BYTES 32u
#define TUNER_XFER_RDY_BYTES 12u
#define TUNER_RSP_BYTES 24u
#define TUNER_OUTSTANDING_MAX 64

struct tuner;
struct fc_pattern;

enum tuner_op { TUNER_READ, TUNER_WRITE, TUNER_TAPE_READ, TUNER_TAPE_WRITE };

struct tuner_nport_conf {
    int sw;
    uint8_t pwwn[8], nwwn[8];
    int vsan;
    int slot, port; /* the Gigabit Ethernet port it sits on */
    /* What its data frames carry, as initiator (writes) and as target
     * (reads): NULL for all zeros, else from tuner_pattern. */
    const struct fc_pattern *pattern;
};

struct tuner_cmd_conf {
    int id;
    enum tuner_op op;
    uint8_t target[8];
    uint32_t size;
    int outstanding;
    uint64_t transactions; /* 0: continuous */
    uint64_t start;        /* a new start of the same command id restarts it */
};

struct tuner *tuner_new(engine_t *e, struct fabric *fab);
void tuner_free(struct tuner *t);

/* A data pattern from a file's bytes (a data-pattern-file), kept by the
 * tuner for its lifetime: frames in flight may still point to it. The
 * same name and bytes give the same pattern. */
const struct fc_pattern *tuner_pattern(struct tuner *t, const char *name, const unsigned char *data, size_t len);

/* Reconcile: begin, declare each N port then its commands, end. What was
 * not declared stops (commands) or logs out (N ports); the rest keeps its
 * I/Os and counters. */
void tuner_begin(struct tuner *t);
void tuner_nport(struct tuner *t, const struct tuner_nport_conf *c);
void tuner_cmd(struct tuner *t, int sw, const uint8_t pwwn[8], int vsan, const struct tuner_cmd_conf *c);
void tuner_end(struct tuner *t);

/* Counters of an N port since it logged in or its last clear. Rates are
 * those of the last complete second of lab time. */
struct tuner_counters {
    bool found;
    uint32_t fcid;
    uint64_t ios_per_sec;
    uint64_t reads, writes; /* completed I/Os, both roles */
    /* FC payload bytes per second */
    uint64_t egress_bytes_per_s, egress_max_bytes_per_s, ingress_bytes_per_s, ingress_max_bytes_per_s;
    uint64_t rt_count[2], rt_sum_ns[2], rt_min_ns[2], rt_max_ns[2];    /* [0] read, [1] write */
    uint64_t errors;
    uint64_t in_flight; /* I/Os issued and not completed */
    bool running;       /* a command still issues I/Os */
};
void tuner_counters(struct tuner *t, int sw, const uint8_t pwwn[8], int vsan, struct tuner_counters *out);
void tuner_clear(struct tuner *t, int sw, const uint8_t pwwn[8], int vsan);
/* Every N port with its counters, read only (the second is not rolled:
 * the rates are still those of the last complete second). */
typedef void (*tuner_nport_fn)(void *ctx, const struct tuner_nport_conf *np, const struct tuner_counters *c);
void tuner_nports_each(struct tuner *t, tuner_nport_fn fn, void *ctx);

#endif
