/*
 * Port-channels of FCIP links as engine objects (docs/port-channel.md):
 * one logical ISL `port-channelN` made of the member links between the
 * same two switches. The fabric sees one ISL (one FSPF link, the cost of
 * the members' summed bandwidth); each frame goes on one member, chosen
 * per exchange (src-dst-ox-id, the default) or per source/destination
 * pair (src-dst-id), per VSAN as configured. The choice is a rendezvous
 * hash over the members up, symmetric in source and destination and
 * named by each member link's pair of addresses, so both switches put
 * an exchange on the same link both ways and a member that goes down
 * moves only its own exchanges. The last member down takes the ISL
 * down. No store, no session: the tunnels call in as their links come
 * and go.
 */
#ifndef MDSIM_FCIP_PCHAN_H
#define MDSIM_FCIP_PCHAN_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "fabric/fabric.h"

#define PCHAN_MAX_MEMBERS 16 /* per channel [G] */
#define PCHAN_IFINDEX(id) (0x04000000u | (uint32_t)((id) - 1)) /* [G] as FSPF's LSRs print it */

struct pchan_set;

/* A member link as the channel sees it. */
struct pchan_member {
    int id;                    /* its fcip interface */
    uint32_t local_ip, peer_ip; /* the pair names the link at both ends */
    uint64_t bw_bps;           /* its profile's maximum bandwidth */
    bool trunking;             /* a TE port, else E */
};

/* What happens to a channel, as it happens (the feature logs it). */
enum pchan_event { PCHAN_MEMBER_UP, PCHAN_MEMBER_DOWN, PCHAN_FOP_CHANGED, PCHAN_UP, PCHAN_DOWN };
struct pchan_change {
    int sw, channel;
    enum pchan_event ev;
    int member;  /* the fcip interface (MEMBER_*) */
    int fop_from, fop_to; /* first operational ports (FOP_CHANGED), 0: none */
    bool trunking;        /* PCHAN_UP: in mode TE */
};
typedef void (*pchan_change_fn)(void *ctx, const struct pchan_change *c);

struct pchan_set *pchan_set_new(engine_t *e, struct fabric *fab);
void pchan_set_free(struct pchan_set *ps);
void pchan_on_change(struct pchan_set *ps, pchan_change_fn fn, void *ctx);
/* The VSANs of sw balanced per source/destination pair (the rest: per
 * exchange). */
void pchan_set_src_dst(struct pchan_set *ps, int sw, const struct vsan_set *src_dst_id);

/* A member's link came up carrying `vsans` to peer_sw: its frames go
 * through send(link, f). Returns the channel's ISL id. */
int pchan_member_up(struct pchan_set *ps, int sw, int channel, int peer_sw, const struct vsan_set *vsans,
                    const struct pchan_member *m, fabric_send_fn send, void *link);
void pchan_member_down(struct pchan_set *ps, int sw, int channel, void *link);

/* A channel's state for the shows. */
struct pchan_status {
    bool up, trunking;
    int nup;          /* members up */
    int fop;          /* first operational port, 0: none */
    int up_ids[PCHAN_MAX_MEMBERS]; /* members up, in the order they came up */
    uint64_t frames[PCHAN_MAX_MEMBERS]; /* frames each was given */
    struct vsan_set vsans; /* the ISL carries */
    uint64_t bw_bps;
    uint64_t last_change_ns;
};
void pchan_status_get(const struct pchan_set *ps, int sw, int channel, struct pchan_status *st);

/* The member a frame of this exchange would take among links named by
 * their address pairs (the hash alone, for tests): its index. */
int pchan_pick(const uint64_t *pairs, int n, const struct fc_frame *f, bool src_dst_id);

#endif
