/* The SAN Extension Tuner's engine (backend/sanext/tuner.c) on the two-switch
 * FCIP rig: I/Os complete through the tunnel, the counters obey their
 * definitions (docs/tuner-counters.md) and the path's bounds, Little's
 * law holds, num-transactions, stop and clear behave, and a tunnel that
 * flaps under load fails I/Os with errors and then carries them again. */
#include <check.h>
#include <stdio.h>
#include "fcip_rig.h"
#include "sanext/tuner.h"
#include "fcip/compress.h"

static struct rig r;
static struct tuner *tu;
static const uint8_t W1[8] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11};
static const uint8_t W2[8] = {0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22};

static void nports(void)
{
    struct tuner_nport_conf a = {.sw = 0, .vsan = 1, .slot = 2, .port = 2}, b = a;
    memcpy(a.pwwn, W1, 8);
    b.sw = 1;
    memcpy(b.pwwn, W2, 8);
    tuner_nport(tu, &a);
    tuner_nport(tu, &b);
}

/* Declares the N ports and, when op >= 0, one command on MDS1's. */
static void declare(int op, uint32_t size, int outstanding, uint64_t transactions, uint64_t start)
{
    tuner_begin(tu);
    nports();
    if (op >= 0) {
        struct tuner_cmd_conf c = {.id = 1, .op = (enum tuner_op)op, .size = size, .outstanding = outstanding,
                                   .transactions = transactions, .start = start};
        memcpy(c.target, W2, 8);
        tuner_cmd(tu, 0, W1, 1, &c);
    }
    tuner_end(tu);
}

static void setup_path(uint64_t delay_ms, uint64_t rate_bps)
{
    rig_init(&r, delay_ms, rate_bps, 1500);
    rig_apply(&r);
    engine_run_until(r.e, 2 * ENGINE_NS_PER_SEC);
    tu = tuner_new(r.e, r.fab);
}

static void teardown(void)
{
    tuner_free(tu);
    rig_free(&r);
}

static void counters(int sw, struct tuner_counters *c) { tuner_counters(tu, sw, sw ? W2 : W1, 1, c); }

static void run_for(double s) { engine_run_until(r.e, engine_now(r.e) + (uint64_t)(s * 1e9)); }

/* Reads over 10 Mb/s, 100 ms each way: the initiator's response time is at
 * least the round trip, throughput stays under the path, and Little's law
 * ties I/O rate, outstanding I/Os and response time. */
START_TEST(reads_obey_the_path_and_littles_law)
{
    setup_path(100, 10000000u);
    declare(TUNER_READ, 256000, 2, 0, 1);
    run_for(5);
    struct tuner_counters a, b;
    counters(0, &a);
    tuner_clear(tu, 0, W1, 1);
    run_for(30);
    counters(0, &a);
    counters(1, &b);
    double secs = 30, x = a.reads / secs; /* the initiator's completions: its read share */
    double r_ini = a.rt_sum_ns[0] / 1e9 / a.rt_count[0];
    printf("reads: %.2f/s, initiator+target mean R %.3f s, ingress %.3f MiB/s (max %.3f), egress of the target "
           "%.3f MiB/s\n",
           x, r_ini, a.ingress_bytes_per_s / 1048576.0, a.ingress_max_bytes_per_s / 1048576.0,
           b.egress_bytes_per_s / 1048576.0);
    ck_assert_uint_eq(a.writes, 0);
    ck_assert_uint_ge(a.rt_min_ns[0], 200 * ENGINE_NS_PER_MS); /* no WAN read beats the round trip */
    ck_assert_uint_le(a.ingress_max_bytes_per_s, 1250000u);          /* never above 10 Mb/s of payload */
    ck_assert_uint_le(a.ingress_bytes_per_s, 1250000u);
    ck_assert_uint_le(b.egress_max_bytes_per_s, 1250000u);
    /* Little: outstanding = rate x response time, within 10 % */
    double n = x * r_ini;
    ck_assert_msg(n > 1.8 && n < 2.2, "Little: %.3f reads/s x %.3f s = %.2f, want 2", x, r_ini, n);
    ck_assert_uint_eq(a.errors, 0);
    ck_assert_uint_eq(a.in_flight, 2);
    /* the target counts its role: as many I/Os, each its service time */
    ck_assert_uint_ge(b.reads, a.reads - 2);
    ck_assert_uint_eq(b.rt_min_ns[0], TUNER_SERVICE_NS);
}
END_TEST

START_TEST(num_transactions_then_stop)
{
    setup_path(1, 0);
    declare(TUNER_WRITE, 65536, 4, 10, 1);
    run_for(5);
    struct tuner_counters a;
    counters(0, &a);
    ck_assert_uint_eq(a.writes, 10);
    ck_assert_uint_eq(a.in_flight, 0);
    ck_assert(!a.running);
    /* started again under the same id: a new command */
    declare(TUNER_WRITE, 65536, 4, 10, 2);
    run_for(5);
    counters(0, &a);
    ck_assert_uint_eq(a.writes, 20);
    /* continuous, then stopped (not declared): nothing more completes */
    declare(TUNER_WRITE, 65536, 4, 0, 3);
    run_for(1);
    declare(-1, 0, 0, 0, 0);
    counters(0, &a);
    uint64_t done = a.writes;
    run_for(5);
    counters(0, &a);
    ck_assert_uint_eq(a.writes, done);
    ck_assert_uint_eq(a.in_flight, 0);
    tuner_clear(tu, 0, W1, 1);
    counters(0, &a);
    ck_assert_uint_eq(a.writes + a.reads + a.errors + a.rt_count[1], 0);
}
END_TEST

/* The tunnel shut under load: in-flight I/Os time out as errors; back up,
 * the I/Os flow again. */
START_TEST(tunnel_flap_under_load)
{
    setup_path(10, 0);
    declare(TUNER_READ, 256000, 4, 0, 1);
    run_for(3);
    struct tuner_counters a;
    counters(0, &a);
    ck_assert_uint_eq(a.errors, 0);
    uint64_t before = a.reads;
    r.conf[1].admin_up = false;
    rig_apply(&r);
    run_for(10);
    counters(0, &a);
    ck_assert_uint_ge(a.errors, 4); /* the 4 in flight, aborted at 3 s */
    uint64_t during = a.reads;
    ck_assert_uint_le(during - before, 8);
    r.conf[1].admin_up = true;
    rig_apply(&r);
    run_for(10);
    counters(0, &a);
    ck_assert_uint_gt(a.reads, during + 50);
}
END_TEST

/* G7: a write costs two round trips (CMND, XFER_RDY, data, RSP), one with
 * write acceleration at both ends (the local proxy XFER_RDY): 10 ms each
 * way, line rate, 256,000 bytes, one outstanding. */
static double write_ms(bool wa)
{
    setup_path(10, 0);
    for (int i = 0; i < 2; i++)
        r.conf[i].write_acc = wa;
    rig_apply(&r);
    run_for(1);
    declare(TUNER_WRITE, 256000, 1, 0, 1);
    run_for(10);
    struct tuner_counters a;
    counters(0, &a);
    /* the initiator's writes: the target-role samples are the other port's */
    double ms = a.rt_sum_ns[1] / 1e6 / a.rt_count[1];
    tuner_free(tu);
    tu = NULL;
    rig_free(&r);
    return ms;
}

START_TEST(g7_write_acceleration)
{
    double off = write_ms(false), on = write_ms(true);
    printf("G7: write %.2f ms without write acceleration, %.2f ms with (ratio %.2f)\n", off, on, off / on);
    ck_assert_msg(off >= 42.3 && off <= 45.5, "WA off: %.2f ms", off);
    /* engine-model's 22.3 assumes 1538 wire bytes a segment; the ports count
     * 1518 (no preamble and gap, docs/fcip-engine.md G9): 2.17 ms, not 2.2 */
    ck_assert_msg(on >= 22.1 && on <= 25.5, "WA on: %.2f ms", on);
    ck_assert(off / on >= 1.6 && off / on <= 2.0);
    setup_path(1, 0); /* for the teardown */
}
END_TEST

/* G6: a latency-bound read: 10 ms each way at line rate, profile RTT
 * 20 ms, 256,000 bytes, one outstanding: the round trip plus 2.2 ms. */
START_TEST(g6_latency_bound_read)
{
    setup_path(10, 0);
    for (int i = 0; i < 2; i++)
        r.conf[i].tcp.rtt_cfg_ns = 20 * ENGINE_NS_PER_MS;
    rig_apply(&r);
    declare(TUNER_READ, 256000, 1, 0, 1);
    run_for(10);
    struct tuner_counters a;
    counters(0, &a);
    double ms = a.rt_sum_ns[0] / 1e6 / a.rt_count[0];
    printf("G6: read %.2f ms\n", ms);
    ck_assert_msg(ms >= 22.1 && ms <= 25.5, "G6: %.2f ms", ms);
}
END_TEST

/* Mean ingress of MDS1's N port over 20 s of reads through mode3 (or no
 * compression), with the given data pattern at the target. */
static double read_mibps(enum fcip_compression comp, const unsigned char *data, size_t len)
{
    setup_path(100, 10000000u);
    for (int i = 0; i < 2; i++)
        r.conf[i].comp = comp;
    rig_apply(&r);
    run_for(1);
    tuner_begin(tu);
    nports();
    struct tuner_nport_conf b = {.sw = 1, .vsan = 1, .slot = 2, .port = 2};
    memcpy(b.pwwn, W2, 8);
    if (data)
        b.pattern = tuner_pattern(tu, "noise", data, len);
    tuner_nport(tu, &b);
    struct tuner_cmd_conf c = {.id = 1, .op = TUNER_READ, .size = 256000, .outstanding = 2, .start = 1};
    memcpy(c.target, W2, 8);
    tuner_cmd(tu, 0, W1, 1, &c);
    tuner_end(tu);
    run_for(5);
    struct tuner_counters a0, a1;
    counters(0, &a0);
    run_for(20);
    counters(0, &a1);
    double x = (a1.reads - a0.reads) * 256000.0 / 20 / 1048576.0;
    tuner_free(tu);
    tu = NULL;
    rig_free(&r);
    return x;
}

/* G16: incompressible data gains nothing from mode3 (at most 5 %). */
START_TEST(g16_random_data_does_not_compress)
{
    const struct fc_pattern *noise = fc_pattern_random();
    double plain = read_mibps(FCIP_COMP_OFF, NULL, 0), random = read_mibps(FCIP_COMP_MODE3, noise->sample, noise->len),
           zeros = read_mibps(FCIP_COMP_MODE3, NULL, 0);
    printf("G16: reads at 10 Mb/s: %.3f MiB/s plain, %.3f mode3 random, %.3f mode3 zeros\n", plain, random, zeros);
    ck_assert_msg(random <= 1.05 * plain, "random %.3f > 1.05 x plain %.3f", random, plain);
    ck_assert_msg(zeros > 1.5 * plain, "zeros %.3f not above plain %.3f", zeros, plain);
    setup_path(1, 0); /* for the teardown */
}
END_TEST

/* FC payload per second (MB/s) of MDS1's N port's command over `secs`
 * after 3 s of warm-up: whole I/Os, of one kind. */
static double io_mbps(enum tuner_op op, uint32_t size, int outstanding, double secs)
{
    declare(op, size, outstanding, 0, 1);
    run_for(3);
    struct tuner_counters a0, a1;
    counters(0, &a0);
    run_for(secs);
    counters(0, &a1);
    uint64_t n = op == TUNER_WRITE ? a1.writes - a0.writes : a1.reads - a0.reads;
    ck_assert_uint_eq(a1.errors, 0);
    return (double)n * size / secs / 1e6;
}

/* G5 with the tuner's writes: rate-bound at 10 Mb/s, the profile at the
 * path's rate: 1.25e6 B/s x 0.9248 of FC payload (engine-model §5.2). */
START_TEST(g5_tuner_writes_rate_bound)
{
    setup_path(0, 10000000u);
    netsim_pipe_config cfg;
    netsim_pipe_config_init(&cfg);
    cfg.rate_set = cfg.qsize_set = true;
    cfg.rate_bps = 10000000u;
    cfg.qsize_bytes = 1000000u;
    rig_netsim(&r, &cfg);
    for (int i = 0; i < 2; i++)
        r.conf[i].tcp.max_bw_bps = r.conf[i].tcp.min_avail_bps = 10000000u;
    rig_apply(&r);
    double x = io_mbps(TUNER_WRITE, 256000, 4, 20), bound = 1.25e6 * 0.9248 / 1e6;
    printf("G5 (tuner writes): %.4f MB/s of FC payload (path bound %.4f)\n", x, bound);
    ck_assert_msg(x > bound * 0.97 && x <= bound + 0.256 / 20, "G5: %.4f MB/s, bound %.4f", x, bound);
}
END_TEST

/* G8 with the tuner's writes: window-bound, profile 100 Mb/s and 50 ms,
 * 25 ms each way: 11.44 MB/s of FC payload (+-5 %). */
START_TEST(g8_tuner_writes_window_bound)
{
    setup_path(25, 0);
    for (int i = 0; i < 2; i++) {
        r.conf[i].tcp.max_bw_bps = 100000000u;
        r.conf[i].tcp.min_avail_bps = 50000000u;
        r.conf[i].tcp.rtt_cfg_ns = 50 * ENGINE_NS_PER_MS;
    }
    rig_apply(&r);
    double x = io_mbps(TUNER_WRITE, 1000000, 16, 10);
    printf("G8 (tuner writes): %.3f MB/s of FC payload (expected 11.44)\n", x);
    ck_assert_msg(x > 11.44 * 0.95 && x < 11.44 * 1.05, "G8: %.3f MB/s", x);
}
END_TEST

/* G9 with the tuner's reads: line rate at MTU 1500, 114.1 MB/s (+-2 %). */
START_TEST(g9_tuner_reads_line_rate)
{
    setup_path(0, 0);
    double x = io_mbps(TUNER_READ, 1024 * 1024, 16, 2);
    printf("G9 (tuner reads): %.2f MB/s of FC payload (expected 114.1)\n", x);
    ck_assert_msg(x > 114.1 * 0.98 && x < 114.1 * 1.02, "G9: %.2f MB/s", x);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tuner");
    TCase *tc = tcase_create("tuner");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, reads_obey_the_path_and_littles_law);
    tcase_add_test(tc, num_transactions_then_stop);
    tcase_add_test(tc, tunnel_flap_under_load);
    tcase_add_test(tc, g7_write_acceleration);
    tcase_add_test(tc, g6_latency_bound_read);
    tcase_add_test(tc, g16_random_data_does_not_compress);
    tcase_add_test(tc, g5_tuner_writes_rate_bound);
    tcase_add_test(tc, g8_tuner_writes_window_bound);
    tcase_add_test(tc, g9_tuner_reads_line_rate);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
