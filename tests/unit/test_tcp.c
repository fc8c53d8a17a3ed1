/* Unit tests of the simulated TCP (backend/tcp): two endpoints joined by
 * two netsim pipes, one per direction, with the golden scenarios G5 and
 * G8-G13 of engine-model.md section 6 at the TCP level, plus handshake,
 * stream integrity under loss/reorder/duplication, SACK and NewReno
 * recovery, back-pressure, pacing and determinism. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "netsim/pipe.h"
#include "tcp/tcp.h"

#define MS ENGINE_NS_PER_MS
#define US ENGINE_NS_PER_US
#define SEC ENGINE_NS_PER_SEC

/* ---- harness ----------------------------------------------------------- */

typedef struct rec {
    uint64_t id;
    uint32_t len;
} rec;

typedef struct side side;
typedef struct net net;

/* A data segment leaving a side, for the pacing and recovery checks. */
typedef struct txlog {
    uint64_t t, seq;
    uint32_t len, ip_len;
} txlog;

struct side {
    net *n;
    int id;
    tcp_conn *c;
    netsim_pipe *pipe;          /* carries what this side sends */
    side *peer;
    /* IP-layer hooks */
    bool (*drop)(side *s, const struct tcp_seg *seg);   /* true: lose it */
    uint64_t drop_seqs[16];     /* first transmission of these seqs is lost */
    int n_drop_seqs;
    bool drop_all;
    void (*mangle)(side *s, struct tcp_seg *seg);   /* edit the copy sent */
    uint32_t dup_every;         /* send every nth segment twice */
    uint64_t out_count;
    uint8_t last_n_sack;        /* of the last segment sent */
    uint64_t max_seq_sent;
    /* application */
    uint32_t rec_len;           /* bulk writer record size, 0 = random 1..6000 */
    bool bulk;
    uint64_t send_limit_bytes;  /* stop writing after this many bytes (0 = no limit) */
    uint64_t written_bytes, written_recs, refused, writable_calls;
    uint64_t next_id;
    uint64_t rx_next_id, rx_bytes, rx_recs, rx_order_errors, rx_early;
    uint64_t dropped_recs;
    enum tcp_state last_state;
    enum tcp_reason reason;
    uint64_t t_established, t_closed;
    int n_established, n_closed;
    txlog *log;
    size_t n_log, cap_log;
    bool keep_log;
    uint64_t rng;
};

struct net {
    engine_t *e;
    side s[2];
    uint64_t live_segs;         /* segment copies inside the IP layer */
    uint32_t l2_extra;          /* bytes the pipe charges beyond IP length */
};

static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void fill(side *s);

static void app_deliver(void *ctx, void *r, uint32_t len)
{
    side *s = ctx;
    rec *k = r;
    if (k->id != s->rx_next_id || k->len != len)
        s->rx_order_errors++;
    s->rx_next_id = k->id + 1;
    s->rx_bytes += len;
    /* Released only once all its bytes are in order: the receiver's
     * in-order byte count must cover every record handed over so far. */
    struct tcp_stats st;
    tcp_stats_get(s->c, &st);
    if (st.bytes_delivered < s->rx_bytes)
        s->rx_early++;
    s->rx_recs++;
    free(k);
}

static void app_writable(void *ctx)
{
    side *s = ctx;
    s->writable_calls++;
    if (s->bulk)
        fill(s);
}

static void app_state(void *ctx, enum tcp_state st, enum tcp_reason why)
{
    side *s = ctx;
    s->last_state = st;
    s->reason = why;
    if (st == TCP_ESTABLISHED) {
        s->n_established++;
        s->t_established = engine_now(s->n->e);
        if (s->bulk)
            fill(s);
    } else if (st == TCP_CLOSED) {
        s->n_closed++;
        s->t_closed = engine_now(s->n->e);
    }
}

static void app_drop_rec(void *ctx, void *r, uint32_t len)
{
    side *s = ctx;
    (void)len;
    s->dropped_recs++;
    free(r);
}

/* Write one record; false if refused. */
static bool app_write(side *s, uint32_t len)
{
    rec *k = malloc(sizeof *k);
    ck_assert_ptr_nonnull(k);
    k->id = s->next_id;
    k->len = len;
    if (!tcp_send(s->c, len, k)) {
        free(k);
        s->refused++;
        return false;
    }
    s->next_id++;
    s->written_bytes += len;
    s->written_recs++;
    return true;
}

static uint32_t next_len(side *s)
{
    return s->rec_len ? s->rec_len : 1 + (uint32_t)(next_rand(&s->rng) % 6000);
}

/* The bulk writer keeps the send buffer full. */
static void fill(side *s)
{
    for (;;) {
        if (s->send_limit_bytes && s->written_bytes >= s->send_limit_bytes)
            return;
        if (!app_write(s, next_len(s)))
            return;
    }
}

static void ip_deliver(void *ctx, netsim_pkt pkt)
{
    side *s = ctx;
    struct tcp_seg *seg = pkt.user;
    s->n->live_segs--;
    tcp_input(s->peer->c, seg);
    free(seg);
}

static void ip_drop(void *ctx, netsim_pkt pkt, netsim_drop_cause cause)
{
    side *s = ctx;
    (void)cause;
    struct tcp_seg *seg = pkt.user;
    s->n->live_segs--;
    tcp_seg_drop(seg);
    free(seg);
}

static bool listed_drop(side *s, const struct tcp_seg *seg)
{
    if (seg->len == 0 || seg->seq < s->max_seq_sent)
        return false;           /* only first transmissions */
    for (int i = 0; i < s->n_drop_seqs; i++)
        if (s->drop_seqs[i] == seg->seq)
            return true;
    return false;
}

static void pipe_send(side *s, const struct tcp_seg *seg, uint32_t ip_len)
{
    struct tcp_seg *copy = malloc(sizeof *copy);
    ck_assert_ptr_nonnull(copy);
    *copy = *seg;
    if (s->mangle)
        s->mangle(s, copy);
    s->n->live_segs++;
    netsim_pipe_send(s->pipe, (netsim_pkt){ ip_len + s->n->l2_extra, copy });
}

static void ip_output(void *ctx, const struct tcp_seg *seg, uint32_t ip_len)
{
    side *s = ctx;
    uint32_t opt = seg->n_sack ? 4u + 8u * seg->n_sack : 0u;
    ck_assert_uint_le(seg->n_sack, TCP_SACK_MAX);
    ck_assert_uint_eq(ip_len, 52 + seg->len + opt);
    ck_assert_uint_le(ip_len, tcp_get_params(s->c)->mss + 52);   /* within the MTU */
    s->out_count++;
    s->last_n_sack = seg->n_sack;
    if (seg->len && s->keep_log) {
        if (s->n_log == s->cap_log) {
            s->cap_log = s->cap_log ? s->cap_log * 2 : 4096;
            s->log = realloc(s->log, s->cap_log * sizeof *s->log);
            ck_assert_ptr_nonnull(s->log);
        }
        s->log[s->n_log++] = (txlog){ engine_now(s->n->e), seg->seq, seg->len, ip_len };
    }
    bool lose = s->drop_all || listed_drop(s, seg) || (s->drop && s->drop(s, seg));
    if (seg->len && seg->seq + seg->len > s->max_seq_sent)
        s->max_seq_sent = seg->seq + seg->len;
    if (lose) {
        tcp_seg_drop(seg);
        return;
    }
    if (s->dup_every && s->out_count % s->dup_every == 0) {
        tcp_seg_hold(seg);
        pipe_send(s, seg, ip_len);
    }
    pipe_send(s, seg, ip_len);
}

/* One-way delay and rate per direction; l2_extra = 18 (netsim L2
 * accounting) or 38 (a 1 GbE port: plus preamble and inter-frame gap). */
static net *net_new(uint64_t seed, const struct tcp_params *pa, const struct tcp_params *pb,
                    uint64_t delay_ns, uint64_t rate_bps, uint32_t l2_extra)
{
    net *n = calloc(1, sizeof *n);
    ck_assert_ptr_nonnull(n);
    n->e = engine_new(seed);
    n->l2_extra = l2_extra;
    const struct tcp_params *ps[2] = { pa, pb };
    for (int i = 0; i < 2; i++) {
        side *s = &n->s[i];
        s->n = n;
        s->id = i;
        s->peer = &n->s[1 - i];
        s->rng = 0x9e3779b97f4a7c15ULL + (uint64_t)i;
        char name[32];
        snprintf(name, sizeof name, "dir%d", i);
        netsim_pipe_callbacks pcb = { ip_deliver, ip_drop, s };
        s->pipe = netsim_pipe_new(n->e, name, &pcb);
        ck_assert_ptr_nonnull(s->pipe);
        netsim_pipe_config c;
        netsim_pipe_config_init(&c);
        c.delay_set = true;
        c.delay_ns = delay_ns;
        c.rate_set = true;
        c.rate_bps = rate_bps;
        ck_assert_int_eq(netsim_pipe_configure(s->pipe, &c), 0);
        struct tcp_callbacks cb = { ip_output, app_deliver, app_writable, app_state,
                                    app_drop_rec, s };
        snprintf(name, sizeof name, "tcp%d", i);
        s->c = tcp_conn_new(n->e, name, ps[i], &cb);
        ck_assert_ptr_nonnull(s->c);
    }
    return n;
}

static net *net_default(uint64_t delay_ns, uint64_t rate_bps, uint32_t l2_extra)
{
    struct tcp_params p;
    tcp_params_default(&p);
    return net_new(1, &p, &p, delay_ns, rate_bps, l2_extra);
}

static void net_pipe_config(net *n, int dir, void (*edit)(netsim_pipe_config *c, void *arg), void *arg)
{
    netsim_pipe_config c = *netsim_pipe_config_get(n->s[dir].pipe);
    edit(&c, arg);
    ck_assert_int_eq(netsim_pipe_configure(n->s[dir].pipe, &c), 0);
}

static void set_random_drop(netsim_pipe_config *c, void *arg)
{
    c->drop_random_set = true;
    c->drop_random = *(uint32_t *)arg;
    c->drop_random_burst = 1;
}

static void set_reorder(netsim_pipe_config *c, void *arg)
{
    c->reorder_set = true;
    c->reorder_mode = NETSIM_REORDER_RANDOM;
    c->reorder_value = *(uint32_t *)arg;
    c->reorder_distance = 3;
}

static void set_qsize(netsim_pipe_config *c, void *arg)
{
    c->qsize_set = true;
    c->qsize_bytes = *(uint64_t *)arg;
}

static void net_connect(net *n)
{
    ck_assert_int_eq(tcp_listen(n->s[1].c), 0);
    ck_assert_int_eq(tcp_connect(n->s[0].c), 0);
}

static void run_for(net *n, uint64_t ns)
{
    engine_run_until(n->e, engine_now(n->e) + ns);
}

static void net_free(net *n)
{
    for (int i = 0; i < 2; i++) {
        tcp_conn_free(n->s[i].c);
        netsim_pipe_free(n->s[i].pipe);
        free(n->s[i].log);
    }
    ck_assert_uint_eq(n->live_segs, 0);
    engine_free(n->e);
    free(n);
}

static struct tcp_stats stats(const side *s)
{
    struct tcp_stats st;
    tcp_stats_get(s->c, &st);
    return st;
}

/* Receiver goodput in bytes/s over [now, now + ns). */
static double measure(net *n, int rx, uint64_t ns)
{
    uint64_t b0 = n->s[rx].rx_bytes;
    run_for(n, ns);
    return (double)(n->s[rx].rx_bytes - b0) * SEC / (double)ns;
}

/* ---- handshake and life cycle ------------------------------------------- */

START_TEST(test_handshake)
{
    net *n = net_default(5 * MS, 1000000000ULL, 18);
    net_connect(n);
    ck_assert_int_eq(tcp_state_get(n->s[0].c), TCP_SYN_SENT);
    ck_assert_int_eq(tcp_state_get(n->s[1].c), TCP_LISTEN);
    run_for(n, 30 * MS);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(n->s[i].n_established, 1);
        ck_assert_int_eq(tcp_state_get(n->s[i].c), TCP_ESTABLISHED);
    }
    /* Active side: SYN-ACK after one RTT; passive: the ACK 1.5 RTT. */
    ck_assert_uint_ge(n->s[0].t_established, 10 * MS);
    ck_assert_uint_lt(n->s[0].t_established, 10 * MS + 100 * US);
    ck_assert_uint_ge(n->s[1].t_established, 15 * MS);
    ck_assert_uint_lt(n->s[1].t_established, 15 * MS + 100 * US);
    struct tcp_stats a = stats(&n->s[0]);
    ck_assert_uint_ge(a.srtt_ns, 10 * MS);
    ck_assert_uint_lt(a.srtt_ns, 10 * MS + 100 * US);
    ck_assert_uint_eq(a.rto_ns, 200 * MS);          /* the profile minimum */
    ck_assert_uint_eq(a.mss, 1448);
    /* A used endpoint cannot be opened again. */
    ck_assert_int_eq(tcp_connect(n->s[0].c), -1);
    ck_assert_int_eq(tcp_listen(n->s[1].c), -1);
    /* Records flow both ways. */
    for (int i = 0; i < 10; i++) {
        ck_assert(app_write(&n->s[0], 1000));
        ck_assert(app_write(&n->s[1], 3000));
    }
    run_for(n, 100 * MS);
    ck_assert_uint_eq(n->s[1].rx_recs, 10);
    ck_assert_uint_eq(n->s[0].rx_recs, 10);
    ck_assert_uint_eq(n->s[1].rx_bytes, 10000);
    ck_assert_uint_eq(n->s[0].rx_bytes, 30000);
    ck_assert_uint_eq(n->s[0].rx_order_errors + n->s[1].rx_order_errors, 0);
    net_free(n);
}
END_TEST

static bool drop_first_syn(side *s, const struct tcp_seg *seg)
{
    (void)s;
    static int count;
    return (seg->flags & TCP_SYN) && count++ == 0;
}

START_TEST(test_syn_lost_then_retransmitted)
{
    net *n = net_default(1 * MS, 1000000000ULL, 18);
    n->s[0].drop = drop_first_syn;
    net_connect(n);
    run_for(n, 900 * MS);
    ck_assert_int_eq(tcp_state_get(n->s[0].c), TCP_SYN_SENT);
    run_for(n, 200 * MS);
    ck_assert_int_eq(tcp_state_get(n->s[0].c), TCP_ESTABLISHED);
    /* The retransmitted SYN left at the 1 s initial RTO. */
    ck_assert_uint_ge(n->s[0].t_established, 1 * SEC + 2 * MS);
    ck_assert_uint_lt(n->s[0].t_established, 1 * SEC + 3 * MS);
    struct tcp_stats a = stats(&n->s[0]);
    ck_assert_uint_eq(a.timeouts, 1);
    /* The handshake sample comes from the SYN that got through. */
    ck_assert_uint_lt(a.srtt_ns, 3 * MS);
    net_free(n);
}
END_TEST

static bool drop_first_synack_and_ack(side *s, const struct tcp_seg *seg)
{
    static int synack, ack;
    if (s->id == 1 && (seg->flags & TCP_SYN))
        return synack++ == 0;                      /* the first SYN-ACK */
    if (s->id == 0 && !(seg->flags & TCP_SYN) && seg->len == 0)
        return ack++ < 2;   /* the handshake's ACK, and the one that answers
                             * the SYN-ACK the passive side repeats at 1 s */
    return false;
}

/* Lost SYN-ACK: the SYN is sent again and answered again. Lost third ACK:
 * the passive side is established by the first data segment's ACK. */
START_TEST(test_synack_and_ack_lost)
{
    net *n = net_default(1 * MS, 1000000000ULL, 18);
    n->s[0].drop = drop_first_synack_and_ack;
    n->s[1].drop = drop_first_synack_and_ack;
    net_connect(n);
    run_for(n, 1100 * MS);
    ck_assert_int_eq(tcp_state_get(n->s[0].c), TCP_ESTABLISHED);
    ck_assert_int_eq(tcp_state_get(n->s[1].c), TCP_SYN_RCVD);
    ck_assert(app_write(&n->s[0], 500));
    run_for(n, 10 * MS);
    ck_assert_int_eq(tcp_state_get(n->s[1].c), TCP_ESTABLISHED);
    ck_assert_uint_eq(n->s[1].rx_recs, 1);
    ck_assert_int_eq(n->s[0].n_established, 1);
    ck_assert_int_eq(n->s[1].n_established, 1);
    net_free(n);
}
END_TEST

START_TEST(test_syn_timeout)
{
    net *n = net_default(1 * MS, 1000000000ULL, 18);
    n->s[0].drop_all = true;
    net_connect(n);
    run_for(n, 30 * SEC);
    ck_assert_int_eq(n->s[0].n_closed, 0);
    /* 1 + 2 + 4 + 8 + 16 s: four retransmissions, then the fifth expiry. */
    run_for(n, 2 * SEC);
    ck_assert_int_eq(n->s[0].n_closed, 1);
    ck_assert_int_eq(n->s[0].reason, TCP_REASON_SYN_TIMEOUT);
    ck_assert_uint_eq(n->s[0].t_closed, 31 * SEC);
    ck_assert_uint_eq(stats(&n->s[0]).retx_segs, 4);
    ck_assert_int_eq(tcp_state_get(n->s[1].c), TCP_LISTEN);
    net_free(n);
}
END_TEST

START_TEST(test_graceful_close)
{
    net *n = net_default(2 * MS, 1000000000ULL, 18);
    net_connect(n);
    run_for(n, 20 * MS);
    for (int i = 0; i < 100; i++)
        ck_assert(app_write(&n->s[0], 1000));
    tcp_close(n->s[0].c);
    ck_assert(!app_write(&n->s[0], 10));         /* closing: refused */
    run_for(n, 200 * MS);
    ck_assert_uint_eq(n->s[1].rx_recs, 100);     /* data before the FIN */
    ck_assert_int_eq(n->s[0].reason, TCP_REASON_LOCAL_CLOSE);
    ck_assert_int_eq(n->s[1].reason, TCP_REASON_PEER_CLOSE);
    ck_assert_int_eq(n->s[0].n_closed, 1);
    ck_assert_int_eq(n->s[1].n_closed, 1);
    ck_assert_uint_eq(n->s[0].dropped_recs, 0);
    net_free(n);
}
END_TEST

START_TEST(test_abort_resets_peer)
{
    net *n = net_default(2 * MS, 1000000000ULL, 18);
    net_connect(n);
    run_for(n, 20 * MS);
    tcp_abort(n->s[1].c);
    ck_assert_int_eq(n->s[1].reason, TCP_REASON_LOCAL_ABORT);
    run_for(n, 10 * MS);
    ck_assert_int_eq(n->s[0].n_closed, 1);
    ck_assert_int_eq(n->s[0].reason, TCP_REASON_PEER_RESET);
    ck_assert_str_eq(tcp_reason_name(TCP_REASON_PEER_RESET), "peer reset");
    net_free(n);
}
END_TEST

/* Records still in the sender's stream when it is freed come back through
 * drop_rec, exactly once; a record is delivered or handed back, never
 * both. */
START_TEST(test_free_hands_back_records)
{
    net *n = net_default(50 * MS, 10000000ULL, 18);
    net_connect(n);
    run_for(n, 200 * MS);
    for (int i = 0; i < 10; i++)
        ck_assert(app_write(&n->s[0], 1448));
    run_for(n, 56 * MS);                           /* some, not all, arrived */
    uint64_t got = n->s[1].rx_recs;
    ck_assert_uint_gt(got, 0);
    ck_assert_uint_lt(got, 10);
    tcp_conn_free(n->s[0].c);
    ck_assert_uint_eq(n->s[0].dropped_recs, 10 - got);
    /* Segments still in the pipe reach the peer: bytes, but no record. */
    struct tcp_callbacks cb = { ip_output, app_deliver, NULL, app_state, app_drop_rec, &n->s[0] };
    struct tcp_params p;
    tcp_params_default(&p);
    n->s[0].c = tcp_conn_new(n->e, "fresh", &p, &cb);
    run_for(n, 200 * MS);
    ck_assert_uint_eq(n->s[1].rx_recs, got);
    net_free(n);
}
END_TEST

static void push_far_ahead(side *s, struct tcp_seg *seg)
{
    (void)s;
    static int count;
    if (seg->len && ++count == 5)
        seg->seq += 1ull << 40;
}

/* A segment beyond the advertised window is not accepted: it is as good as
 * lost, the data is retransmitted, the stream stays whole. Records larger
 * than the whole send limit go into an empty buffer; empty ones never. */
START_TEST(test_out_of_window_and_record_sizes)
{
    net *n = net_default(1 * MS, 1000000000ULL, 38);
    n->s[0].mangle = push_far_ahead;
    net_connect(n);
    run_for(n, 20 * MS);
    for (int i = 0; i < 20; i++)
        ck_assert(app_write(&n->s[0], 1448));
    run_for(n, 1 * SEC);
    ck_assert_uint_eq(n->s[1].rx_recs, 20);
    ck_assert_uint_eq(n->s[1].rx_early, 0);
    ck_assert_uint_eq(n->s[1].rx_order_errors, 0);
    struct tcp_stats st = stats(&n->s[0]);
    ck_assert_uint_eq(st.retx_segs, 1);
    /* Nothing of it was kept: the receiver has no block left to SACK. */
    ck_assert_uint_eq(n->s[1].last_n_sack, 0);
    ck_assert(!app_write(&n->s[0], 0));
    uint32_t big = 40u * 1024u * 1024u;            /* > MWS + send buffer */
    ck_assert_uint_gt(big, st.mws);
    ck_assert(app_write(&n->s[0], big));
    ck_assert(!app_write(&n->s[0], 1));
    run_for(n, 2 * SEC);
    ck_assert_uint_eq(n->s[1].rx_recs, 21);
    ck_assert_uint_eq(n->s[1].rx_bytes, 20 * 1448 + (uint64_t)big);
    net_free(n);
}
END_TEST

START_TEST(test_params_check)
{
    struct tcp_params p;
    tcp_params_default(&p);
    ck_assert_int_eq(tcp_params_check(&p), 0);
    struct tcp_params q = p;
    q.max_retx = 9;
    ck_assert_int_eq(tcp_params_check(&q), -1);
    q = p;
    q.max_retx = 0;
    ck_assert_int_eq(tcp_params_check(&q), -1);
    q = p;
    q.min_avail_bps = p.max_bw_bps + 1;
    ck_assert_int_eq(tcp_params_check(&q), -1);
    q = p;
    q.send_buffer_bytes = 8192 * 1024 + 1;
    ck_assert_int_eq(tcp_params_check(&q), -1);
    q = p;
    q.rtt_cfg_ns = 301 * MS;
    ck_assert_int_eq(tcp_params_check(&q), -1);
    q = p;
    q.cwm_burst_bytes = 9 * 1024;
    ck_assert_int_eq(tcp_params_check(&q), -1);
    q = p;
    q.mss = 100;
    ck_assert_int_eq(tcp_params_check(&q), -1);
    struct tcp_callbacks cb = { ip_output, app_deliver, NULL, NULL, NULL, NULL };
    engine_t *e = engine_new(1);
    q = p;
    q.keepalive_ns = 0;
    ck_assert_ptr_null(tcp_conn_new(e, "bad", &q, &cb));
    tcp_conn *c = tcp_conn_new(e, "ok", &p, &cb);
    ck_assert_int_eq(tcp_set_params(c, &q), -1);
    ck_assert_uint_eq(tcp_get_params(c)->keepalive_ns, 60 * SEC);
    ck_assert(!tcp_send(c, 100, NULL));            /* not connected */
    tcp_conn_free(c);
    engine_free(e);
}
END_TEST

/* ---- stream integrity --------------------------------------------------- */

START_TEST(test_records_conserved_under_loss_reorder_dup)
{
    net *n = net_default(10 * MS, 50000000ULL, 18);
    uint32_t p = 200, r = 300;                     /* 2 % loss, 3 % reorder */
    for (int i = 0; i < 2; i++) {
        net_pipe_config(n, i, set_random_drop, &p);
        net_pipe_config(n, i, set_reorder, &r);
        n->s[i].dup_every = 37;
        n->s[i].bulk = true;
        n->s[i].rec_len = 0;                        /* random 1..6000 */
        n->s[i].send_limit_bytes = 1000000;
    }
    net_connect(n);
    run_for(n, 10 * SEC);
    for (int i = 0; i < 2; i++) {
        side *s = &n->s[i], *o = s->peer;
        ck_assert_uint_eq(s->rx_order_errors, 0);
        ck_assert_uint_eq(s->rx_early, 0);
        /* Every record written was delivered, in order, exactly once. */
        ck_assert_uint_eq(s->rx_recs, o->written_recs);
        ck_assert_uint_eq(s->rx_bytes, o->written_bytes);
        ck_assert_uint_ge(o->written_bytes, 1000000);
        struct tcp_stats st = stats(o);
        ck_assert_uint_gt(st.retx_segs, 0);
        ck_assert_uint_eq(st.bytes_acked, o->written_bytes);
        ck_assert_uint_gt(stats(s).ooo_segs, 0);
    }
    tcp_close(n->s[0].c);
    run_for(n, 5 * SEC);
    ck_assert_int_eq(n->s[0].reason, TCP_REASON_LOCAL_CLOSE);
    ck_assert_int_eq(n->s[1].reason, TCP_REASON_PEER_CLOSE);
    net_free(n);
}
END_TEST

/* Heavy, varied impairment over several seeds, SACK on and off, both ways:
 * the stream stays whole and both ends close cleanly. */
START_TEST(test_stress_seeds)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        struct tcp_params p, q;
        tcp_params_default(&p);
        p.min_avail_bps = seed % 2 ? 1000000 : 500000000;
        p.max_retx = 8;
        q = p;
        q.sack = seed % 4 != 3;
        net *n = net_new(seed, &p, &q, (seed % 3 + 1) * MS, 20000000ULL, 18);
        uint32_t loss = 300 + 100 * (uint32_t)(seed % 4), r = 500;
        for (int i = 0; i < 2; i++) {
            net_pipe_config(n, i, set_random_drop, &loss);
            net_pipe_config(n, i, set_reorder, &r);
            n->s[i].dup_every = 11 + (uint32_t)seed;
            n->s[i].bulk = true;
            n->s[i].rng += seed;
            n->s[i].send_limit_bytes = 100000;
        }
        net_connect(n);
        run_for(n, 30 * SEC);
        tcp_close(n->s[seed % 2].c);
        run_for(n, 30 * SEC);
        for (int i = 0; i < 2; i++) {
            side *s = &n->s[i], *o = s->peer;
            ck_assert_uint_eq(s->rx_order_errors, 0);
            ck_assert_uint_eq(s->rx_early, 0);
            ck_assert_uint_eq(s->rx_recs, o->written_recs);
            ck_assert_uint_eq(s->rx_bytes, o->written_bytes);
            ck_assert_int_eq(s->n_closed, 1);
            ck_assert(s->reason == TCP_REASON_LOCAL_CLOSE || s->reason == TCP_REASON_PEER_CLOSE);
        }
        net_free(n);
    }
}
END_TEST

/* ---- golden scenarios --------------------------------------------------- */

/* G5: 10 Mb/s netsim, delay 0, qsize 1000 KB, profile 10 Mb/s. Path bound
 * in TCP payload: rate/8 x 1448/1518 (L2 accounting). */
START_TEST(test_g5_rate_bound)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.max_bw_bps = 10000000;
    p.min_avail_bps = 10000000;
    net *n = net_new(1, &p, &p, 0, 10000000ULL, 18);
    uint64_t q = 1000000;
    net_pipe_config(n, 0, set_qsize, &q);
    n->s[0].bulk = true;
    n->s[0].rec_len = 2112;
    net_connect(n);
    run_for(n, 500 * MS);
    double x = measure(n, 1, 4 * SEC);
    double bound = 10e6 / 8 * 1448.0 / 1518.0;
    printf("G5: %.0f B/s TCP payload, path bound %.0f (%.2f %%)\n", x, bound, 100 * x / bound);
    /* Paced at the path rate: no standing queue, no loss. */
    netsim_pipe_stats ps;
    netsim_pipe_stats_get(n->s[0].pipe, &ps);
    ck_assert_uint_eq(stats(&n->s[0]).retx_segs, 0);
    ck_assert_uint_le(ps.max_qlen_bytes, 2 * 1518);
    /* Records arrive whole: the window edge may catch one more. */
    ck_assert(x >= 0.97 * bound && x <= 1.003 * bound);
    net_free(n);
}
END_TEST

/* G8: profile 100 Mb/s and 50 ms, 25 ms each way at line rate: MWS
 * 590 034 B (at 50 ms), 11.80 MB/s. */
START_TEST(test_g8_window_bound)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.max_bw_bps = 100000000;
    p.min_avail_bps = 100000000;
    p.rtt_cfg_ns = 50 * MS;
    net *n = net_new(1, &p, &p, 25 * MS, 1000000000ULL, 38);
    n->s[0].bulk = true;
    n->s[0].rec_len = 2112;
    net_connect(n);
    run_for(n, 500 * MS);
    double x = measure(n, 1, 2 * SEC);
    struct tcp_stats st = stats(&n->s[0]);
    double expect = 590034.0 / 0.050;
    printf("G8: MWS %lu B (srtt %lu ns), %.0f B/s, expected %.0f (%.2f %%)\n",
           (unsigned long)st.mws, (unsigned long)st.srtt_ns, x, expect, 100 * x / expect);
    ck_assert_uint_ge(st.mws, 590034);
    ck_assert_uint_lt(st.mws, 590034 * 101 / 100);
    ck_assert(x >= 0.95 * expect && x <= 1.05 * expect);
    ck_assert_uint_eq(st.retx_segs, 0);
    net_free(n);
}
END_TEST

/* The receive window an FCIP end advertises follows its profile
 * (docs/tcp.md "Receive window"): max-bandwidth x 2 RTT (measured, within
 * [rtt_cfg, 4 rtt_cfg]) + 4 KB; the maximum (4 rtt_cfg) fixes the scale. */
START_TEST(test_rcv_window_formula)
{
    struct tcp_params p;
    tcp_params_default(&p); /* 1 Gb/s, 1 ms */
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 0), 504096); /* no sample: the maximum */
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 200000), 125000000ull / 1000 * 2 + 4096);
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 3 * MS), 504096);
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 200 * MS), 504096);
    ck_assert_uint_eq(tcp_rcv_wnd_max_of(&p), 504096);
    ck_assert_uint_eq(tcp_wscale_of(504096), 3);
    p.max_bw_bps = 100000000;
    p.rtt_cfg_ns = 50 * MS;
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 10 * MS), 12500000ull / 10 + 4096); /* never below 2 rtt_cfg */
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 0), 2504096);
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 60 * MS), 12500000ull * 120 / 1000 + 4096);
    ck_assert_uint_eq(tcp_rcv_wnd_max_of(&p), 2504096);
    ck_assert_uint_eq(tcp_wscale_of(2504096), 6);
    p.max_bw_bps = 10000000;
    p.rtt_cfg_ns = 0;
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 50 * MS), TCP_MWS_MIN);
    ck_assert_uint_eq(tcp_rcv_wnd_max_of(&p), TCP_MWS_MIN);
    ck_assert_uint_eq(tcp_wscale_of(TCP_MWS_MIN), 0);
    p.max_bw_bps = 1000000000;
    p.rtt_cfg_ns = 300 * MS;
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 300 * MS), TCP_MWS_MAX);
    ck_assert_uint_eq(tcp_wscale_of(TCP_MWS_MAX), 10);
    p.rcv_wnd_bytes = 65536; /* a host's socket buffer: as given */
    ck_assert_uint_eq(tcp_rcv_wnd_of(&p, 300 * MS), 65536);
    ck_assert_uint_eq(tcp_rcv_wnd_max_of(&p), 65536);
    ck_assert_uint_eq(tcp_wscale_of(TCP_RCV_WND), 11);
}
END_TEST

/* Both ends of G8's profile: the receiver advertises twice its RTT's
 * worth, which the sender's window cap never reaches; a receiver with the
 * default profile (1 Gb/s, 1 ms: 504 096 B at most) binds the sender
 * instead, to its window per RTT. */
START_TEST(test_peer_window_binds)
{
    struct tcp_params p, q;
    tcp_params_default(&p);
    p.max_bw_bps = p.min_avail_bps = 100000000;
    p.rtt_cfg_ns = 50 * MS;
    for (int k = 0; k < 2; k++) {
        tcp_params_default(&q);
        net *n = net_new(1, &p, k ? &q : &p, 25 * MS, 1000000000ULL, 38);
        n->s[0].bulk = true;
        n->s[0].rec_len = 2112;
        net_connect(n);
        run_for(n, 500 * MS);
        double x = measure(n, 1, 2 * SEC);
        struct tcp_stats a = stats(&n->s[0]), b = stats(&n->s[1]);
        ck_assert_uint_eq(b.rcv_wnd, tcp_rcv_wnd_of(k ? &q : &p, b.srtt_ns));
        ck_assert_uint_eq(a.peer_wnd, b.rcv_wnd);
        ck_assert_uint_eq(a.peer_wscale, 10); /* 32 MB fits: any profile, changed live or not */
        double expect = (double)(k ? b.rcv_wnd : a.mws) / ((double)a.srtt_ns / SEC);
        printf("peer window %s: sender MWS %lu, receiver advertises %lu (max %lu, scale %u): %.0f B/s, "
               "expected %.0f\n", k ? "binds" : "does not bind", (unsigned long)a.mws, (unsigned long)b.rcv_wnd,
               (unsigned long)b.rcv_wnd_max, b.rcv_wscale, x, expect);
        ck_assert(k ? b.rcv_wnd < a.mws : b.rcv_wnd > a.mws);
        ck_assert(x >= 0.95 * expect && x <= 1.05 * expect);
        net_free(n);
    }
}
END_TEST

/* G9: line rate, MTU 1500, a 1 GbE port (preamble + IFG counted): TCP
 * payload = 125e6 x 1448/1538 = 117.69 MB/s; as FC payload in 2112-B
 * FCIP frames carrying 2048 B: x 2048/2112 = 114.12 MB/s. */
START_TEST(test_g9_line_rate)
{
    net *n = net_default(0, 1000000000ULL, 38);
    n->s[0].bulk = true;
    n->s[0].rec_len = 2112;
    net_connect(n);
    run_for(n, 100 * MS);
    double x = measure(n, 1, 250 * MS);
    double expect = 125e6 * 1448.0 / 1538.0;
    printf("G9: %.0f B/s TCP payload (FC payload %.0f), expected %.0f (%.2f %%)\n", x,
           x * 2048 / 2112, expect, 100 * x / expect);
    ck_assert_uint_eq(stats(&n->s[0]).retx_segs, 0);
    ck_assert(x >= 0.98 * expect && x <= 1.003 * expect);
    net_free(n);
}
END_TEST

static double g10_run(uint64_t min_avail, uint64_t seconds, struct tcp_stats *out)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.min_avail_bps = min_avail;
    net *n = net_new(1, &p, &p, 50 * MS, 1000000000ULL, 38);
    uint32_t pr = 100;
    net_pipe_config(n, 0, set_random_drop, &pr);
    n->s[0].bulk = true;
    n->s[0].rec_len = 2112;
    net_connect(n);
    run_for(n, 2 * SEC);
    double x = measure(n, 1, seconds * SEC) * 8;
    *out = stats(&n->s[0]);
    ck_assert_uint_eq(n->s[1].rx_order_errors, 0);
    net_free(n);
    return x;
}

/* G10 / G11: random 1 % loss, 100 ms RTT; standard TCP within the
 * Mathis/Padhye range, and the 500 Mb/s floor keeps at least 5x that. */
START_TEST(test_g10_g11_floor)
{
    struct tcp_stats a, b;
    double g10 = g10_run(1000000, 150, &a);
    double g11 = g10_run(500000000, 6, &b);
    printf("G10: %.3f Mb/s (retx %lu, fast %lu, timeouts %lu); G11: %.3f Mb/s "
           "(retx %lu, timeouts %lu), ratio %.1f\n",
           g10 / 1e6, (unsigned long)a.retx_segs, (unsigned long)a.fast_retx,
           (unsigned long)a.timeouts, g11 / 1e6, (unsigned long)b.retx_segs,
           (unsigned long)b.timeouts, g11 / g10);
    ck_assert(g10 >= 0.6e6 && g10 <= 2.0e6);
    ck_assert(g11 >= 5 * g10);
    ck_assert_uint_gt(a.fast_retx, 50);
}
END_TEST

static uint64_t t_last_rec;

static void note_time(void *ctx, void *r, uint32_t len)
{
    side *s = ctx;
    app_deliver(ctx, r, len);
    t_last_rec = engine_now(s->n->e);
}

/* Time from writing a 256 000-B read's 125 FCIP frames to the last one
 * arriving; one-way 10 ms, 1 GbE, profile RTT 20 ms (G6 at the TCP level). */
static uint64_t read_latency(net *n)
{
    uint64_t t0 = engine_now(n->e);
    for (int i = 0; i < 125; i++)
        ck_assert(app_write(&n->s[0], 2112));
    run_for(n, 200 * MS);
    ck_assert_uint_eq(n->s[1].rx_recs % 125, 0);
    return t_last_rec - t0;
}

/* The floor (500 Mb/s x 20 ms = 1.25 MB, within MWS) is the first window,
 * and after an idle second CWM does not hold a burst below it: the whole
 * read leaves at once, paced at 1 Gb/s: 10 ms + 264 000 x 1538/1448 B at
 * 125 MB/s = 12.24 ms. With min-available 1 Mb/s the initial window (3 MSS)
 * and then the CWM burst (50 KB) cost round trips. */
START_TEST(test_g6_read_latency_floor_and_cwm)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.rtt_cfg_ns = 20 * MS;
    net *n = net_new(1, &p, &p, 10 * MS, 1000000000ULL, 38);
    struct tcp_callbacks cb = { ip_output, note_time, app_writable, app_state, app_drop_rec,
                                &n->s[1] };
    tcp_conn_free(n->s[1].c);
    n->s[1].c = tcp_conn_new(n->e, "rx", &p, &cb);
    net_connect(n);
    run_for(n, 100 * MS);
    double expect = 10.0 + 264000.0 * 1538 / 1448 / 125e6 * 1e3;
    double first = (double)read_latency(n) / MS;
    run_for(n, 1 * SEC);
    double again = (double)read_latency(n) / MS;
    printf("G6: %.3f ms, after 1 s idle %.3f ms, expected %.3f ms\n", first, again, expect);
    ck_assert(first >= expect - 0.05 && first <= expect + 0.2);
    ck_assert(again >= expect - 0.05 && again <= expect + 0.2);
    net_free(n);

    p.min_avail_bps = 1000000;
    n = net_new(1, &p, &p, 10 * MS, 1000000000ULL, 38);
    tcp_conn_free(n->s[1].c);
    cb.ctx = &n->s[1];
    n->s[1].c = tcp_conn_new(n->e, "rx", &p, &cb);
    net_connect(n);
    run_for(n, 100 * MS);
    first = (double)read_latency(n) / MS;
    run_for(n, 1 * SEC);
    again = (double)read_latency(n) / MS;
    printf("G6 with min-available 1 Mb/s: %.3f ms, after 1 s idle %.3f ms\n", first, again);
    ck_assert(first > expect + 40);                /* slow start: several RTTs */
    ck_assert(again > expect + 20 && again < first);   /* CWM: 50 KB, then growth */
    net_free(n);
}
END_TEST

/* G12: drop everything one way after the connection is up: the RTO
 * doubles from 200 ms 4 times, the fifth expiry resets: 31 x 200 ms. */
START_TEST(test_g12_max_retx_reset)
{
    net *n = net_default(50 * US, 1000000000ULL, 38);
    net_connect(n);
    run_for(n, 50 * MS);
    ck_assert(app_write(&n->s[0], 1000));
    run_for(n, 10 * MS);
    n->s[0].drop_all = true;
    uint64_t t0 = engine_now(n->e);
    ck_assert(app_write(&n->s[0], 1000));
    run_for(n, 10 * SEC);
    ck_assert_int_eq(n->s[0].n_closed, 1);
    ck_assert_int_eq(n->s[0].reason, TCP_REASON_MAX_RETX);
    uint64_t dt = n->s[0].t_closed - t0;
    printf("G12: reset after %.3f s\n", (double)dt / SEC);
    ck_assert_uint_ge(dt, 6000 * MS);
    ck_assert_uint_le(dt, 6400 * MS);
    struct tcp_stats st = stats(&n->s[0]);
    ck_assert_uint_eq(st.timeouts, 5);
    ck_assert_uint_eq(st.retx_segs, 4);
    net_free(n);
}
END_TEST

/* G13: idle, then drop both ways: 60 s keepalive + 8 probes 1 s apart. */
START_TEST(test_g13_keepalive_close)
{
    net *n = net_default(1 * MS, 1000000000ULL, 38);
    net_connect(n);
    run_for(n, 50 * MS);
    ck_assert(app_write(&n->s[0], 1000));
    run_for(n, 50 * MS);
    uint64_t last = engine_now(n->e);
    /* An answered probe keeps the connection: idle 200 s with the path up. */
    run_for(n, 200 * SEC);
    ck_assert_int_eq(tcp_state_get(n->s[0].c), TCP_ESTABLISHED);
    /* Whichever side's timer runs out first probes and its probe resets
     * the other's idle time; when both run out within one one-way delay,
     * both probe. So 1 or 2 probes per 60 s, at 60, 120 and 180 s. */
    uint64_t probes = stats(&n->s[0]).keepalives + stats(&n->s[1]).keepalives;
    ck_assert_uint_ge(probes, 3);
    ck_assert_uint_le(probes, 6);
    /* Last traffic now, then cut both ways. */
    ck_assert(app_write(&n->s[0], 1000));
    run_for(n, 50 * MS);
    last = engine_now(n->e);
    n->s[0].drop_all = n->s[1].drop_all = true;
    run_for(n, 67 * SEC);
    ck_assert_int_eq(n->s[0].n_closed, 0);
    run_for(n, 2 * SEC);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(n->s[i].n_closed, 1);
        ck_assert_int_eq(n->s[i].reason, TCP_REASON_KEEPALIVE);
        double dt = (double)(n->s[i].t_closed - last) / SEC;
        printf("G13: side %d closed %.3f s after the last traffic\n", i, dt);
        ck_assert(dt >= 67.0 && dt <= 69.0);
    }
    net_free(n);
}
END_TEST

/* ---- RTO ----------------------------------------------------------------- */

static uint64_t retx_times[64];
static int n_retx_times;

static bool log_and_drop_all(side *s, const struct tcp_seg *seg)
{
    if (seg->len && seg->seq < s->max_seq_sent && n_retx_times < 64)
        retx_times[n_retx_times++] = engine_now(s->n->e);
    return true;
}

/* The timer doubles at every expiry and stops doubling at 60 s. */
START_TEST(test_rto_backoff_and_cap)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.max_retx = 8;
    p.min_rto_ns = 5 * SEC;
    p.keepalive_ns = 7200 * SEC;
    net *n = net_new(1, &p, &p, 1 * MS, 1000000000ULL, 38);
    net_connect(n);
    run_for(n, 50 * MS);
    n_retx_times = 0;
    n->s[0].drop = log_and_drop_all;
    uint64_t t0 = engine_now(n->e);
    ck_assert(app_write(&n->s[0], 100));
    run_for(n, 5 * SEC + 1 * MS);
    /* After the first expiry: ssthresh = max(flight/2, 2 MSS, W_floor),
     * cwnd lifted from 1 MSS to the floor (500 Mb/s x srtt). */
    struct tcp_stats st = stats(&n->s[0]);
    ck_assert_uint_eq(st.timeouts, 1);
    ck_assert_uint_gt(st.w_floor, 1448);
    ck_assert_uint_eq(st.cwnd, st.w_floor);
    ck_assert_uint_eq(st.ssthresh, st.w_floor > 2 * 1448 ? st.w_floor : 2 * 1448);
    tcp_stats_clear(n->s[0].c);
    ck_assert_uint_eq(stats(&n->s[0]).timeouts, 0);
    ck_assert_uint_eq(stats(&n->s[0]).cwnd, st.cwnd);
    run_for(n, 400 * SEC);
    /* 5, 10, 20, 40, 60, 60, 60, 60 s between transmissions. */
    static const uint64_t gap[] = { 5, 10, 20, 40, 60, 60, 60, 60 };
    ck_assert_int_eq(n_retx_times, 8);
    uint64_t prev = t0;
    for (int i = 0; i < 8; i++) {
        ck_assert_uint_eq(retx_times[i] - prev, gap[i] * SEC);
        prev = retx_times[i];
    }
    ck_assert_int_eq(n->s[0].reason, TCP_REASON_MAX_RETX);
    ck_assert_uint_eq(n->s[0].t_closed - prev, 60 * SEC);
    net_free(n);
}
END_TEST

/* ---- loss recovery ------------------------------------------------------- */

/* Count retransmissions and when they left. */
static void recovery_setup(net *n, int n_lost)
{
    net_connect(n);
    run_for(n, 100 * MS);
    /* Holes at segments 20, 23, 26, 29 of the stream (1448-B segments). */
    side *s = &n->s[0];
    s->n_drop_seqs = n_lost;
    for (int i = 0; i < n_lost; i++)
        s->drop_seqs[i] = 1 + (uint64_t)(20 + 3 * i) * 1448;
    s->keep_log = true;
    for (int i = 0; i < 100; i++)
        ck_assert(app_write(s, 1448));
    run_for(n, 3 * SEC);
    ck_assert_uint_eq(n->s[1].rx_recs, 100);
    ck_assert_uint_eq(n->s[1].rx_order_errors, 0);
}

static void retx_span(const side *s, uint64_t *first, uint64_t *last, int *count)
{
    uint64_t hi = 0;
    *count = 0;
    for (size_t i = 0; i < s->n_log; i++) {
        const txlog *l = &s->log[i];
        if (l->seq < hi) {
            if ((*count)++ == 0)
                *first = l->t;
            *last = l->t;
        } else {
            hi = l->seq + l->len;
        }
    }
}

/* RFC 6675: four holes in one window are all retransmitted within one
 * RTT, each once, with no timeout. */
START_TEST(test_sack_recovers_holes_in_one_rtt)
{
    net *n = net_default(20 * MS, 1000000000ULL, 38);
    recovery_setup(n, 4);
    struct tcp_stats st = stats(&n->s[0]);
    uint64_t first = 0, last = 0;
    int count;
    retx_span(&n->s[0], &first, &last, &count);
    printf("SACK: %d retransmissions over %.3f ms, srtt %.3f ms\n", count,
           (double)(last - first) / MS, (double)st.srtt_ns / MS);
    ck_assert_int_eq(count, 4);
    ck_assert_uint_eq(st.retx_segs, 4);
    ck_assert_uint_eq(st.timeouts, 0);
    ck_assert_uint_eq(st.sack_recoveries, 1);
    ck_assert_uint_eq(st.fast_retx, 1);
    ck_assert_uint_lt(last - first, 40 * MS);      /* within one RTT */
    net_free(n);
}
END_TEST

/* Loses the first transmission of segment 20 (listed) and its first
 * retransmission. */
static int retx_of_20_lost;
static bool drop_first_retx_of_20(side *s, const struct tcp_seg *seg)
{
    if (seg->len == 0 || seg->seq != 1 + 20 * 1448ull || seg->seq >= s->max_seq_sent || retx_of_20_lost)
        return false;
    retx_of_20_lost = 1;
    return true;
}

static void lost_retx_run(net *n, uint32_t segs)
{
    retx_of_20_lost = 0;
    side *s = &n->s[0];
    s->n_drop_seqs = 1;
    s->drop_seqs[0] = 1 + 20 * 1448ull;
    s->drop = drop_first_retx_of_20;
    s->bulk = true;
    s->rec_len = 1448;
    s->send_limit_bytes = (uint64_t)segs * 1448;
    net_connect(n);
    run_for(n, 100 * MS);
    fill(s);
    run_for(n, 5 * SEC);
    ck_assert_uint_eq(n->s[1].rx_recs, segs);
    ck_assert_uint_eq(n->s[1].rx_order_errors, 0);
    ck_assert_int_eq(retx_of_20_lost, 1);
}

/* A lost retransmission is seen when data sent after it is SACKed while
 * its hole stays open: sent again at once, no RTO. 20 ms each way, 1 GbE,
 * a window (rtt 50 ms) above the path's BDP so new data keeps flowing. */
START_TEST(test_lost_retransmission_without_rto)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.rtt_cfg_ns = 50 * MS;
    net *n = net_new(1, &p, &p, 20 * MS, 1000000000ULL, 38);
    lost_retx_run(n, 4000);
    struct tcp_stats st = stats(&n->s[0]);
    printf("lost retransmission: %llu retransmissions, %llu timeouts\n", (unsigned long long)st.retx_segs,
           (unsigned long long)st.timeouts);
    ck_assert_uint_eq(st.timeouts, 0);
    ck_assert_uint_eq(st.retx_segs, 2);
    net_free(n);
}
END_TEST

/* RFC 6675 section 5.1: after an RTO the sender keeps the scoreboard and
 * does not resend what is merely queued. 10 Mb/s, 50 ms each way, the
 * default profile (window 472 846 B, floor far above it): ~350 KB wait in
 * the queue when the hole's retransmission is lost and the RTO fires
 * (the window is full, nothing new goes out to reveal the loss). */
START_TEST(test_rto_keeps_the_scoreboard)
{
    net *n = net_default(50 * MS, 10000000ULL, 18);
    lost_retx_run(n, 1500);
    struct tcp_stats st = stats(&n->s[0]);
    printf("RTO with a full queue: %llu retransmissions, %llu timeouts\n", (unsigned long long)st.retx_segs,
           (unsigned long long)st.timeouts);
    ck_assert_uint_ge(st.timeouts, 1);
    ck_assert_uint_le(st.retx_segs, 2 + st.timeouts);
    net_free(n);
}
END_TEST

/* Without SACK (one side off): NewReno, one hole per RTT, no timeout. */
START_TEST(test_newreno_without_sack)
{
    struct tcp_params p, q;
    tcp_params_default(&p);
    q = p;
    q.sack = false;
    net *n = net_new(1, &p, &q, 20 * MS, 1000000000ULL, 38);
    recovery_setup(n, 3);
    struct tcp_stats st = stats(&n->s[0]);
    uint64_t first = 0, last = 0;
    int count;
    retx_span(&n->s[0], &first, &last, &count);
    printf("NewReno: %d retransmissions over %.3f ms\n", count, (double)(last - first) / MS);
    ck_assert_int_eq(count, 3);
    ck_assert_uint_eq(st.timeouts, 0);
    ck_assert_uint_eq(st.fast_retx, 1);
    ck_assert_uint_eq(st.sack_recoveries, 0);
    /* One partial ACK per RTT: the third hole goes two RTTs after the first. */
    ck_assert_uint_ge(last - first, 80 * MS);
    ck_assert_uint_lt(last - first, 90 * MS);
    ck_assert_uint_ge(st.dup_acks, 3);
    net_free(n);
}
END_TEST

/* ---- back-pressure, pacing, live parameters ----------------------------- */

START_TEST(test_backpressure)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.send_buffer_bytes = 100 * 1024;
    net *n = net_new(1, &p, &p, 10 * MS, 10000000ULL, 18);
    net_connect(n);
    run_for(n, 100 * MS);
    side *s = &n->s[0];
    struct tcp_stats st = stats(s);
    uint64_t limit = st.mws + p.send_buffer_bytes;
    ck_assert_uint_eq(tcp_send_room(s->c), UINT32_MAX > limit ? UINT32_MAX : limit);
    uint64_t acc = 0;
    while (app_write(s, 1000))
        acc += 1000;
    /* Refused exactly when the next record would cross MWS + buffer. */
    ck_assert_uint_le(acc, limit);
    ck_assert_uint_gt(acc + 1000, limit);
    ck_assert_uint_eq(s->refused, 1);
    ck_assert_uint_eq(stats(s).buffered, acc);
    ck_assert_uint_eq(s->writable_calls, 0);
    /* A profile edit that enlarges the buffer makes room at once. */
    struct tcp_params q = p;
    q.send_buffer_bytes = 200 * 1024;
    ck_assert_int_eq(tcp_set_params(s->c, &q), 0);
    ck_assert_uint_eq(s->writable_calls, 1);
    ck_assert_uint_eq(tcp_send_room(s->c), limit + 100 * 1024 - acc);
    ck_assert_int_eq(tcp_set_params(s->c, &p), 0);
    ck_assert(!app_write(s, 1000));
    run_for(n, 50 * MS);
    ck_assert_uint_ge(s->writable_calls, 2);
    ck_assert_uint_gt(tcp_send_room(s->c), 0);
    /* Bulk writer driven by writable() alone moves data at the path rate. */
    s->bulk = true;
    s->rec_len = 1000;
    fill(s);
    double x = measure(n, 1, 2 * SEC);
    ck_assert(x > 0.9 * 10e6 / 8 * 1448 / 1518);
    ck_assert_uint_le(stats(s).buffered, limit);
    net_free(n);
}
END_TEST

/* Data segments never leave faster than max_bw (L2 bytes), even on a much
 * faster path; and the rate follows a live profile change. */
START_TEST(test_pacing_and_live_change)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.max_bw_bps = 50000000;
    p.min_avail_bps = 50000000;
    p.rtt_cfg_ns = 20 * MS;
    net *n = net_new(1, &p, &p, 5 * MS, 1000000000ULL, 38);
    side *s = &n->s[0];
    s->bulk = true;
    s->rec_len = 5000;
    s->keep_log = true;
    net_connect(n);
    run_for(n, 200 * MS);
    double x = measure(n, 1, 1 * SEC);
    double expect = 50e6 / 8 * 1448 / 1518;
    printf("pacing: %.0f B/s at 50 Mb/s (%.2f %%)\n", x, 100 * x / expect);
    ck_assert(x >= 0.97 * expect && x <= 1.001 * expect);
    /* Any window of k segments takes at least their serialization time. */
    for (size_t i = 1; i < s->n_log; i++) {
        uint64_t need = (uint64_t)(s->log[i - 1].ip_len + 18) * 8 * SEC / p.max_bw_bps;
        ck_assert_uint_ge(s->log[i].t - s->log[i - 1].t + 1, need);
    }
    uint64_t tot = 0;
    for (size_t i = 0; i + 1 < s->n_log; i++)
        tot += s->log[i].ip_len + 18;
    double span = (double)(s->log[s->n_log - 1].t - s->log[0].t) / SEC;
    ck_assert(tot * 8 / span <= 50e6 * 1.0001);
    /* Live edit: 20 Mb/s, no reset. */
    p.max_bw_bps = 20000000;
    p.min_avail_bps = 20000000;
    ck_assert_int_eq(tcp_set_params(s->c, &p), 0);
    run_for(n, 300 * MS);
    x = measure(n, 1, 1 * SEC);
    expect = 20e6 / 8 * 1448 / 1518;
    ck_assert(x >= 0.97 * expect && x <= 1.001 * expect);
    ck_assert_int_eq(s->n_established, 1);
    ck_assert_int_eq(s->n_closed, 0);
    net_free(n);
}
END_TEST

/* After an idle period the CWM burst caps what leaves at once. */
START_TEST(test_cwm_restart_after_idle)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.min_avail_bps = 1000000;                     /* floor well below the burst */
    p.rtt_cfg_ns = 40 * MS;
    net *n = net_new(1, &p, &p, 20 * MS, 1000000000ULL, 38);
    side *s = &n->s[0];
    net_connect(n);
    run_for(n, 100 * MS);
    s->bulk = true;
    s->rec_len = 1448;
    s->send_limit_bytes = 4000000;
    fill(s);
    run_for(n, 3 * SEC);
    ck_assert_uint_eq(n->s[1].rx_bytes, s->written_bytes);
    ck_assert_uint_gt(stats(s).cwnd, 200000);
    /* Idle 1 s, then a large write: only the CWM burst before the first ACK. */
    run_for(n, 1 * SEC);
    s->send_limit_bytes += 1000000;
    s->keep_log = true;
    size_t before = s->n_log;
    fill(s);
    run_for(n, 39 * MS);                           /* less than one RTT */
    uint64_t sent = 0;
    for (size_t i = before; i < s->n_log; i++)
        sent += s->log[i].len;
    ck_assert_uint_le(sent, 50 * 1024);
    ck_assert_uint_gt(sent, 50 * 1024 - 1448);
    /* With CWM off the whole window goes. */
    p.cwm = false;
    ck_assert_int_eq(tcp_set_params(s->c, &p), 0);
    run_for(n, 3 * SEC);
    run_for(n, 1 * SEC);
    s->send_limit_bytes += 1000000;
    before = s->n_log;
    fill(s);
    run_for(n, 39 * MS);
    sent = 0;
    for (size_t i = before; i < s->n_log; i++)
        sent += s->log[i].len;
    ck_assert_uint_gt(sent, 150000);
    net_free(n);
}
END_TEST

/* ---- determinism --------------------------------------------------------- */

static uint64_t lossy_run(uint64_t seed, struct tcp_stats *out)
{
    struct tcp_params p;
    tcp_params_default(&p);
    net *n = net_new(seed, &p, &p, 10 * MS, 100000000ULL, 18);
    uint32_t pr = 100, r = 200;
    net_pipe_config(n, 0, set_random_drop, &pr);
    net_pipe_config(n, 1, set_reorder, &r);
    n->s[0].bulk = n->s[1].bulk = true;
    net_connect(n);
    run_for(n, 1500 * MS);
    *out = stats(&n->s[0]);
    uint64_t h = engine_trace_hash(n->e);
    net_free(n);
    return h;
}

START_TEST(test_determinism)
{
    struct tcp_stats a, b, c;
    uint64_t h1 = lossy_run(7, &a);
    uint64_t h2 = lossy_run(7, &b);
    uint64_t h3 = lossy_run(8, &c);
    ck_assert_uint_eq(h1, h2);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    ck_assert_uint_ne(h1, h3);                     /* another seed, other drops */
    ck_assert_uint_gt(a.retx_segs, 0);
}
END_TEST

/* ---- the shaper and the cork ------------------------------------------- */

/* Paced at the path's own rate, nothing queues: the shaper stays at
 * max-bandwidth. With the default profile (1 Gb/s) over 10 Mb/s, 100 ms
 * each way and a 250,000-B queue, the window (473 KB) keeps ~220 KB queued:
 * the shaper slows to about 5/4 of the path, so windows stop pouring into
 * the queue and the queue stops overflowing. (Once the standing queue has
 * lasted 10 s, the minimum RTT forgets the empty path and the shaper lets
 * go; the ACK clock keeps the flow from overflowing then.) */
START_TEST(test_shaper_follows_the_queue)
{
    struct tcp_params p;
    tcp_params_default(&p);
    p.max_bw_bps = p.min_avail_bps = 10000000;
    net *n = net_new(1, &p, &p, 0, 10000000, 18);
    n->s[0].bulk = true;
    n->s[0].rec_len = 5000;
    net_connect(n);
    run_for(n, 5 * SEC);
    ck_assert_uint_eq(stats(&n->s[0]).pace_bps, 10000000);
    net_free(n);

    n = net_default(100 * MS, 10000000, 18);
    uint64_t q = 250000;
    net_pipe_config(n, 0, set_qsize, &q);
    n->s[0].bulk = true;
    n->s[0].rec_len = 5000;
    net_connect(n);
    run_for(n, 5 * SEC);
    struct tcp_stats st = stats(&n->s[0]);
    run_for(n, 5 * SEC);
    netsim_pipe_stats ps0, ps1;
    netsim_pipe_stats_get(n->s[0].pipe, &ps0);
    double x = measure(n, 1, 20 * SEC);
    netsim_pipe_stats_get(n->s[0].pipe, &ps1);
    double bound = 1.25e6 * 1448 / 1518;
    printf("shaper after 5 s: %.2f Mb/s (min RTT %.1f ms, srtt %.1f ms), %.0f B/s (%.1f %% of the path), "
           "%llu queue drops in the first 10 s, %llu in the next 20, Max Qlen %llu\n",
           st.pace_bps / 1e6, st.min_rtt_ns / 1e6, st.srtt_ns / 1e6, x, 100 * x / bound,
           (unsigned long long)ps0.drop_qfull, (unsigned long long)(ps1.drop_qfull - ps0.drop_qfull),
           (unsigned long long)ps1.max_qlen_bytes);
    ck_assert_uint_ge(st.pace_bps, 10000000);
    ck_assert_uint_le(st.pace_bps, 16000000);
    ck_assert_uint_eq(ps1.drop_qfull, ps0.drop_qfull);
    ck_assert(x >= 0.97 * bound && x <= 1.001 * bound);
    net_free(n);
}
END_TEST

/* Corked, records shorter than a segment wait and then share one. */
START_TEST(test_cork_coalesces)
{
    net *n = net_default(10 * MS, 1000000000ULL, 38);
    side *s = &n->s[0];
    s->keep_log = true;
    net_connect(n);
    run_for(n, 100 * MS);
    tcp_set_cork(s->c, true);
    for (int i = 0; i < 5; i++)
        ck_assert(app_write(s, 100));
    run_for(n, 50 * MS);
    ck_assert_uint_eq(s->n_log, 0);
    for (int i = 0; i < 20; i++)
        ck_assert(app_write(s, 100));
    run_for(n, 50 * MS);
    ck_assert_uint_eq(s->n_log, 1); /* one full segment, 1,448 of the 2,500 bytes */
    ck_assert_uint_eq(s->log[0].len, 1448);
    tcp_set_cork(s->c, false);
    run_for(n, 50 * MS);
    ck_assert_uint_eq(s->n_log, 2);
    ck_assert_uint_eq(s->log[1].len, 2500 - 1448);
    ck_assert_uint_eq(n->s[1].rx_bytes, 2500);
    net_free(n);
}
END_TEST

static Suite *tcp_suite(void)
{
    Suite *s = suite_create("tcp");
    TCase *l = tcase_create("lifecycle");
    tcase_add_test(l, test_handshake);
    tcase_add_test(l, test_syn_lost_then_retransmitted);
    tcase_add_test(l, test_synack_and_ack_lost);
    tcase_add_test(l, test_syn_timeout);
    tcase_add_test(l, test_graceful_close);
    tcase_add_test(l, test_abort_resets_peer);
    tcase_add_test(l, test_free_hands_back_records);
    tcase_add_test(l, test_out_of_window_and_record_sizes);
    tcase_add_test(l, test_params_check);
    suite_add_tcase(s, l);
    TCase *g = tcase_create("golden");
    tcase_set_timeout(g, 300);
    tcase_add_test(g, test_records_conserved_under_loss_reorder_dup);
    tcase_add_test(g, test_stress_seeds);
    tcase_add_test(g, test_g5_rate_bound);
    tcase_add_test(g, test_g8_window_bound);
    tcase_add_test(g, test_rcv_window_formula);
    tcase_add_test(g, test_peer_window_binds);
    tcase_add_test(g, test_g9_line_rate);
    tcase_add_test(g, test_g6_read_latency_floor_and_cwm);
    tcase_add_test(g, test_g10_g11_floor);
    tcase_add_test(g, test_g12_max_retx_reset);
    tcase_add_test(g, test_g13_keepalive_close);
    suite_add_tcase(s, g);
    TCase *r = tcase_create("recovery");
    tcase_set_timeout(r, 60);
    tcase_add_test(r, test_rto_backoff_and_cap);
    tcase_add_test(r, test_sack_recovers_holes_in_one_rtt);
    tcase_add_test(r, test_newreno_without_sack);
    tcase_add_test(r, test_lost_retransmission_without_rto);
    tcase_add_test(r, test_rto_keeps_the_scoreboard);
    suite_add_tcase(s, r);
    TCase *f = tcase_create("flow");
    tcase_set_timeout(f, 60);
    tcase_add_test(f, test_backpressure);
    tcase_add_test(f, test_pacing_and_live_change);
    tcase_add_test(f, test_shaper_follows_the_queue);
    tcase_add_test(f, test_cork_coalesces);
    tcase_add_test(f, test_cwm_restart_after_idle);
    tcase_add_test(f, test_determinism);
    suite_add_tcase(s, f);
    return s;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);       /* figures survive a failed check */
    SRunner *sr = srunner_create(tcp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
