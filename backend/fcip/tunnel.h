/*
 * FCIP tunnels as engine objects: each end of each FCIP link (interface
 * fcipN of a switch) with its TCP connections over the IP data plane, the
 * FCIP encapsulation of FC frames into their byte streams, compression,
 * and the ISL it gives the fabric once up. No store, no session: the fcip
 * feature's reconcile hook feeds it a desired configuration per tunnel.
 *
 * Bringing a link up (docs/fcip-engine.md):
 *   admin up, profile address owned by an up port, peer known
 *   -> TCP: every end that is not passive opens the control connection,
 *      then the data one (tcp-connections 2); each end also accepts its
 *      peer's SYNs on the profile port. When both ends open at once, the
 *      lower IP address's connections win (the other end drops its own).
 *   -> FCIP link up: each end sends its link parameters (switch, trunk
 *      mode, allowed VSANs, port VSAN) as a class F frame on the control
 *      connection; the answer fixes the VSANs the ISL carries
 *   -> the ISL is given to the fabric (trunking, or up in the port VSAN).
 * A connection that closes (maximum retransmissions, keepalive, reset)
 * takes the link down with its reason; an active end tries again after
 * FCIP_RETRY_NS, a passive one waits for its peer.
 */
#ifndef MDSIM_FCIP_TUNNEL_H
#define MDSIM_FCIP_TUNNEL_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "tcp/tcp.h"
#include "fabric/fabric.h"
#include "fcip.h" /* enum fcip_compression, enum fcip_trunk_mode */
#include "tape.h"

struct ipnet;
struct fcip_engine;
struct fcip_tunnel;
struct fspf_link;

#define FCIP_RETRY_NS (2ULL * ENGINE_NS_PER_SEC) /* an active end's next attempt */
#define FCIP_EPHEMERAL_FIRST 65532u
/* Frames wait for TCP's send buffer as FC frames wait for buffer-to-buffer
 * credit: nothing is dropped, the sources' outstanding I/Os bound the wait.
 * This cap only stops a runaway source. */
#define FCIP_BACKLOG_MAX (256u << 20)
#define FCIP_IFINDEX(id) (0x0a000000u | (uint32_t)((id) - 1)) /* [G] as FSPF's LSRs print it */
#define FCIP_WA_MAX 1024 /* accelerated writes awaiting their target's XFER_RDY */


/* Desired state of one end, as the reconcile derives it from the store. */
struct fcip_tunnel_conf {
    int sw, id;
    bool admin_up;
    uint32_t local_ip;  /* the profile's address; 0 when it has none */
    uint16_t local_port;
    uint32_t peer_ip;   /* 0 without peer-info */
    uint16_t peer_port;
    bool passive;
    int nconn;          /* 1 or 2 */
    struct tcp_params tcp; /* mss is taken from the route MTU */
    bool pmtu;          /* `tcp pmtu-enable`: fragmentation needed lowers the MSS */
    enum fcip_compression comp;
    bool write_acc;
    bool tape_acc;        /* with write_acc */
    uint32_t tape_buf_kb; /* its flow-control buffer, 0: automatic */
    enum fcip_trunk_mode trunk;
    struct vsan_set allowed;
    int port_vsan;
    int e_d_tov_ms, r_a_tov_ms; /* the switch's fctimer values, carried by the ELP */
    int profile_id;     /* its use-profile: the FCIP entity a special frame may name */
    bool special_frame; /* the connections it opens start with a special frame ... */
    uint8_t sf_peer_wwn[8]; /* ... naming this switch */
    int sf_profile;     /* ... and this profile of it, 0 any */
    int channel;        /* its port-channel (pchan.h), 0: none */
    bool time_stamp;    /* frames whose stamp is off this switch's clock ... */
    uint32_t ts_diff_ms; /* ... by more than this are discarded (case P) */
    /* Clocks, as time ahead of lab time counted from CAPTURE_EPOCH_S:
     * the switch's, and the lab's (what a switch shows until its clock
     * is set). A set clock stamps its own; one never set stamps 0, so a
     * capture repeats byte for byte whether or not a script sets clocks
     * (docs/capture.md). */
    bool clock_set;
    int64_t clock_ns;     /* the switch's: the lab's until set */
    int64_t lab_clock_ns; /* the lab's */
};

enum fcip_state {
    FCIP_ADMIN_DOWN,
    FCIP_DOWN,      /* not connected: see the cause */
    FCIP_INIT,      /* TCP up, link parameters not exchanged yet */
    FCIP_ISOLATED,  /* connected, but no VSAN can cross: see the cause */
    FCIP_UP,        /* an E port in its port VSAN */
    FCIP_TRUNKING,  /* a TE port */
};

/* Why an end is not up (mds-cli-15-failures.md §15.1); the words and log
 * mnemonics are the fcip feature's (fcip_cause.c). */
enum fcip_cause {
    FCIP_CAUSE_NONE,
    FCIP_CAUSE_ADMIN,          /* the interface is shut */
    FCIP_CAUSE_NOT_CONNECTED,  /* never connected: no route, passive, no answer */
    FCIP_CAUSE_SRC_UNBOUND,    /* no port has the profile's address */
    FCIP_CAUSE_SRC_ADMIN_DOWN, /* the port that has it is shut */
    FCIP_CAUSE_SRC_LINK_DOWN,  /* ... has no link */
    FCIP_CAUSE_MAX_RETX,       /* TCP gave up retransmitting */
    FCIP_CAUSE_KEEPALIVE,      /* TCP keepalive probes unanswered */
    FCIP_CAUSE_PEER_RESET,     /* the peer reset the connection */
    FCIP_CAUSE_PEER_CLOSE,     /* the peer closed it (its end shut) */
    FCIP_CAUSE_INIT,           /* link parameters not exchanged yet */
    FCIP_CAUSE_PORT_VSAN,      /* non-trunking ends in different port VSANs */
    FCIP_CAUSE_NO_COMMON_VSAN, /* trunking, no VSAN allowed and present at both ends */
    FCIP_CAUSE_NOT_ALL_UP,     /* trunking, some allowed VSANs isolated */
    FCIP_CAUSE_DOMAIN_OVERLAP, /* non-trunking, the port VSAN's domains overlap */
    FCIP_CAUSE_ELP,            /* the ends' E_D_TOV or R_A_TOV differ (case L) */
    FCIP_CAUSE_ZONE_MERGE,     /* non-trunking, the port VSAN's active zonesets conflict (case K) */
    FCIP_CAUSE_COUNT
};

/* One end's state changing, as it happens (the fcip feature logs it); a
 * trunk that stays up is told too when its VSANs change (from == to). */
struct fcip_change {
    int sw, id;
    enum fcip_state from, to;
    enum fcip_cause from_cause, cause;
    int port_vsan;
    const struct vsan_set *up, *isolated; /* trunk VSANs now (valid during the call) */
    const struct vsan_set *overlap;       /* ... isolated for their domains' overlap */
    const struct vsan_set *zone_conflict; /* ... isolated for a zone merge failure */
    const struct vsan_set *was_up;        /* ... up before the link last went down or changed */
    const struct vsan_set *was_isolated;  /* ... isolated before a trunk's change */
};
typedef void (*fcip_change_fn)(void *ctx, const struct fcip_change *c);

struct fcip_conn_info {
    bool present;
    uint32_t local_ip, remote_ip;
    uint16_t local_port, remote_port;
    struct tcp_stats tcp;
};

struct fcip_status {
    enum fcip_state state;
    enum fcip_cause cause;    /* why it is not up, or why not all VSANs are */
    int peer_sw;              /* -1 until the link parameters arrived */
    struct vsan_set up, isolated; /* trunk VSANs up / allowed but not up */
    int nconn_up;
    struct fcip_conn_info conn[2]; /* control, data */
    uint64_t attempts, closes;    /* active connection attempts, connections closed */
    uint64_t last_change_ns;
    uint64_t frames_out, bytes_out, frames_in, bytes_in; /* FC frames and their bytes */
    uint64_t in_bps, in_fps, out_bps, out_fps;    /* their `5 minutes` rates, now */
    uint64_t cf_frames_out, cf_bytes_out, cf_frames_in, cf_bytes_in; /* class F among them */
    uint64_t dropped;             /* frames given to a link that was down, or over the backlog */
    uint64_t ts_errors;           /* frames in discarded for their time stamp (case P) */
    uint64_t comp_in, comp_out;   /* bytes before and after the compressor (data frames) */
    uint64_t decomp_in, decomp_out;
    bool write_acc_active;        /* configured at both ends */
    bool tape_acc_active;         /* the same */
    uint64_t tape_buf_bytes;      /* its flow-control buffer now (the automatic one follows the link) */
    struct fcip_tape_stats tape;
};

struct fcip_engine *fcip_engine_new(engine_t *e, struct ipnet *net, struct fabric *fab);
void fcip_engine_free(struct fcip_engine *fe);
/* Who hears of each state change; called from engine events and from
 * fcip_tunnel_apply. Only reads: the simulation runs the same without. */
void fcip_engine_on_change(struct fcip_engine *fe, fcip_change_fn fn, void *ctx);

/* Reconcile: mark, apply each tunnel's desired state, sweep. A tunnel
 * whose endpoints did not change keeps its connections and counters;
 * TCP profile, compression and trunk changes apply live. */
void fcip_engine_begin(struct fcip_engine *fe);
void fcip_tunnel_apply(struct fcip_engine *fe, const struct fcip_tunnel_conf *c);
void fcip_engine_end(struct fcip_engine *fe);

/* NULL when the switch has no such tunnel. */
struct fcip_tunnel *fcip_tunnel_find(struct fcip_engine *fe, int sw, int id);
void fcip_tunnel_status(struct fcip_tunnel *t, struct fcip_status *st);
/* `clear counters`: frames, bytes, rates, drops, compression, attempts. */
void fcip_tunnel_clear_counters(struct fcip_tunnel *t);
const char *fcip_state_text(enum fcip_state s);
/* `show fcip tape-session tunnel N host-end|targ-end`: its tape sessions
 * while tape acceleration runs on it. */
void fcip_tunnel_tape_sessions(const struct fcip_tunnel *t, bool host_end,
                               void (*fn)(void *ctx, const struct fcip_tape_session *s), void *ctx);
/* The port-channels of its links (pchan.h). */
struct pchan_set *fcip_engine_pchans(struct fcip_engine *fe);
/* Its FSPF hellos and neighbors (fspf.h); never NULL. */
const struct fspf_link *fcip_tunnel_fspf(const struct fcip_tunnel *t);

#endif
