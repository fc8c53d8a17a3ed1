/* FCIP interface ends as records (fcip_record.h). */
#include "fcip_record.h"
#include "fcip.h"
#include "fcip_engine.h"
#include "feature.h"
#include "lab/lab.h"
#include <stdio.h>
#include <string.h>

#define FCIP_IF_MAX 255

static void tcp_record(const struct fcip_conn_info *c, struct fcip_tcp_record *r)
{
    const struct tcp_stats *t = &c->tcp;
    if (!c->present) { /* nothing to read: all zero */
        *r = (struct fcip_tcp_record){0};
        return;
    }
    *r = (struct fcip_tcp_record){
        .present = c->present, .state = t->state,
        .local_ip = c->local_ip, .remote_ip = c->remote_ip,
        .local_port = c->local_port, .remote_port = c->remote_port,
        .mss_bytes = t->mss, .rto_ns = t->rto_ns, .srtt_ns = t->srtt_ns, .rttvar_ns = t->rttvar_ns,
        .cwnd_bytes = t->cwnd, .ssthresh_bytes = t->ssthresh,
        .send_window_bytes = t->mws,
        .advertised_window_bytes = t->rcv_wnd, .advertised_window_max_bytes = t->rcv_wnd_max,
        .window_scale = t->rcv_wscale, .peer_window_bytes = t->peer_wnd, .peer_window_max_bytes = t->peer_wnd_max,
        .peer_window_scale = t->peer_wscale,
        .segments_sent = t->segs_sent, .sent_bytes = t->bytes_sent,
        .segments_received = t->segs_rcvd, .received_bytes = t->bytes_rcvd,
        .retx_segments = t->retx_segs, .retx_bytes = t->retx_bytes, .fast_retransmits = t->fast_retx,
        .timeouts = t->timeouts, .sack_recoveries = t->sack_recoveries,
        .dup_acks = t->dup_acks, .out_of_order_segments = t->ooo_segs, .keepalives = t->keepalives,
    };
}

/* The engine's status of a running tunnel end, as a record. */
static void from_tunnel(struct fcip_tunnel *t, struct fcip_record *r)
{
    struct fcip_status st;
    fcip_tunnel_status(t, &st);
    r->state = st.state, r->cause = st.cause, r->peer_sw = st.peer_sw;
    r->up_vsans = st.up, r->isolated_vsans = st.isolated;
    r->tcp_connections_up = st.nconn_up;
    for (int i = 0; i < 2; i++)
        tcp_record(&st.conn[i], &r->conn[i]);
    r->connect_attempts = st.attempts, r->connection_closes = st.closes;
    r->last_change_ns = st.last_change_ns;
    r->tx_frames = st.frames_out, r->tx_bytes = st.bytes_out;
    r->rx_frames = st.frames_in, r->rx_bytes = st.bytes_in;
    r->tx_classf_frames = st.cf_frames_out, r->tx_classf_bytes = st.cf_bytes_out;
    r->rx_classf_frames = st.cf_frames_in, r->rx_classf_bytes = st.cf_bytes_in;
    r->error_frames = st.dropped;
    r->timestamp_error_frames = st.ts_errors;
    r->in_rate_bits_per_s = st.in_bps, r->in_rate_frames_per_s = st.in_fps;
    r->out_rate_bits_per_s = st.out_bps, r->out_rate_frames_per_s = st.out_fps;
    r->compress_in_bytes = st.comp_in, r->compress_out_bytes = st.comp_out;
    r->write_acc_active = st.write_acc_active, r->tape_acc_active = st.tape_acc_active;
    r->tape = st.tape;
    const struct fcip_tcp_record *data = &r->conn[r->conn[1].present ? 1 : 0];
    r->cwnd_bytes = data->present ? data->cwnd_bytes : 0;
    r->srtt_us = data->present ? data->srtt_ns / ENGINE_NS_PER_US : 0;
    r->retx_segments = r->conn[0].retx_segments + r->conn[1].retx_segments;
}

static void record_init(struct fcip_record *r, int sw, int id)
{
    memset(r, 0, sizeof *r);
    r->sw = sw, r->id = id, r->peer_sw = -1;
}

bool fcip_record_get(struct lab *lab, int sw, int id, struct fcip_record *r)
{
    struct fcip_if_conf ic;
    record_init(r, sw, id);
    if (!fcip_if_get(lab, sw, id, &ic))
        return false;
    struct fcip_tunnel *t = lab_feature_enabled(lab, sw, &fcip_gate) ? fcip_live(lab, sw, id) : NULL;
    if (t)
        from_tunnel(t, r);
    else if (ic.shutdown)
        r->state = FCIP_ADMIN_DOWN, r->cause = FCIP_CAUSE_ADMIN;
    else
        r->state = FCIP_DOWN, r->cause = FCIP_CAUSE_NOT_CONNECTED;
    return true;
}

static void each(struct lab *lab, struct ipnet *net, void *state, record_fn fn, void *ctx)
{
    (void)net;
    for (int sw = 0; state && sw < lab_switch_count(lab); sw++)
        for (int id = 1; id <= FCIP_IF_MAX; id++) {
            struct fcip_tunnel *t = fcip_tunnel_find(state, sw, id);
            if (!t)
                continue;
            struct fcip_record r;
            char key[96];
            record_init(&r, sw, id);
            from_tunnel(t, &r);
            snprintf(key, sizeof key, "%s.fcip%d", lab_switch_name(lab, sw), id);
            fn(ctx, key, &r);
        }
}

#define F(member, kind) RECORD_FIELD(struct fcip_record, member, kind)
static const struct record_field fields[] = {
    F(tx_bytes, RECORD_COUNTER),  F(rx_bytes, RECORD_COUNTER), F(tx_frames, RECORD_COUNTER),
    F(rx_frames, RECORD_COUNTER), F(cwnd_bytes, RECORD_GAUGE), F(srtt_us, RECORD_GAUGE),
    F(retx_segments, RECORD_COUNTER), {NULL, 0, 0},
};

const struct record_type fcip_record_type = {"fcip interface end", fields, each};
