#include "netsim/accuracy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "netsim/pipe.h"

/* Packets measured when a case leaves the count to us. A saturated or a
 * random-drop case needs many arrivals for the z-test to mean something
 * (sigma of a 1 % fraction over 20 000 arrivals is 0.07 %); a light delay
 * case is deterministic and needs only a few thousand. */
#define AUTO_MEASURE_SATURATE 20000u
#define AUTO_MEASURE_LIGHT 2000u
#define AUTO_MEASURE_RANDOM 20000u
/* SATURATE warm-up: arrivals until the backlog holds this many frames
 * plus one per packet of a drop burst (or the queue is full), so that a
 * burst of injected drops does not find the serializer short of work at
 * the start of the measured window. */
#define WARMUP_FRAMES 20u

typedef struct run {
    engine_t *e;
    netsim_pipe *p;
    uint32_t len;
    uint64_t n_total, warmup, next;
    double interval_ns;          /* source period; k-th send at floor(k * it) */
    uint64_t *send_t;            /* send time per sequence number */
    /* delay over packets with seq >= warmup */
    uint64_t delay_n, delay_sum, delay_min, delay_max;
    /* egress window: opens at the first delivery of a measured packet */
    bool window_open;
    uint64_t t_a, t_b, window_bytes;
    uint64_t empty_at_warmup;    /* pipe's `empty` counter at the first measured send */
} run;

/* ---- expectations -------------------------------------------------- */

static uint32_t burst_of(const struct netsim_accuracy_case *c)
{
    return c->drop_burst ? c->drop_burst : 1;
}

/* drop nth n burst b: a burst starting at a multiple of n covers the
 * multiples inside it without restarting (pipe.h), so bursts start every
 * P = n * ceil(b / n) arrivals, at n, n + P, n + 2P, ... */
static uint64_t nth_period(uint32_t n, uint32_t b)
{
    return (uint64_t)n * ((b + n - 1) / n);
}

uint64_t netsim_accuracy_nth_drops(uint64_t arrivals, uint32_t n, uint32_t b)
{
    if (n == 0 || arrivals < n)
        return 0;
    uint64_t period = nth_period(n, b);
    uint64_t full = (arrivals - n) / period;         /* starts before the last */
    uint64_t last_start = n + full * period;
    uint64_t last = arrivals - last_start + 1;       /* arrivals in the last burst */
    return full * b + (last < b ? last : b);
}

/* Random drop p (fraction) with burst b: each arrival outside a burst
 * draws once, so the arrival stream is a renewal process whose cycles are
 * "pass" (1 arrival, probability 1 - p) or "burst" (b arrivals, all
 * dropped, probability p). Renewal-reward: the long-run fraction is
 *   f = E[drops/cycle] / E[arrivals/cycle] = b p / (1 + (b - 1) p)
 * (1.98 % for p = 1 %, b = 2; engine-model.md G4). */
static double random_fraction(double p, uint32_t b)
{
    return b * p / (1.0 + (b - 1) * p);
}

/* ... and the CLT for renewal-reward processes gives the variance of the
 * drop count over N arrivals as N * Var(D - f L) / E[L], D the drops and L
 * the arrivals of one cycle. D - f L is b (1 - f) with probability p and
 * -f with probability 1 - p (mean 0), so
 *   sigma_f^2 = (p b^2 (1 - f)^2 + (1 - p) f^2) / (1 + (b - 1) p) / N.
 * For b = 1 this is the binomial p (1 - p) / N; for b > 1 it is about b
 * times the binomial variance of f, because drops come b at a time. */
static double random_sigma(double p, uint32_t b, uint64_t n)
{
    double f = random_fraction(p, b);
    double v = (p * b * b * (1 - f) * (1 - f) + (1 - p) * f * f) / (1.0 + (b - 1) * p);
    return sqrt(v / (double)n);
}

double netsim_accuracy_injected_fraction(const struct netsim_accuracy_case *c)
{
    uint32_t b = burst_of(c);
    if (c->drop == NETSIM_ACC_DROP_NTH && c->drop_value)
        return (double)b / (double)nth_period(c->drop_value, b);
    if (c->drop == NETSIM_ACC_DROP_RANDOM)
        return random_fraction(c->drop_value / (double)NETSIM_RANDOM_SCALE, b);
    return 0.0;
}

/* ---- set-up -------------------------------------------------------- */

static int make_config(const struct netsim_accuracy_case *c, netsim_pipe_config *cfg)
{
    netsim_pipe_config_init(cfg);
    cfg->delay_set = c->delay_ns > 0;
    cfg->delay_ns = c->delay_ns;
    cfg->rate_set = true;
    cfg->rate_bps = c->rate_bps;
    cfg->qsize_set = true;
    cfg->qsize_bytes = c->qsize_bytes;
    if (c->drop == NETSIM_ACC_DROP_NTH) {
        cfg->drop_nth_set = true;
        cfg->drop_nth = c->drop_value;
        cfg->drop_nth_burst = burst_of(c);
    } else if (c->drop == NETSIM_ACC_DROP_RANDOM) {
        cfg->drop_random_set = true;
        cfg->drop_random = c->drop_value;
        cfg->drop_random_burst = burst_of(c);
    }
    if (c->rate_bps == 0 || c->qsize_bytes == 0)
        return -1;
    return netsim_pipe_config_check(cfg);
}

static double ser_ns(uint32_t len, uint64_t rate)
{
    return (double)len * 8e9 / (double)rate;
}

/* Source period and packet counts (see the header for the two sources). */
static int plan(const struct netsim_accuracy_case *c, run *r, double f)
{
    double s = ser_ns(r->len, c->rate_bps);
    if (c->traffic == NETSIM_ACC_LIGHT) {
        /* ceil(S): the pipe may round one packet up by 1 ns, and the next
         * arrival must still find the serializer idle. */
        r->interval_ns = NETSIM_ACC_LIGHT_GAP * ceil(s);
        r->warmup = c->warmup_pkts;
    } else {
        if (f >= 1.0)
            return -1;                 /* nothing would get through */
        r->interval_ns = s * 100.0 / NETSIM_ACC_LOAD_PCT * (1.0 - f);
        uint64_t frames = c->qsize_bytes / r->len;
        if (frames > WARMUP_FRAMES + burst_of(c))
            frames = WARMUP_FRAMES + burst_of(c);
        /* Each accepted arrival adds len * (1 - 100/105) to the backlog. */
        double excess = 1.0 - 100.0 / NETSIM_ACC_LOAD_PCT;
        r->warmup = c->warmup_pkts ? c->warmup_pkts
                                   : (uint64_t)ceil((double)frames / excess / (1.0 - f));
    }
    uint64_t measure = c->measure_pkts;
    if (!measure)
        measure = c->drop == NETSIM_ACC_DROP_RANDOM ? AUTO_MEASURE_RANDOM
                  : c->traffic == NETSIM_ACC_LIGHT  ? AUTO_MEASURE_LIGHT
                                                    : AUTO_MEASURE_SATURATE;
    r->n_total = r->warmup + measure;
    return 0;
}

/* ---- the run ------------------------------------------------------- */

static uint64_t send_time(const run *r, uint64_t k)
{
    return (uint64_t)((double)k * r->interval_ns);
}

static void src_event(engine_t *e, void *arg)
{
    run *r = arg;
    uint64_t seq = r->next++;
    r->send_t[seq] = engine_now(e);
    if (seq == r->warmup) {
        netsim_pipe_stats st;
        netsim_pipe_stats_get(r->p, &st);
        r->empty_at_warmup = st.empty;
    }
    /* The sequence number rides in the opaque pointer; the pipe never
     * dereferences it. */
    netsim_pipe_send(r->p, (netsim_pkt){ r->len, (void *)(uintptr_t)seq });
    if (r->next < r->n_total)
        engine_at(e, send_time(r, r->next), src_event, r);
}

static void measure_delay(run *r, uint64_t d)
{
    r->delay_n++;
    r->delay_sum += d;
    if (d < r->delay_min)
        r->delay_min = d;
    if (d > r->delay_max)
        r->delay_max = d;
}

static void on_deliver(void *ctx, netsim_pkt pkt)
{
    run *r = ctx;
    uint64_t seq = (uintptr_t)pkt.user;
    uint64_t now = engine_now(r->e);
    if (seq < r->warmup)
        return;
    measure_delay(r, now - r->send_t[seq]);
    /* FIFO pipe: after the first measured packet every delivery is a
     * measured packet, so the window is simply "from here on". */
    if (!r->window_open) {
        r->window_open = true;
        r->t_a = now;
    } else {
        r->window_bytes += pkt.len;
    }
    r->t_b = now;
}

/* ---- results ------------------------------------------------------- */

static void fill_delay(const struct netsim_accuracy_case *c, const run *r,
                       struct netsim_accuracy_result *o)
{
    o->ser_ns = ser_ns(r->len, c->rate_bps);
    o->delay_samples = r->delay_n;
    o->delay_expected_ns = (double)c->delay_ns;
    o->delay_checked = c->traffic == NETSIM_ACC_LIGHT;
    if (!r->delay_n)
        return;
    o->delay_mean_ns = (double)r->delay_sum / (double)r->delay_n;
    o->delay_net_ns = o->delay_mean_ns - o->ser_ns;
    o->delay_min_net_ns = (double)r->delay_min - o->ser_ns;
    o->delay_max_net_ns = (double)r->delay_max - o->ser_ns;
    if (c->delay_ns > 0)
        o->delay_err = (o->delay_net_ns - (double)c->delay_ns) / (double)c->delay_ns;
    else
        o->delay_err = o->delay_net_ns / o->ser_ns;
}

static void fill_tput(const struct netsim_accuracy_case *c, const run *r, double f,
                      struct netsim_accuracy_result *o)
{
    o->tput_checked = c->traffic == NETSIM_ACC_SATURATE;
    o->tput_expected_bps = o->tput_checked ? (double)c->rate_bps : o->offered_bps * (1.0 - f);
    o->tput_window_ns = r->t_b - r->t_a;
    o->tput_bytes = r->window_bytes;
    if (o->tput_window_ns == 0)
        return;
    o->tput_bps = (double)r->window_bytes * 8e9 / (double)o->tput_window_ns;
    o->tput_err = (o->tput_bps - o->tput_expected_bps) / o->tput_expected_bps;
}

static void fill_drops(const struct netsim_accuracy_case *c, const run *r,
                       const netsim_pipe_stats *st, struct netsim_accuracy_result *o)
{
    o->arrived = st->arrived_pkts;
    o->delivered = st->delivered_pkts;
    o->drop_nth = st->drop_nth;
    o->drop_random = st->drop_random;
    o->drop_qfull = st->drop_qfull;
    o->max_qlen_bytes = st->max_qlen_bytes;
    /* The serializer goes idle once more when the source has stopped and
     * the queue drains; that one is not an idle inside the window. */
    o->idle_after_warmup = st->empty - r->empty_at_warmup - (st->delivered_pkts > 0);
    double n = (double)st->arrived_pkts;
    o->frac_nth = st->drop_nth / n;
    o->frac_random = st->drop_random / n;
    o->frac_qfull = st->drop_qfull / n;
    uint32_t b = burst_of(c);
    if (c->drop == NETSIM_ACC_DROP_NTH)
        o->nth_expected = netsim_accuracy_nth_drops(st->arrived_pkts, c->drop_value, b);
    if (c->drop != NETSIM_ACC_DROP_RANDOM)
        return;
    double p = c->drop_value / (double)NETSIM_RANDOM_SCALE;
    o->random_expected = random_fraction(p, b);
    o->random_sigma = random_sigma(p, b, st->arrived_pkts);
    double binom = sqrt(o->random_expected * (1 - o->random_expected) / n);
    double dev = o->frac_random - o->random_expected;
    /* p = 0 or 1: no variance; any deviation is infinitely unlikely. */
    o->random_z = o->random_sigma > 0 ? dev / o->random_sigma : (dev == 0 ? 0 : INFINITY);
    o->random_z_binomial = binom > 0 ? dev / binom : o->random_z;
}

static int setup(const struct netsim_accuracy_case *c, run *r, double f)
{
    netsim_pipe_config cfg;
    if (make_config(c, &cfg) != 0 || plan(c, r, f) != 0)
        return -1;
    r->e = engine_new(c->seed ? c->seed : 1);
    r->send_t = malloc(r->n_total * sizeof *r->send_t);
    netsim_pipe_callbacks cb = { on_deliver, NULL, r };
    if (r->e)
        r->p = netsim_pipe_new(r->e, "netsim:accuracy", &cb);
    if (!r->e || !r->send_t || !r->p)
        return -1;
    if (netsim_pipe_configure(r->p, &cfg) != 0)
        return -1;
    r->delay_min = UINT64_MAX;
    return engine_at(r->e, 0, src_event, r) ? 0 : -1;
}

static void teardown(run *r)
{
    netsim_pipe_free(r->p);
    engine_free(r->e);
    free(r->send_t);
}

int netsim_accuracy_run(const struct netsim_accuracy_case *c, struct netsim_accuracy_result *o)
{
    memset(o, 0, sizeof *o);
    run r = { 0 };
    r.len = c->pkt_len ? c->pkt_len : NETSIM_ACC_PKT_LEN;
    double f = netsim_accuracy_injected_fraction(c);
    if (setup(c, &r, f) != 0) {
        teardown(&r);
        return -1;
    }
    /* The source stops after n_total packets and the pipe keeps timers
     * only while it holds packets, so this ends with the pipe empty. */
    while (engine_step(r.e))
        ;
    netsim_pipe_stats st;
    netsim_pipe_stats_get(r.p, &st);
    o->sent_pkts = r.n_total;
    o->warmup_pkts = r.warmup;
    o->offered_bps = (double)r.len * 8e9 / r.interval_ns;
    o->end_ns = engine_now(r.e);
    o->events = engine_events_run(r.e);
    fill_delay(c, &r, o);
    fill_tput(c, &r, f, o);
    fill_drops(c, &r, &st, o);
    teardown(&r);
    return 0;
}

/* ---- verdict ------------------------------------------------------- */

/* Delay must lie in [D, D + qsize*8/R] for every packet: the delay line
 * is exact and no packet waits longer than a full queue takes to drain
 * (1 ns either side for the serializer's carried rounding). */
static bool delay_bounds_ok(const struct netsim_accuracy_case *c,
                            const struct netsim_accuracy_result *r)
{
    double qdelay = (double)c->qsize_bytes * 8e9 / (double)c->rate_bps;
    return r->delay_min_net_ns >= (double)c->delay_ns - 1.0 &&
           r->delay_max_net_ns <= (double)c->delay_ns + qdelay + 1.0;
}

static bool fail(char *why, size_t len, const char *msg)
{
    if (why && len)
        snprintf(why, len, "%s", msg);
    return false;
}

bool netsim_accuracy_pass(const struct netsim_accuracy_case *c,
                          const struct netsim_accuracy_result *r, char *why, size_t len)
{
    if (r->delay_samples == 0 || r->tput_window_ns == 0)
        return fail(why, len, "nothing measured");
    if (!delay_bounds_ok(c, r))
        return fail(why, len, "a delay outside [D, D + qsize*8/R]");
    if (r->delay_checked && fabs(r->delay_err) > NETSIM_ACC_REL_TOL)
        return fail(why, len, "mean delay off by more than 1 %");
    if (r->tput_checked && fabs(r->tput_err) > NETSIM_ACC_REL_TOL)
        return fail(why, len, "throughput off by more than 1 %");
    if (c->drop != NETSIM_ACC_DROP_NTH && r->drop_nth)
        return fail(why, len, "nth drops without drop nth");
    if (c->drop == NETSIM_ACC_DROP_NTH && r->drop_nth != r->nth_expected)
        return fail(why, len, "nth drop count not exact");
    if (c->drop != NETSIM_ACC_DROP_RANDOM && r->drop_random)
        return fail(why, len, "random drops without drop random");
    if (c->drop == NETSIM_ACC_DROP_RANDOM && !(fabs(r->random_z) <= NETSIM_ACC_Z_TOL))
        return fail(why, len, "random drop fraction beyond 3 sigma");
    if (c->traffic == NETSIM_ACC_LIGHT && r->drop_qfull)
        return fail(why, len, "tail drops under light load");
    return true;
}

/* ---- the standard grid --------------------------------------------- */

#define MS_ ENGINE_NS_PER_MS
#define MBPS 1000000ULL
#define KB 1000ULL
#define NONE NETSIM_ACC_DROP_NONE, 0, 0
#define NTH(n, b) NETSIM_ACC_DROP_NTH, n, b
#define RND(p, b) NETSIM_ACC_DROP_RANDOM, p, b
#define SAT NETSIM_ACC_SATURATE
#define LIGHT NETSIM_ACC_LIGHT

/* Saturated cases: every rate x qsize pair once, delays and the six drop
 * settings rotated over them so each appears at several rates. Light
 * cases: every delay x rate pair once, drops rotated likewise. Then rates
 * whose frame time is not a whole nanosecond (E1, T3, OC-3), to exercise
 * the serializer's carried remainder, and one minimum-size frame case.
 * Each row has its own seed (its row number) so that the random-drop
 * rows test independent draw sequences rather than the same one. */
static const struct netsim_accuracy_case grid[] = {
    { 0,         1 * MBPS,    10 * KB,   NONE,         SAT, 0, 0, 0, 1 },
    { 1 * MS_,   1 * MBPS,    250 * KB,  NTH(200, 1),  SAT, 0, 0, 0, 2 },
    { 50 * MS_,  1 * MBPS,    1000 * KB, NTH(100, 3),  SAT, 0, 0, 0, 3 },
    { 150 * MS_, 10 * MBPS,   10 * KB,   RND(100, 1),  SAT, 0, 0, 0, 4 },
    { 0,         10 * MBPS,   250 * KB,  RND(100, 2),  SAT, 0, 0, 0, 5 },
    { 1 * MS_,   10 * MBPS,   1000 * KB, RND(1000, 1), SAT, 0, 0, 0, 6 },
    { 50 * MS_,  100 * MBPS,  10 * KB,   NONE,         SAT, 0, 0, 0, 7 },
    { 150 * MS_, 100 * MBPS,  250 * KB,  NTH(200, 1),  SAT, 0, 0, 0, 8 },
    { 0,         100 * MBPS,  1000 * KB, NTH(100, 3),  SAT, 0, 0, 0, 9 },
    { 1 * MS_,   1000 * MBPS, 10 * KB,   RND(100, 1),  SAT, 0, 0, 0, 10 },
    { 50 * MS_,  1000 * MBPS, 250 * KB,  RND(100, 2),  SAT, 0, 0, 0, 11 },
    { 150 * MS_, 1000 * MBPS, 1000 * KB, RND(1000, 1), SAT, 0, 0, 0, 12 },
    { 0,         1 * MBPS,    250 * KB,  NONE,         LIGHT, 0, 0, 0, 13 },
    { 1 * MS_,   1 * MBPS,    1000 * KB, NTH(200, 1),  LIGHT, 0, 0, 0, 14 },
    { 50 * MS_,  1 * MBPS,    10 * KB,   NTH(100, 3),  LIGHT, 0, 0, 0, 15 },
    { 150 * MS_, 1 * MBPS,    250 * KB,  RND(100, 1),  LIGHT, 0, 0, 0, 16 },
    { 0,         10 * MBPS,   1000 * KB, RND(100, 2),  LIGHT, 0, 0, 0, 17 },
    { 1 * MS_,   10 * MBPS,   10 * KB,   RND(1000, 1), LIGHT, 0, 0, 0, 18 },
    { 50 * MS_,  10 * MBPS,   250 * KB,  NONE,         LIGHT, 0, 0, 0, 19 },
    { 150 * MS_, 10 * MBPS,   1000 * KB, NTH(200, 1),  LIGHT, 0, 0, 0, 20 },
    { 0,         100 * MBPS,  10 * KB,   NTH(100, 3),  LIGHT, 0, 0, 0, 21 },
    { 1 * MS_,   100 * MBPS,  250 * KB,  RND(100, 1),  LIGHT, 0, 0, 0, 22 },
    { 50 * MS_,  100 * MBPS,  1000 * KB, RND(100, 2),  LIGHT, 0, 0, 0, 23 },
    { 150 * MS_, 100 * MBPS,  10 * KB,   RND(1000, 1), LIGHT, 0, 0, 0, 24 },
    { 0,         1000 * MBPS, 250 * KB,  NONE,         LIGHT, 0, 0, 0, 25 },
    { 1 * MS_,   1000 * MBPS, 1000 * KB, NTH(200, 1),  LIGHT, 0, 0, 0, 26 },
    { 50 * MS_,  1000 * MBPS, 10 * KB,   NTH(100, 3),  LIGHT, 0, 0, 0, 27 },
    { 150 * MS_, 1000 * MBPS, 250 * KB,  RND(100, 1),  LIGHT, 0, 0, 0, 28 },
    { 50 * MS_,  2048000,     250 * KB,  RND(100, 2),  SAT, 0, 0, 0, 29 },
    { 1 * MS_,   44736000,    1000 * KB, NTH(100, 3),  SAT, 0, 0, 0, 30 },
    { 150 * MS_, 155520000,   10 * KB,   NONE,         LIGHT, 0, 0, 0, 31 },
    { 1 * MS_,   44736000,    250 * KB,  RND(100, 1),  LIGHT, 64, 0, 0, 32 },
};

const struct netsim_accuracy_case *netsim_accuracy_grid(size_t *n)
{
    *n = sizeof grid / sizeof grid[0];
    return grid;
}

void netsim_accuracy_describe_drop(const struct netsim_accuracy_case *c, char *buf, size_t len)
{
    uint32_t b = burst_of(c);
    const char *kind = c->drop == NETSIM_ACC_DROP_NTH ? "nth" : "random";
    if (c->drop == NETSIM_ACC_DROP_NONE)
        snprintf(buf, len, "none");
    else if (b == 1)
        snprintf(buf, len, "%s %u", kind, (unsigned)c->drop_value);
    else
        snprintf(buf, len, "%s %u burst %u", kind, (unsigned)c->drop_value, (unsigned)b);
}
