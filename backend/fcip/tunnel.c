#include "tunnel.h"
#include "compress.h"
#include "fspf.h"
#include "fabric/zoning.h"
#include "tape.h"
#include "pchan.h"
#include "fcip_wire.h"
#include "engine/ewma.h"
#include <stddef.h>
#include "ipnet/ipnet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ILS_PAYLOAD 120u /* an ELP's size: what the link parameters cost on the wire */
#define ILS_CMD_ELP 0x10 /* SW_ILS command codes tell an ELP from an FSPF hello */

/* A TCP segment as it rides in an IP datagram. */
struct tcp_dgram {
    uint16_t sport, dport;
    struct tcp_seg seg;
};
_Static_assert(sizeof(struct tcp_dgram) <= IPNET_PAYLOAD_MAX, "a TCP segment fits an IP payload");

/* What each end tells the other once the control connection is up. */
struct link_params {
    uint8_t cmd; /* ILS_CMD_ELP */
    int sw;
    enum fcip_trunk_mode trunk;
    struct vsan_set allowed, vsans;
    int port_vsan;
    bool write_acc, tape_acc, connector;
    int nconn;
    int e_d_tov_ms, r_a_tov_ms;
    bool time_stamp; /* the sender checks time stamps: a change of clocks asks again */
    bool ask;        /* answer with yours (an exchange again after a change of clocks) */
    bool reject;     /* yours were discarded (case P): the link isolates at both ends */
};

/* One TCP connection of a tunnel. `t` is NULL once buried: its tcp_conn
 * is freed from an engine event (never inside its own callbacks). */
struct endpoint {
    struct fcip_engine *fe;
    struct fcip_tunnel *t; /* NULL once detached (closing, or buried) */
    int slot; /* 0 control, 1 data */
    bool active, established;
    bool heard;   /* its first record arrived: a special frame, or not */
    bool sf_wait; /* it sent a special frame: no FC frame until the echo */
    bool burying; /* its abort is under way: the RST still goes out */
    tcp_conn *c;
    int sw;                 /* its own addressing: a closing endpoint */
    uint32_t lip, pip;      /* outlives its tunnel's configuration */
    uint16_t lport, pport;
    struct fc_frame *head, *tail; /* waiting for the compressor or TCP's send buffer */
    uint64_t queued;
    engine_timer_id drain;
    uint64_t drain_at;
    struct endpoint *next;
};

struct fcip_tunnel {
    struct fcip_engine *fe;
    struct fcip_tunnel_conf conf;
    bool seen;
    enum fcip_state state;
    enum fcip_cause cause;
    struct endpoint *ep[2];
    bool connector; /* this end opens the connections, this time */
    bool sent_params, got_params;
    bool elp_lost; /* a link parameters frame was discarded here or there (case P) */
    struct link_params peer;
    struct vsan_set sent_vsans;
    struct vsan_set up;
    struct vsan_set overlap; /* isolated: their domains overlap across the link */
    struct vsan_set zone_conflict; /* isolated: their active zonesets did not merge */
    struct vsan_set was_up; /* the VSANs the ISL carried when it last went down */
    struct vsan_set was_isolated; /* before the trunk last changed */
    int isl;
    struct fspf_link *fspf; /* hellos while the link is up */
    engine_timer_id retry;
    uint64_t comp_free_at;
    uint16_t next_port;
    /* Write acceleration, at the target's end: writes whose data is on its
     * way already, so the target's XFER_RDY goes no further. */
    struct {
        uint32_t initiator;
        uint16_t ox_id;
    } wa[FCIP_WA_MAX];
    int nwa;
    struct fcip_tape *tape; /* while tape acceleration runs on the link */
    struct fcip_status st; /* counters and last change */
    struct ewma_rate in_rate, out_rate; /* FC frames, `5 minutes` */
};

struct fcip_engine {
    engine_t *e;
    struct ipnet *net;
    struct fabric *fab;
    struct fcip_tunnel **t;
    int n;
    struct endpoint *live, *buried;
    engine_timer_id reap;
    bool closing; /* the lab closes: the data plane is gone, nothing is sent */
    fcip_change_fn on_change;
    void *change_ctx;
    struct pchan_set *pc; /* the port-channels its links are members of */
};

static const char *const state_names[] = {
    [FCIP_ADMIN_DOWN] = "down", [FCIP_DOWN] = "down",         [FCIP_INIT] = "down",
    [FCIP_ISOLATED] = "down",   [FCIP_UP] = "up",             [FCIP_TRUNKING] = "trunking",
};
const char *fcip_state_text(enum fcip_state s) { return state_names[s]; }

static uint64_t now(const struct fcip_engine *fe) { return engine_now(fe->e); }

static void tell(struct fcip_tunnel *t, enum fcip_state s, enum fcip_cause cause)
{
    struct fcip_change ch = {t->conf.sw, t->conf.id,       t->state, s,          t->cause,
                             cause,      t->conf.port_vsan, &t->up,   &t->st.isolated, &t->overlap,
                             &t->zone_conflict, &t->was_up, &t->was_isolated};
    if (t->state != s)
        t->st.last_change_ns = now(t->fe);
    t->state = s;
    t->cause = cause;
    if (t->fe->on_change)
        t->fe->on_change(t->fe->change_ctx, &ch);
}

/* Every change of state or cause is told, as it happens: true when told. */
static bool set_state(struct fcip_tunnel *t, enum fcip_state s, enum fcip_cause cause)
{
    if (t->state == s && t->cause == cause)
        return false;
    tell(t, s, cause);
    return true;
}

void fcip_engine_on_change(struct fcip_engine *fe, fcip_change_fn fn, void *ctx)
{
    fe->on_change = fn;
    fe->change_ctx = ctx;
}

/* Endpoints */

static void ep_free_queue(struct endpoint *ep)
{
    while (ep->head) {
        struct fc_frame *f = ep->head;
        ep->head = f->next;
        fabric_frame_free(ep->fe->fab, f);
    }
    ep->tail = NULL;
    ep->queued = 0;
}

static void reap(engine_t *e, void *arg)
{
    (void)e;
    struct fcip_engine *fe = arg;
    fe->reap = 0;
    while (fe->buried) {
        struct endpoint *ep = fe->buried;
        fe->buried = ep->next;
        tcp_conn_free(ep->c); /* hands back undelivered frames (drop_rec) */
        ep_free_queue(ep);
        free(ep);
    }
}

static void unlink_live(struct fcip_engine *fe, struct endpoint *ep)
{
    for (struct endpoint **pp = &fe->live; *pp; pp = &(*pp)->next)
        if (*pp == ep) {
            *pp = ep->next;
            return;
        }
}

/* Takes the endpoint from its tunnel: its frames waiting go. */
static void detach(struct endpoint *ep)
{
    struct fcip_tunnel *t = ep->t;
    if (ep->established)
        t->st.closes++;
    t->ep[ep->slot] = NULL;
    ep->t = NULL;
    if (ep->drain)
        engine_cancel(ep->fe->e, ep->drain);
    ep->drain = 0;
    ep_free_queue(ep);
}

/* Aborts a detached endpoint's connection (an RST when synchronized,
 * which the peer hears when the path carries it) and takes it off the
 * demux; the next reap frees it (never inside its own callbacks). */
static void grave(struct endpoint *ep)
{
    struct fcip_engine *fe = ep->fe;
    if (ep->burying)
        return;
    ep->burying = true;
    if (tcp_state_get(ep->c) != TCP_CLOSED)
        tcp_abort(ep->c);
    unlink_live(fe, ep);
    ep->next = fe->buried;
    fe->buried = ep;
    if (!fe->reap)
        fe->reap = engine_after(fe->e, 0, reap, fe);
}

static void bury(struct endpoint *ep)
{
    if (!ep->t || ep->burying)
        return;
    detach(ep);
    grave(ep);
}

/* The interface shut: its connections close with FINs, as an MDS shuts
 * an E port gracefully, so the peer reads `closed by peer`. The endpoint
 * stays on the demux, detached, until its connection is closed or gives
 * up (tcp_state_cb then buries it). */
static void close_gently(struct endpoint *ep)
{
    if (!ep->t || ep->burying)
        return;
    bool open = ep->established && tcp_state_get(ep->c) == TCP_ESTABLISHED;
    detach(ep);
    if (open)
        tcp_close(ep->c);
    else
        grave(ep);
}

static void tunnel_fail(struct fcip_tunnel *t, enum fcip_cause why);
static void tunnel_try(struct fcip_tunnel *t);
static void link_check(struct fcip_tunnel *t);
static void drain(struct endpoint *ep);

static void tcp_out(void *ctx, const struct tcp_seg *seg, uint32_t ip_len)
{
    struct endpoint *ep = ctx;
    if (ep->fe->closing) { /* an RST or a closing FIN still goes out */
        tcp_seg_drop(seg);
        return;
    }
    /* header fields one by one: a zeroed 128-byte payload would be
     * written twice for every segment */
    struct ipnet_pkt pkt;
    pkt.src = ep->lip;
    pkt.dst = ep->pip;
    pkt.proto = IPNET_TCP;
    pkt.df = true;
    pkt.ttl = 0; /* the default: routers count it down (docs/routing.md) */
    pkt.ip_len = ip_len;
    const uint16_t ports[2] = {ep->lport, ep->pport};
    memcpy(pkt.payload + offsetof(struct tcp_dgram, sport), ports, sizeof ports);
    memcpy(pkt.payload + offsetof(struct tcp_dgram, seg), seg, sizeof *seg);
    if (!ipnet_send(ep->fe->net, ep->sw, &pkt))
        tcp_seg_drop(seg);
}

static void tunnel_receive(struct fcip_tunnel *t, struct fc_frame *f);
static bool sf_heard(struct endpoint *ep, struct fc_frame *f);

static void tcp_deliver(void *ctx, void *rec, uint32_t len)
{
    struct endpoint *ep = ctx;
    (void)len;
    if (!ep->t) {
        fabric_frame_free(ep->fe->fab, rec);
        return;
    }
    bool first = !ep->heard;
    ep->heard = true;
    if ((first || ep->sf_wait) && sf_heard(ep, rec))
        return;
    tunnel_receive(ep->t, rec);
}

static void tcp_writable(void *ctx)
{
    struct endpoint *ep = ctx;
    if (ep->t)
        drain(ep);
}

/* A connection that never came up leaves the link not connected. */
static enum fcip_cause close_cause(enum tcp_reason why)
{
    static const enum fcip_cause causes[] = {
        [TCP_REASON_MAX_RETX] = FCIP_CAUSE_MAX_RETX,     [TCP_REASON_KEEPALIVE] = FCIP_CAUSE_KEEPALIVE,
        [TCP_REASON_PEER_RESET] = FCIP_CAUSE_PEER_RESET, [TCP_REASON_PEER_CLOSE] = FCIP_CAUSE_PEER_CLOSE,
    };
    enum fcip_cause c = (size_t)why < sizeof causes / sizeof causes[0] ? causes[why] : FCIP_CAUSE_NONE;
    return c != FCIP_CAUSE_NONE ? c : FCIP_CAUSE_NOT_CONNECTED;
}

/* The special frame (RFC 3821 §8.1): each connection the end opens
 * starts with it when configured; the acceptor echoes it when it names
 * this switch (and profile), else closes the connection, and the
 * initiator reads `closed by peer` (mds-cli-15 case Q). Not an FC frame:
 * no frame counter sees it, but its bytes ride the stream. */
static void own_wwn(const struct fcip_tunnel *t, uint8_t out[8])
{
    char text[24];
    fabric_switch_wwn(t->fe->fab, t->conf.sw, text, sizeof text);
    if (!fcip_wwn_parse(text, out))
        memset(out, 0, 8);
}

/* The sender's clock into the frame's FCIP time stamp (tunnel.h). */
static void stamp_clock(const struct fcip_tunnel *t, struct fc_frame *f)
{
    f->carrier_clock_set = t->conf.clock_set;
    f->carrier_clock_ns = t->conf.clock_set ? t->conf.clock_ns : 0;
}

static void sf_send(struct endpoint *ep, const struct fcip_sf *echo)
{
    struct fcip_tunnel *t = ep->t;
    struct fcip_sf *sf = malloc(sizeof *sf);
    if (!sf)
        abort();
    if (echo) {
        *sf = *echo;
    } else {
        *sf = (struct fcip_sf){.cmd = FCIP_SF_CMD,
                               .entity = (uint64_t)t->conf.profile_id << 32 | (uint32_t)t->conf.id,
                               .nonce = (uint64_t)t->conf.sw << 48 | (uint64_t)t->conf.id << 40 | t->st.attempts << 1 |
                                        (uint64_t)ep->slot,
                               .usage_flags = ep->slot == 0 ? 0x80 : 0x20, /* class F; class 3 [G] */
                               .usage_code = (uint16_t)t->conf.sf_profile,
                               .ka_tov_ms = (uint32_t)(t->conf.tcp.keepalive_ns / ENGINE_NS_PER_MS)};
        own_wwn(t, sf->src_wwn);
        memcpy(sf->dst_wwn, t->conf.sf_peer_wwn, 8);
        ep->sf_wait = true;
    }
    struct fc_frame *f = fabric_frame_new(t->fe->fab);
    f->kind = FC_ILS;
    f->class_f = true;
    f->ils = sf;
    f->carrier_at = now(t->fe);
    stamp_clock(t, f);
    f->carrier_len = FCIP_SF_BYTES;
    if (!tcp_send(ep->c, FCIP_SF_BYTES, f)) /* a new connection's buffer is empty: not reached */
        fabric_frame_free(t->fe->fab, f);
}

static void mark_down(struct fcip_tunnel *t);

/* The first record of a connection, or the echo awaited: true when it was
 * a special frame. The acceptor has spoken already (its link parameters
 * leave when TCP is up, as without a special frame): a refusal takes its
 * end back down. */
static bool sf_heard(struct endpoint *ep, struct fc_frame *f)
{
    const struct fcip_sf *sf = f->ils;
    struct fcip_tunnel *t = ep->t;
    if (f->kind != FC_ILS || !sf || sf->cmd != FCIP_SF_CMD)
        return false;
    uint8_t me[8];
    own_wwn(t, me);
    bool ok = ep->active || (memcmp(sf->dst_wwn, me, 8) == 0 &&
                             (!sf->usage_code || sf->usage_code == t->conf.profile_id));
    if (!ep->active && ok)
        sf_send(ep, sf);
    fabric_frame_free(t->fe->fab, f);
    ep->sf_wait = false;
    if (ok) {
        link_check(t);
        return true;
    }
    close_gently(ep); /* FIN: the initiator reads `closed by peer` */
    if (ep->slot == 0) {
        t->sent_params = t->got_params = false;
        mark_down(t);
    }
    return true;
}

static void tcp_state_cb(void *ctx, enum tcp_state st, enum tcp_reason why)
{
    struct endpoint *ep = ctx;
    struct fcip_tunnel *t = ep->t;
    if (ep->burying)
        return;
    if (!t) { /* closing gently: done, or given up */
        if (st == TCP_CLOSED)
            grave(ep);
        return;
    }
    if (st == TCP_ESTABLISHED) {
        ep->established = true;
        if (ep->active && t->conf.special_frame)
            sf_send(ep, NULL);
        link_check(t);
    } else if (st == TCP_CLOSED) {
        tunnel_fail(t, close_cause(why));
    }
}

static void tcp_drop_rec(void *ctx, void *rec, uint32_t len)
{
    struct endpoint *ep = ctx;
    (void)len;
    fabric_frame_free(ep->fe->fab, rec);
}

static struct endpoint *ep_new(struct fcip_tunnel *t, int slot, bool active, uint16_t lport, uint16_t pport)
{
    struct fcip_engine *fe = t->fe;
    struct tcp_params p = t->conf.tcp;
    uint32_t mtu = ipnet_route_mtu(fe->net, t->conf.sw, t->conf.peer_ip);
    p.mss = mtu > TCP_HDR_BYTES + TCP_MSS_MIN ? mtu - TCP_HDR_BYTES : TCP_MSS_MIN;
    if (p.mss > TCP_MSS_MAX)
        p.mss = TCP_MSS_MAX;
    struct endpoint *ep = calloc(1, sizeof *ep);
    if (!ep)
        abort();
    char name[64];
    snprintf(name, sizeof name, "fcip:%d:%d:%d", t->conf.sw, t->conf.id, slot);
    struct tcp_callbacks cb = {tcp_out, tcp_deliver, tcp_writable, tcp_state_cb, tcp_drop_rec, ep};
    *ep = (struct endpoint){.fe = fe, .t = t, .slot = slot, .active = active, .sw = t->conf.sw,
                            .lip = t->conf.local_ip, .pip = t->conf.peer_ip, .lport = lport, .pport = pport};
    ep->c = tcp_conn_new(fe->e, name, &p, &cb);
    if (!ep->c) { /* parameters the CLI ranges should have kept out */
        free(ep);
        return NULL;
    }
    tcp_set_render(ep->c, fcip_wire_render); /* what a capture shows of its stream */
    ep->next = fe->live;
    fe->live = ep;
    t->ep[slot] = ep;
    return ep;
}

/* The tunnel */

static void open_slot(struct fcip_tunnel *t, int slot)
{
    uint16_t lport = t->next_port;
    t->next_port = t->next_port > 49154 ? (uint16_t)(t->next_port - 2) : FCIP_EPHEMERAL_FIRST;
    struct endpoint *ep = ep_new(t, slot, true, lport, t->conf.peer_port);
    if (!ep) { /* parameters the CLI ranges should have kept out */
        set_state(t, FCIP_DOWN, FCIP_CAUSE_NOT_CONNECTED);
        return;
    }
    t->st.attempts++;
    tcp_connect(ep->c);
}

static void retry(engine_t *e, void *arg)
{
    (void)e;
    struct fcip_tunnel *t = arg;
    t->retry = 0;
    if (!t->ep[0])
        tunnel_try(t);
}

/* The port the tunnel's source address is on, and its link. */
static enum fcip_cause src_cause(struct fcip_tunnel *t)
{
    enum ipnet_link link;
    if (!t->conf.local_ip || !ipnet_addr_link(t->fe->net, t->conf.sw, t->conf.local_ip, &link))
        return FCIP_CAUSE_SRC_UNBOUND;
    return link == IPNET_ADMIN_DOWN ? FCIP_CAUSE_SRC_ADMIN_DOWN
           : link == IPNET_NOT_CONNECTED ? FCIP_CAUSE_SRC_LINK_DOWN : FCIP_CAUSE_NONE;
}

static bool src_kind(enum fcip_cause c)
{
    return c >= FCIP_CAUSE_SRC_UNBOUND && c <= FCIP_CAUSE_SRC_LINK_DOWN;
}

static bool tcp_cause(enum fcip_cause c)
{
    return c >= FCIP_CAUSE_MAX_RETX && c <= FCIP_CAUSE_PEER_CLOSE;
}

/* Down, and why: the source port first; a connection's failure stays the
 * reason while the end tries again (mds-cli-15 case M). */
static void mark_down(struct fcip_tunnel *t)
{
    enum fcip_cause src = src_cause(t);
    bool keep = t->state == FCIP_DOWN && tcp_cause(t->cause);
    set_state(t, FCIP_DOWN, src != FCIP_CAUSE_NONE ? src : keep ? t->cause : FCIP_CAUSE_NOT_CONNECTED);
}

static void tunnel_try(struct fcip_tunnel *t)
{
    if (!t->conf.admin_up) {
        set_state(t, FCIP_ADMIN_DOWN, FCIP_CAUSE_ADMIN);
        return;
    }
    if (t->ep[0])
        return;
    mark_down(t);
    t->sent_params = t->got_params = false;
    bool path = src_cause(t) == FCIP_CAUSE_NONE && t->conf.peer_ip &&
                ipnet_route_mtu(t->fe->net, t->conf.sw, t->conf.peer_ip);
    if (!path || t->conf.passive) {
        t->connector = false;
        return;
    }
    t->connector = true;
    open_slot(t, 0);
}

/* keep_member: the link is computed again (bring_up) and stays in its
 * port-channel meanwhile, so the channel tells nothing. */
static void isl_release(struct fcip_tunnel *t, bool keep_member)
{
    if (t->isl) {
        if (!t->conf.channel)
            fabric_isl_down(t->fe->fab, t->isl);
        else if (!keep_member)
            pchan_member_down(t->fe->pc, t->conf.sw, t->conf.channel, t);
        t->was_up = t->up;
    }
    t->isl = 0;
    memset(&t->up, 0, sizeof t->up);
    fcip_tape_free(t->tape);
    t->tape = NULL;
}

static void isl_down(struct fcip_tunnel *t) { isl_release(t, false); }

/* Everything down; an end that opens connections tries again later. */
static void tunnel_reset(struct fcip_tunnel *t)
{
    isl_down(t);
    for (int i = 0; i < 2; i++)
        if (t->ep[i])
            bury(t->ep[i]);
    if (t->retry)
        engine_cancel(t->fe->e, t->retry);
    t->retry = 0;
    t->sent_params = t->got_params = false;
    t->elp_lost = false;
    fspf_link_down(t->fspf);
}

static void tunnel_fail(struct fcip_tunnel *t, enum fcip_cause why)
{
    tunnel_reset(t);
    /* an attempt that never connected changes no reason already given */
    if (why == FCIP_CAUSE_NOT_CONNECTED && t->state == FCIP_DOWN && t->cause != FCIP_CAUSE_NONE)
        why = t->cause;
    set_state(t, FCIP_DOWN, why);
    if (t->conf.admin_up && !t->conf.passive)
        t->retry = engine_after(t->fe->e, FCIP_RETRY_NS, retry, t);
}

/* Frames */

static enum fcip_compression comp_mode(const struct fcip_tunnel *t)
{
    return fcip_comp_effective(t->conf.comp, t->conf.tcp.max_bw_bps);
}

static void drain_event(engine_t *e, void *arg)
{
    (void)e;
    struct endpoint *ep = arg;
    ep->drain = 0;
    drain(ep);
}

/* Frames leave the queue for TCP once the compressor is done with them
 * and while TCP's send buffer takes them (else writable() calls again). */
static void drain(struct endpoint *ep)
{
    struct fcip_tunnel *t = ep->t;
    uint64_t tnow = now(ep->fe);
    while (ep->head && ep->head->carrier_at <= tnow) {
        struct fc_frame *f = ep->head;
        if (!tcp_send(ep->c, f->carrier_len, f))
            return;
        ep->head = f->next;
        if (!ep->head)
            ep->tail = NULL;
        ep->queued -= f->carrier_len;
        t->st.frames_out++;
        t->st.bytes_out += fc_frame_bytes(f);
        ewma_rate_add(&t->out_rate, tnow, fc_frame_bytes(f));
        if (f->class_f) {
            t->st.cf_frames_out++;
            t->st.cf_bytes_out += fc_frame_bytes(f);
        }
    }
    /* While the compressor still holds frames, its small outputs share
     * segments instead of each leaving as a packet of its own. */
    tcp_set_cork(ep->c, ep->head != NULL);
    if (ep->head && (!ep->drain || ep->drain_at != ep->head->carrier_at)) {
        if (ep->drain)
            engine_cancel(ep->fe->e, ep->drain);
        ep->drain_at = ep->head->carrier_at;
        ep->drain = engine_at(ep->fe->e, ep->drain_at, drain_event, ep);
    }
}

/* The frame's encapsulated size after the compressor, and when the
 * compressor (one FIFO per direction of the link) hands it on. */
static void compress_stage(struct fcip_tunnel *t, struct fc_frame *f)
{
    enum fcip_compression mode = comp_mode(t);
    uint64_t tnow = now(t->fe), start = t->comp_free_at > tnow ? t->comp_free_at : tnow;
    uint32_t payload = f->payload;
    f->carrier_at = tnow;
    stamp_clock(t, f);
    if (mode != FCIP_COMP_OFF) {
        f->carrier_at = start;
        if (f->pattern && payload) {
            double ratio = fcip_comp_ratio(mode, f->pattern);
            uint64_t rate = fcip_comp_rate_bps(mode, ratio);
            f->carrier_at = start + (uint64_t)payload * 8u * ENGINE_NS_PER_SEC / rate;
            payload = (uint32_t)((double)payload / ratio + 0.999999);
            t->st.comp_in += f->payload;
            t->st.comp_out += payload;
        }
        t->comp_free_at = f->carrier_at;
    }
    f->carrier_len = FCIP_ENCAP_BYTES + FC_HDR_BYTES + payload;
}

/* Write acceleration (engine-model §4.5), both ends configured: the
 * initiator's end answers a write's FCP_CMND with a proxy XFER_RDY at once,
 * so the data follows the command across the WAN (1 RTT, not 2)... */
static void wa_proxy(struct fcip_tunnel *t, const struct fc_frame *f)
{
    struct fc_frame *x = fabric_frame_new(t->fe->fab);
    x->kind = FC_FCP_XFER_RDY;
    x->vsan = f->vsan;
    x->d_id = f->s_id;
    x->s_id = f->d_id;
    x->ox_id = f->ox_id;
    x->payload = 12;
    fabric_send(t->fe->fab, t->conf.sw, x);
}

/* ...and the target's end keeps the target's own XFER_RDY from crossing
 * back (the data is already on its way). */
static bool wa_swallow(struct fcip_tunnel *t, const struct fc_frame *f)
{
    if (f->kind != FC_FCP_XFER_RDY)
        return false;
    for (int i = 0; i < t->nwa; i++)
        if (t->wa[i].initiator == f->d_id && t->wa[i].ox_id == f->ox_id) {
            t->wa[i] = t->wa[--t->nwa];
            return true;
        }
    return false;
}

static void wa_remember(struct fcip_tunnel *t, const struct fc_frame *f)
{
    if (!t->st.write_acc_active || f->kind != FC_FCP_CMND || !f->fcp_write || f->ta == FC_TA_NO_PROXY)
        return;
    if (t->nwa == FCIP_WA_MAX) { /* forget the oldest: its XFER_RDY then crosses, harmless */
        memmove(&t->wa[0], &t->wa[1], sizeof t->wa[0] * (FCIP_WA_MAX - 1));
        t->nwa--;
    }
    t->wa[t->nwa].initiator = f->s_id;
    t->wa[t->nwa].ox_id = f->ox_id;
    t->nwa++;
}

static void tunnel_send(struct fcip_tunnel *t, struct fc_frame *f)
{
    if (wa_swallow(t, f)) {
        fabric_frame_free(t->fe->fab, f);
        return;
    }
    int data_slot = t->ep[1] ? 1 : 0;
    struct endpoint *ep = t->ep[f->class_f ? 0 : data_slot];
    if (!ep || !ep->established || (t->state < FCIP_UP && f->kind != FC_ILS)) {
        t->st.dropped++;
        fabric_frame_free(t->fe->fab, f);
        return;
    }
    if (t->tape && fcip_tape_outbound(t->tape, f))
        return;
    bool proxy = t->st.write_acc_active && f->kind == FC_FCP_CMND && f->fcp_write && f->ta != FC_TA_NO_PROXY;
    struct fc_frame cmnd = *f; /* the proxy answers it after it is queued: data must follow it */
    compress_stage(t, f);
    if (ep->queued + f->carrier_len > FCIP_BACKLOG_MAX) {
        t->st.dropped++;
        fabric_frame_free(t->fe->fab, f);
        return;
    }
    f->next = NULL;
    if (ep->tail)
        ep->tail->next = f;
    else
        ep->head = f;
    ep->tail = f;
    ep->queued += f->carrier_len;
    drain(ep);
    if (proxy)
        wa_proxy(t, &cmnd);
}

static void isl_send(void *ctx, struct fc_frame *f) { tunnel_send(ctx, f); }

/* Link parameters and trunking */

static bool trunking(enum fcip_trunk_mode a, enum fcip_trunk_mode b)
{
    return a != FCIP_TRUNK_OFF && b != FCIP_TRUNK_OFF && !(a == FCIP_TRUNK_AUTO && b == FCIP_TRUNK_AUTO);
}

static void local_vsans(struct fcip_tunnel *t, struct vsan_set *out)
{
    memset(out, 0, sizeof *out);
    for (int v = 1; v < FABRIC_VSAN_MAX; v++)
        if (fabric_has_vsan(t->fe->fab, t->conf.sw, v))
            vsan_set_add(out, v, v);
}

static void send_params(struct fcip_tunnel *t, bool ask, bool reject)
{
    struct link_params *p = malloc(sizeof *p);
    if (!p)
        abort();
    *p = (struct link_params){ILS_CMD_ELP,        t->conf.sw,        t->conf.trunk,     t->conf.allowed, {{0}},
                              t->conf.port_vsan,  t->conf.write_acc, t->conf.tape_acc,  t->connector,
                              t->conf.nconn,      t->conf.e_d_tov_ms, t->conf.r_a_tov_ms, t->conf.time_stamp,
                              ask,                reject};
    local_vsans(t, &p->vsans);
    t->sent_vsans = p->vsans;
    struct fc_frame *f = fabric_frame_new(t->fe->fab);
    f->kind = FC_ILS;
    f->class_f = true;
    f->payload = ILS_PAYLOAD;
    f->ils = p;
    t->sent_params = true;
    tunnel_send(t, f);
}

/* A VSAN in which the two sides hold one domain twice cannot merge: the
 * link isolates it (mds-cli-15 case J). Both ends ask the fabric the same
 * question, so they agree. */
static void isolate_overlaps(struct fcip_tunnel *t)
{
    memset(&t->overlap, 0, sizeof t->overlap);
    for (int v = 1; v < FABRIC_VSAN_MAX; v++) {
        if (!vsan_set_has(&t->up, v) || !fabric_domains_overlap(t->fe->fab, t->conf.sw, t->peer.sw, v))
            continue;
        t->up.bit[v >> 3] &= (uint8_t)~(1u << (v & 7));
        vsan_set_add(&t->overlap, v, v);
        vsan_set_add(&t->st.isolated, v, v);
    }
}

/* Each VSAN the link would carry merges the two sides' active zonesets
 * (mds-cli-15 case K); one whose zones conflict is isolated. The first
 * end up merges; the second finds them equal, or the same conflict. */
static void isolate_zone_conflicts(struct fcip_tunnel *t)
{
    memset(&t->zone_conflict, 0, sizeof t->zone_conflict);
    char zone[ZONE_NAME_MAX + 1];
    for (int v = 1; v < FABRIC_VSAN_MAX; v++) {
        if (!vsan_set_has(&t->up, v) || fabric_zoning_merge(t->fe->fab, t->conf.sw, t->peer.sw, v, zone, sizeof zone))
            continue;
        t->up.bit[v >> 3] &= (uint8_t)~(1u << (v & 7));
        vsan_set_add(&t->zone_conflict, v, v);
        vsan_set_add(&t->st.isolated, v, v);
    }
}

/* The VSANs the ISL carries, from both ends' parameters: when both
 * trunk, those allowed at both ends that exist on both switches; else the
 * port VSAN when both ends have the same. The rest allowed is isolated,
 * and so is a VSAN whose domains overlap. */
static void compute_up(struct fcip_tunnel *t)
{
    const struct link_params *q = &t->peer;
    struct vsan_set mine;
    local_vsans(t, &mine);
    memset(&t->up, 0, sizeof t->up);
    memset(&t->st.isolated, 0, sizeof t->st.isolated);
    bool trunk = trunking(t->conf.trunk, q->trunk);
    for (size_t i = 0; trunk && i < sizeof t->up.bit; i++) {
        uint8_t active = t->conf.allowed.bit[i] & mine.bit[i];
        t->up.bit[i] = active & q->allowed.bit[i] & q->vsans.bit[i];
        t->st.isolated.bit[i] = active & (uint8_t)~t->up.bit[i];
    }
    if (!trunk) {
        if (t->conf.port_vsan == q->port_vsan && vsan_set_has(&mine, t->conf.port_vsan) &&
            vsan_set_has(&q->vsans, q->port_vsan))
            vsan_set_add(&t->up, t->conf.port_vsan, t->conf.port_vsan);
        else
            vsan_set_add(&t->st.isolated, t->conf.port_vsan, t->conf.port_vsan);
    }
    isolate_overlaps(t);
    isolate_zone_conflicts(t);
}

/* The ELP's timers must match, or the whole link isolates (case L). */
static bool elp_agrees(const struct fcip_tunnel *t)
{
    return t->conf.e_d_tov_ms == t->peer.e_d_tov_ms && t->conf.r_a_tov_ms == t->peer.r_a_tov_ms;
}

/* What FSPF reads of the link (docs/fspf.md): its interface, addresses
 * and the cost of the profile's bandwidth. */
static void describe_isl(struct fcip_tunnel *t)
{
    if (t->conf.channel) /* the channel describes its own ISL */
        return;
    struct fabric_isl_info info = {.ifindex = FCIP_IFINDEX(t->conf.id),
                                   .local_ip = t->conf.local_ip,
                                   .peer_ip = t->conf.peer_ip,
                                   .cost = fabric_cost_of_bandwidth(t->conf.tcp.max_bw_bps)};
    snprintf(info.ifname, sizeof info.ifname, "fcip%d", t->conf.id);
    fabric_isl_describe(t->fe->fab, t->isl, &info);
}

/* Tape acceleration's flow-control buffer: as configured, else the
 * link's bandwidth-delay product (the profile's maximum bandwidth over the
 * data connection's smoothed round trip, the profile's before it has one). */
static uint64_t tape_buf(void *ctx)
{
    struct fcip_tunnel *t = ctx;
    if (t->conf.tape_buf_kb)
        return (uint64_t)t->conf.tape_buf_kb * 1024u;
    struct endpoint *ep = t->ep[1] ? t->ep[1] : t->ep[0];
    uint64_t rtt = t->conf.tcp.rtt_cfg_ns;
    if (ep && ep->c) {
        struct tcp_stats ts;
        tcp_stats_get(ep->c, &ts);
        rtt = ts.srtt_ns ? ts.srtt_ns : rtt;
    }
    uint64_t b = t->conf.tcp.max_bw_bps / 8u * rtt / ENGINE_NS_PER_SEC;
    return b < FCIP_TAPE_BUF_MIN_KB * 1024u   ? FCIP_TAPE_BUF_MIN_KB * 1024u
           : b > FCIP_TAPE_BUF_MAX_KB * 1024u ? FCIP_TAPE_BUF_MAX_KB * 1024u
                                               : b;
}

static void tape_start(struct fcip_tunnel *t)
{
    if (!t->st.tape_acc_active || t->tape)
        return;
    struct fcip_tape_link link = {t->fe->e, t->fe->fab, t->conf.sw, tape_buf, isl_send, t};
    t->tape = fcip_tape_new(&link);
}

/* A member of a port-channel gives its link to the channel, which gives
 * the fabric one ISL for all its members (pchan.h). */
static void isl_up(struct fcip_tunnel *t)
{
    if (!t->conf.channel) {
        t->isl = fabric_isl_up(t->fe->fab, t->conf.sw, t->peer.sw, &t->up, isl_send, t);
        describe_isl(t);
        return;
    }
    struct pchan_member m = {t->conf.id, t->conf.local_ip, t->conf.peer_ip, t->conf.tcp.max_bw_bps,
                             trunking(t->conf.trunk, t->peer.trunk)};
    t->isl = pchan_member_up(t->fe->pc, t->conf.sw, t->conf.channel, t->peer.sw, &t->up, &m, isl_send, t);
}

/* A trunk stays up while it has a VSAN in common with its peer, even
 * when every such VSAN is isolated; an E port needs its port VSAN up. */
static void bring_up(struct fcip_tunnel *t)
{
    t->was_isolated = t->st.isolated;
    isl_release(t, true);
    compute_up(t);
    bool elp = elp_agrees(t) && !t->elp_lost;
    if (!elp) /* nothing crosses */
        memset(&t->up, 0, sizeof t->up);
    isl_up(t);
    t->st.peer_sw = t->peer.sw;
    t->st.write_acc_active = t->conf.write_acc && t->peer.write_acc;
    t->st.tape_acc_active = t->st.write_acc_active && t->conf.tape_acc && t->peer.tape_acc;
    tape_start(t);
    bool trunk = trunking(t->conf.trunk, t->peer.trunk);
    bool common = !vsan_set_empty(&t->up) || !vsan_set_empty(&t->overlap) || !vsan_set_empty(&t->zone_conflict),
         told;
    if (!elp)
        told = set_state(t, FCIP_ISOLATED, FCIP_CAUSE_ELP);
    else if (!common) /* connected, but no VSAN could cross: isolated */
        told = set_state(t, FCIP_ISOLATED, trunk ? FCIP_CAUSE_NO_COMMON_VSAN : FCIP_CAUSE_PORT_VSAN);
    else if (trunk)
        told = set_state(t, FCIP_TRUNKING,
                         vsan_set_empty(&t->st.isolated) ? FCIP_CAUSE_NONE : FCIP_CAUSE_NOT_ALL_UP);
    else if (vsan_set_empty(&t->up))
        told = set_state(t, FCIP_ISOLATED,
                         vsan_set_empty(&t->overlap) ? FCIP_CAUSE_ZONE_MERGE : FCIP_CAUSE_DOMAIN_OVERLAP);
    else
        told = set_state(t, FCIP_UP, FCIP_CAUSE_NONE);
    if (t->state == FCIP_UP || t->state == FCIP_TRUNKING)
        fspf_link_up(t->fspf, &t->up);
    else
        fspf_link_down(t->fspf);
    /* a trunk that stays up still tells which of its VSANs went or came */
    if (!told && t->state == FCIP_TRUNKING &&
        (memcmp(&t->up, &t->was_up, sizeof t->up) != 0 ||
         memcmp(&t->st.isolated, &t->was_isolated, sizeof t->up) != 0))
        tell(t, t->state, t->cause);
}

/* The fabric was built again (a domain changed, `fcdomain restart`):
 * every link made checks which VSANs it can carry now. */
static void refabric(void *ctx)
{
    struct fcip_engine *fe = ctx;
    for (int i = 0; i < fe->n; i++)
        if (fe->t[i]->isl)
            bring_up(fe->t[i]);
}

/* How many connections make the link: the connecting end's count. */
static int needed(const struct fcip_tunnel *t)
{
    int n = t->connector || !t->got_params ? t->conf.nconn : t->peer.nconn;
    return n < 1 ? 1 : n > 2 ? 2 : n;
}

/* A connection FC frames may use: established, its special frame
 * answered. */
static bool ready(const struct endpoint *ep)
{
    return ep && ep->established && !ep->sf_wait;
}

static void link_check(struct fcip_tunnel *t)
{
    if (!ready(t->ep[0]))
        return;
    if (!t->sent_params) {
        set_state(t, FCIP_INIT, FCIP_CAUSE_INIT);
        send_params(t, false, false);
    }
    int n = needed(t);
    if (t->connector && n == 2 && !t->ep[1])
        open_slot(t, 1);
    bool all = n == 1 || ready(t->ep[1]);
    if (all && t->got_params && !t->isl)
        bring_up(t);
}

/* Time stamps (RFC 3821 §5.6, mds-cli-15 case P): with `time-stamp` on,
 * a frame stamped further than acceptable-diff from this switch's clock
 * is discarded and counted. */
static bool stamp_stale(const struct fcip_tunnel *t, const struct fc_frame *f)
{
    if (!t->conf.time_stamp)
        return false;
    int64_t sent = (int64_t)f->carrier_at + (f->carrier_clock_set ? f->carrier_clock_ns : t->conf.lab_clock_ns);
    int64_t here = (int64_t)now(t->fe) + t->conf.clock_ns;
    uint64_t d = sent > here ? (uint64_t)(sent - here) : (uint64_t)(here - sent);
    return d > (uint64_t)t->conf.ts_diff_ms * ENGINE_NS_PER_MS;
}

static bool is_params(const struct fc_frame *f)
{
    return f->kind == FC_ILS && f->ils && *(const uint8_t *)f->ils == ILS_CMD_ELP;
}

/* Link parameters discarded: the exchange failed, so the link isolates
 * (ELP failure) at this end, and at the peer, told once by parameters of
 * ours marked rejected. Good parameters from the peer (it asks again
 * after a change of clocks) bring it up. */
static void params_lost(struct fcip_tunnel *t)
{
    bool told = t->elp_lost;
    t->elp_lost = true;
    if (!told)
        send_params(t, false, true);
    if (t->isl) {
        bring_up(t);
    } else if (t->got_params) {
        link_check(t); /* isolated once its connections are all up */
    } else {
        set_state(t, FCIP_ISOLATED, FCIP_CAUSE_ELP);
        fspf_link_down(t->fspf);
    }
}

static void params_heard(struct fcip_tunnel *t, const struct link_params *p)
{
    t->peer = *p;
    t->got_params = true;
    t->elp_lost = p->reject;
    if (t->isl) /* the peer changed its trunk: follow */
        bring_up(t);
    else
        link_check(t);
    if (p->ask && !p->reject)
        send_params(t, false, false);
}

static void tunnel_receive(struct fcip_tunnel *t, struct fc_frame *f)
{
    if (stamp_stale(t, f)) {
        t->st.ts_errors++;
        if (is_params(f))
            params_lost(t);
        fabric_frame_free(t->fe->fab, f);
        return;
    }
    t->st.frames_in++;
    t->st.bytes_in += fc_frame_bytes(f);
    ewma_rate_add(&t->in_rate, now(t->fe), fc_frame_bytes(f));
    if (f->class_f) {
        t->st.cf_frames_in++;
        t->st.cf_bytes_in += fc_frame_bytes(f);
    }
    if (fspf_receive(t->fspf, f))
        return;
    if (f->kind == FC_ILS) {
        params_heard(t, f->ils);
        fabric_frame_free(t->fe->fab, f);
        return;
    }
    if (vsan_set_has(&t->st.isolated, f->vsan)) { /* the peer still carries it: it stops here */
        fabric_frame_free(t->fe->fab, f);
        return;
    }
    wa_remember(t, f);
    if (t->tape && fcip_tape_inbound(t->tape, f))
        return;
    f->ta = FC_TA_NONE;
    fabric_send(t->fe->fab, t->conf.sw, f);
}

/* TCP over the data plane */

static struct endpoint *ep_find(struct fcip_engine *fe, int sw, const struct ipnet_pkt *pkt,
                                const struct tcp_dgram *d)
{
    for (struct endpoint *ep = fe->live; ep; ep = ep->next)
        if (ep->sw == sw && ep->lip == pkt->dst && ep->pip == pkt->src && ep->lport == d->dport &&
            ep->pport == d->sport)
            return ep;
    return NULL;
}

static struct fcip_tunnel *listener(struct fcip_engine *fe, int sw, const struct ipnet_pkt *pkt, uint16_t dport)
{
    for (int i = 0; i < fe->n; i++) {
        const struct fcip_tunnel_conf *c = &fe->t[i]->conf;
        if (c->sw == sw && c->admin_up && c->local_ip == pkt->dst && c->local_port == dport &&
            c->peer_ip == pkt->src)
            return fe->t[i];
    }
    return NULL;
}

/* A SYN from the peer. When both ends opened the control connection at
 * once, the lower address keeps its own; the other end gives its up and
 * accepts. A SYN while the link is made means the peer starts over. */
static void accept_syn(struct fcip_tunnel *t, uint16_t sport, const struct tcp_seg *seg)
{
    int slot = 0;
    struct endpoint *ctl = t->ep[0];
    if (ctl && ctl->active && !ctl->established) {
        if (t->conf.local_ip < t->conf.peer_ip) { /* ours wins */
            tcp_seg_drop(seg);
            return;
        }
        bury(ctl);
    } else if (ctl && ctl->established && !t->ep[1] && !t->connector) {
        slot = 1; /* the peer opens the data connection */
    } else if (ctl) {
        /* the peer starts over: a link that was up goes down first, and
         * says why (its FIN came first when it shut gracefully) */
        enum fcip_cause why = tcp_state_get(ctl->c) == TCP_CLOSING ? FCIP_CAUSE_PEER_CLOSE : FCIP_CAUSE_PEER_RESET;
        tunnel_reset(t);
        if (t->state >= FCIP_ISOLATED)
            set_state(t, FCIP_DOWN, why);
    }
    if (t->retry)
        engine_cancel(t->fe->e, t->retry);
    t->retry = 0;
    if (slot == 0) {
        t->connector = false;
        t->sent_params = t->got_params = false;
    }
    struct endpoint *ep = ep_new(t, slot, false, t->conf.local_port, sport);
    if (!ep) {
        tcp_seg_drop(seg);
        return;
    }
    tcp_listen(ep->c);
    tcp_input(ep->c, seg);
}

static void tcp_rx(void *ctx, int sw, const struct ipnet_pkt *pkt)
{
    struct fcip_engine *fe = ctx;
    struct tcp_dgram d;
    memcpy(&d, pkt->payload, sizeof d);
    struct endpoint *ep = ep_find(fe, sw, pkt, &d);
    if (ep) {
        tcp_input(ep->c, &d.seg);
        return;
    }
    struct fcip_tunnel *t = (d.seg.flags & TCP_SYN) && !(d.seg.flags & TCP_ACK) ? listener(fe, sw, pkt, d.dport) : NULL;
    if (t)
        accept_syn(t, d.sport, &d.seg);
    else
        tcp_seg_drop(&d.seg);
}

/* A segment's bytes, for a capture: TCP draws the header, the records of
 * the stream their FCIP frames (fcip_wire.c). */
static uint32_t tcp_render(void *ctx, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap)
{
    (void)ctx;
    struct tcp_dgram d;
    memcpy(&d, pkt->payload, sizeof d);
    return tcp_seg_render(&d.seg, d.sport, d.dport, out, cap);
}

static void tcp_lost(void *ctx, const struct ipnet_pkt *pkt)
{
    (void)ctx;
    struct tcp_dgram d;
    memcpy(&d, pkt->payload, sizeof d);
    tcp_seg_drop(&d.seg);
}

/* Path MTU discovery (RFC 1191): a router's fragmentation needed about
 * one of our segments lowers the connection's MSS to the next hop's MTU
 * (never under TCP_MSS_MIN); `no tcp pmtu-enable` ignores it, and the
 * large segments die on the path until TCP gives up (case O, M). */
static void tcp_icmp_error(void *ctx, int sw, const struct ipnet_icmp_err *err)
{
    struct fcip_engine *fe = ctx;
    uint16_t ports[2];
    memcpy(ports, err->quote + offsetof(struct tcp_dgram, sport), sizeof ports);
    if (err->type != IPNET_ICMP_UNREACH || err->code != IPNET_UNREACH_FRAG_NEEDED)
        return;
    for (struct endpoint *ep = fe->live; ep; ep = ep->next) {
        if (ep->sw != sw || ep->lip != err->src || ep->pip != err->dst || ep->lport != ports[0] ||
            ep->pport != ports[1] || !ep->t || !ep->t->conf.pmtu)
            continue;
        struct tcp_params p = *tcp_get_params(ep->c);
        uint32_t mss = err->mtu > TCP_HDR_BYTES + TCP_MSS_MIN ? err->mtu - TCP_HDR_BYTES : TCP_MSS_MIN;
        if (mss < p.mss) {
            p.mss = mss;
            tcp_set_params(ep->c, &p);
        }
    }
}

/* The engine */

struct fcip_engine *fcip_engine_new(engine_t *e, struct ipnet *net, struct fabric *fab)
{
    struct fcip_engine *fe = calloc(1, sizeof *fe);
    if (!fe)
        abort();
    *fe = (struct fcip_engine){.e = e, .net = net, .fab = fab, .pc = pchan_set_new(e, fab)};
    ipnet_register(net, IPNET_TCP, tcp_rx, tcp_lost, fe);
    ipnet_set_render(net, IPNET_TCP, tcp_render, fe);
    ipnet_on_icmp_error(net, IPNET_TCP, tcp_icmp_error, fe);
    fabric_on_rebuilt(fab, refabric, fe);
    return fe;
}

static void tunnel_free(struct fcip_tunnel *t)
{
    tunnel_reset(t);
    fspf_link_free(t->fspf);
    free(t);
}

void fcip_engine_free(struct fcip_engine *fe)
{
    if (!fe)
        return;
    fe->closing = true;
    fabric_on_rebuilt(fe->fab, NULL, NULL);
    pchan_on_change(fe->pc, NULL, NULL); /* the lab closes: nothing is logged */
    for (int i = 0; i < fe->n; i++)
        tunnel_free(fe->t[i]);
    free(fe->t);
    pchan_set_free(fe->pc);
    if (fe->reap)
        engine_cancel(fe->e, fe->reap);
    reap(fe->e, fe);
    free(fe);
}

void fcip_engine_begin(struct fcip_engine *fe)
{
    for (int i = 0; i < fe->n; i++)
        fe->t[i]->seen = false;
}

struct fcip_tunnel *fcip_tunnel_find(struct fcip_engine *fe, int sw, int id)
{
    for (int i = 0; i < fe->n; i++)
        if (fe->t[i]->conf.sw == sw && fe->t[i]->conf.id == id)
            return fe->t[i];
    return NULL;
}

/* Does the change touch what the connections are made of? */
static bool endpoints_differ(const struct fcip_tunnel_conf *a, const struct fcip_tunnel_conf *b)
{
    return a->admin_up != b->admin_up || a->local_ip != b->local_ip || a->local_port != b->local_port ||
           a->peer_ip != b->peer_ip || a->peer_port != b->peer_port || a->passive != b->passive ||
           a->nconn != b->nconn || a->tape_acc != b->tape_acc; /* tape acceleration starts the link over */
}

static bool trunk_differs(struct fcip_tunnel *t, const struct fcip_tunnel_conf *c)
{
    struct vsan_set now_vsans;
    local_vsans(t, &now_vsans);
    return t->conf.trunk != c->trunk || t->conf.port_vsan != c->port_vsan || t->conf.write_acc != c->write_acc ||
           t->conf.e_d_tov_ms != c->e_d_tov_ms || t->conf.r_a_tov_ms != c->r_a_tov_ms ||
           memcmp(&t->conf.allowed, &c->allowed, sizeof c->allowed) != 0 ||
           (t->sent_params && memcmp(&t->sent_vsans, &now_vsans, sizeof now_vsans) != 0);
}

/* A change of this switch's clock or of its time-stamp check, when an
 * end of the link checks stamps: the link parameters cross again. */
static bool clocks_differ(const struct fcip_tunnel *t, const struct fcip_tunnel_conf *c)
{
    bool checks = t->conf.time_stamp || c->time_stamp || (t->got_params && t->peer.time_stamp);
    return checks && (t->conf.clock_ns != c->clock_ns || t->conf.time_stamp != c->time_stamp ||
                      t->conf.ts_diff_ms != c->ts_diff_ms);
}

static void apply_live(struct fcip_tunnel *t, const struct fcip_tunnel_conf *c)
{
    bool trunk = trunk_differs(t, c);
    bool tcp = memcmp(&t->conf.tcp, &c->tcp, sizeof c->tcp) != 0;
    bool clock = clocks_differ(t, c);
    bool moved = t->conf.channel != c->channel;
    if (moved) /* joins or leaves a channel: its ISL moves, its connections stay */
        isl_down(t);
    t->conf = *c;
    if (moved)
        link_check(t);
    if (tcp && t->isl && t->conf.channel) /* a new bandwidth, a new cost: its channel's */
        isl_up(t);
    else if (tcp && t->isl)
        describe_isl(t);
    for (int i = 0; tcp && i < 2; i++)
        if (t->ep[i]) {
            struct tcp_params p = c->tcp;
            p.mss = tcp_get_params(t->ep[i]->c)->mss;
            tcp_set_params(t->ep[i]->c, &p);
        }
    if ((trunk || clock) && t->sent_params) {
        send_params(t, clock, false); /* a change of clocks: the peer answers, both judge the stamps again */
        if (trunk && t->isl)
            bring_up(t);
    }
    enum fcip_cause src = src_cause(t);
    if (t->ep[0] && src != FCIP_CAUSE_NONE) { /* its port went: at once, not at TCP's timeout */
        tunnel_fail(t, src);
        return;
    }
    if (t->ep[0] || !t->conf.admin_up)
        return;
    bool src_back = src_kind(t->cause) && src == FCIP_CAUSE_NONE;
    if (!t->retry || src_back)
        tunnel_try(t); /* its path may be there now */
    else if (src != FCIP_CAUSE_NONE)
        set_state(t, FCIP_DOWN, src); /* the reason follows the port */
}

void fcip_tunnel_apply(struct fcip_engine *fe, const struct fcip_tunnel_conf *c)
{
    struct fcip_tunnel *t = fcip_tunnel_find(fe, c->sw, c->id);
    if (!t) {
        struct fcip_tunnel **v = realloc(fe->t, sizeof *v * (size_t)(fe->n + 1));
        t = calloc(1, sizeof *t);
        if (!v || !t)
            abort();
        fe->t = v;
        fe->t[fe->n++] = t;
        t->fe = fe;
        t->conf = *c;
        t->next_port = FCIP_EPHEMERAL_FIRST;
        char ifname[16];
        snprintf(ifname, sizeof ifname, "fcip%d", c->id);
        t->fspf = fspf_link_new(fe->e, fe->fab, c->sw, ifname, isl_send, t);
        t->st.peer_sw = -1;
        t->seen = true;
        tunnel_try(t);
        return;
    }
    t->seen = true;
    if (t->conf.admin_up && !c->admin_up) { /* shut: FINs, not RSTs */
        isl_down(t); /* the fabric lets go first, then the FINs leave */
        for (int i = 0; i < 2; i++)
            if (t->ep[i])
                close_gently(t->ep[i]);
        tunnel_reset(t);
        t->conf = *c;
        tunnel_try(t);
        return;
    }
    if (endpoints_differ(&t->conf, c)) {
        tunnel_reset(t);
        t->conf = *c;
        tunnel_try(t);
        return;
    }
    apply_live(t, c);
}

void fcip_engine_end(struct fcip_engine *fe)
{
    int k = 0;
    for (int i = 0; i < fe->n; i++) {
        if (fe->t[i]->seen)
            fe->t[k++] = fe->t[i];
        else
            tunnel_free(fe->t[i]);
    }
    fe->n = k;
}

void fcip_tunnel_status(struct fcip_tunnel *t, struct fcip_status *st)
{
    *st = t->st;
    st->state = t->state;
    st->cause = t->cause;
    uint64_t tnow = now(t->fe);
    st->in_bps = ewma_rate_bps(&t->in_rate, tnow);
    st->in_fps = ewma_rate_fps(&t->in_rate, tnow);
    st->out_bps = ewma_rate_bps(&t->out_rate, tnow);
    st->out_fps = ewma_rate_fps(&t->out_rate, tnow);
    st->up = t->up;
    st->tape_buf_bytes = tape_buf(t);
    if (t->tape)
        fcip_tape_stats(t->tape, &st->tape);
    st->nconn_up = 0;
    for (int i = 0; i < 2; i++) {
        struct endpoint *ep = t->ep[i];
        st->conn[i].present = ep != NULL;
        if (!ep)
            continue;
        st->nconn_up += ep->established;
        st->conn[i].local_ip = t->conf.local_ip;
        st->conn[i].remote_ip = t->conf.peer_ip;
        st->conn[i].local_port = ep->lport;
        st->conn[i].remote_port = ep->pport;
        tcp_stats_get(ep->c, &st->conn[i].tcp);
    }
}

const struct fspf_link *fcip_tunnel_fspf(const struct fcip_tunnel *t) { return t->fspf; }

struct pchan_set *fcip_engine_pchans(struct fcip_engine *fe) { return fe->pc; }

void fcip_tunnel_tape_sessions(const struct fcip_tunnel *t, bool host_end,
                               void (*fn)(void *ctx, const struct fcip_tape_session *s), void *ctx)
{
    if (t->tape)
        fcip_tape_sessions(t->tape, host_end, fn, ctx);
}

void fcip_tunnel_clear_counters(struct fcip_tunnel *t)
{
    uint64_t last_change = t->st.last_change_ns;
    int peer = t->st.peer_sw;
    struct vsan_set isolated = t->st.isolated;
    bool wa = t->st.write_acc_active, ta = t->st.tape_acc_active;
    memset(&t->st, 0, sizeof t->st);
    t->st.tape_acc_active = ta;
    if (t->tape)
        fcip_tape_clear_stats(t->tape);
    t->st.last_change_ns = last_change;
    t->st.peer_sw = peer;
    t->st.isolated = isolated;
    t->st.write_acc_active = wa;
    memset(&t->in_rate, 0, sizeof t->in_rate);
    memset(&t->out_rate, 0, sizeof t->out_rate);
}
