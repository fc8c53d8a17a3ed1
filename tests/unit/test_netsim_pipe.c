/* Unit tests of one netsim direction: golden scenarios G1-G4 of
 * engine-model.md section 6 at the pipe level, plus the section 6
 * invariants, checked after every scenario by check_invariants(). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "netsim/pipe.h"

#define MS ENGINE_NS_PER_MS
#define US ENGINE_NS_PER_US
#define SEC ENGINE_NS_PER_SEC

/* ---- harness: tracks every packet from send to delivery or drop ----- */

enum { PENDING = 0, DELIVERED, DROPPED };

typedef struct pk {
    uint64_t sent_t, done_t;
    uint32_t len;
    int8_t state;
    int8_t cause;
} pk;

typedef struct harness {
    engine_t *e;
    netsim_pipe *p;
    pk *pk;
    size_t n, cap;
    uint64_t *order;            /* seqs in delivery order */
    size_t n_order;
    uint64_t n_delivered, bytes_delivered;
    uint64_t n_dropped[4];
    uint64_t max_seq;
    uint64_t inversions;        /* deliveries of a seq below one already delivered */
    int state_errors;
    /* Bounds in force over the whole run, for the invariants. */
    uint64_t qsize_max, delay_min, rate_max;
    uint32_t len_max;
    bool reorder_used;
    bool freeing;
} harness;

static void h_deliver(void *ctx, netsim_pkt pkt)
{
    harness *h = ctx;
    uint64_t seq = (uintptr_t)pkt.user - 1;
    pk *k = &h->pk[seq];
    uint64_t now = engine_now(h->e);
    if (k->state != PENDING || k->len != pkt.len)
        h->state_errors++;
    /* Nothing leaves before it was serialized at the fastest rate and
     * delayed by the shortest delay ever in force. */
    uint64_t min_ser = (uint64_t)pkt.len * 8 * SEC / h->rate_max;
    if (now < k->sent_t + h->delay_min + min_ser)
        h->state_errors++;
    k->state = DELIVERED;
    k->done_t = now;
    if (h->n_order && seq < h->max_seq)
        h->inversions++;
    else
        h->max_seq = seq;
    h->order[h->n_order++] = seq;
    h->n_delivered++;
    h->bytes_delivered += pkt.len;
}

static void h_drop(void *ctx, netsim_pkt pkt, netsim_drop_cause cause)
{
    harness *h = ctx;
    pk *k = &h->pk[(uintptr_t)pkt.user - 1];
    if (k->state != PENDING || (cause == NETSIM_DROP_FLUSH) != h->freeing)
        h->state_errors++;
    k->state = DROPPED;
    k->cause = (int8_t)cause;
    k->done_t = engine_now(h->e);
    h->n_dropped[cause]++;
}

static void h_track_config(harness *h, const netsim_pipe_config *c)
{
    uint64_t q = netsim_config_qsize_bytes(c), r = netsim_config_rate_bps(c);
    uint64_t d = c->delay_set ? c->delay_ns : 0;
    if (q > h->qsize_max)
        h->qsize_max = q;
    if (r > h->rate_max)
        h->rate_max = r;
    if (d < h->delay_min)
        h->delay_min = d;
    h->reorder_used |= c->reorder_set;
}

static void h_config(harness *h, const netsim_pipe_config *c)
{
    ck_assert_int_eq(netsim_pipe_configure(h->p, c), 0);
    h_track_config(h, c);
}

static harness *h_new(uint64_t seed, const char *name, const netsim_pipe_config *c)
{
    harness *h = calloc(1, sizeof *h);
    ck_assert_ptr_nonnull(h);
    h->e = engine_new(seed);
    netsim_pipe_callbacks cb = { h_deliver, h_drop, h };
    h->p = netsim_pipe_new(h->e, name, &cb);
    ck_assert_ptr_nonnull(h->p);
    h->delay_min = UINT64_MAX;
    h_config(h, c);
    return h;
}

static bool h_send(harness *h, uint32_t len)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 1024;
        h->pk = realloc(h->pk, h->cap * sizeof *h->pk);
        h->order = realloc(h->order, h->cap * sizeof *h->order);
        ck_assert(h->pk && h->order);
    }
    size_t seq = h->n++;
    h->pk[seq] = (pk){ engine_now(h->e), 0, len, PENDING, -1 };
    if (len > h->len_max)
        h->len_max = len;
    return netsim_pipe_send(h->p, (netsim_pkt){ len, (void *)(uintptr_t)(seq + 1) });
}

static void h_send_at(harness *h, uint64_t t, uint32_t len)
{
    engine_run_until(h->e, t);
    h_send(h, len);
}

static uint64_t h_pending(const harness *h)
{
    uint64_t n = 0;
    for (size_t i = 0; i < h->n; i++)
        n += h->pk[i].state == PENDING;
    return n;
}

/* The section 6 invariants plus the pipe's own bookkeeping identities. */
static void check_invariants(harness *h)
{
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_int_eq(h->state_errors, 0);
    /* Counters agree with what the callbacks saw. */
    ck_assert_uint_eq(st.carried_pkts, 0);
    ck_assert_uint_eq(st.arrived_pkts, h->n);
    ck_assert_uint_eq(st.delivered_pkts, h->n_delivered);
    ck_assert_uint_eq(st.delivered_bytes, h->bytes_delivered);
    ck_assert_uint_eq(st.drop_nth, h->n_dropped[NETSIM_DROP_NTH]);
    ck_assert_uint_eq(st.drop_random, h->n_dropped[NETSIM_DROP_RANDOM]);
    ck_assert_uint_eq(st.drop_qfull, h->n_dropped[NETSIM_DROP_QFULL]);
    /* drops_total = nth + random + queue-full. */
    ck_assert_uint_eq(st.dropped_tot, st.drop_nth + st.drop_random + st.drop_qfull);
    ck_assert_uint_eq(st.dropped_netsim, st.drop_nth + st.drop_random);
    /* Conservation, in packets and in bytes. */
    ck_assert_uint_eq(st.arrived_pkts,
                      st.delivered_pkts + st.dropped_tot + st.qlen_pkts + st.inflight_pkts);
    uint64_t dropped_bytes = 0;
    for (size_t i = 0; i < h->n; i++)
        if (h->pk[i].state == DROPPED)
            dropped_bytes += h->pk[i].len;
    ck_assert_uint_eq(st.arrived_bytes,
                      st.delivered_bytes + dropped_bytes + st.qlen_bytes + st.inflight_bytes);
    ck_assert_uint_eq(h_pending(h), st.qlen_pkts + st.inflight_pkts);
    /* Queue sanity: Max Qlen <= Max_q, current <= high-water, no empty
     * queue holding bytes (unsigned counters would wrap, not go negative). */
    ck_assert_uint_le(st.max_qlen_bytes, h->qsize_max);
    ck_assert_uint_le(st.qlen_bytes, st.max_qlen_bytes);
    ck_assert_uint_le(st.qlen_pkts, st.max_qlen_pkts);
    ck_assert_uint_le(st.qlen_pkts, st.qlen_bytes);
    ck_assert_uint_le(st.qlen_bytes, st.qlen_pkts * h->len_max);
    ck_assert_uint_le(st.inflight_pkts, st.inflight_bytes);
    ck_assert_uint_le(st.inflight_bytes, st.inflight_pkts * h->len_max);
    /* FIFO order unless reorder was on; every inversion is counted. */
    if (!h->reorder_used)
        ck_assert_uint_eq(h->inversions, 0);
    ck_assert_uint_eq(h->inversions, st.reordered);
    /* Never faster than the fastest rate in force (one frame of slack
     * for the packet that was in service at the start). */
    uint64_t elapsed = engine_now(h->e);
    ck_assert_uint_le(st.delivered_bytes * 8,
                      (h->rate_max * elapsed) / SEC + (uint64_t)h->len_max * 8);
    if (st.mintxdel_poll && st.mintxdel_ethtx)
        ck_assert_uint_ge(st.mintxdel_poll + 1, st.mintxdel_ethtx);
}

/* Run until the pipe is empty; then nothing may be left pending. */
static void h_drain(harness *h)
{
    engine_run_until(h->e, engine_now(h->e) + 100 * SEC);
    ck_assert_uint_eq(engine_pending(h->e), 0);
    ck_assert_uint_eq(h_pending(h), 0);
    check_invariants(h);
}

static void h_free(harness *h)
{
    h->freeing = true;
    netsim_pipe_free(h->p);
    ck_assert_uint_eq(h_pending(h), 0);
    ck_assert_int_eq(h->state_errors, 0);
    engine_free(h->e);
    free(h->pk);
    free(h->order);
    free(h);
}

static netsim_pipe_config cfg_none(void)
{
    netsim_pipe_config c;
    netsim_pipe_config_init(&c);
    return c;
}

/* ---- G2: burst into a small queue ----------------------------------- */

START_TEST(test_g2_burst_into_small_queue)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 10000000;
    c.qsize_set = true, c.qsize_bytes = 50000;
    harness *h = h_new(1, "g2", &c);
    int accepted = 0;
    for (int i = 0; i < 100; i++)
        accepted += h_send(h, 1518);
    ck_assert_int_eq(accepted, 32);                  /* floor(50000/1518) */
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.max_qlen_bytes, 48576);
    ck_assert_uint_eq(st.max_qlen_pkts, 32);
    ck_assert_uint_eq(st.drop_qfull, 68);
    check_invariants(h);
    h_drain(h);
    /* Departures spaced 1.2144 ms exactly, in order. */
    for (int i = 0; i < 32; i++) {
        ck_assert_int_eq(h->pk[i].state, DELIVERED);
        ck_assert_uint_eq(h->pk[i].done_t, (uint64_t)(i + 1) * 1214400);
    }
    for (int i = 32; i < 100; i++)
        ck_assert_int_eq(h->pk[i].cause, NETSIM_DROP_QFULL);
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.txdel, 31);
    ck_assert_uint_eq(st.empty, 1);
    h_free(h);
}
END_TEST

/* ---- G3: drop nth with burst, exact --------------------------------- */

/* Offer n packets spaced so the queue never fills. */
static harness *run_nth(uint32_t nth, uint32_t burst, int n)
{
    netsim_pipe_config c = cfg_none();
    c.drop_nth_set = true, c.drop_nth = nth, c.drop_nth_burst = burst;
    harness *h = h_new(1, "g3", &c);
    for (int i = 0; i < n; i++)
        h_send_at(h, (uint64_t)i * 20 * US, 1518);
    h_drain(h);
    return h;
}

static void check_nth_pattern(harness *h, uint32_t nth, uint32_t burst)
{
    for (size_t i = 0; i < h->n; i++) {
        uint64_t arrival = i + 1;
        bool want_drop = arrival >= nth && (arrival - nth) % nth < burst;
        ck_assert_msg((h->pk[i].state == DROPPED) == want_drop, "arrival %zu", i + 1);
        if (want_drop)
            ck_assert_int_eq(h->pk[i].cause, NETSIM_DROP_NTH);
    }
}

START_TEST(test_g3_nth_burst1)
{
    int ns[] = { 199, 200, 1000, 1001 };
    int want[] = { 0, 1, 5, 5 };
    for (int k = 0; k < 4; k++) {
        harness *h = run_nth(200, 1, ns[k]);
        netsim_pipe_stats st;
        netsim_pipe_stats_get(h->p, &st);
        ck_assert_uint_eq(st.drop_nth, (uint64_t)want[k]);
        ck_assert_uint_eq(st.dropped_netsim, (uint64_t)want[k]);
        check_nth_pattern(h, 200, 1);
        h_free(h);
    }
}
END_TEST

START_TEST(test_g3_nth_burst3_partial_end)
{
    /* 3 x floor(N/200), the last burst cut short by the end of input. */
    int ns[] = { 1000, 401, 402, 1200 };
    int want[] = { 13, 5, 6, 16 };  /* 1000: 4 full + arrival 1000 only */
    for (int k = 0; k < 4; k++) {
        harness *h = run_nth(200, 3, ns[k]);
        netsim_pipe_stats st;
        netsim_pipe_stats_get(h->p, &st);
        ck_assert_uint_eq(st.drop_nth, (uint64_t)want[k]);
        check_nth_pattern(h, 200, 3);
        h_free(h);
    }
}
END_TEST

START_TEST(test_nth_burst_longer_than_period)
{
    /* nth 5 burst 7: a burst covers the next multiple of 5, which does
     * not restart it; arrivals 5-11, 15-21, ... */
    harness *h = run_nth(5, 7, 30);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    for (size_t i = 0; i < h->n; i++) {
        uint64_t a = i + 1;
        bool want = (a >= 5 && a <= 11) || (a >= 15 && a <= 21) || (a >= 25);
        ck_assert_msg((h->pk[i].state == DROPPED) == want, "arrival %zu", i + 1);
    }
    ck_assert_uint_eq(st.drop_nth, 20);
    h_free(h);
}
END_TEST

/* ---- G4: random drop with burst, statistical ------------------------ */

static harness *run_random(uint64_t seed, const char *name, uint32_t p, uint32_t burst, int n)
{
    netsim_pipe_config c = cfg_none();
    c.drop_random_set = true, c.drop_random = p, c.drop_random_burst = burst;
    harness *h = h_new(seed, name, &c);
    for (int i = 0; i < n; i++)
        h_send_at(h, (uint64_t)i * 1000, 100);      /* 800 ns each at 1 Gb/s */
    h_drain(h);
    return h;
}

START_TEST(test_g4_random_burst2)
{
    harness *h = run_random(1, "g4", 100, 2, 1000000);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    double frac = (double)st.drop_random / 1e6;
    /* 2p/(1+p) = 0.019802; 3 sigma = 0.0006. */
    ck_assert_double_ge(frac, 0.019802 - 0.0006);
    ck_assert_double_le(frac, 0.019802 + 0.0006);
    ck_assert_uint_eq(st.drop_nth + st.drop_qfull, 0);
    /* Bursts of 2: every run of consecutive drops has even length, except
     * one cut short by the end of input. */
    size_t run = 0;
    for (size_t i = 0; i < h->n; i++) {
        if (h->pk[i].state == DROPPED) {
            run++;
        } else {
            ck_assert_msg(run % 2 == 0, "odd drop run ending at %zu", i);
            run = 0;
        }
    }
    h_free(h);
}
END_TEST

START_TEST(test_random_burst1_and_determinism)
{
    enum { N = 200000 };
    harness *a = run_random(1, "dirA", 100, 1, N);
    harness *b = run_random(1, "dirA", 100, 1, N);
    harness *c = run_random(2, "dirA", 100, 1, N);
    harness *d = run_random(1, "dirB", 100, 1, N);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(a->p, &st);
    /* p = 0.01, sigma = sqrt(p(1-p)/N) = 0.000222; 3 sigma. */
    double frac = (double)st.drop_random / N;
    ck_assert_double_ge(frac, 0.01 - 0.00067);
    ck_assert_double_le(frac, 0.01 + 0.00067);
    int diff_seed = 0, diff_name = 0;
    for (size_t i = 0; i < N; i++) {
        ck_assert_int_eq(a->pk[i].state, b->pk[i].state);
        diff_seed += a->pk[i].state != c->pk[i].state;
        diff_name += a->pk[i].state != d->pk[i].state;
    }
    ck_assert_int_gt(diff_seed, 0);
    ck_assert_int_gt(diff_name, 0);
    h_free(a);
    h_free(b);
    h_free(c);
    h_free(d);
}
END_TEST

/* ---- queue, rate, delay --------------------------------------------- */

START_TEST(test_tail_drop_full_queue)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 1000000;       /* 8 ms per 1000 B */
    c.qsize_set = true, c.qsize_bytes = 10000;
    harness *h = h_new(1, "tail", &c);
    int accepted = 0;
    for (int i = 0; i < 20; i++)
        accepted += h_send(h, 1000);
    ck_assert_int_eq(accepted, 10);               /* exactly full is allowed */
    check_invariants(h);
    /* Still full just before the first departure, room right after it. */
    h_send_at(h, 8 * MS - 1, 1000);
    ck_assert_int_eq(h->pk[20].state, DROPPED);
    h_send_at(h, 8 * MS, 1000);
    ck_assert_int_eq(h->pk[21].state, PENDING);
    h_send_at(h, 8 * MS, 1);
    ck_assert_int_eq(h->pk[22].state, DROPPED);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.max_qlen_bytes, 10000);
    ck_assert_uint_eq(st.qlen_bytes, 10000);
    ck_assert_uint_eq(st.drop_qfull, 12);
    check_invariants(h);
    h_drain(h);
    h_free(h);
}
END_TEST

/* The serializer carries its rounding remainder: the k-th departure of a
 * saturated link is at exactly floor(k*len*8e9/rate), no drift. */
START_TEST(test_rate_exact_without_drift)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 7000000;
    c.qsize_set = true, c.qsize_bytes = 20000000;
    harness *h = h_new(1, "rate", &c);
    enum { N = 10000 };
    for (int i = 0; i < N; i++)
        ck_assert(h_send(h, 1518));
    h_drain(h);
    for (int k = 1; k <= N; k++)
        ck_assert_uint_eq(h->pk[k - 1].done_t, (uint64_t)k * 1518 * 8 * SEC / 7000000);
    /* Achieved rate within 1 % (in fact exact to 1 ns). */
    double bps = (double)h->bytes_delivered * 8 * SEC / (double)h->pk[N - 1].done_t;
    ck_assert_double_le(bps, 7000000 * 1.01);
    ck_assert_double_ge(bps, 7000000 * 0.99);
    h_free(h);
}
END_TEST

START_TEST(test_delay_exact)
{
    netsim_pipe_config c = cfg_none();
    c.delay_set = true, c.delay_ns = 50 * MS;
    harness *h = h_new(1, "delay", &c);
    h_send_at(h, 1000, 1518);
    /* 1518 B at 1 Gb/s = 12144 ns, then 50 ms. */
    for (int i = 1; i < 1000; i++)
        h_send_at(h, 1000 + (uint64_t)i * 100 * US, 1518);
    h_drain(h);
    ck_assert_uint_eq(h->pk[0].done_t, 1000 + 12144 + 50 * MS);
    for (size_t i = 0; i < h->n; i++)
        ck_assert_uint_eq(h->pk[i].done_t - h->pk[i].sent_t, 12144 + 50 * MS);
    h_free(h);
}
END_TEST

/* G1 at the pipe level: an echo through two directions, 50 ms each,
 * no rate limit, reads 100 ms plus serialization (<= 1 ms). */
typedef struct echo {
    engine_t *e;
    netsim_pipe *fwd, *back;
    uint64_t sent[5], rtt[5];
} echo;

static void echo_reflect(void *ctx, netsim_pkt pkt)
{
    echo *x = ctx;
    netsim_pipe_send(x->back, pkt);
}

static void echo_return(void *ctx, netsim_pkt pkt)
{
    echo *x = ctx;
    uintptr_t i = (uintptr_t)pkt.user - 1;
    x->rtt[i] = engine_now(x->e) - x->sent[i];
}

START_TEST(test_g1_echo_rtt)
{
    echo x = { 0 };
    x.e = engine_new(1);
    netsim_pipe_callbacks f = { echo_reflect, NULL, &x }, b = { echo_return, NULL, &x };
    x.fwd = netsim_pipe_new(x.e, "g1:a", &f);
    x.back = netsim_pipe_new(x.e, "g1:b", &b);
    netsim_pipe_config c = cfg_none();
    c.delay_set = true, c.delay_ns = 50 * MS;
    ck_assert_int_eq(netsim_pipe_configure(x.fwd, &c), 0);
    ck_assert_int_eq(netsim_pipe_configure(x.back, &c), 0);
    for (uintptr_t i = 0; i < 5; i++) {
        engine_run_until(x.e, i * SEC);
        x.sent[i] = engine_now(x.e);
        ck_assert(netsim_pipe_send(x.fwd, (netsim_pkt){ 90, (void *)(i + 1) }));
    }
    engine_run_until(x.e, 10 * SEC);
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_ge(x.rtt[i], 100 * MS);
        ck_assert_uint_le(x.rtt[i], 101 * MS);
        ck_assert_uint_eq(x.rtt[i], 100 * MS + 2 * 720);   /* 90 B = 720 ns */
    }
    netsim_pipe_free(x.fwd);
    netsim_pipe_free(x.back);
    engine_free(x.e);
}
END_TEST

/* ---- reconfiguration ------------------------------------------------ */

START_TEST(test_reconfigure_keeps_queued)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 1000000;        /* 8 ms per 1000 B */
    c.qsize_set = true, c.qsize_bytes = 100000;
    harness *h = h_new(1, "reconf", &c);
    for (int i = 0; i < 20; i++)
        ck_assert(h_send(h, 1000));
    engine_run_until(h->e, 4 * MS);
    /* Faster, longer delay, queue smaller than its current content. */
    c.rate_bps = 10000000;
    c.delay_set = true, c.delay_ns = 10 * MS;
    c.qsize_bytes = 2000;
    h_config(h, &c);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.qlen_pkts, 20);
    ck_assert_uint_eq(st.dropped_tot, 0);
    ck_assert(!h_send(h, 1000));                    /* 20000 + 1000 > 2000 */
    check_invariants(h);
    h_drain(h);
    /* The packet in service keeps its old finish time (8 ms); the next
     * ones go at the new rate (0.8 ms); all take the new delay. */
    ck_assert_uint_eq(h->pk[0].done_t, 8 * MS + 10 * MS);
    for (int k = 1; k < 20; k++)
        ck_assert_uint_eq(h->pk[k].done_t, 8 * MS + (uint64_t)k * 800 * US + 10 * MS);
    ck_assert_uint_eq(h->n_delivered, 20);
    ck_assert_int_eq(h->pk[20].cause, NETSIM_DROP_QFULL);
    /* Clearing the rate returns to line rate. */
    c.rate_set = false;
    c.delay_set = false;
    h_config(h, &c);
    h_send(h, 1250);
    h_drain(h);
    ck_assert_uint_eq(h->pk[21].done_t - h->pk[21].sent_t, 10000);
    ck_assert_uint_eq(netsim_config_rate_bps(netsim_pipe_config_get(h->p)),
                      NETSIM_LINE_RATE_BPS);
    h_free(h);
}
END_TEST

START_TEST(test_delay_decrease_keeps_fifo)
{
    netsim_pipe_config c = cfg_none();
    c.delay_set = true, c.delay_ns = 50 * MS;
    harness *h = h_new(1, "shrink", &c);
    h_send_at(h, 0, 1000);
    engine_run_until(h->e, 1 * MS);
    c.delay_set = false;                             /* clear: delay 0 */
    h_config(h, &c);
    h_send(h, 1000);
    h_send_at(h, 60 * MS, 1000);
    h_drain(h);
    ck_assert_uint_eq(h->pk[0].done_t, 50 * MS + 8000);
    ck_assert_uint_eq(h->pk[1].done_t, h->pk[0].done_t);   /* waits behind */
    ck_assert_uint_eq(h->pk[2].done_t, 60 * MS + 8000);    /* new delay */
    ck_assert_uint_eq(h->order[0], 0);
    ck_assert_uint_eq(h->order[1], 1);
    h_free(h);
}
END_TEST

START_TEST(test_drop_reconfigure)
{
    netsim_pipe_config c = cfg_none();
    c.drop_nth_set = true, c.drop_nth = 5, c.drop_nth_burst = 10;
    harness *h = h_new(1, "dropcfg", &c);
    for (int i = 0; i < 7; i++)
        h_send(h, 100);
    ck_assert_int_eq(h->pk[3].state, PENDING);
    ck_assert_int_eq(h->pk[4].state, DROPPED);
    ck_assert_int_eq(h->pk[6].state, DROPPED);      /* inside the burst */
    /* Removing the drop ends its burst. */
    c.drop_nth_set = false;
    h_config(h, &c);
    for (int i = 0; i < 3; i++)
        ck_assert(h_send(h, 100));
    /* A new nth counts from its configuration. */
    c.drop_nth_set = true, c.drop_nth = 3, c.drop_nth_burst = 1;
    h_config(h, &c);
    ck_assert(h_send(h, 100));
    ck_assert(h_send(h, 100));
    ck_assert(!h_send(h, 100));
    /* Reapplying the same config does not restart the count. */
    h_config(h, &c);
    ck_assert(h_send(h, 100));
    ck_assert(h_send(h, 100));
    ck_assert(!h_send(h, 100));
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.drop_nth, 5);
    h_drain(h);
    h_free(h);
}
END_TEST

/* ---- reorder -------------------------------------------------------- */

START_TEST(test_reorder_nth_distance)
{
    netsim_pipe_config c = cfg_none();
    c.delay_set = true, c.delay_ns = 1 * MS;
    c.reorder_set = true, c.reorder_mode = NETSIM_REORDER_NTH;
    c.reorder_value = 10, c.reorder_distance = 3;
    harness *h = h_new(1, "reorder", &c);
    for (int i = 0; i < 100; i++)
        h_send_at(h, (uint64_t)i * 10 * US, 100);
    h_drain(h);
    /* 10th packet (seq 9) goes out after seqs 10, 11, 12. */
    uint64_t want_head[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 9, 13 };
    for (int i = 0; i < 14; i++)
        ck_assert_uint_eq(h->order[i], want_head[i]);
    ck_assert_uint_eq(h->pk[9].done_t, h->pk[12].done_t);
    /* Seq 99 is held last with nothing behind it: released after
     * 3 x 12.144 us, not reordered. */
    ck_assert_uint_eq(h->order[99], 99);
    ck_assert_uint_eq(h->pk[99].done_t - h->pk[99].sent_t, 800 + MS + 3 * 12144);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.reordered, 9);
    h_free(h);
}
END_TEST

START_TEST(test_reorder_random)
{
    netsim_pipe_config c = cfg_none();
    c.reorder_set = true, c.reorder_mode = NETSIM_REORDER_RANDOM;
    c.reorder_value = 500, c.reorder_distance = 2;   /* 5 % */
    harness *h = h_new(1, "reorder-r", &c);
    enum { N = 100000 };
    for (int i = 0; i < N; i++)
        h_send_at(h, (uint64_t)i * 1000, 100);
    h_drain(h);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    /* Selected ~5 %; a packet selected while another is held still gets
     * held, so nearly all selections are reordered. sigma ~ 69 pkts. */
    ck_assert_uint_ge(st.reordered, 5000 - 300);
    ck_assert_uint_le(st.reordered, 5000 + 300);
    ck_assert_uint_eq(st.dropped_tot, 0);
    h_free(h);
}
END_TEST

START_TEST(test_reorder_single_packet_not_stuck)
{
    netsim_pipe_config c = cfg_none();
    c.reorder_set = true, c.reorder_mode = NETSIM_REORDER_NTH;
    c.reorder_value = 1, c.reorder_distance = 10;
    harness *h = h_new(1, "reorder1", &c);
    h_send(h, 500);
    h_drain(h);
    /* Alone, it is released after 10 x 1518 B at 1 Gb/s = 121.44 us. */
    ck_assert_uint_eq(h->pk[0].done_t, 4000 + 10 * 12144);
    /* Every packet selected: the hold slots fill, the overflow passes. */
    for (int i = 0; i < 50; i++)
        h_send(h, 500);
    h_drain(h);
    ck_assert_uint_eq(h->n_delivered, 51);
    h_free(h);
}
END_TEST

/* ---- counters and configuration ------------------------------------- */

START_TEST(test_max_qdelay_samples)
{
    netsim_pipe_config c = cfg_none();
    c.delay_set = true, c.delay_ns = 50 * MS;
    c.rate_set = true, c.rate_bps = 1000000000;
    c.qsize_set = true, c.qsize_bytes = 100000;
    ck_assert_uint_eq(netsim_config_max_qdelay_clocks(&c), 600000);
    c.delay_ns = 100 * MS;
    c.rate_bps = 10000000;
    c.qsize_bytes = 250000;
    ck_assert_uint_eq(netsim_config_max_qdelay_clocks(&c), 150000000);
    c = cfg_none();
    ck_assert_uint_eq(netsim_config_max_qdelay_clocks(&c), 6000000);
    ck_assert_uint_eq(netsim_config_qsize_bytes(&c), NETSIM_DEFAULT_QSIZE_BYTES);
}
END_TEST

START_TEST(test_config_check_rejects)
{
    netsim_pipe_config good = cfg_none();
    ck_assert_int_eq(netsim_pipe_config_check(&good), 0);
    netsim_pipe_config c;
    c = good, c.rate_set = true, c.rate_bps = 0;
    ck_assert_int_eq(netsim_pipe_config_check(&c), -1);
    c = good, c.drop_nth_set = true, c.drop_nth = 0, c.drop_nth_burst = 1;
    ck_assert_int_eq(netsim_pipe_config_check(&c), -1);
    c = good, c.drop_nth_set = true, c.drop_nth = 5, c.drop_nth_burst = 101;
    ck_assert_int_eq(netsim_pipe_config_check(&c), -1);
    c = good, c.drop_random_set = true, c.drop_random = 10001, c.drop_random_burst = 1;
    ck_assert_int_eq(netsim_pipe_config_check(&c), -1);
    c = good, c.drop_random_set = true, c.drop_random = 10, c.drop_random_burst = 0;
    ck_assert_int_eq(netsim_pipe_config_check(&c), -1);
    c = good, c.reorder_set = true, c.reorder_mode = NETSIM_REORDER_NTH;
    c.reorder_value = 3, c.reorder_distance = 11;
    ck_assert_int_eq(netsim_pipe_config_check(&c), -1);
    c.reorder_distance = 10;
    ck_assert_int_eq(netsim_pipe_config_check(&c), 0);
    /* A rejected configuration changes nothing. */
    harness *h = h_new(1, "check", &good);
    c = good, c.rate_set = true, c.rate_bps = 0, c.delay_set = true, c.delay_ns = 5;
    ck_assert_int_eq(netsim_pipe_configure(h->p, &c), -1);
    ck_assert(!netsim_pipe_config_get(h->p)->delay_set);
    h_free(h);
}
END_TEST

START_TEST(test_counters_mintxdel_empty_txdel)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 10000000;
    c.qsize_set = true, c.qsize_bytes = 250000;
    harness *h = h_new(1, "ctr", &c);
    /* 66-byte frames back to back at 10 Mb/s: 52.8 us = 39600 clocks,
     * the seed capture's Mintxdel figure. */
    for (int i = 0; i < 100; i++)
        h_send(h, 66);
    h_drain(h);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.mintxdel_ethtx, 39600);
    ck_assert_uint_eq(st.mintxdel_poll, 39600);
    ck_assert_uint_eq(st.txdel, 99);
    ck_assert_uint_eq(st.empty, 1);
    ck_assert_uint_eq(st.max_qlen_pkts, 100);
    ck_assert_uint_eq(st.max_qlen_bytes, 6600);
    ck_assert_uint_eq(st.late, 0);             /* waits <= 5.3 ms << 100 ms */
    /* A 60-byte frame lowers ethtx to 36000, spaced sends keep poll. */
    engine_run_until(h->e, engine_now(h->e) + SEC);
    h_send(h, 60);
    h_drain(h);
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.mintxdel_ethtx, 36000);
    ck_assert_uint_eq(st.mintxdel_poll, 39600);
    ck_assert_uint_eq(st.empty, 2);
    h_free(h);
}
END_TEST

START_TEST(test_counters_late)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 1000000;     /* 8 ms per 1000 B */
    c.qsize_set = true, c.qsize_bytes = 10000;   /* max qdelay 80 ms */
    harness *h = h_new(1, "late", &c);
    for (int i = 0; i < 10; i++)
        h_send(h, 1000);
    h_drain(h);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    /* Waits 0, 8, ..., 72 ms; late above 40 ms: 48, 56, 64, 72. */
    ck_assert_uint_eq(st.late, 4);
    h_free(h);
}
END_TEST

START_TEST(test_average_speed)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 10000000;
    c.qsize_set = true, c.qsize_bytes = 2000000;
    harness *h = h_new(1, "speed", &c);
    for (int i = 0; i < 1000; i++)
        h_send(h, 1518);
    engine_run_until(h->e, SEC);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    /* 823 frames out in the first second: 9994 kbps, within 1 % of 10M. */
    ck_assert_uint_eq(st.delivered_pkts, 823);
    ck_assert_uint_eq(st.avg_speed_kbps, 823ULL * 1518 * 8 / 1000);
    ck_assert_uint_ge(st.avg_speed_kbps, 9900);
    check_invariants(h);
    /* Since-clear average includes idle time. */
    engine_run_until(h->e, 2 * SEC);
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.avg_speed_kbps, 6072);
    h_free(h);
}
END_TEST

START_TEST(test_clear_stats_keeps_queue)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 1000000;
    harness *h = h_new(1, "clear", &c);
    for (int i = 0; i < 10; i++)
        h_send(h, 1000);
    engine_run_until(h->e, 20 * MS);                /* 2 delivered */
    netsim_pipe_clear_stats(h->p);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.carried_pkts, 8);
    ck_assert_uint_eq(st.carried_bytes, 8000);
    ck_assert_uint_eq(st.arrived_pkts, 0);
    ck_assert_uint_eq(st.max_qlen_pkts, 8);
    ck_assert_uint_eq(st.since_ns, 20 * MS);
    engine_run_until(h->e, 100 * MS);
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_eq(st.delivered_pkts, 8);
    ck_assert_uint_eq(st.carried_pkts + st.arrived_pkts,
                      st.delivered_pkts + st.dropped_tot + st.qlen_pkts + st.inflight_pkts);
    ck_assert_uint_eq(h->n_delivered, 10);
    h_free(h);
}
END_TEST

START_TEST(test_free_flushes_everything)
{
    netsim_pipe_config c = cfg_none();
    c.rate_set = true, c.rate_bps = 1000000;
    c.delay_set = true, c.delay_ns = 100 * MS;
    c.reorder_set = true, c.reorder_mode = NETSIM_REORDER_NTH;
    c.reorder_value = 2, c.reorder_distance = 5;
    harness *h = h_new(1, "free", &c);
    for (int i = 0; i < 20; i++)
        h_send(h, 1000);
    engine_run_until(h->e, 150 * MS);   /* some delivered, some held/in flight/queued */
    check_invariants(h);
    netsim_pipe_stats st;
    netsim_pipe_stats_get(h->p, &st);
    ck_assert_uint_gt(st.qlen_pkts, 0);
    ck_assert_uint_gt(st.inflight_pkts, 0);
    ck_assert_uint_gt(h->n_delivered, 0);
    uint64_t inside = st.qlen_pkts + st.inflight_pkts;
    h_free(h);   /* asserts every packet resolved, FLUSH only here */
    (void)inside;
}
END_TEST

START_TEST(test_bad_length_dropped)
{
    netsim_pipe_config c = cfg_none();
    c.qsize_set = true, c.qsize_bytes = 2 * NETSIM_PKT_MAX_LEN;
    harness *h = h_new(1, "badlen", &c);
    ck_assert(!h_send(h, 0));
    ck_assert(!h_send(h, NETSIM_PKT_MAX_LEN + 1));
    ck_assert(h_send(h, NETSIM_PKT_MAX_LEN));
    h_drain(h);
    ck_assert_uint_eq(h->n_dropped[NETSIM_DROP_QFULL], 2);
    h_free(h);
}
END_TEST

static Suite *pipe_suite(void)
{
    Suite *s = suite_create("netsim_pipe");
    TCase *g = tcase_create("golden");
    tcase_set_timeout(g, 120);
    tcase_add_test(g, test_g1_echo_rtt);
    tcase_add_test(g, test_g2_burst_into_small_queue);
    tcase_add_test(g, test_g3_nth_burst1);
    tcase_add_test(g, test_g3_nth_burst3_partial_end);
    tcase_add_test(g, test_nth_burst_longer_than_period);
    tcase_add_test(g, test_g4_random_burst2);
    tcase_add_test(g, test_random_burst1_and_determinism);
    suite_add_tcase(s, g);
    TCase *q = tcase_create("queue_rate_delay");
    tcase_add_test(q, test_tail_drop_full_queue);
    tcase_add_test(q, test_rate_exact_without_drift);
    tcase_add_test(q, test_delay_exact);
    tcase_add_test(q, test_bad_length_dropped);
    suite_add_tcase(s, q);
    TCase *r = tcase_create("reconfigure");
    tcase_add_test(r, test_reconfigure_keeps_queued);
    tcase_add_test(r, test_delay_decrease_keeps_fifo);
    tcase_add_test(r, test_drop_reconfigure);
    tcase_add_test(r, test_config_check_rejects);
    suite_add_tcase(s, r);
    TCase *o = tcase_create("reorder");
    tcase_set_timeout(o, 60);
    tcase_add_test(o, test_reorder_nth_distance);
    tcase_add_test(o, test_reorder_random);
    tcase_add_test(o, test_reorder_single_packet_not_stuck);
    suite_add_tcase(s, o);
    TCase *k = tcase_create("counters");
    tcase_add_test(k, test_max_qdelay_samples);
    tcase_add_test(k, test_counters_mintxdel_empty_txdel);
    tcase_add_test(k, test_counters_late);
    tcase_add_test(k, test_average_speed);
    tcase_add_test(k, test_clear_stats_keeps_queue);
    tcase_add_test(k, test_free_flushes_everything);
    suite_add_tcase(s, k);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pipe_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
