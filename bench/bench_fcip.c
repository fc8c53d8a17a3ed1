/* bench_fcip: one saturated FCIP tunnel of the reference lab (tests/unit/
 * fcip_rig.h: MDS1 g2/2 -> netsim -> MDS2 g2/2), driven by the test-only
 * write source and by the SAN Extension Tuner (reads of MDS2's N port by
 * MDS1's): over 1 GbE at MTU 1500, and over the reference lab's 10 Mb/s /
 * 200 ms netsim. Simulated time per CPU second of the process (what one
 * dedicated core gives; the machines are shared) and per wall second,
 * engine events per CPU second, FC payload throughput, heap per tunnel. Prints figures, never asserts
 * (bench/README.md). Targets: >= 20x real time at 1 GbE, >= 200x at
 * 10 Mb/s / 200 ms. */
#include <malloc.h>
#include <stdio.h>
#include <time.h>
#include "fcip_rig.h"
#include "sanext/tuner.h"

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

static const char *only; /* argv[1]: run the cases whose name holds it */

static const uint8_t INI[8] = {0x21, 1, 0, 0, 0, 0, 0, 1}, TGT[8] = {0x21, 2, 0, 0, 0, 0, 0, 2};

/* MDS1's N port keeps `outstanding` reads of `size` bytes from MDS2's. */
static struct tuner *tuner_start(struct rig *r, uint32_t size, int outstanding)
{
    struct tuner *tu = tuner_new(r->e, r->fab);
    tuner_begin(tu);
    struct tuner_nport_conf a = {.sw = 0, .vsan = 1, .slot = 2, .port = 2}, b = a;
    b.sw = 1;
    memcpy(a.pwwn, INI, 8);
    memcpy(b.pwwn, TGT, 8);
    tuner_nport(tu, &a);
    tuner_nport(tu, &b);
    struct tuner_cmd_conf c = {.id = 1, .op = TUNER_READ, .size = size, .outstanding = outstanding, .start = 1};
    memcpy(c.target, TGT, 8);
    tuner_cmd(tu, 0, INI, 1, &c);
    tuner_end(tu);
    return tu;
}

/* FC payload the workload has moved: the tuner counts completed reads. */
static uint64_t done(struct tuner *tu, const struct io_src *s, uint32_t size)
{
    if (!tu)
        return s->payload_done;
    struct tuner_counters c;
    tuner_counters(tu, 0, INI, 1, &c);
    return c.reads * (uint64_t)size;
}

static void run(const char *name, bool tuner, uint64_t delay_ms, uint64_t rate_bps, uint32_t size, int outstanding,
                double sim_s)
{
    if (only && !strstr(name, only))
        return;
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
    struct io_src s = {0};
    struct tuner *tu = NULL;
    if (tuner)
        tu = tuner_start(&r, size, outstanding);
    else
        io_start(&s, &r, true, size, outstanding);
    engine_run_until(r.e, engine_now(r.e) + 2 * ENGINE_NS_PER_SEC);
    uint64_t t0 = engine_now(r.e), ev0 = engine_events_run(r.e), b0 = done(tu, &s, size);
    double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    engine_run_until(r.e, t0 + (uint64_t)(sim_s * 1e9));
    double wall = clock_s(CLOCK_MONOTONIC) - w0, cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    size_t busy = heap_used() - h0;
    double sim = (engine_now(r.e) - t0) / 1e9;
    printf("%-22s %7.1fx real time per CPU second (%.1fx per wall second)  %5.2f M events/CPU s  %8.3f MB/s FC "
           "payload  heap %zu kB idle, %zu kB busy (two tunnel ends)\n",
           name, sim / cpu, sim / wall, (engine_events_run(r.e) - ev0) / cpu / 1e6, (done(tu, &s, size) - b0) / sim / 1e6,
           idle / 1024, busy / 1024);
    tuner_free(tu);
    rig_free(&r);
}

int main(int argc, char **argv)
{
    only = argc > 1 ? argv[1] : NULL;
    run("1 GbE, MTU 1500", false, 0, 0, 1024 * 1024, 16, 5);
    run("10 Mb/s, 200 ms RTT", false, 100, 10000000u, 256000, 2, 600);
    run("tuner reads, 1 GbE", true, 0, 0, 1024 * 1024, 16, 5);
    run("tuner reads, 10 Mb/s", true, 100, 10000000u, 256000, 2, 600);
    return 0;
}
