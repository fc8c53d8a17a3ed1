/* netsim pipe: one direction of the IP Network Simulator (engine-model.md
 * section 4.2), dummynet style:
 *
 *   send -> injected drop (nth / random, with burst)
 *        -> byte-limited tail-drop FIFO (the packet in service counts)
 *        -> serializer at `rate_bps` (no token bucket, no burst allowance)
 *        -> constant delay line (FIFO: changing the delay never reorders)
 *        -> optional reorder (hold a selected packet back `distance` packets,
 *           or at most the time `distance` 1518-byte frames take at the
 *           configured rate, so sparse traffic is never stalled)
 *        -> deliver callback
 *
 * Packet length. `netsim_pkt.len` is the number of bytes the serializer
 * charges and the byte counters count. mdsim passes the Ethernet (L2) frame
 * length: destination MAC through FCS, i.e. IP total length +
 * NETSIM_L2_OVERHEAD (14-byte header + 4-byte FCS), without preamble and
 * inter-frame gap (engine-model.md section 3). A full-size MTU-1500 frame is
 * therefore 1518 bytes. The pipe itself treats len as opaque bytes.
 *
 * Packets are opaque: the pipe copies the small netsim_pkt struct, never
 * touches `user`, and hands it back exactly once, to deliver() or drop()
 * (or to drop() with NETSIM_DROP_FLUSH when the pipe is freed).
 *
 * Time and rounding: all integer nanoseconds. Serialization time is
 * len * 8 * 1e9 / rate_bps, floored, with the remainder carried to the next
 * packet so a long run has no drift (the carry restarts on a rate change).
 */
#ifndef MDSIM_NETSIM_PIPE_H
#define MDSIM_NETSIM_PIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

#define NETSIM_L2_OVERHEAD 18u
#define NETSIM_LINE_RATE_BPS 1000000000ULL       /* default rate: 1 GbE */
/* qsize when none is configured (the CLI maximum, 1000 KB); the switch's
 * figure is not public and an unbounded queue would let memory grow. */
#define NETSIM_DEFAULT_QSIZE_BYTES 1000000ULL
#define NETSIM_BURST_MAX 100u
#define NETSIM_RANDOM_SCALE 10000u               /* drop/reorder p is per 10,000 */
#define NETSIM_REORDER_DISTANCE_MAX 10u
/* "clocks" of Max_qdelay and Mintxdel: a 750 MHz counter. It makes both
 * published Max_qdelay samples exact (see netsim_config_max_qdelay_clocks). */
#define NETSIM_CLOCK_HZ 750000000ULL

#define NETSIM_PKT_MAX_LEN 1048576u              /* sanity bound on len */

typedef struct netsim_pkt {
    uint32_t len;  /* L2 frame bytes, 1..NETSIM_PKT_MAX_LEN (see above) */
    void *user;    /* owner's pointer, opaque to the pipe */
} netsim_pkt;

typedef enum netsim_drop_cause {
    NETSIM_DROP_NTH = 0,     /* injected: drop nth (and its burst) */
    NETSIM_DROP_RANDOM,      /* injected: drop random (and its burst) */
    NETSIM_DROP_QFULL,       /* tail drop: would exceed qsize */
    NETSIM_DROP_FLUSH,       /* pipe freed with the packet inside; not counted */
} netsim_drop_cause;

typedef enum netsim_reorder_mode {
    NETSIM_REORDER_NTH = 0,  /* every value-th packet leaving the delay line */
    NETSIM_REORDER_RANDOM,   /* each packet with probability value/10000 */
} netsim_reorder_mode;

/* Desired configuration of one direction. A `*_set` flag false means the
 * impairment is not configured (the default applies, and a renderer prints
 * nothing for it). Every field is independent of the others. */
typedef struct netsim_pipe_config {
    bool delay_set;
    uint64_t delay_ns;              /* one-way constant delay */
    bool rate_set;
    uint64_t rate_bps;              /* bits/s, decimal; default line rate */
    bool qsize_set;
    uint64_t qsize_bytes;           /* CLI KB x 1000 */
    bool drop_nth_set;
    uint32_t drop_nth;              /* >= 1: every nth arrival starts a burst */
    uint32_t drop_nth_burst;        /* 1..100 packets dropped per event */
    bool drop_random_set;
    uint32_t drop_random;           /* 0..10000: probability per 10,000 */
    uint32_t drop_random_burst;     /* 1..100 */
    bool reorder_set;
    netsim_reorder_mode reorder_mode;
    uint32_t reorder_value;         /* nth: >= 1; random: 0..10000 */
    uint32_t reorder_distance;      /* 1..10 later packets overtake it */
} netsim_pipe_config;

/* Counters, as `show ips stats netsim` would print them. The switch's own
 * definitions are not public; these are mdsim's. Packet counts unless a
 * unit is named. All "since clear" means since netsim_pipe_new or the last
 * netsim_pipe_clear_stats. */
typedef struct netsim_pipe_stats {
    uint64_t arrived_pkts, arrived_bytes;     /* offered to netsim_pipe_send */
    uint64_t delivered_pkts, delivered_bytes; /* handed to deliver() */
    uint64_t drop_nth, drop_random, drop_qfull; /* drops per cause */
    uint64_t dropped_tot;      /* Dropped (tot): every drop = nth + random + qfull */
    uint64_t dropped_netsim;   /* Dropped (netsim): injected drops = nth + random */
    uint64_t reordered;        /* Reordered (netsim): held packets overtaken by >= 1 later packet */
    uint64_t max_qlen_pkts;    /* Max Qlen(pkt): high-water mark of the FIFO incl. the packet in service */
    uint64_t qlen_pkts;        /* Qlen (pkt): FIFO length now, incl. the packet in service */
    uint64_t max_qlen_bytes;   /* Max Qlen (byte): high-water mark of FIFO bytes; <= effective qsize */
    uint64_t qlen_bytes;       /* Qlen (byte): FIFO bytes now */
    uint64_t mintxdel_poll;    /* Mintxdel(poll): shortest gap between two serialization starts, clocks; 0 if < 2 sent */
    uint64_t mintxdel_ethtx;   /* Mintxdel(ethtx): shortest serialization time of one packet, clocks; 0 if none */
    uint64_t empty;            /* empty: times the serializer finished a packet and found the FIFO empty (went idle) */
    uint64_t txdel;            /* txdel: accepted packets that found the serializer busy and waited in the FIFO */
    uint64_t late;             /* late: packets whose FIFO wait exceeded half of the max queue delay (qsize*8/rate) */
    uint64_t avg_speed_kbps;   /* Average speed: delivered bytes*8 / time since clear, kbit/s, floored */
    uint64_t inflight_pkts;    /* in the delay line or held by reorder (serialized, not yet delivered) */
    uint64_t inflight_bytes;
    uint64_t carried_pkts;     /* inside the pipe (FIFO + in flight) at the last clear, so that */
    uint64_t carried_bytes;    /* carried + arrived = delivered + dropped_tot + qlen + inflight */
    uint64_t since_ns;         /* engine time of the last clear */
} netsim_pipe_stats;

typedef struct netsim_pipe_callbacks {
    void (*deliver)(void *ctx, netsim_pkt pkt);
    /* May be NULL: dropped packets are then only counted. */
    void (*drop)(void *ctx, netsim_pkt pkt, netsim_drop_cause cause);
    void *ctx;
} netsim_pipe_callbacks;

typedef struct netsim_pipe netsim_pipe;

/* A pipe with nothing configured. `name` seeds its random stream
 * (engine_rng_stream), e.g. "netsim:MDS1:GigabitEthernet2/3"; the name is
 * copied. NULL on allocation failure. */
netsim_pipe *netsim_pipe_new(engine_t *e, const char *name, const netsim_pipe_callbacks *cb);

/* Cancels the pipe's timers and hands every packet still inside to drop()
 * with NETSIM_DROP_FLUSH. */
void netsim_pipe_free(netsim_pipe *p);

/* All impairments unset. */
void netsim_pipe_config_init(netsim_pipe_config *cfg);

/* 0 if cfg is usable, else -1 (rate 0, nth 0, burst outside 1..100,
 * probability > 10000, distance outside 1..10). */
int netsim_pipe_config_check(const netsim_pipe_config *cfg);

/* Reconcile the pipe to `cfg` (desired state). Packets already queued,
 * in service or in flight stay and keep their already computed times; the
 * new values apply to what comes next. Changing drop nth restarts its
 * packet count; removing a drop cause ends a burst of that cause. Returns
 * -1 and changes nothing if netsim_pipe_config_check fails. */
int netsim_pipe_configure(netsim_pipe *p, const netsim_pipe_config *cfg);
const netsim_pipe_config *netsim_pipe_config_get(const netsim_pipe *p);

/* Values in force (defaults when not configured). */
uint64_t netsim_config_rate_bps(const netsim_pipe_config *cfg);
uint64_t netsim_config_qsize_bytes(const netsim_pipe_config *cfg);

/* Max_qdelay: the time to drain a full queue, in 750 MHz clocks:
 * qsize_bytes * 8 * 750e6 / rate_bps, floored. Matches both published
 * samples: 100 000 B at 1 Gb/s -> 600 000; 250 000 B at 10 Mb/s ->
 * 150 000 000. The delay does not enter it. */
uint64_t netsim_config_max_qdelay_clocks(const netsim_pipe_config *cfg);

/* Offer a packet at engine time now. Returns true if accepted, false if
 * dropped (drop() has then already been called). A len of 0 or above
 * NETSIM_PKT_MAX_LEN is dropped as NETSIM_DROP_QFULL. Safe to call from
 * inside deliver() or drop(); netsim_pipe_free is not. */
bool netsim_pipe_send(netsim_pipe *p, netsim_pkt pkt);

void netsim_pipe_stats_get(const netsim_pipe *p, netsim_pipe_stats *out);
/* Zero the counters and restart the "since" time; queue contents stay and
 * the high-water marks restart from the current queue length. */
void netsim_pipe_clear_stats(netsim_pipe *p);

#endif
