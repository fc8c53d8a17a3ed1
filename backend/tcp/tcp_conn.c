/* Life cycle, handshake, close, input dispatch, keepalive, stats. */
#include "tcp/tcp_int.h"

#include <stdlib.h>
#include <string.h>

uint64_t tcp_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)((u128)a * b / c);
#else
    return (uint64_t)((long double)a * b / c);
#endif
}

/* ---- parameters ------------------------------------------------------ */

void tcp_params_default(struct tcp_params *p)
{
    memset(p, 0, sizeof *p);
    p->max_bw_bps = 1000000000ULL;
    p->min_avail_bps = 500000000ULL;
    p->rtt_cfg_ns = ENGINE_NS_PER_MS;
    p->cwm = true;
    p->cwm_burst_bytes = 50u * 1024u;
    p->sack = true;
    p->max_retx = 4;
    p->min_rto_ns = 200 * ENGINE_NS_PER_MS;
    p->keepalive_ns = 60 * ENGINE_NS_PER_SEC;
    p->send_buffer_bytes = 0;
    p->mss = 1448;
    p->max_jitter_ns = 1000 * ENGINE_NS_PER_US;
}

int tcp_params_check(const struct tcp_params *p)
{
    bool ok = p->max_bw_bps >= 1000 && p->max_bw_bps <= 10000000000ULL &&
              p->min_avail_bps >= 1000 && p->min_avail_bps <= p->max_bw_bps &&
              p->rtt_cfg_ns <= 300 * ENGINE_NS_PER_MS &&
              p->cwm_burst_bytes >= 10u * 1024u && p->cwm_burst_bytes <= 100u * 1024u &&
              p->max_retx >= 1 && p->max_retx <= 8 &&
              p->min_rto_ns >= 50 * ENGINE_NS_PER_MS && p->min_rto_ns <= 5 * ENGINE_NS_PER_SEC &&
              p->keepalive_ns >= ENGINE_NS_PER_SEC && p->keepalive_ns <= 7200 * ENGINE_NS_PER_SEC &&
              p->send_buffer_bytes <= 8192u * 1024u &&
              p->mss >= TCP_MSS_MIN && p->mss <= TCP_MSS_MAX &&
              p->max_jitter_ns <= 10 * ENGINE_NS_PER_MS &&
              (p->rcv_wnd_bytes == 0 || (p->rcv_wnd_bytes >= TCP_MWS_MIN && p->rcv_wnd_bytes <= TCP_RCV_WND));
    return ok ? 0 : -1;
}

const char *tcp_state_name(enum tcp_state s)
{
    static const char *n[] = { "CLOSED", "LISTEN", "SYN_SENT", "SYN_RCVD",
                               "ESTABLISHED", "CLOSING" };
    return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "?";
}

const char *tcp_reason_name(enum tcp_reason r)
{
    static const char *n[] = { "none", "local close", "peer close", "local abort",
                               "peer reset", "max retransmissions", "keepalive timeout",
                               "SYN timeout" };
    return (unsigned)r < sizeof n / sizeof n[0] ? n[r] : "?";
}

/* ---- timers ---------------------------------------------------------- */

void tcp_timer_arm(tcp_conn *c, struct tcp_timer *t, uint64_t deadline)
{
    t->deadline = deadline;
    if (t->id && t->at <= deadline)
        return;
    engine_cancel(c->e, t->id);
    t->id = engine_at(c->e, deadline, t->fn, c);
    t->at = deadline;
}

void tcp_timer_stop(struct tcp_timer *t)
{
    t->deadline = ENGINE_TIME_NEVER;
}

static void timer_cancel(tcp_conn *c, struct tcp_timer *t)
{
    engine_cancel(c->e, t->id);
    t->id = 0;
    t->deadline = ENGINE_TIME_NEVER;
}

bool tcp_timer_due(tcp_conn *c, struct tcp_timer *t)
{
    t->id = 0;
    if (t->deadline == ENGINE_TIME_NEVER)
        return false;
    if (t->deadline > engine_now(c->e)) {
        tcp_timer_arm(c, t, t->deadline);
        return false;
    }
    t->deadline = ENGINE_TIME_NEVER;
    return true;
}

/* ---- segments -------------------------------------------------------- */

uint32_t tcp_seg_ip_len(const struct tcp_seg *seg)
{
    return TCP_HDR_BYTES + seg->len + (seg->n_sack ? 4u + 8u * seg->n_sack : 0u);
}

void tcp_seg_hold(const struct tcp_seg *seg)
{
    tcp_stream_ref(seg->stream);
}

void tcp_seg_drop(const struct tcp_seg *seg)
{
    tcp_stream_unref(seg->stream);
}

uint32_t tcp_emit(tcp_conn *c, uint8_t flags, uint64_t seq, uint32_t len)
{
    struct tcp_seg s;
    memset(&s, 0, sizeof s);
    s.seq = seq;
    s.len = len;
    s.flags = flags;
    s.window = (uint32_t)c->rcv_wnd;
    s.wscale = c->rcv_wscale;
    if (c->rcv_nxt + c->rcv_wnd > c->rcv_edge)
        c->rcv_edge = c->rcv_nxt + c->rcv_wnd;
    s.ts_val = engine_now(c->e);
    s.ts_ecr = c->ts_recent;
    s.stream = c->out;
    if (flags & TCP_SYN) {
        s.mss = (uint16_t)c->p.mss;
        s.sack_ok = c->p.sack;
    }
    if (flags & TCP_ACK) {
        s.ack = c->rcv_nxt;
        s.n_sack = tcp_sack_blocks(c, s.sack);
        c->last_ack_sent = c->rcv_nxt;
        c->ack_pending = 0;
        c->ack_now = false;
        tcp_timer_stop(&c->delack_t);
    }
    tcp_stream_ref(c->out);
    c->st.segs_sent++;
    c->st.bytes_sent += len;
    uint32_t ip_len = tcp_seg_ip_len(&s);
    c->cb.output(c->cb.ctx, &s, ip_len);
    return ip_len;
}

/* ---- life cycle ------------------------------------------------------ */

static void ka_event(engine_t *e, void *arg);
static void rto_event(engine_t *e, void *arg);
static void syn_expired(tcp_conn *c);

tcp_conn *tcp_conn_new(engine_t *e, const char *name, const struct tcp_params *p,
                       const struct tcp_callbacks *cb)
{
    if (tcp_params_check(p) != 0 || !cb->output || !cb->deliver)
        return NULL;
    tcp_conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->name = strdup(name ? name : "tcp");
    c->out = tcp_stream_new();
    if (!c->name || !c->out) {
        free(c->name);
        tcp_stream_unref(c->out);
        free(c);
        return NULL;
    }
    c->e = e;
    c->p = *p;
    c->cb = *cb;
    c->mss = p->mss;
    c->rcv_mss = p->mss;
    c->rto = p->min_rto_ns > TCP_SYN_RTO_NS ? p->min_rto_ns : TCP_SYN_RTO_NS;
    c->ssthresh = UINT64_MAX / 4;
    c->peer_wnd = TCP_RCV_WND;
    /* The scale is fixed for the connection's life (its SYN carries it):
     * an FCIP end takes the one that holds any profile's window (32 MB),
     * so a live profile change never needs another. */
    c->rcv_wscale = tcp_wscale_of(p->rcv_wnd_bytes ? p->rcv_wnd_bytes : TCP_MWS_MAX);
    tcp_derive(c);
    tcp_shaper_update(c);
    c->rto_t = (struct tcp_timer){ 0, 0, ENGINE_TIME_NEVER, rto_event };
    c->delack_t = (struct tcp_timer){ 0, 0, ENGINE_TIME_NEVER, tcp_delack_event };
    c->ka_t = (struct tcp_timer){ 0, 0, ENGINE_TIME_NEVER, ka_event };
    return c;
}

void tcp_conn_free(tcp_conn *c)
{
    if (!c)
        return;
    timer_cancel(c, &c->rto_t);
    timer_cancel(c, &c->delack_t);
    timer_cancel(c, &c->ka_t);
    engine_cancel(c->e, c->pace_id);
    struct tcp_rec r;
    while (tcp_stream_pop(c->out, &r))
        if (c->cb.drop_rec)
            c->cb.drop_rec(c->cb.ctx, r.rec, r.len);
    tcp_stream_unref(c->out);
    tcp_stream_unref(c->in);
    tcp_ranges_free(&c->sacked);
    tcp_ranges_free(&c->ooo);
    free(c->name);
    free(c);
}

void tcp_go_closed(tcp_conn *c, enum tcp_reason why)
{
    if (c->state == TCP_CLOSED)
        return;
    c->state = TCP_CLOSED;
    c->reason = why;
    timer_cancel(c, &c->rto_t);
    timer_cancel(c, &c->delack_t);
    timer_cancel(c, &c->ka_t);
    engine_cancel(c->e, c->pace_id);
    c->pace_id = 0;
    if (c->cb.state)
        c->cb.state(c->cb.ctx, TCP_CLOSED, why);
}

static void ka_push(tcp_conn *c)
{
    c->last_rx = engine_now(c->e);
    c->ka_probes = 0;
    tcp_timer_arm(c, &c->ka_t, c->last_rx + c->p.keepalive_ns);
}

/* Keepalive (engine-model.md 4.3, [S9]): after keepalive_ns without a
 * segment from the peer and with nothing outstanding (the RTO covers that
 * case), probe with an old sequence number the peer must ACK; 8 probes
 * 1 s apart, then give up. */
static void ka_event(engine_t *e, void *arg)
{
    (void)e;
    tcp_conn *c = arg;
    if (!tcp_timer_due(c, &c->ka_t))
        return;
    if (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSING)
        return;
    uint64_t now = engine_now(c->e);
    if (c->snd_una != c->snd_max) {
        tcp_timer_arm(c, &c->ka_t, now + c->p.keepalive_ns);
        return;
    }
    if (c->ka_probes >= TCP_KEEPALIVE_PROBES) {
        tcp_emit(c, TCP_RST | TCP_ACK, c->snd_max, 0);
        tcp_go_closed(c, TCP_REASON_KEEPALIVE);
        return;
    }
    c->ka_probes++;
    c->st.keepalives++;
    tcp_emit(c, TCP_ACK, c->snd_una - 1, 0);
    tcp_timer_arm(c, &c->ka_t, now + TCP_KEEPALIVE_INTVL_NS);
}

/* One retransmission timer serves the handshake and the data. */
static void rto_event(engine_t *e, void *arg)
{
    (void)e;
    tcp_conn *c = arg;
    if (!tcp_timer_due(c, &c->rto_t))
        return;
    if (c->state == TCP_SYN_SENT || c->state == TCP_SYN_RCVD)
        syn_expired(c);
    else if (c->state == TCP_ESTABLISHED || c->state == TCP_CLOSING)
        tcp_rto_expired(c);
}

static void set_established(tcp_conn *c)
{
    c->state = TCP_ESTABLISHED;
    c->retx_count = 0;
    tcp_timer_stop(&c->rto_t);
    tcp_out_established(c);
    ka_push(c);
    if (c->cb.state)
        c->cb.state(c->cb.ctx, TCP_ESTABLISHED, TCP_REASON_NONE);
}

static void send_syn(tcp_conn *c)
{
    uint8_t f = c->state == TCP_SYN_RCVD ? TCP_SYN | TCP_ACK : TCP_SYN;
    tcp_emit(c, f, 0, 0);
    tcp_timer_arm(c, &c->rto_t, engine_now(c->e) + c->rto);
}

/* SYN / SYN-ACK retransmission with backoff; max_retx retries. */
static void syn_expired(tcp_conn *c)
{
    c->st.timeouts++;
    if (++c->retx_count > c->p.max_retx) {
        tcp_go_closed(c, TCP_REASON_SYN_TIMEOUT);
        return;
    }
    c->rto = c->rto * 2 < TCP_RTO_MAX_NS ? c->rto * 2 : TCP_RTO_MAX_NS;
    c->st.retx_segs++;
    send_syn(c);
}

int tcp_connect(tcp_conn *c)
{
    if (c->used)
        return -1;
    c->used = true;
    c->state = TCP_SYN_SENT;
    c->snd_una = 0;
    c->snd_max = c->snd_end = 1;
    send_syn(c);
    return 0;
}

int tcp_listen(tcp_conn *c)
{
    if (c->used)
        return -1;
    c->used = true;
    c->state = TCP_LISTEN;
    return 0;
}

void tcp_close(tcp_conn *c)
{
    switch (c->state) {
    case TCP_ESTABLISHED:
        c->local_close = true;
        c->fin_queued = true;
        c->state = TCP_CLOSING;
        tcp_output(c);
        break;
    case TCP_CLOSING:
        break;
    case TCP_SYN_RCVD:
        tcp_emit(c, TCP_RST | TCP_ACK, c->snd_max, 0);
        tcp_go_closed(c, TCP_REASON_LOCAL_CLOSE);
        break;
    default:
        c->used = true;
        tcp_go_closed(c, TCP_REASON_LOCAL_CLOSE);
        break;
    }
}

void tcp_abort(tcp_conn *c)
{
    if (c->state == TCP_ESTABLISHED || c->state == TCP_CLOSING || c->state == TCP_SYN_RCVD)
        tcp_emit(c, TCP_RST | TCP_ACK, c->snd_max, 0);
    c->used = true;
    tcp_go_closed(c, TCP_REASON_LOCAL_ABORT);
}

int tcp_set_params(tcp_conn *c, const struct tcp_params *p)
{
    if (tcp_params_check(p) != 0)
        return -1;
    if (c->state == TCP_LISTEN || c->state == TCP_CLOSED) {
        c->mss = p->mss;
        c->rcv_mss = p->mss;
    } else if (p->mss < c->mss) {
        c->mss = p->mss;
    }
    c->p = *p;
    tcp_derive(c);
    tcp_shaper_update(c);
    tcp_rto_refresh(c);
    if (c->ka_t.deadline != ENGINE_TIME_NEVER && c->ka_probes == 0)
        tcp_timer_arm(c, &c->ka_t, c->last_rx + p->keepalive_ns);
    tcp_output(c);
    tcp_check_writable(c);      /* a larger window or buffer makes room */
    return 0;
}

const struct tcp_params *tcp_get_params(const tcp_conn *c)
{
    return &c->p;
}

enum tcp_state tcp_state_get(const tcp_conn *c)
{
    return c->state;
}

/* ---- input ----------------------------------------------------------- */

/* The handshake's SYN fixes what each side offered. */
static void take_syn(tcp_conn *c, const struct tcp_seg *seg)
{
    tcp_stream_ref(seg->stream);
    c->in = seg->stream;
    c->rcv_nxt = 1;
    c->last_ack_sent = 1;
    c->ts_recent = seg->ts_val;
    /* An MSS option below the minimum is not believed (RFC 9293 3.7.1
     * lets a sender assume 536 without one). */
    uint32_t peer = seg->mss >= TCP_MSS_MIN ? seg->mss : TCP_MSS_MIN;
    c->rcv_mss = peer;
    if (peer < c->mss)
        c->mss = peer;
    c->sack_ok = c->p.sack && seg->sack_ok;
    c->peer_wnd = c->peer_wnd_max = seg->window;
    c->peer_wscale = seg->wscale;
}

static void input_listen(tcp_conn *c, const struct tcp_seg *seg)
{
    if ((seg->flags & (TCP_SYN | TCP_ACK | TCP_RST)) != TCP_SYN)
        return;
    take_syn(c, seg);
    c->state = TCP_SYN_RCVD;
    c->snd_una = 0;
    c->snd_max = c->snd_end = 1;
    send_syn(c);
}

static void input_syn_sent(tcp_conn *c, const struct tcp_seg *seg)
{
    if (!(seg->flags & TCP_ACK) || seg->ack != 1)
        return;
    if (seg->flags & TCP_RST) {
        tcp_go_closed(c, TCP_REASON_PEER_RESET);
        return;
    }
    if (!(seg->flags & TCP_SYN))
        return;
    take_syn(c, seg);
    c->snd_una = 1;
    tcp_rtt_sample(c, engine_now(c->e) - seg->ts_ecr);
    set_established(c);
    c->ack_now = true;
    tcp_output(c);
}

static void check_done(tcp_conn *c)
{
    if (c->state == TCP_CLOSING && c->fin_rcvd && c->fin_acked)
        tcp_go_closed(c, c->local_close ? TCP_REASON_LOCAL_CLOSE : TCP_REASON_PEER_CLOSE);
}

static void input_sync(tcp_conn *c, const struct tcp_seg *seg)
{
    if (seg->stream != c->in)
        return;                 /* a segment of another incarnation */
    if (seg->flags & TCP_RST) {
        tcp_go_closed(c, TCP_REASON_PEER_RESET);
        return;
    }
    ka_push(c);
    if (seg->flags & TCP_SYN) {
        if (c->state == TCP_SYN_RCVD && !(seg->flags & TCP_ACK))
            send_syn(c);        /* our SYN-ACK was lost */
        else
            tcp_send_ack(c);    /* our ACK of their SYN-ACK was lost */
        return;
    }
    if (!(seg->flags & TCP_ACK))
        return;
    if (c->state == TCP_SYN_RCVD) {
        if (seg->ack < 1 || seg->ack > c->snd_max)
            return;
        c->snd_una = 1;
        tcp_rtt_sample(c, engine_now(c->e) - seg->ts_ecr);
        set_established(c);
    }
    tcp_rcv_ts(c, seg);
    tcp_process_ack(c, seg);
    if (c->state == TCP_CLOSED)
        return;
    tcp_rcv_data(c, seg);
    if (c->fin_rcvd && c->state == TCP_ESTABLISHED) {
        c->state = TCP_CLOSING;
        c->fin_queued = true;
    }
    if (c->state == TCP_CLOSED)
        return;
    tcp_output(c);
    check_done(c);
    tcp_check_writable(c);
}

void tcp_input(tcp_conn *c, const struct tcp_seg *seg)
{
    c->st.segs_rcvd++;
    c->st.bytes_rcvd += seg->len;
    switch (c->state) {
    case TCP_LISTEN:
        input_listen(c, seg);
        break;
    case TCP_SYN_SENT:
        input_syn_sent(c, seg);
        break;
    case TCP_SYN_RCVD:
    case TCP_ESTABLISHED:
    case TCP_CLOSING:
        input_sync(c, seg);
        break;
    case TCP_CLOSED:
        /* Like TIME_WAIT: a retransmitted FIN gets its ACK again, so the
         * peer's close completes even if our last ACK was lost. */
        if (c->in && seg->stream == c->in && (seg->flags & TCP_FIN) && !(seg->flags & TCP_RST))
            tcp_emit(c, TCP_ACK, c->snd_max, 0);
        break;
    }
    tcp_stream_unref(seg->stream);
}

void tcp_stats_get(const tcp_conn *c, struct tcp_stats *out)
{
    *out = c->st;
    out->state = c->state;
    out->close_reason = c->reason;
    out->srtt_ns = c->srtt;
    out->rttvar_ns = c->rttvar;
    out->rto_ns = c->rto;
    out->cwnd = tcp_cwnd_now(c);
    out->ssthresh = c->ssthresh;
    out->mws = tcp_mws(c);
    out->pace_bps = c->pace_bps;
    out->min_rtt_ns = c->min_rtt;
    out->bw_est = tcp_bw_est(c);
    out->w_floor = tcp_w_floor(c);
    out->peer_wnd = c->peer_wnd;
    out->peer_wnd_max = c->peer_wnd_max;
    out->peer_wscale = c->peer_wscale;
    out->rcv_wnd = c->rcv_wnd;
    out->rcv_wnd_max = c->rcv_wnd_max;
    out->rcv_wscale = c->rcv_wscale;
    out->mss = c->mss;
    out->flight = c->snd_max - c->snd_una;
    out->buffered = tcp_buffered(c);
}

void tcp_stats_clear(tcp_conn *c)
{
    memset(&c->st, 0, sizeof c->st);
}
