/*
 * FSPF hellos on an up ISL (FC-SW-4 §8.6): each end sends an HLO per VSAN
 * the link carries every hello interval, as class F, and keeps what it
 * hears from its neighbor. Their point here is the one the reference
 * makes (mds-cli-15 case A, §15.4): they keep TCP busy on an idle link,
 * so a dead path is found by retransmissions (~20 s + 6.2 s), not by the
 * keepalive (68 s). Routing itself stays the fabric's shortest path.
 *
 * The intervals are the interface's per VSAN (`fspf hello-interval`,
 * `fspf dead-interval`, read from the fabric: fabric_if_fspf_get). A hello
 * whose intervals differ from the receiver's is refused (counted as an
 * error): no adjacency, and the fabric leaves the link out of the VSAN's
 * routing (fabric_fspf_refuse) until one is accepted (docs/fspf.md).
 */
#ifndef MDSIM_FCIP_FSPF_H
#define MDSIM_FCIP_FSPF_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "fabric/fabric.h"

#define FSPF_HELLO_NS (20ULL * ENGINE_NS_PER_SEC) /* hello interval, FC-SW default */
#define FSPF_DEAD_NS (80ULL * ENGINE_NS_PER_SEC)  /* dead interval */
/* An HLO's payload: the FSPF header (command, version, AR number,
 * authentication type, originating domain, 8 bytes of authentication:
 * 20) and the hello (options, hello and dead intervals, recipient
 * domain, originating port index: 20). */
#define FSPF_HLO_PAYLOAD 40u
#define FSPF_CMD_HLO 0x14 /* SW_ILS command code */

/* What an HLO carries (an fc_frame's ils; `cmd` first, as every ILS). */
struct fspf_hlo {
    uint8_t cmd; /* FSPF_CMD_HLO */
    int origin_domain, recipient_domain; /* recipient: 0 until a hello was heard */
    uint32_t hello_s, dead_s;
};

enum fspf_nbr_state { FSPF_NBR_DOWN, FSPF_NBR_INIT, FSPF_NBR_FULL };

/* One VSAN on the link, as `show fspf interface` reads it. */
struct fspf_nbr {
    int vsan;
    int nbr_domain;          /* 0: none heard */
    uint64_t last_rx_ns;
    bool two_way;            /* the neighbor's last hello named this end */
    uint64_t hellos_in, hellos_out;
    uint64_t errors;         /* hellos refused: their intervals differ */
    bool refused;            /* ... the last one was */
    uint32_t hello_s, dead_s; /* the intervals in force */
    uint64_t next_hello_ns;
};

/* `send` hands a frame to the link's control connection. */
typedef void (*fspf_send_fn)(void *ctx, struct fc_frame *f);
struct fspf_link;

struct fspf_link *fspf_link_new(engine_t *e, struct fabric *fab, int sw, const char *ifname, fspf_send_fn send,
                                void *ctx);
void fspf_link_free(struct fspf_link *l);
/* The link carries these VSANs now: hellos start one interval after the
 * link came up and go on in that phase; a VSAN that left is forgotten. */
void fspf_link_up(struct fspf_link *l, const struct vsan_set *vsans);
void fspf_link_down(struct fspf_link *l);
/* A class F frame from the peer: true when it was a hello (consumed). */
bool fspf_receive(struct fspf_link *l, struct fc_frame *f);
/* Its VSANs, for a show: up to `max`, and the state of each at `now`. */
int fspf_link_nbrs(const struct fspf_link *l, struct fspf_nbr *out, int max);
enum fspf_nbr_state fspf_nbr_state(const struct fspf_nbr *n, uint64_t now);

#endif
