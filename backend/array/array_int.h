/* The array's insides, shared by the model and its FC port. */
#ifndef MDSIM_ARRAY_INT_H
#define MDSIM_ARRAY_INT_H
#include "array_model.h"
#include "fabric/fabric.h"

/* An I/O the model holds until its completion time. */
struct pending {
    struct array *a;
    array_done_fn done;
    void *ctx;
    uint64_t started;
    engine_timer_id timer;
    int ld, ctrl;
    bool write, hit;
    uint32_t bytes;
    struct pending *next;
};

struct ld {
    struct array_ld_conf conf;
    uint64_t disk_free[ARRAY_DISKS_MAX]; /* when each disk's FIFO empties */
    uint64_t head[ARRAY_DISKS_MAX];      /* where its head is (disk byte offset) */
    struct array_stats st;
};

struct fc_serve; /* array_fc.c */
#define ARRAY_FC_STREAMS 16

struct fc_stream {
    uint32_t initiator;
    uint64_t next[2]; /* the next offset of its reads and writes */
    uint64_t used;    /* for replacing the least recently used */
};

struct array {
    engine_t *e;
    struct array_conf conf;
    struct ld ld[ARRAY_LD_MAX];
    uint64_t cache[2][ARRAY_CACHE_CHUNKS]; /* per controller: chunk + 1 held in each slot, 0 none */
    struct array_stats ctrl[2];
    struct pending *pending;
    /* The FC port */
    struct fabric *fab;
    int sw, vsan;
    uint8_t pwwn[8];
    uint32_t fcid;
    char ifname[32];
    struct fc_serve *serves;
    struct fc_stream streams[ARRAY_FC_STREAMS];
    uint64_t stream_clock;
};

void array_fc_free_serves(struct array *a);

#endif
