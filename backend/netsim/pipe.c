#include "netsim/pipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The delay line and the FIFO are one ring of slots, in the order the
 * packets will leave: the first `n_line` slots are serialized and in the
 * delay line (t = due time), the rest wait in the FIFO (t = arrival time),
 * the first of them in service when busy. A departure from the serializer
 * only moves the boundary. Not one engine event per packet and stage: the
 * serializer and the delay line each have one pending timer (their head),
 * which keeps the heap small and a saturated link cheap. */
typedef struct slot {
    netsim_pkt pkt;
    uint64_t t;    /* FIFO: arrival time; delay line: due time */
} slot;

typedef struct ring {
    slot *buf;
    uint32_t head, len, cap;   /* cap is 0 or a power of two */
    uint32_t n_line;           /* slots [0, n_line) are in the delay line */
} ring;

/* A reorder distance is at most 10, so a few more slots than that cover
 * every case except "reorder nth 1", where extra selections pass unheld. */
#define HELD_MAX 16
/* Frame size that bounds a hold (see hold_max_ns): MTU 1500 + 18. */
#define NETSIM_REORDER_REF_FRAME 1518u

typedef struct held_slot {
    netsim_pkt pkt;
    uint64_t deadline;    /* released then even if not overtaken enough */
    uint32_t left;        /* later packets still to overtake it */
    bool overtaken;
} held_slot;

struct netsim_pipe {
    engine_t *e;
    netsim_pipe_callbacks cb;
    rng_t drop_rng, reorder_rng;
    netsim_pipe_config cfg;
    uint64_t rate, qsize;      /* values in force */
    uint64_t ns_per_byte;      /* 8e9 / rate, floored */
    uint64_t ns_per_byte_rem;  /* 8e9 % rate */
    uint64_t delay_ns;
    uint64_t late_ns;          /* FIFO wait above which a packet counts as late */

    ring q;                    /* delay line, then FIFO (see struct ring) */
    uint64_t q_bytes;          /* FIFO bytes, the packet in service included */
    bool busy;
    engine_timer_id tx_timer;
    uint64_t ser_rem;          /* serialization remainder, units of 1/rate ns */
    uint64_t last_tx_start;
    bool tx_started;

    uint64_t line_last_due;
    engine_timer_id egress_timer;
    held_slot held[HELD_MAX];
    uint32_t n_held;
    engine_timer_id hold_timer;
    uint64_t hold_timer_at;
    uint64_t inflight_bytes;

    uint64_t nth_count;        /* arrivals since drop nth was configured */
    uint32_t burst_left;
    netsim_drop_cause burst_cause;
    uint64_t reorder_count;    /* packets out of the delay line, for reorder nth */

    netsim_pipe_stats st;      /* raw counters; derived fields filled on read */
    uint64_t min_poll_ns;      /* UINT64_MAX until two starts */
    uint64_t min_ethtx_clocks; /* UINT64_MAX until one start */
    uint32_t ethtx_min_len;    /* shortest len seen at the current rate */
};

/* floor(a * b / c) without overflow: rates, byte counts and clock
 * conversions easily exceed 64 bits in the product. */
static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)((u128)a * b / c);
#else
    return (uint64_t)((long double)a * b / c);
#endif
}

/* ---- rings --------------------------------------------------------- */

static bool ring_reserve(ring *r)
{
    if (r->len < r->cap)
        return true;
    uint32_t ncap = r->cap ? r->cap * 2 : 64;
    if (ncap <= r->cap)
        return false;
    slot *nb = malloc((size_t)ncap * sizeof *nb);
    if (!nb)
        return false;
    for (uint32_t i = 0; i < r->len; i++)
        nb[i] = r->buf[(r->head + i) & (r->cap - 1)];
    free(r->buf);
    r->buf = nb;
    r->head = 0;
    r->cap = ncap;
    return true;
}

static bool ring_push(ring *r, slot s)
{
    if (!ring_reserve(r))
        return false;
    r->buf[(r->head + r->len) & (r->cap - 1)] = s;
    r->len++;
    return true;
}

static uint32_t fifo_len(const ring *r)
{
    return r->len - r->n_line;
}

/* The first FIFO slot: the packet in service when busy. */
static slot *fifo_front(ring *r)
{
    return &r->buf[(r->head + r->n_line) & (r->cap - 1)];
}

/* Removes the delay line's head (n_line > 0). */
static slot ring_pop(ring *r)
{
    slot s = r->buf[r->head];
    r->head = (r->head + 1) & (r->cap - 1);
    r->len--;
    r->n_line--;
#if defined(__GNUC__)
    /* With a long delay the line holds ~100,000 packets at 1 GbE, far more
     * than the caches: fetch the slot that leaves a few packets from now
     * (bench/README.md, issue 7). */
    __builtin_prefetch(&r->buf[(r->head + 8) & (r->cap - 1)]);
#endif
    return s;
}

/* ---- configuration ------------------------------------------------- */

void netsim_pipe_config_init(netsim_pipe_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
}

static bool burst_ok(uint32_t b)
{
    return b >= 1 && b <= NETSIM_BURST_MAX;
}

int netsim_pipe_config_check(const netsim_pipe_config *c)
{
    if (c->rate_set && c->rate_bps == 0)
        return -1;
    if (c->drop_nth_set && (c->drop_nth == 0 || !burst_ok(c->drop_nth_burst)))
        return -1;
    if (c->drop_random_set &&
        (c->drop_random > NETSIM_RANDOM_SCALE || !burst_ok(c->drop_random_burst)))
        return -1;
    if (c->reorder_set) {
        if (c->reorder_distance < 1 || c->reorder_distance > NETSIM_REORDER_DISTANCE_MAX)
            return -1;
        if (c->reorder_mode == NETSIM_REORDER_NTH && c->reorder_value == 0)
            return -1;
        if (c->reorder_mode == NETSIM_REORDER_RANDOM && c->reorder_value > NETSIM_RANDOM_SCALE)
            return -1;
        if (c->reorder_mode != NETSIM_REORDER_NTH && c->reorder_mode != NETSIM_REORDER_RANDOM)
            return -1;
    }
    return 0;
}

uint64_t netsim_config_rate_bps(const netsim_pipe_config *cfg)
{
    return cfg->rate_set ? cfg->rate_bps : NETSIM_LINE_RATE_BPS;
}

uint64_t netsim_config_qsize_bytes(const netsim_pipe_config *cfg)
{
    return cfg->qsize_set ? cfg->qsize_bytes : NETSIM_DEFAULT_QSIZE_BYTES;
}

uint64_t netsim_config_max_qdelay_clocks(const netsim_pipe_config *cfg)
{
    return muldiv(netsim_config_qsize_bytes(cfg), 8 * NETSIM_CLOCK_HZ,
                  netsim_config_rate_bps(cfg));
}

static bool nth_changed(const netsim_pipe_config *a, const netsim_pipe_config *b)
{
    return a->drop_nth_set != b->drop_nth_set || a->drop_nth != b->drop_nth ||
           a->drop_nth_burst != b->drop_nth_burst;
}

static bool burst_cause_removed(const netsim_pipe *p, const netsim_pipe_config *c)
{
    if (p->burst_left == 0)
        return false;
    if (p->burst_cause == NETSIM_DROP_NTH)
        return !c->drop_nth_set;
    return !c->drop_random_set;
}

static void apply_values(netsim_pipe *p)
{
    p->rate = netsim_config_rate_bps(&p->cfg);
    p->ns_per_byte = 8 * ENGINE_NS_PER_SEC / p->rate;
    p->ns_per_byte_rem = 8 * ENGINE_NS_PER_SEC % p->rate;
    p->qsize = netsim_config_qsize_bytes(&p->cfg);
    p->delay_ns = p->cfg.delay_set ? p->cfg.delay_ns : 0;
    p->late_ns = muldiv(p->qsize, 8 * ENGINE_NS_PER_SEC, p->rate) / 2;
}

int netsim_pipe_configure(netsim_pipe *p, const netsim_pipe_config *cfg)
{
    if (netsim_pipe_config_check(cfg) != 0)
        return -1;
    if (nth_changed(&p->cfg, cfg))
        p->nth_count = 0;
    if (burst_cause_removed(p, cfg))
        p->burst_left = 0;
    uint64_t rate = netsim_config_rate_bps(cfg);
    if (rate != p->rate) {
        /* The carry is in units of the old rate; the shortest frame must
         * be measured again at the new one. */
        p->ser_rem = 0;
        p->ethtx_min_len = UINT32_MAX;
    }
    if (cfg->reorder_set != p->cfg.reorder_set || cfg->reorder_mode != p->cfg.reorder_mode ||
        cfg->reorder_value != p->cfg.reorder_value)
        p->reorder_count = 0;
    p->cfg = *cfg;
    apply_values(p);
    return 0;
}

const netsim_pipe_config *netsim_pipe_config_get(const netsim_pipe *p)
{
    return &p->cfg;
}

/* ---- life cycle ---------------------------------------------------- */

static void seed_streams(netsim_pipe *p, const char *name)
{
    /* Separate streams: turning reorder on must not shift drop draws. */
    char buf[256];
    const char *n = name ? name : "netsim";
    snprintf(buf, sizeof buf, "%s/drop", n);
    engine_rng_stream(p->e, &p->drop_rng, buf);
    snprintf(buf, sizeof buf, "%s/reorder", n);
    engine_rng_stream(p->e, &p->reorder_rng, buf);
}

static void reset_stats(netsim_pipe *p)
{
    memset(&p->st, 0, sizeof p->st);
    p->st.since_ns = engine_now(p->e);
    p->st.carried_pkts = p->q.len + p->n_held;
    p->st.carried_bytes = p->q_bytes + p->inflight_bytes;
    p->st.max_qlen_pkts = fifo_len(&p->q);
    p->st.max_qlen_bytes = p->q_bytes;
    p->min_poll_ns = UINT64_MAX;
    p->min_ethtx_clocks = UINT64_MAX;
    p->ethtx_min_len = UINT32_MAX;
}

netsim_pipe *netsim_pipe_new(engine_t *e, const char *name, const netsim_pipe_callbacks *cb)
{
    netsim_pipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->e = e;
    p->cb = *cb;
    seed_streams(p, name);
    netsim_pipe_config_init(&p->cfg);
    apply_values(p);
    reset_stats(p);
    return p;
}

static void flush_pkt(netsim_pipe *p, netsim_pkt pkt)
{
    if (p->cb.drop)
        p->cb.drop(p->cb.ctx, pkt, NETSIM_DROP_FLUSH);
}

void netsim_pipe_free(netsim_pipe *p)
{
    if (!p)
        return;
    engine_cancel(p->e, p->tx_timer);
    engine_cancel(p->e, p->egress_timer);
    engine_cancel(p->e, p->hold_timer);
    for (uint32_t i = 0; i < p->n_held; i++)
        flush_pkt(p, p->held[i].pkt);
    /* Delay line, then FIFO: the order they would have left in. */
    for (uint32_t i = 0; i < p->q.len; i++)
        flush_pkt(p, p->q.buf[(p->q.head + i) & (p->q.cap - 1)].pkt);
    free(p->q.buf);
    free(p);
}

/* ---- egress: delay line and reorder -------------------------------- */

static void deliver(netsim_pipe *p, netsim_pkt pkt)
{
    p->inflight_bytes -= pkt.len;
    p->st.delivered_pkts++;
    p->st.delivered_bytes += pkt.len;
    p->cb.deliver(p->cb.ctx, pkt);
}

static bool reorder_selects(netsim_pipe *p)
{
    if (!p->cfg.reorder_set)
        return false;
    if (p->cfg.reorder_mode == NETSIM_REORDER_NTH)
        return ++p->reorder_count % p->cfg.reorder_value == 0;
    return rng_below(&p->reorder_rng, NETSIM_RANDOM_SCALE) < p->cfg.reorder_value;
}

/* Remove held[i], keeping the rest in hold order. */
static netsim_pkt held_take(netsim_pipe *p, uint32_t i)
{
    held_slot h = p->held[i];
    memmove(&p->held[i], &p->held[i + 1], (p->n_held - i - 1) * sizeof p->held[0]);
    p->n_held--;
    if (h.overtaken)
        p->st.reordered++;
    return h.pkt;
}

/* A packet passed the held ones: count it against each, then release those
 * that have been overtaken `distance` times, oldest first. */
static void held_passed(netsim_pipe *p)
{
    for (uint32_t i = 0; i < p->n_held; i++) {
        p->held[i].left--;
        p->held[i].overtaken = true;
    }
    for (uint32_t i = 0; i < p->n_held;) {
        if (p->held[i].left == 0)
            deliver(p, held_take(p, i));
        else
            i++;
    }
}

static void hold_event(engine_t *e, void *arg);

/* One timer for all held packets, at the earliest deadline. */
static void hold_arm(netsim_pipe *p)
{
    uint64_t first = ENGINE_TIME_NEVER;
    for (uint32_t i = 0; i < p->n_held; i++)
        if (p->held[i].deadline < first)
            first = p->held[i].deadline;
    if (p->hold_timer && p->hold_timer_at == first)
        return;
    engine_cancel(p->e, p->hold_timer);
    p->hold_timer = 0;
    if (first != ENGINE_TIME_NEVER) {
        p->hold_timer = engine_at(p->e, first, hold_event, p);
        p->hold_timer_at = first;
    }
}

/* Held packets whose deadline passed go out, oldest first. */
static void hold_event(engine_t *e, void *arg)
{
    netsim_pipe *p = arg;
    p->hold_timer = 0;
    for (uint32_t i = 0; i < p->n_held;) {
        if (p->held[i].deadline <= engine_now(e))
            deliver(p, held_take(p, i));
        else
            i++;
    }
    hold_arm(p);
}

/* A held packet waits at most as long as `distance` full-size frames take
 * at the current rate: the delay it would see had that many frames really
 * been sent ahead of it, so sparse traffic is not stalled. */
static uint64_t hold_max_ns(const netsim_pipe *p)
{
    return p->cfg.reorder_distance *
           muldiv(NETSIM_REORDER_REF_FRAME, 8 * ENGINE_NS_PER_SEC, p->rate);
}

static void egress_one(netsim_pipe *p, netsim_pkt pkt)
{
    if (reorder_selects(p) && p->n_held < HELD_MAX) {
        uint64_t deadline = engine_now(p->e) + hold_max_ns(p);
        p->held[p->n_held++] = (held_slot){ pkt, deadline, p->cfg.reorder_distance, false };
        return;
    }
    deliver(p, pkt);
    held_passed(p);
}

static void egress_event(engine_t *e, void *arg);

static void egress_arm(netsim_pipe *p)
{
    if (!p->egress_timer && p->q.n_line)
        p->egress_timer = engine_at(p->e, p->q.buf[p->q.head].t, egress_event, p);
}

static void egress_event(engine_t *e, void *arg)
{
    netsim_pipe *p = arg;
    uint64_t now = engine_now(e);
    p->egress_timer = 0;
    while (p->q.n_line && p->q.buf[p->q.head].t <= now)
        egress_one(p, ring_pop(&p->q).pkt);
    if (p->n_held || p->hold_timer)     /* else hold_arm has nothing to do */
        hold_arm(p);
    egress_arm(p);
}

/* ---- serializer ---------------------------------------------------- */

static void tx_done_event(engine_t *e, void *arg);

/* floor((len * 8e9 + ser_rem) / rate), the remainder carried. Split as
 * len * floor(8e9 / rate) + (len * (8e9 % rate) + ser_rem) / rate (the
 * same value), so a rate that divides 8e9 (1 Gb/s, 100 Mb/s...) needs no
 * division per packet. */
static uint64_t ser_time_ns(netsim_pipe *p, uint32_t len)
{
    uint64_t t = (uint64_t)len * p->ns_per_byte;
    uint64_t num = (uint64_t)len * p->ns_per_byte_rem + p->ser_rem;
    if (num == 0)
        return t;
    p->ser_rem = num % p->rate;
    return t + num / p->rate;
}

static void tx_account_start(netsim_pipe *p, const slot *s, uint64_t now)
{
    if (p->tx_started && now - p->last_tx_start < p->min_poll_ns)
        p->min_poll_ns = now - p->last_tx_start;
    p->last_tx_start = now;
    p->tx_started = true;
    if (s->pkt.len < p->ethtx_min_len) {
        p->ethtx_min_len = s->pkt.len;
        uint64_t c = muldiv(s->pkt.len, 8 * NETSIM_CLOCK_HZ, p->rate);
        if (c < p->min_ethtx_clocks)
            p->min_ethtx_clocks = c;
    }
    if (now - s->t > p->late_ns)
        p->st.late++;
}

static void tx_start(netsim_pipe *p)
{
    uint64_t now = engine_now(p->e);
    slot *s = fifo_front(&p->q);
    tx_account_start(p, s, now);
    p->busy = true;
    p->tx_timer = engine_at(p->e, now + ser_time_ns(p, s->pkt.len), tx_done_event, p);
}

static void tx_done_event(engine_t *e, void *arg)
{
    netsim_pipe *p = arg;
    uint64_t now = engine_now(e);
    p->tx_timer = 0;
    slot *s = fifo_front(&p->q);
    p->q_bytes -= s->pkt.len;
    /* FIFO delay line: a shorter new delay must not let this packet pass
     * the ones already in flight. */
    uint64_t due = now + p->delay_ns;
    if (due < p->line_last_due)
        due = p->line_last_due;
    p->line_last_due = due;
    s->t = due;
    p->q.n_line++;
    p->inflight_bytes += s->pkt.len;
    egress_arm(p);
    if (fifo_len(&p->q)) {
        tx_start(p);
    } else {
        p->busy = false;
        p->st.empty++;
    }
}

/* ---- ingress ------------------------------------------------------- */

static bool drop_pkt(netsim_pipe *p, netsim_pkt pkt, netsim_drop_cause cause)
{
    uint64_t *ctr[] = { &p->st.drop_nth, &p->st.drop_random, &p->st.drop_qfull };
    (*ctr[cause])++;
    if (p->cb.drop)
        p->cb.drop(p->cb.ctx, pkt, cause);
    return false;
}

/* Injected drop, section 4.2 step 1. Returns the cause, or -1 to pass.
 * No random draw inside a burst, so burst b turns p into b*p/(1+(b-1)p). */
static int injected_drop(netsim_pipe *p)
{
    const netsim_pipe_config *c = &p->cfg;
    if (c->drop_nth_set)
        p->nth_count++;
    if (p->burst_left > 0) {
        p->burst_left--;
        return (int)p->burst_cause;
    }
    if (c->drop_nth_set && p->nth_count % c->drop_nth == 0) {
        p->burst_left = c->drop_nth_burst - 1;
        p->burst_cause = NETSIM_DROP_NTH;
        return NETSIM_DROP_NTH;
    }
    if (c->drop_random_set &&
        rng_below(&p->drop_rng, NETSIM_RANDOM_SCALE) < c->drop_random) {
        p->burst_left = c->drop_random_burst - 1;
        p->burst_cause = NETSIM_DROP_RANDOM;
        return NETSIM_DROP_RANDOM;
    }
    return -1;
}

bool netsim_pipe_send(netsim_pipe *p, netsim_pkt pkt)
{
    p->st.arrived_pkts++;
    p->st.arrived_bytes += pkt.len;
    if (pkt.len == 0 || pkt.len > NETSIM_PKT_MAX_LEN)
        return drop_pkt(p, pkt, NETSIM_DROP_QFULL);
    int cause = injected_drop(p);
    if (cause >= 0)
        return drop_pkt(p, pkt, (netsim_drop_cause)cause);
    if (p->q_bytes + pkt.len > p->qsize)
        return drop_pkt(p, pkt, NETSIM_DROP_QFULL);
    if (!ring_push(&p->q, (slot){ pkt, engine_now(p->e) }))
        return drop_pkt(p, pkt, NETSIM_DROP_QFULL);
    p->q_bytes += pkt.len;
    if (fifo_len(&p->q) > p->st.max_qlen_pkts)
        p->st.max_qlen_pkts = fifo_len(&p->q);
    if (p->q_bytes > p->st.max_qlen_bytes)
        p->st.max_qlen_bytes = p->q_bytes;
    if (p->busy)
        p->st.txdel++;
    else
        tx_start(p);
    return true;
}

/* ---- statistics ---------------------------------------------------- */

void netsim_pipe_stats_get(const netsim_pipe *p, netsim_pipe_stats *out)
{
    *out = p->st;
    out->dropped_netsim = p->st.drop_nth + p->st.drop_random;
    out->dropped_tot = out->dropped_netsim + p->st.drop_qfull;
    out->qlen_pkts = fifo_len(&p->q);
    out->qlen_bytes = p->q_bytes;
    out->inflight_pkts = p->q.n_line + p->n_held;
    out->inflight_bytes = p->inflight_bytes;
    /* 750 MHz clock = 3/4 clock per ns. */
    out->mintxdel_poll = p->min_poll_ns == UINT64_MAX ? 0 : p->min_poll_ns / 4 * 3 +
                         p->min_poll_ns % 4 * 3 / 4;
    out->mintxdel_ethtx = p->min_ethtx_clocks == UINT64_MAX ? 0 : p->min_ethtx_clocks;
    uint64_t elapsed = engine_now(p->e) - p->st.since_ns;
    out->avg_speed_kbps = elapsed ? muldiv(p->st.delivered_bytes, 8 * 1000000ULL, elapsed) : 0;
}

void netsim_pipe_clear_stats(netsim_pipe *p)
{
    reset_stats(p);
    /* A serializer start before the clear must not yield a gap after it. */
    p->tx_started = false;
}
