/* The fcip feature's engine part: the tunnels follow the store. Each fcip
 * interface with its profile becomes the desired state of one tunnel end
 * (tunnel.h); the tunnels diff it against what runs. */
#include "fcip.h"
#include "fcip_engine.h"
#include "tunnel.h"
#include "fcip_log.h"
#include "portchannel/pc_log.h"
#include "feature.h"
#include "lab/lab.h"
#include "vsan/vsan.h"
#include "fctimer/fctimer.h"
#include "pchan.h"
#include "portchannel/portchannel.h"
#include "fabric/fabric_feature.h"
#include "capture/capture.h"
#include <stdio.h>
#include <string.h>

void *fcip_engine_create(struct lab *lab, engine_t *e, struct ipnet *net)
{
    struct fcip_engine *fe = fcip_engine_new(e, net, fabric_of_lab(lab));
    fcip_engine_on_change(fe, fcip_log_change, lab);
    pchan_on_change(fcip_engine_pchans(fe), pc_log_change, lab);
    return fe;
}

void fcip_engine_destroy(void *state) { fcip_engine_free(state); }

/* Profile units (kbps, us, ms, bytes) to the TCP's (bit/s, ns). */
static void tcp_from_profile(const struct fcip_profile_conf *p, struct tcp_params *t)
{
    tcp_params_default(t);
    t->max_bw_bps = (uint64_t)p->max_bw_kbps * 1000u;
    t->min_avail_bps = (uint64_t)p->min_bw_kbps * 1000u;
    t->rtt_cfg_ns = (uint64_t)p->rtt_us * ENGINE_NS_PER_US;
    t->cwm = p->cwm;
    t->cwm_burst_bytes = p->cwm_burst_bytes;
    t->sack = p->sack;
    t->max_retx = (uint32_t)p->max_retrans;
    t->min_rto_ns = (uint64_t)p->min_rto_ms * ENGINE_NS_PER_MS;
    t->keepalive_ns = (uint64_t)p->keepalive_s * ENGINE_NS_PER_SEC;
    t->send_buffer_bytes = p->send_buf_bytes;
    t->max_jitter_ns = (uint64_t)p->max_jitter_us * ENGINE_NS_PER_US;
}

struct apply_ctx {
    struct lab *lab;
    struct fcip_engine *fe;
    int sw;
};

/* A port-channel's member (docs/port-channel.md): down while its channel
 * is shut; tape acceleration off on it (the guide: it does not work on a
 * channel's member), write acceleration only in channel mode active. */
static void member_of_channel(struct lab *lab, int sw, struct fcip_tunnel_conf *c)
{
    struct pc_conf pc;
    c->channel = pc_channel_of(lab, sw, c->id);
    if (!c->channel || !pc_get(lab, sw, c->channel, &pc)) {
        c->channel = 0;
        return;
    }
    c->admin_up = c->admin_up && !pc.shutdown;
    c->tape_acc = false;
    c->write_acc = c->write_acc && pc.mode_active;
}

/* The lab's clock ahead of lab time counted from the captures' epoch
 * (tunnel.h). */
static int64_t lab_clock_ns(const struct lab *lab)
{
    return ((int64_t)lab_clock_base(lab) - (int64_t)CAPTURE_EPOCH_S) * (int64_t)ENGINE_NS_PER_SEC;
}

static void apply_if(void *arg, const struct fcip_if_conf *ic)
{
    struct apply_ctx *x = arg;
    struct fcip_profile_conf pc;
    bool profile = ic->profile && fcip_profile_get(x->lab, x->sw, ic->profile, &pc);
    char ifname[16];
    snprintf(ifname, sizeof ifname, "fcip%d", ic->id);
    struct fcip_tunnel_conf c = {
        .sw = x->sw,
        .id = ic->id,
        .admin_up = !ic->shutdown,
        .local_ip = profile && pc.has_ip ? pc.ip : 0,
        .local_port = (uint16_t)(profile ? pc.port : FCIP_DEFAULT_PORT),
        .peer_ip = ic->has_peer ? ic->peer_ip : 0,
        .peer_port = (uint16_t)ic->peer_port,
        .passive = ic->passive,
        .nconn = ic->tcp_connections,
        .comp = ic->compression,
        .write_acc = ic->write_acc,
        .tape_acc = ic->tape_acc,
        .tape_buf_kb = ic->tape_buf_kb,
        .trunk = ic->trunk_mode,
        .allowed = ic->allowed,
        .port_vsan = vsan_port_vsan(x->lab, x->sw, ifname),
        .profile_id = ic->profile,
        .special_frame = ic->special_frame,
        .sf_profile = ic->sf_profile,
        .time_stamp = ic->time_stamp,
        .ts_diff_ms = (uint32_t)ic->ts_diff_ms,
        .clock_set = lab_clock_is_set(x->lab, x->sw),
        .lab_clock_ns = lab_clock_ns(x->lab),
    };
    c.clock_ns = c.lab_clock_ns + lab_clock_offset_ns(x->lab, x->sw);
    memcpy(c.sf_peer_wwn, ic->sf_peer_wwn, sizeof c.sf_peer_wwn);
    member_of_channel(x->lab, x->sw, &c);
    struct fctimer_conf tov;
    fctimer_get(x->lab, x->sw, &tov);
    c.e_d_tov_ms = tov.e_d_tov_ms;
    c.r_a_tov_ms = tov.r_a_tov_ms;
    c.pmtu = !profile || pc.pmtu;
    if (profile)
        tcp_from_profile(&pc, &c.tcp);
    else
        tcp_params_default(&c.tcp);
    fcip_tunnel_apply(x->fe, &c);
}

void fcip_engine_reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    (void)net;
    struct fcip_engine *fe = state;
    fcip_engine_begin(fe);
    for (int sw = 0; sw < lab_switch_count(lab); sw++) {
        struct apply_ctx x = {lab, fe, sw};
        struct vsan_set src_dst;
        vsan_src_dst_ids(lab, sw, &src_dst);
        pchan_set_src_dst(fcip_engine_pchans(fe), sw, &src_dst);
        if (lab_feature_enabled(lab, sw, &fcip_gate))
            fcip_ifs_each(lab, sw, apply_if, &x);
    }
    fcip_engine_end(fe);
}

struct pchan_set *fcip_live_pchans(struct lab *lab)
{
    lab_reconcile(lab);
    struct fcip_engine *fe = lab_feature_state(lab, &fcip_feature);
    return fe ? fcip_engine_pchans(fe) : NULL;
}

struct fcip_tunnel *fcip_live(struct lab *lab, int sw, int id)
{
    lab_reconcile(lab);
    struct fcip_engine *fe = lab_feature_state(lab, &fcip_feature);
    return fe ? fcip_tunnel_find(fe, sw, id) : NULL;
}
