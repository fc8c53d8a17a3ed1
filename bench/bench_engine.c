/* bench_engine: prints kernel and netsim pipe throughput figures.
 * Never asserts; targets (docs/engine-kernel.md): >= 10 M events/s for the
 * kernel, >= 20x real time for one saturated 1 GbE netsim direction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/rng.h"
#include "netsim/pipe.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/* CPU time of this process: on a shared, loaded machine the wall time
 * also counts the time other processes held the core. */
static double cpu_s(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* ---- kernel: the classic "hold" model -------------------------------- */

typedef struct holder {
    rng_t r;
    uint64_t fired;
    uint64_t limit;
} holder;

static void hold_fire(engine_t *e, void *arg)
{
    holder *h = arg;
    if (++h->fired < h->limit)
        engine_after(e, 1 + rng_below(&h->r, 1000000), hold_fire, h);
}

static void bench_kernel(unsigned pending, uint64_t total_events)
{
    engine_t *e = engine_new(1);
    holder *hs = calloc(pending, sizeof *hs);
    char name[32];
    for (unsigned i = 0; i < pending; i++) {
        snprintf(name, sizeof name, "hold%u", i);
        engine_rng_stream(e, &hs[i].r, name);
        hs[i].limit = total_events / pending;
        engine_at(e, rng_below(&hs[i].r, 1000000), hold_fire, &hs[i]);
    }
    double t0 = wall_s();
    while (engine_step(e))
        ;
    double dt = wall_s() - t0;
    uint64_t n = engine_events_run(e);
    printf("kernel  hold model, %7u pending: %10llu events in %.3f s = %6.2f M events/s\n",
           pending, (unsigned long long)n, dt, (double)n / dt / 1e6);
    free(hs);
    engine_free(e);
}

/* ---- one saturated netsim direction --------------------------------- */

typedef struct source {
    netsim_pipe *p;
    uint64_t interval_ns;
    uint32_t len;
    uint64_t sent, delivered, dropped;
} source;

static void src_send(engine_t *e, void *arg)
{
    source *s = arg;
    netsim_pipe_send(s->p, (netsim_pkt){ s->len, s });
    s->sent++;
    engine_after(e, s->interval_ns, src_send, s);
}

static void on_deliver(void *ctx, netsim_pkt pkt)
{
    (void)pkt;
    ((source *)ctx)->delivered++;
}

static void on_drop(void *ctx, netsim_pkt pkt, netsim_drop_cause cause)
{
    (void)pkt;
    (void)cause;
    ((source *)ctx)->dropped++;
}

/* Offer frames 1 % above 1 Gb/s into a pipe at line rate with delay 50 ms,
 * qsize 100 KB and 1 % random drop: the queue stays full, so every stage
 * (drop draw, tail drop, serializer, delay line) works on every packet. */
static void bench_pipe(uint32_t len, double sim_seconds)
{
    engine_t *e = engine_new(1);
    source s = { 0 };
    s.len = len;
    s.interval_ns = (uint64_t)len * 8 * 99 / 100;        /* 1.0101 Gb/s */
    netsim_pipe_callbacks cb = { on_deliver, on_drop, &s };
    s.p = netsim_pipe_new(e, "bench", &cb);
    netsim_pipe_config c;
    netsim_pipe_config_init(&c);
    c.delay_set = true, c.delay_ns = 50 * ENGINE_NS_PER_MS;
    c.qsize_set = true, c.qsize_bytes = 100000;
    c.drop_random_set = true, c.drop_random = 100, c.drop_random_burst = 1;
    netsim_pipe_configure(s.p, &c);
    engine_at(e, 0, src_send, &s);
    uint64_t horizon = (uint64_t)(sim_seconds * 1e9);
    double t0 = wall_s(), c0 = cpu_s();
    engine_run_until(e, horizon);
    double dt = wall_s() - t0, dc = cpu_s() - c0;
    netsim_pipe_stats st;
    netsim_pipe_stats_get(s.p, &st);
    printf("netsim  1 GbE saturated, %4u-B frames: %.1f s simulated in %.3f s CPU = %6.1fx real time "
           "per CPU second (%.3f s wall = %.1fx)\n",
           len, sim_seconds, dc, sim_seconds / dc, dt, sim_seconds / dt);
    printf("        %llu sent, %llu delivered (%.1f Mb/s), %llu dropped (%llu netsim, %llu qfull), "
           "%.2f M events per CPU second, %.0f ns CPU/packet\n",
           (unsigned long long)s.sent, (unsigned long long)s.delivered,
           (double)st.delivered_bytes * 8 / sim_seconds / 1e6,
           (unsigned long long)st.dropped_tot, (unsigned long long)st.dropped_netsim,
           (unsigned long long)st.drop_qfull,
           (double)engine_events_run(e) / dc / 1e6, dc * 1e9 / (double)s.sent);
    /* Two builds that run the same events in the same order print the
     * same hash: a change that should only be faster can be checked. */
    printf("        %llu events, trace hash %016llx\n", (unsigned long long)engine_events_run(e),
           (unsigned long long)engine_trace_hash(e));
    netsim_pipe_free(s.p);
    engine_free(e);
}

/* With arguments, one case only (for perf record):
 *   bench_engine kernel PENDING   |   bench_engine netsim FRAME_BYTES */
int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "kernel") == 0) {
        bench_kernel((unsigned)strtoul(argv[2], NULL, 10), 20000000);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "netsim") == 0) {
        uint32_t len = (uint32_t)strtoul(argv[2], NULL, 10);
        bench_pipe(len, len >= 1000 ? 20.0 : 2.0);
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: bench_engine [kernel PENDING | netsim FRAME_BYTES]\n");
        return 2;
    }
    bench_kernel(64, 20000000);
    bench_kernel(1000, 20000000);
    bench_kernel(100000, 20000000);
    bench_pipe(1518, 20.0);
    bench_pipe(64, 2.0);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS: %ld KiB\n", ru.ru_maxrss);
    return 0;
}
