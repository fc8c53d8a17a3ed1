/* bench_netsim_accuracy: runs the netsim accuracy grid (netsim/accuracy.h)
 * and prints configured vs achieved as a Markdown table, plus the wall time
 * per case. Never asserts (tests/unit/test_netsim_accuracy.c does); the
 * last column says whether a case meets the bounds.
 *
 * Usage: bench_netsim_accuracy [-n PACKETS]
 *   -n  measured packets per case instead of the grid's automatic counts
 *       (larger N tightens the random-drop z-test's sigma, not the bound).
 * After the grid: a z calibration over 1000 seeds, and the throughput a
 * shallow queue loses behind heavy random drops.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "netsim/accuracy.h"

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fmt_rate(char *buf, size_t len, uint64_t bps)
{
    if (bps % 1000000 == 0)
        snprintf(buf, len, "%llu Mb/s", (unsigned long long)(bps / 1000000));
    else
        snprintf(buf, len, "%.3f Mb/s", (double)bps / 1e6);
}

static void fmt_drop_result(char *buf, size_t len, const struct netsim_accuracy_case *c,
                            const struct netsim_accuracy_result *r)
{
    if (c->drop == NETSIM_ACC_DROP_NTH)
        snprintf(buf, len, "nth %llu (exp %llu) | %.4f %%", (unsigned long long)r->drop_nth,
                 (unsigned long long)r->nth_expected, r->frac_nth * 100);
    else if (c->drop == NETSIM_ACC_DROP_RANDOM)
        snprintf(buf, len, "%.4f %% (exp %.4f %%) | z %+.2f (binom %+.2f)",
                 r->frac_random * 100, r->random_expected * 100, r->random_z,
                 r->random_z_binomial);
    else
        snprintf(buf, len, "0 | -");
}

static void print_header(void)
{
    printf("| # | traffic | delay | rate | qsize | drop | pkts | mean delay - S (ms) | "
           "delay err | throughput (Mb/s) | rate err | injected drops | drop check | "
           "qfull %% | idle | ok | wall ms |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
}

/* An error the test asserts is printed plainly; one it does not (delay
 * under saturation includes queueing, throughput of a light source is
 * just what was offered) in brackets. */
static void fmt_err(char *buf, size_t len, double err, bool checked)
{
    snprintf(buf, len, checked ? "%+.2e" : "(%+.2e)", err);
}

static void print_row(size_t i, const struct netsim_accuracy_case *c,
                      const struct netsim_accuracy_result *r, double wall)
{
    char rate[32], drop[48], dres[128], derr[24], terr[24], why[80];
    fmt_rate(rate, sizeof rate, c->rate_bps);
    netsim_accuracy_describe_drop(c, drop, sizeof drop);
    fmt_drop_result(dres, sizeof dres, c, r);
    fmt_err(derr, sizeof derr, r->delay_err, r->delay_checked);
    fmt_err(terr, sizeof terr, r->tput_err, r->tput_checked);
    bool ok = netsim_accuracy_pass(c, r, why, sizeof why);
    printf("| %zu | %s | %llu ms | %s | %llu KB | %s | %llu | %.6f | %s | %.6f | %s | %s | "
           "%.3f | %llu | %s | %.1f |\n",
           i + 1, c->traffic == NETSIM_ACC_SATURATE ? "1.05x" : "light",
           (unsigned long long)(c->delay_ns / ENGINE_NS_PER_MS), rate,
           (unsigned long long)(c->qsize_bytes / 1000), drop,
           (unsigned long long)r->sent_pkts, r->delay_net_ns / 1e6, derr, r->tput_bps / 1e6,
           terr, dres, r->frac_qfull * 100, (unsigned long long)r->idle_after_warmup,
           ok ? "yes" : why, wall * 1e3);
}

/* Is |z| <= 3 really a 3-sigma bound? Over many seeds the z of a
 * random-drop case should be standard normal: mean 0, sd 1. The plain
 * binomial sigma of the burst-adjusted fraction is printed beside it. */
static void print_calibration(void)
{
    static const uint32_t ps[] = { 100, 100, 100, 1000, 1000 };
    static const uint32_t bs[] = { 1, 2, 3, 1, 10 };
    enum { RUNS = 1000, PKTS = 5000 };
    printf("\n### z calibration (%d seeds x %d arrivals, light 1 Gb/s, 100-B frames)\n\n",
           RUNS, PKTS);
    printf("| drop | mean z | sd z | sd z (binomial sigma) | wall s |\n|---|---|---|---|---|\n");
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        double s1 = 0, s2 = 0, b1 = 0, b2 = 0, t0 = wall_s();
        struct netsim_accuracy_case c = { 0 };
        c.rate_bps = 1000000000, c.qsize_bytes = 250000, c.traffic = NETSIM_ACC_LIGHT;
        c.drop = NETSIM_ACC_DROP_RANDOM, c.drop_value = ps[k], c.drop_burst = bs[k];
        c.pkt_len = 100, c.measure_pkts = PKTS;
        for (int i = 0; i < RUNS; i++) {
            struct netsim_accuracy_result r;
            c.seed = 1 + (uint64_t)i;
            netsim_accuracy_run(&c, &r);
            s1 += r.random_z, s2 += r.random_z * r.random_z;
            b1 += r.random_z_binomial, b2 += r.random_z_binomial * r.random_z_binomial;
        }
        char drop[48];
        netsim_accuracy_describe_drop(&c, drop, sizeof drop);
        printf("| %s | %+.3f | %.3f | %.3f | %.2f |\n", drop, s1 / RUNS,
               sqrt(s2 / RUNS - s1 * s1 / RUNS / RUNS), sqrt(b2 / RUNS - b1 * b1 / RUNS / RUNS),
               wall_s() - t0);
    }
}

/* Outside the grid: injected drops in front of a shallow queue make the
 * surviving arrivals bursty, so even a source offering 1.05x after drops
 * lets the serializer idle and the egress rate falls below R. This is the
 * model behaving as configured (a real dummynet pipe does the same), but it
 * is why the grid pairs heavy random drops with deep queues. */
static void print_shallow(void)
{
    static const uint64_t qs[] = { 4600, 10000, 50000 };
    static const uint32_t ps[] = { 100, 1000, 1000, 3000 };
    static const uint32_t bs[] = { 3, 1, 3, 3 };
    printf("\n### Shallow queue behind random drops (1 Gb/s, 1.05x after drops, 100 000 "
           "packets)\n\n| qsize | drop | throughput (Mb/s) | rate err | idle |\n"
           "|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++)
        for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
            struct netsim_accuracy_case c = { 0 };
            c.rate_bps = 1000000000, c.qsize_bytes = qs[i], c.traffic = NETSIM_ACC_SATURATE;
            c.drop = NETSIM_ACC_DROP_RANDOM, c.drop_value = ps[k], c.drop_burst = bs[k];
            c.measure_pkts = 100000, c.seed = 1;
            struct netsim_accuracy_result r;
            char drop[48];
            if (netsim_accuracy_run(&c, &r) != 0)
                continue;
            netsim_accuracy_describe_drop(&c, drop, sizeof drop);
            printf("| %.1f KB | %s | %.3f | %+.2e | %llu |\n", qs[i] / 1000.0, drop,
                   r.tput_bps / 1e6, r.tput_err, (unsigned long long)r.idle_after_warmup);
        }
}

int main(int argc, char **argv)
{
    uint32_t measure = 0;
    if (argc == 3 && strcmp(argv[1], "-n") == 0) {
        measure = (uint32_t)strtoul(argv[2], NULL, 10);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [-n PACKETS]\n", argv[0]);
        return 2;
    }
    size_t n;
    const struct netsim_accuracy_case *grid = netsim_accuracy_grid(&n);
    print_header();
    double total = 0;
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        struct netsim_accuracy_case c = grid[i];
        if (measure)
            c.measure_pkts = measure;
        struct netsim_accuracy_result r;
        double t0 = wall_s();
        int rc = netsim_accuracy_run(&c, &r);
        double dt = wall_s() - t0;
        total += dt;
        if (rc != 0) {
            printf("| %zu | run failed |\n", i + 1);
            failed++;
            continue;
        }
        failed += !netsim_accuracy_pass(&c, &r, NULL, 0);
        print_row(i, &c, &r, dt);
    }
    printf("\n%zu cases, %d outside the bounds, %.3f s wall in total\n", n, failed, total);
    print_calibration();
    print_shallow();
    return 0;
}
