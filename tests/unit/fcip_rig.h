/* A two-switch FCIP rig without a lab (shared by tests/unit/test_fcip.c
 * and bench/bench_fcip.c): the reference cabling (MDS1 g2/2 ->
 * g2/3 | netsim | g2/4 -> MDS2 g2/2), an FCIP tunnel between the g2/2
 * addresses, and a test-only FC traffic source: N ports that keep
 * `outstanding` reads or writes of `size` bytes in flight between the two
 * switches, as the SAN Extension Tuner will. Header-only: each test is its
 * own executable. */
#ifndef MDSIM_TEST_FCIP_RIG_H
#define MDSIM_TEST_FCIP_RIG_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/engine.h"
#include "ipnet/ipnet.h"
#include "netsim/pipe.h"
#include "fabric/fabric.h"
#include "fcip/tunnel.h"
#include "fcip/compress.h"

#define IP1 0xC0A80A01u /* 192.168.10.1 */
#define IP2 0xC0A80A02u

struct rig {
    engine_t *e;
    struct ipnet *net;
    struct fabric *fab;
    struct fcip_engine *fe;
    struct fcip_tunnel_conf conf[2];
};

static void rig_port(struct rig *r, int sw, int port, uint32_t ip, uint32_t mtu)
{
    struct ipnet_port_conf c = {true, ip != 0, ip, ip ? 0xFFFFFF00u : 0, mtu};
    ipnet_port_set(r->net, sw, 2, port, &c);
}

/* Netsim on MDS1 between g2/3 and g2/4, the same settings each way. */
static void rig_netsim(struct rig *r, const netsim_pipe_config *cfg)
{
    netsim_pipe_configure(ipnet_ingress_pipe(r->net, 0, 2, 3), cfg);
    netsim_pipe_configure(ipnet_ingress_pipe(r->net, 0, 2, 4), cfg);
}

static void rig_apply(struct rig *r)
{
    fcip_engine_begin(r->fe);
    fcip_tunnel_apply(r->fe, &r->conf[0]);
    fcip_tunnel_apply(r->fe, &r->conf[1]);
    fcip_engine_end(r->fe);
}

static void rig_init(struct rig *r, uint64_t delay_ms, uint64_t rate_bps, uint32_t mtu)
{
    memset(r, 0, sizeof *r);
    r->e = engine_new(1);
    r->net = ipnet_new(r->e, 2);
    ipnet_ports_begin(r->net);
    rig_port(r, 0, 2, IP1, mtu);
    rig_port(r, 0, 3, 0, 9000);
    rig_port(r, 0, 4, 0, 9000);
    rig_port(r, 1, 2, IP2, mtu);
    ipnet_ports_end(r->net);
    ipnet_cable(r->net, 0, 2, 2, 0, 2, 3);
    ipnet_cable(r->net, 0, 2, 4, 1, 2, 2);
    ipnet_bridges_begin(r->net);
    ipnet_bridge(r->net, 0, 2, 3, 2, 4);
    ipnet_bridges_end(r->net);
    netsim_pipe_config cfg;
    netsim_pipe_config_init(&cfg);
    cfg.delay_set = delay_ms > 0;
    cfg.delay_ns = delay_ms * ENGINE_NS_PER_MS;
    cfg.rate_set = rate_bps > 0;
    cfg.rate_bps = rate_bps;
    rig_netsim(r, &cfg);
    r->fab = fabric_new(r->e, 2);
    struct vsan_set every;
    memset(&every, 0xff, sizeof every); /* the rig's N ports are not zoned: default zone permit */
    fabric_set_zone_permit(r->fab, 0, &every);
    fabric_set_zone_permit(r->fab, 1, &every);
    r->fe = fcip_engine_new(r->e, r->net, r->fab);
    for (int i = 0; i < 2; i++) {
        struct fcip_tunnel_conf *c = &r->conf[i];
        *c = (struct fcip_tunnel_conf){.sw = i, .id = 1, .admin_up = true, .local_ip = i ? IP2 : IP1,
                                       .local_port = 3225, .peer_ip = i ? IP1 : IP2, .peer_port = 3225,
                                       .nconn = 2, .trunk = FCIP_TRUNK_ON, .port_vsan = 1};
        tcp_params_default(&c->tcp);
        vsan_set_all(&c->allowed);
    }
}

static void rig_free(struct rig *r)
{
    ipnet_free(r->net); /* first: datagrams in flight release their segments */
    fcip_engine_free(r->fe);
    fabric_free(r->fab);
    engine_free(r->e);
}

static inline enum fcip_state rig_state(struct rig *r, int sw, struct fcip_status *st)
{
    struct fcip_status tmp;
    if (!st)
        st = &tmp;
    struct fcip_tunnel *t = fcip_tunnel_find(r->fe, sw, 1);
    if (!t) { /* a rig bug */
        fprintf(stderr, "fcip_rig: no tunnel on switch %d\n", sw);
        abort();
    }
    fcip_tunnel_status(t, st);
    return st->state;
}

/* MDS1 g2/2, the tunnel's source, shut or not: the ports as declared by
 * the interface feature's reconcile, then the fcip one. */
static inline void rig_source_admin(struct rig *r, bool up)
{
    ipnet_ports_begin(r->net);
    struct ipnet_port_conf c = {up, true, IP1, 0xFFFFFF00u, 1500};
    ipnet_port_set(r->net, 0, 2, 2, &c);
    rig_port(r, 0, 3, 0, 9000);
    rig_port(r, 0, 4, 0, 9000);
    rig_port(r, 1, 2, IP2, 1500);
    ipnet_ports_end(r->net);
    rig_apply(r);
}

/* What the fcip engine tells the feature (which logs it), recorded. */
struct rig_changes {
    struct fcip_change c[64];
    int n;
};

static inline void rig_note_change(void *ctx, const struct fcip_change *c)
{
    struct rig_changes *rc = ctx;
    if (rc->n < 64)
        rc->c[rc->n++] = *c;
}

static inline void rig_record_changes(struct rig *r, struct rig_changes *rc)
{
    rc->n = 0;
    fcip_engine_on_change(r->fe, rig_note_change, rc);
}

/* The traffic source: one initiator on MDS1, one target on MDS2. A read:
 * CMND ->, `size` bytes of data frames <-, RSP <-. A write: CMND ->,
 * XFER_RDY <-, data ->, RSP <- (write acceleration not modelled here).
 * The target answers after SERVICE_NS. */
#define SERVICE_NS 400000u
#define DATA_FRAME 2048u

struct io_src;
struct io_deferred {
    struct io_src *s;
    int tag;
};

struct io_src {
    struct rig *r;
    bool write;
    uint32_t size;
    int outstanding;
    const struct fc_pattern *pattern;
    uint32_t init_fcid, targ_fcid;
    uint64_t done, payload_done; /* completed I/Os, data bytes of completed I/Os */
    uint64_t rt_sum, rt_min, rt_max;
    uint64_t started_at[64];
    uint32_t got[64]; /* data bytes received for the I/O (by whoever receives data) */
    struct io_deferred defer[64]; /* the target's service, one per I/O at most */
};

static struct fc_frame *io_frame(struct io_src *s, int sw, uint8_t kind, int tag, uint32_t payload)
{
    struct fc_frame *f = fabric_frame_new(s->r->fab);
    f->kind = kind;
    f->vsan = 1;
    f->s_id = sw ? s->targ_fcid : s->init_fcid;
    f->d_id = sw ? s->init_fcid : s->targ_fcid;
    f->ox_id = (uint16_t)tag;
    f->tag = (uint64_t)tag;
    f->payload = payload;
    f->pattern = kind == FC_FCP_DATA ? s->pattern : NULL;
    return f;
}

static void io_send_data(struct io_src *s, int sw, int tag)
{
    for (uint32_t off = 0; off < s->size; off += DATA_FRAME) {
        uint32_t n = s->size - off < DATA_FRAME ? s->size - off : DATA_FRAME;
        fabric_send(s->r->fab, sw, io_frame(s, sw, FC_FCP_DATA, tag, n));
    }
}

static void io_issue(struct io_src *s, int tag)
{
    s->started_at[tag] = engine_now(s->r->e);
    s->got[tag] = 0;
    fabric_send(s->r->fab, 0, io_frame(s, 0, FC_FCP_CMND, tag, 32));
}

static void target_serve(engine_t *e, void *arg)
{
    (void)e;
    struct io_deferred *d = arg;
    struct io_src *s = d->s;
    if (s->write) {
        fabric_send(s->r->fab, 1, io_frame(s, 1, FC_FCP_XFER_RDY, d->tag, 12));
    } else {
        io_send_data(s, 1, d->tag);
        fabric_send(s->r->fab, 1, io_frame(s, 1, FC_FCP_RSP, d->tag, 24));
    }
}

static void target_rx(void *ctx, struct fc_frame *f)
{
    struct io_src *s = ctx;
    int tag = (int)f->tag;
    if (f->kind == FC_FCP_CMND) {
        s->defer[tag] = (struct io_deferred){s, tag};
        engine_after(s->r->e, SERVICE_NS, target_serve, &s->defer[tag]);
    } else if (f->kind == FC_FCP_DATA && (s->got[tag] += f->payload) >= s->size) {
        fabric_send(s->r->fab, 1, io_frame(s, 1, FC_FCP_RSP, tag, 24));
    }
    fabric_frame_free(s->r->fab, f);
}

static void initiator_rx(void *ctx, struct fc_frame *f)
{
    struct io_src *s = ctx;
    int tag = (int)f->tag;
    if (f->kind == FC_FCP_XFER_RDY) {
        io_send_data(s, 0, tag);
    } else if (f->kind == FC_FCP_RSP) {
        uint64_t rt = engine_now(s->r->e) - s->started_at[tag];
        s->done++;
        s->payload_done += s->size;
        s->rt_sum += rt;
        s->rt_min = s->done == 1 || rt < s->rt_min ? rt : s->rt_min;
        s->rt_max = rt > s->rt_max ? rt : s->rt_max;
        io_issue(s, tag);
    }
    fabric_frame_free(s->r->fab, f);
}

static inline void io_start(struct io_src *s, struct rig *r, bool write, uint32_t size, int outstanding)
{
    static const uint8_t iw[8] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11};
    static const uint8_t tw[8] = {0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22};
    memset(s, 0, sizeof *s);
    *s = (struct io_src){.r = r, .write = write, .size = size, .outstanding = outstanding};
    if (!s->pattern)
        s->pattern = fc_pattern_zeros();
    s->init_fcid = fabric_login(r->fab, 0, 1, iw, initiator_rx, s);
    s->targ_fcid = fabric_login(r->fab, 1, 1, tw, target_rx, s);
    for (int i = 0; i < outstanding; i++)
        io_issue(s, i);
}

#endif
