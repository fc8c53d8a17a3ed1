/* The fabric's insides, shared by its two files: fabric.c (ISLs, logins,
 * forwarding, fcping) and domain.c (the domains and their overlaps). */
#ifndef MDSIM_FABRIC_INT_H
#define MDSIM_FABRIC_INT_H
#include "fabric.h"
#include "engine/pool.h"

struct isl {
    int id, sw, peer; /* id 0: the slot is free */
    struct vsan_set vsans;
    fabric_send_fn send;
    void *ctx;
    struct fabric_isl_info info; /* cost FABRIC_COST_REF_MBPS / 1000 until described */
};

/* FSPF's configuration of an interface in a VSAN (spf.c); `refused`:
 * its hellos are refused there (fabric_fspf_refuse), so are not stale. */
struct cost_override {
    int sw, vsan;
    char ifname[16];
    struct fabric_if_fspf conf;
    bool stale; /* cleared, not set again yet */
    bool refused;
};

struct nport {
    int sw, vsan;
    uint32_t fcid;
    uint8_t pwwn[8];
    fabric_rx_fn rx;
    void *ctx;
    uint8_t nwwn[8]; /* the rest: what the name server shows (fabric_port_describe) */
    char ifname[32];
    const char *fc4;
};

/* A switch's domains, per VSAN (index = VSAN id). */
struct sw_domains {
    uint8_t run[FABRIC_VSAN_MAX + 1];  /* running; 0: the VSAN is not on the switch */
    uint8_t conf[FABRIC_VSAN_MAX + 1]; /* configured; 0: none (the default) */
    struct vsan_set conf_static;
    uint64_t boot_ns; /* the boot its domains were taken at */
};

struct fabric {
    engine_t *e;
    int nsw;
    struct vsan_set *vsans;  /* per switch */
    struct vsan_set *permit; /* per switch: VSANs whose default zone permits */
    struct zoneset_db **zoning; /* per switch and VSAN: its active zoneset (zoning.c) */
    int *next_port;          /* per switch: area/port of the next login */
    struct sw_domains *dom;  /* per switch */
    fabric_rebuilt_fn rebuilt;
    void *rebuilt_ctx;
    struct isl *isls;
    int nisl, last_isl;
    struct nport *ports;
    int nports;
    struct pool frames;
    struct fabric_echo *echoes;
    int last_echo;
    struct fabric_stats st;
    struct cost_override *costs; /* spf.c */
    int ncosts;
    struct fabric_lsr_stamp *lsr; /* per switch, spf.c */
    /* The last shortest paths each switch forwarded a frame on, kept until
     * anything they depend on changes (fabric_routes_changed): a frame
     * does not run Dijkstra. */
    uint64_t route_gen;
    uint64_t *memo_gen; /* per switch: route_gen its paths were computed at, 0 none */
    int *memo_vsan;     /* per switch */
    int *memo_hop;      /* per switch, nsw each: fabric_paths' first_isl */
};

/* Shortest paths (spf.c: Dijkstra on the ISLs' costs) over the ISLs that
 * carry the VSAN between switches that have it: the first hop from `from` toward each switch (-1: unreachable,
 * from itself: -2), leaving out every ISL between switches a and b (-1:
 * none left out). Recomputed per call; fabric_send uses fabric_routes. */
void fabric_paths(const struct fabric *fab, int from, int vsan, int *first_isl, int a, int b);

/* Paths may have changed: an ISL, its VSANs or cost, a switch's VSANs.
 * Every function that changes what spf() reads calls it. */
static inline void fabric_routes_changed(struct fabric *fab) { fab->route_gen++; }

/* fabric_paths from sw in the VSAN, remembered until the routes change. */
const int *fabric_routes(struct fabric *fab, int sw, int vsan);

/* spf.c: sw's link-state record changed now. */
void fabric_lsr_touch(struct fabric *fab, int sw);

/* domain.c: a new switch's domains, and the domain a VSAN new on the
 * switch takes. */
void fabric_domains_init(struct fabric *fab);
void fabric_domain_take(struct fabric *fab, int sw, int vsan);

#endif
