/* bench_fcip: one saturated FCIP tunnel of the reference lab (tests/unit/
 * fcip_rig.h: MDS1 g2/2 -> netsim -> MDS2 g2/2, test-only write source):
 * over 1 GbE at MTU 1500, and over the reference lab's 10 Mb/s / 200 ms
 * netsim. Simulated time per CPU second of the process (what one
 * dedicated core gives; the machines are shared) and per wall second,
 * engine events per CPU second, FC payload throughput, heap per tunnel. Prints figures, never asserts
 * (bench/README.md). Targets: >= 20x real time at 1 GbE, >= 200x at
 * 10 Mb/s / 200 ms. */
#include <malloc.h>
#include <stdio.h>
#include <time.h>
#include "fcip_rig.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t heap_used(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

static void run(const char *name, uint64_t delay_ms, uint64_t rate_bps, uint32_t size, int outstanding,
                double sim_s)
{
    struct rig r;
    size_t h0 = heap_used();
    rig_init(&r, delay_ms, rate_bps, 1500);
    if (rate_bps)
        for (int i = 0; i < 2; i++) {
            r.conf[i].tcp.max_bw_bps = rate_bps;
            r.conf[i].tcp.min_avail_bps = rate_bps;
            r.conf[i].tcp.rtt_cfg_ns = 2 * delay_ms * ENGINE_NS_PER_MS;
        }
    rig_apply(&r);
    engine_run_until(r.e, ENGINE_NS_PER_SEC);
    size_t idle = heap_used() - h0;
    struct io_src s;
    io_start(&s, &r, true, size, outstanding);
    engine_run_until(r.e, engine_now(r.e) + 2 * ENGINE_NS_PER_SEC);
    uint64_t t0 = engine_now(r.e), ev0 = engine_events_run(r.e), b0 = s.payload_done;
    double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    engine_run_until(r.e, t0 + (uint64_t)(sim_s * 1e9));
    double wall = clock_s(CLOCK_MONOTONIC) - w0, cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    size_t busy = heap_used() - h0;
    double sim = (engine_now(r.e) - t0) / 1e9;
    printf("%-22s %7.1fx real time per CPU second (%.1fx per wall second)  %5.2f M events/CPU s  %8.3f MB/s FC "
           "payload  heap %zu kB idle, %zu kB busy (two tunnel ends)\n",
           name, sim / cpu, sim / wall, (engine_events_run(r.e) - ev0) / cpu / 1e6, (s.payload_done - b0) / sim / 1e6,
           idle / 1024, busy / 1024);
    rig_free(&r);
}

int main(void)
{
    run("1 GbE, MTU 1500", 0, 0, 1024 * 1024, 16, 5);
    run("10 Mb/s, 200 ms RTT", 100, 10000000u, 256000, 2, 600);
    return 0;
}
