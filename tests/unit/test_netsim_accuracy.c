/* Accuracy of one netsim direction against its configuration: the grid of
 * netsim_accuracy_grid() (delay x rate x qsize x drop, saturated and light
 * sources), each case asserting |error| <= 1 % for rate and delay, an
 * exact nth count and |z| <= 3 for random drops (definitions in
 * netsim/accuracy.h). Plus checks of the expectations themselves: the nth
 * closed form against a brute-force count, the burst-adjusted random
 * fraction, and the calibration of its sigma over many seeds. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "netsim/accuracy.h"

#define MS ENGINE_NS_PER_MS
#define MBPS 1000000ULL

static struct netsim_accuracy_case light_case(uint64_t rate, uint32_t len)
{
    struct netsim_accuracy_case c = { 0 };
    c.rate_bps = rate;
    c.qsize_bytes = 250000;
    c.traffic = NETSIM_ACC_LIGHT;
    c.pkt_len = len;
    return c;
}

/* ---- the grid ------------------------------------------------------- */

static void check_case(size_t i, const struct netsim_accuracy_case *c,
                       const struct netsim_accuracy_result *r)
{
    ck_assert_msg(r->delay_samples > 0 && r->tput_window_ns > 0, "case %zu: nothing measured",
                  i + 1);
    if (r->delay_checked)
        ck_assert_msg(fabs(r->delay_err) <= NETSIM_ACC_REL_TOL,
                      "case %zu: mean delay %.1f ns vs %llu ns (err %.3g)", i + 1,
                      r->delay_net_ns, (unsigned long long)c->delay_ns, r->delay_err);
    if (r->tput_checked)
        ck_assert_msg(fabs(r->tput_err) <= NETSIM_ACC_REL_TOL,
                      "case %zu: throughput %.0f b/s vs %llu (err %.3g)", i + 1, r->tput_bps,
                      (unsigned long long)c->rate_bps, r->tput_err);
    if (c->drop == NETSIM_ACC_DROP_NTH)
        ck_assert_msg(r->drop_nth == r->nth_expected, "case %zu: nth drops %llu, want %llu",
                      i + 1, (unsigned long long)r->drop_nth,
                      (unsigned long long)r->nth_expected);
    if (c->drop == NETSIM_ACC_DROP_RANDOM)
        ck_assert_msg(fabs(r->random_z) <= NETSIM_ACC_Z_TOL,
                      "case %zu: random fraction %.5f vs %.5f, z %.2f", i + 1, r->frac_random,
                      r->random_expected, r->random_z);
    /* The grid's saturated cases are chosen so the link never idles (see
     * idle_after_warmup): there "expected = R" is exact, not a hope. */
    if (c->traffic == NETSIM_ACC_SATURATE)
        ck_assert_msg(r->idle_after_warmup == 0, "case %zu: link idled %llu times", i + 1,
                      (unsigned long long)r->idle_after_warmup);
    /* The rest of the verdict (delay bounds, no stray causes). */
    char why[80];
    ck_assert_msg(netsim_accuracy_pass(c, r, why, sizeof why), "case %zu: %s", i + 1, why);
}

START_TEST(test_grid_case)
{
    size_t n;
    const struct netsim_accuracy_case *g = netsim_accuracy_grid(&n);
    ck_assert_uint_lt((size_t)_i, n);
    struct netsim_accuracy_result r;
    ck_assert_int_eq(netsim_accuracy_run(&g[_i], &r), 0);
    check_case((size_t)_i, &g[_i], &r);
}
END_TEST

static bool grid_has(uint64_t delay, uint64_t rate, uint64_t qsize, int drop, uint32_t v,
                     uint32_t b)
{
    size_t n;
    const struct netsim_accuracy_case *g = netsim_accuracy_grid(&n);
    for (size_t i = 0; i < n; i++)
        if ((delay == UINT64_MAX || g[i].delay_ns == delay) &&
            (rate == 0 || g[i].rate_bps == rate) && (qsize == 0 || g[i].qsize_bytes == qsize) &&
            (drop < 0 || ((int)g[i].drop == drop && g[i].drop_value == v &&
                          g[i].drop_burst == b)))
            return true;
    return false;
}

/* The issue's grid: every value of every axis appears, at least 24 cases,
 * and each drop setting under both sources. */
START_TEST(test_grid_covers_the_axes)
{
    size_t n;
    const struct netsim_accuracy_case *g = netsim_accuracy_grid(&n);
    ck_assert_uint_ge(n, 24);
    uint64_t delays[] = { 0, 1 * MS, 50 * MS, 150 * MS };
    uint64_t rates[] = { 1 * MBPS, 10 * MBPS, 100 * MBPS, 1000 * MBPS };
    uint64_t qsizes[] = { 10000, 250000, 1000000 };
    for (int k = 0; k < 4; k++) {
        ck_assert(grid_has(delays[k], 0, 0, -1, 0, 0));
        ck_assert(grid_has(UINT64_MAX, rates[k], 0, -1, 0, 0));
    }
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 4; r++)
            ck_assert(grid_has(UINT64_MAX, rates[r], qsizes[k], -1, 0, 0));
    ck_assert(grid_has(UINT64_MAX, 0, 0, NETSIM_ACC_DROP_NONE, 0, 0));
    ck_assert(grid_has(UINT64_MAX, 0, 0, NETSIM_ACC_DROP_NTH, 200, 1));
    ck_assert(grid_has(UINT64_MAX, 0, 0, NETSIM_ACC_DROP_NTH, 100, 3));
    ck_assert(grid_has(UINT64_MAX, 0, 0, NETSIM_ACC_DROP_RANDOM, 100, 1));
    ck_assert(grid_has(UINT64_MAX, 0, 0, NETSIM_ACC_DROP_RANDOM, 100, 2));
    ck_assert(grid_has(UINT64_MAX, 0, 0, NETSIM_ACC_DROP_RANDOM, 1000, 1));
    int sat = 0;
    for (size_t i = 0; i < n; i++)
        sat += g[i].traffic == NETSIM_ACC_SATURATE;
    ck_assert_int_ge(sat, 12);
    ck_assert_int_ge((int)n - sat, 16);
}
END_TEST

/* ---- the expectations ----------------------------------------------- */

/* The pipe's nth rule re-stated as literally as possible: count arrivals,
 * a multiple of n outside a burst starts one of b. */
static uint64_t nth_brute(uint64_t arrivals, uint32_t n, uint32_t b)
{
    uint64_t drops = 0;
    uint32_t left = 0;
    for (uint64_t a = 1; a <= arrivals; a++) {
        if (left) {
            left--;
            drops++;
        } else if (a % n == 0) {
            left = b - 1;
            drops++;
        }
    }
    return drops;
}

START_TEST(test_nth_closed_form)
{
    uint32_t ns[] = { 1, 2, 5, 100, 200 };
    uint32_t bs[] = { 1, 2, 3, 7, 100 };
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            for (uint64_t a = 0; a < 1000; a += 7)
                ck_assert_uint_eq(netsim_accuracy_nth_drops(a, ns[i], bs[j]),
                                  nth_brute(a, ns[i], bs[j]));
    /* engine-model.md G3: floor(N/200), and 3 x floor(N/200) with the
     * partial burst at the end counted. */
    ck_assert_uint_eq(netsim_accuracy_nth_drops(1001, 200, 1), 5);
    ck_assert_uint_eq(netsim_accuracy_nth_drops(1200, 200, 3), 16);
    ck_assert_uint_eq(netsim_accuracy_nth_drops(1000, 200, 3), 13);
}
END_TEST

START_TEST(test_injected_fraction)
{
    struct netsim_accuracy_case c = light_case(10 * MBPS, 0);
    ck_assert_double_eq(netsim_accuracy_injected_fraction(&c), 0.0);
    c.drop = NETSIM_ACC_DROP_RANDOM, c.drop_value = 100, c.drop_burst = 2;
    /* G4: 2p/(1+p) = 0.019802 for p = 1 %. */
    ck_assert_double_eq_tol(netsim_accuracy_injected_fraction(&c), 0.02 / 1.01, 1e-12);
    c.drop_value = 1000, c.drop_burst = 1;
    ck_assert_double_eq_tol(netsim_accuracy_injected_fraction(&c), 0.1, 1e-12);
    c.drop = NETSIM_ACC_DROP_NTH, c.drop_value = 100, c.drop_burst = 3;
    ck_assert_double_eq_tol(netsim_accuracy_injected_fraction(&c), 0.03, 1e-12);
    c.drop_value = 5, c.drop_burst = 7;               /* bursts every 10 */
    ck_assert_double_eq_tol(netsim_accuracy_injected_fraction(&c), 0.7, 1e-12);
}
END_TEST

/* The z of a random-drop case must be a standard normal variable, else
 * "|z| <= 3" is not a 3-sigma bound. Over 100 seeds of burst 3 the
 * renewal sigma gives a z with sd ~1 (sd of the estimate ~0.07); the plain
 * binomial sigma of the burst-adjusted fraction would give ~1.7. */
START_TEST(test_random_sigma_calibrated)
{
    enum { RUNS = 100 };
    double s1 = 0, s2 = 0, b2 = 0;
    for (int i = 0; i < RUNS; i++) {
        struct netsim_accuracy_case c = light_case(1000 * MBPS, 100);
        c.drop = NETSIM_ACC_DROP_RANDOM, c.drop_value = 100, c.drop_burst = 3;
        c.measure_pkts = 2000;
        c.seed = 1000 + (uint64_t)i;
        struct netsim_accuracy_result r;
        ck_assert_int_eq(netsim_accuracy_run(&c, &r), 0);
        s1 += r.random_z;
        s2 += r.random_z * r.random_z;
        b2 += r.random_z_binomial * r.random_z_binomial;
    }
    double mean = s1 / RUNS, sd = sqrt(s2 / RUNS - mean * mean);
    ck_assert_double_le(fabs(mean), 0.3);           /* 3 / sqrt(RUNS) */
    ck_assert_double_ge(sd, 0.8);
    ck_assert_double_le(sd, 1.2);
    ck_assert_double_ge(sqrt(b2 / RUNS), 1.4);     /* binomial: too narrow */
}
END_TEST

/* ---- the driver itself ---------------------------------------------- */

START_TEST(test_deterministic_and_seeded)
{
    size_t n;
    const struct netsim_accuracy_case *g = netsim_accuracy_grid(&n);
    const struct netsim_accuracy_case *c = NULL;
    for (size_t i = 0; i < n && !c; i++)
        if (g[i].drop == NETSIM_ACC_DROP_RANDOM && g[i].traffic == NETSIM_ACC_SATURATE)
            c = &g[i];
    ck_assert_ptr_nonnull(c);
    struct netsim_accuracy_result a, b, d;
    ck_assert_int_eq(netsim_accuracy_run(c, &a), 0);
    ck_assert_int_eq(netsim_accuracy_run(c, &b), 0);
    ck_assert_uint_eq(a.drop_random, b.drop_random);
    ck_assert_uint_eq(a.drop_qfull, b.drop_qfull);
    ck_assert_uint_eq(a.events, b.events);
    ck_assert_uint_eq(a.end_ns, b.end_ns);
    ck_assert(a.delay_mean_ns == b.delay_mean_ns && a.tput_bps == b.tput_bps);
    struct netsim_accuracy_case other = *c;
    other.seed = c->seed + 1000;
    ck_assert_int_eq(netsim_accuracy_run(&other, &d), 0);
    ck_assert_uint_ne(a.drop_random, d.drop_random);
}
END_TEST

/* A light source at a rate whose frame time is not a whole nanosecond:
 * each packet takes floor(S) or floor(S)+1 ns, so the net delay stays
 * within 1 ns of the configured one. */
START_TEST(test_light_delay_exact_to_a_nanosecond)
{
    struct netsim_accuracy_case c = light_case(7 * MBPS, 1000);
    c.delay_ns = 20 * MS + 123;
    struct netsim_accuracy_result r;
    ck_assert_int_eq(netsim_accuracy_run(&c, &r), 0);
    ck_assert_uint_eq(r.delay_samples, 2000);
    ck_assert_double_ge(r.delay_min_net_ns, (double)c.delay_ns - 1.0);
    ck_assert_double_le(r.delay_max_net_ns, (double)c.delay_ns + 1.0);
    ck_assert_uint_eq(r.drop_qfull, 0);
    /* Offered = delivered for a light source without drops. */
    ck_assert_double_eq_tol(r.tput_err, 0.0, 1e-6);
}
END_TEST

/* Saturated: every accepted packet waits at most a full queue, and the
 * queue's high-water mark stays within qsize. */
START_TEST(test_saturated_queue_bounds)
{
    struct netsim_accuracy_case c = light_case(10 * MBPS, 0);
    c.traffic = NETSIM_ACC_SATURATE;
    c.qsize_bytes = 50000;
    c.delay_ns = 5 * MS;
    struct netsim_accuracy_result r;
    ck_assert_int_eq(netsim_accuracy_run(&c, &r), 0);
    ck_assert_uint_le(r.max_qlen_bytes, c.qsize_bytes);
    ck_assert_uint_ge(r.max_qlen_bytes, c.qsize_bytes - 1518);
    ck_assert_double_le(r.delay_max_net_ns, 5e6 + 50000 * 8e9 / 10e6 + 1);
    ck_assert_uint_gt(r.drop_qfull, 0);
    ck_assert_double_eq_tol(r.tput_err, 0.0, 1e-6);
}
END_TEST

START_TEST(test_unusable_cases_refused)
{
    struct netsim_accuracy_case c = light_case(10 * MBPS, 0);
    struct netsim_accuracy_result r;
    c.rate_bps = 0;
    ck_assert_int_eq(netsim_accuracy_run(&c, &r), -1);
    c = light_case(10 * MBPS, 0);
    c.qsize_bytes = 0;
    ck_assert_int_eq(netsim_accuracy_run(&c, &r), -1);
    c = light_case(10 * MBPS, 0);
    c.drop = NETSIM_ACC_DROP_NTH;                     /* nth 0 */
    ck_assert_int_eq(netsim_accuracy_run(&c, &r), -1);
    c.drop = NETSIM_ACC_DROP_RANDOM, c.drop_value = 10001;
    ck_assert_int_eq(netsim_accuracy_run(&c, &r), -1);
    /* Saturating through "drop nth 1": nothing can reach the link. */
    c = light_case(10 * MBPS, 0);
    c.traffic = NETSIM_ACC_SATURATE;
    c.drop = NETSIM_ACC_DROP_NTH, c.drop_value = 1, c.drop_burst = 1;
    ck_assert_int_eq(netsim_accuracy_run(&c, &r), -1);
    ck_assert_uint_eq(r.sent_pkts, 0);
}
END_TEST

static Suite *accuracy_suite(void)
{
    size_t n;
    netsim_accuracy_grid(&n);
    Suite *s = suite_create("netsim_accuracy");
    TCase *g = tcase_create("grid");
    tcase_set_timeout(g, 60);
    tcase_add_loop_test(g, test_grid_case, 0, (int)n);
    tcase_add_test(g, test_grid_covers_the_axes);
    suite_add_tcase(s, g);
    TCase *x = tcase_create("expectations");
    tcase_set_timeout(x, 60);
    tcase_add_test(x, test_nth_closed_form);
    tcase_add_test(x, test_injected_fraction);
    tcase_add_test(x, test_random_sigma_calibrated);
    suite_add_tcase(s, x);
    TCase *d = tcase_create("driver");
    tcase_add_test(d, test_deterministic_and_seeded);
    tcase_add_test(d, test_light_delay_exact_to_a_nanosecond);
    tcase_add_test(d, test_saturated_queue_bounds);
    tcase_add_test(d, test_unusable_cases_refused);
    suite_add_tcase(s, d);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(accuracy_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
