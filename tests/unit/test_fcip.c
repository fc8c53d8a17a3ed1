/* FCIP tunnels on the engine: bring-up over the simulated network, fcping
 * through the fabric, throughput against the path's bounds (engine-model
 * §6), loss and recovery, down and up again, compression. */
#include <check.h>
#include <stdio.h>
#include "fcip_rig.h"

static struct rig r;

static void teardown(void) { rig_free(&r); }

static uint64_t fcping_one(int sw, uint32_t d_id)
{
    struct fabric_echo e = {.vsan = 1, .d_id = d_id, .count = 1, .size = 4, .timeout_ns = 5 * ENGINE_NS_PER_SEC};
    ck_assert_int_eq(fabric_echo_start(r.fab, sw, &e), 0);
    uint64_t rtt = fabric_echo_wait(r.fab, &e, 0);
    fabric_echo_end(r.fab, &e);
    return rtt;
}

START_TEST(comes_up_trunking)
{
    rig_init(&r, 50, 0, 1500);
    rig_apply(&r);
    struct fcip_status st;
    engine_run_until(r.e, 2 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, &st), FCIP_TRUNKING);
    ck_assert_int_eq(st.nconn_up, 2);
    ck_assert(vsan_set_has(&st.up, 1));
    ck_assert_int_eq(st.peer_sw, 1);
    ck_assert_int_eq(rig_state(&r, 1, &st), FCIP_TRUNKING);
    /* both ends opened the control connection at once (the lower address
     * won), then the winner opened the data one: 3 attempts in all */
    struct fcip_status a;
    rig_state(&r, 0, &a);
    ck_assert_uint_eq(a.attempts + st.attempts, 3);
}
END_TEST

/* G1: idle fcping to the far domain controller: the netsim round trip. */
START_TEST(g1_fcping_round_trip)
{
    rig_init(&r, 50, 0, 1500);
    rig_apply(&r);
    engine_run_until(r.e, 2 * ENGINE_NS_PER_SEC);
    uint64_t rtt = fcping_one(0, FC_DOMAIN_CONTROLLER(0xEE));
    printf("G1: fcping %.3f ms at 50 ms each way\n", rtt / 1e6);
    ck_assert_uint_ge(rtt, 100 * ENGINE_NS_PER_MS);
    ck_assert_uint_le(rtt, 102 * ENGINE_NS_PER_MS);
    /* no path in a VSAN the trunk does not carry */
    struct fabric_echo e = {.vsan = 7, .d_id = FC_DOMAIN_CONTROLLER(0xEE), .count = 1, .size = 4,
                            .timeout_ns = ENGINE_NS_PER_SEC};
    ck_assert_int_eq(fabric_echo_start(r.fab, 0, &e), -1);
}
END_TEST

START_TEST(both_passive_never_up)
{
    rig_init(&r, 1, 0, 1500);
    r.conf[0].passive = r.conf[1].passive = true;
    rig_apply(&r);
    engine_run_until(r.e, 30 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_DOWN);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_DOWN);
    r.conf[1].passive = false; /* one end active: the link forms */
    rig_apply(&r);
    engine_run_until(r.e, 31 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
}
END_TEST

START_TEST(trunk_vsans_follow_both_ends)
{
    rig_init(&r, 1, 0, 1500);
    struct vsan_set v;
    memset(&v, 0, sizeof v);
    vsan_set_add(&v, 10, 20);
    fabric_set_vsans(r.fab, 0, &v);
    fabric_set_vsans(r.fab, 1, &v);
    memset(&r.conf[1].allowed, 0, sizeof r.conf[1].allowed);
    vsan_set_add(&r.conf[1].allowed, 15, 15);
    vsan_set_add(&r.conf[1].allowed, 30, 30);
    rig_apply(&r);
    engine_run_until(r.e, ENGINE_NS_PER_SEC);
    struct fcip_status st;
    ck_assert_int_eq(rig_state(&r, 0, &st), FCIP_TRUNKING);
    ck_assert(vsan_set_has(&st.up, 15));
    ck_assert(!vsan_set_has(&st.up, 1));
    ck_assert(!vsan_set_has(&st.up, 30));
    ck_assert(vsan_set_has(&st.isolated, 12)); /* allowed here, not there */
    /* a live change on one end: the other follows without a reset */
    uint64_t attempts = st.attempts;
    vsan_set_add(&r.conf[1].allowed, 12, 12);
    rig_apply(&r);
    engine_run_until(r.e, 2 * ENGINE_NS_PER_SEC);
    rig_state(&r, 0, &st);
    ck_assert(vsan_set_has(&st.up, 12));
    ck_assert_uint_eq(st.attempts, attempts);
}
END_TEST

/* G12: every packet of one direction dropped: the connections give up
 * after max-retransmissions timeouts (31 x 200 ms at the defaults) and the
 * link goes down; healed, it comes back. */
START_TEST(g12_max_retransmissions_take_it_down)
{
    rig_init(&r, 0, 0, 1500);
    rig_apply(&r);
    struct io_src s;
    engine_run_until(r.e, ENGINE_NS_PER_SEC);
    io_start(&s, &r, true, 65536, 2);
    engine_run_until(r.e, 2 * ENGINE_NS_PER_SEC);
    ck_assert_uint_gt(s.done, 10);
    netsim_pipe_config cfg;
    netsim_pipe_config_init(&cfg);
    cfg.drop_nth_set = true;
    cfg.drop_nth = 1;
    cfg.drop_nth_burst = 1;
    netsim_pipe_configure(ipnet_ingress_pipe(r.net, 0, 2, 3), &cfg);
    uint64_t t0 = engine_now(r.e);
    while (rig_state(&r, 0, NULL) == FCIP_TRUNKING && engine_now(r.e) < t0 + 30 * ENGINE_NS_PER_SEC)
        engine_run_until(r.e, engine_now(r.e) + 10 * ENGINE_NS_PER_MS);
    uint64_t took = engine_now(r.e) - t0;
    struct fcip_status st;
    ck_assert_int_eq(rig_state(&r, 0, &st), FCIP_DOWN);
    printf("G12: down %.3f s after every packet was lost (expected 6.2)\n", took / 1e9);
    ck_assert_msg(took >= 5900 * ENGINE_NS_PER_MS && took <= 6500 * ENGINE_NS_PER_MS, "down after %.3f s",
                  took / 1e9);
    ck_assert_int_eq(st.cause, FCIP_CAUSE_MAX_RETX);
    netsim_pipe_config_init(&cfg);
    netsim_pipe_configure(ipnet_ingress_pipe(r.net, 0, 2, 3), &cfg);
    engine_run_until(r.e, engine_now(r.e) + 10 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_TRUNKING);
}
END_TEST

/* G13: an idle link loses its path both ways: keepalive (60 s) and 8
 * probes 1 s apart take it down 68 s after the last traffic. An up ISL is
 * never that idle (FSPF hellos every 20 s: test_fspf), so the link here is
 * an isolated one (port VSANs differ), which carries no hellos (case N). */
START_TEST(g13_keepalive_takes_an_idle_link_down)
{
    rig_init(&r, 0, 0, 1500);
    r.conf[0].trunk = r.conf[1].trunk = FCIP_TRUNK_OFF;
    r.conf[1].port_vsan = 20;
    rig_apply(&r);
    engine_run_until(r.e, ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_ISOLATED);
    netsim_pipe_config cfg;
    netsim_pipe_config_init(&cfg);
    cfg.drop_nth_set = true;
    cfg.drop_nth = 1;
    cfg.drop_nth_burst = 1;
    rig_netsim(&r, &cfg);
    uint64_t t0 = engine_now(r.e);
    while (rig_state(&r, 0, NULL) == FCIP_ISOLATED && engine_now(r.e) < t0 + 100 * ENGINE_NS_PER_SEC)
        engine_run_until(r.e, engine_now(r.e) + 100 * ENGINE_NS_PER_MS);
    double took = (engine_now(r.e) - t0) / 1e9;
    struct fcip_status st;
    ck_assert_int_eq(rig_state(&r, 0, &st), FCIP_DOWN);
    printf("G13: down %.1f s after the last traffic (expected 68)\n", took);
    ck_assert_msg(took >= 66.0 && took <= 69.5, "down after %.1f s", took);
    ck_assert_int_eq(st.cause, FCIP_CAUSE_KEEPALIVE);
}
END_TEST

/* Throughput of `n` outstanding I/Os over `secs` after a warm-up, in FC
 * payload MB/s (1e6). */
static double mbps(struct io_src *s, double secs)
{
    engine_run_until(r.e, engine_now(r.e) + 2 * ENGINE_NS_PER_SEC);
    uint64_t b0 = s->payload_done, t0 = engine_now(r.e);
    engine_run_until(r.e, t0 + (uint64_t)(secs * 1e9));
    return (double)(s->payload_done - b0) / ((engine_now(r.e) - t0) / 1e9) / 1e6;
}

/* G5: rate-bound writes at 10 Mb/s: the path carries 1.25e6 B/s x 0.9248
 * of FC payload (engine-model §5.2). */
START_TEST(g5_rate_bound)
{
    rig_init(&r, 0, 10000000u, 1500);
    netsim_pipe_config cfg;
    netsim_pipe_config_init(&cfg);
    cfg.rate_set = true;
    cfg.rate_bps = 10000000u;
    cfg.qsize_set = true;
    cfg.qsize_bytes = 1000000u;
    rig_netsim(&r, &cfg);
    for (int i = 0; i < 2; i++) {
        r.conf[i].tcp.max_bw_bps = 10000000u;
        r.conf[i].tcp.min_avail_bps = 10000000u;
    }
    rig_apply(&r);
    engine_run_until(r.e, ENGINE_NS_PER_SEC);
    struct io_src s;
    io_start(&s, &r, true, 256000, 4);
    double x = mbps(&s, 20);
    double bound = 1.25e6 * 0.9248 / 1e6;
    printf("G5: %.4f MB/s of FC payload (path bound %.4f)\n", x, bound);
    ck_assert_msg(x > bound * 0.97 && x <= bound * 1.001, "G5: %.4f MB/s, bound %.4f", x, bound);
}
END_TEST

/* G9: line rate, MTU 1500: 114.1 MB/s of 2048-byte frames. */
START_TEST(g9_line_rate)
{
    rig_init(&r, 0, 0, 1500);
    rig_apply(&r);
    engine_run_until(r.e, ENGINE_NS_PER_SEC);
    struct io_src s;
    io_start(&s, &r, true, 1024 * 1024, 16);
    double x = mbps(&s, 2);
    printf("G9: %.2f MB/s of FC payload (expected 114.1)\n", x);
    ck_assert_msg(x > 114.1 * 0.98 && x < 114.1 * 1.02, "G9: %.2f MB/s", x);
}
END_TEST

/* G8: window bound: profile 100 Mb/s and 50 ms, 25 ms each way: MWS
 * 590 034 B per RTT -> 11.44 MB/s of FC payload. */
START_TEST(g8_window_bound)
{
    rig_init(&r, 25, 0, 1500);
    for (int i = 0; i < 2; i++) {
        r.conf[i].tcp.max_bw_bps = 100000000u;
        r.conf[i].tcp.min_avail_bps = 50000000u;
        r.conf[i].tcp.rtt_cfg_ns = 50 * ENGINE_NS_PER_MS;
    }
    rig_apply(&r);
    engine_run_until(r.e, ENGINE_NS_PER_SEC);
    struct io_src s;
    io_start(&s, &r, true, 1000000, 16);
    double x = mbps(&s, 10);
    printf("G8: %.3f MB/s of FC payload (expected 11.44)\n", x);
    ck_assert_msg(x > 11.44 * 0.95 && x < 11.44 * 1.05, "G8: %.3f MB/s", x);
}
END_TEST

/* Compression: zeros shrink on the wire, random data does not (G15/G16
 * shape): throughput over a 10 Mb/s path with mode3. */
START_TEST(compression_follows_the_data)
{
    double x[2];
    const struct fc_pattern *pat[2] = {fc_pattern_zeros(), fc_pattern_random()};
    for (int k = 0; k < 2; k++) {
        rig_init(&r, 100, 10000000u, 1500);
        for (int i = 0; i < 2; i++)
            r.conf[i].comp = FCIP_COMP_MODE3;
        rig_apply(&r);
        engine_run_until(r.e, ENGINE_NS_PER_SEC);
        struct io_src s = {.pattern = pat[k]};
        s.pattern = pat[k];
        io_start(&s, &r, false, 256000, 2);
        s.pattern = pat[k];
        x[k] = mbps(&s, 20);
        struct fcip_status st;
        rig_state(&r, 1, &st);
        if (k == 0)
            ck_assert_msg(st.comp_in > 8 * st.comp_out, "zeros: %llu -> %llu", (unsigned long long)st.comp_in,
                          (unsigned long long)st.comp_out);
        else
            ck_assert_uint_eq(st.comp_in, st.comp_out);
        if (k == 0)
            rig_free(&r);
    }
    printf("compression mode3 over 10 Mb/s, 100 ms each way, 2 x 256,000-B reads: zeros %.3f MB/s, random %.3f "
           "MB/s\n",
           x[0], x[1]);
    ck_assert_msg(x[0] > 1.8 * 1.048576 && x[0] < 2.3 * 1.048576 * 1.2, "zeros mode3: %.3f MB/s", x[0]);
    /* the path's ceiling, 1.156 MB/s, plus one 256,000-B I/O: payload_done
     * counts whole I/Os, so a window can hold one more than its share */
    ck_assert_msg(x[1] < 1.156 + 0.256 / 20, "random mode3: %.3f MB/s", x[1]);
}
END_TEST

static char *run_once(void)
{
    rig_init(&r, 100, 10000000u, 1500);
    netsim_pipe_config cfg;
    netsim_pipe_config_init(&cfg);
    cfg.delay_set = cfg.rate_set = cfg.qsize_set = cfg.drop_nth_set = true;
    cfg.delay_ns = 100 * ENGINE_NS_PER_MS;
    cfg.rate_bps = 10000000u;
    cfg.qsize_bytes = 250000u;
    cfg.drop_nth = 200;
    cfg.drop_nth_burst = 1;
    netsim_pipe_configure(ipnet_ingress_pipe(r.net, 0, 2, 3), &cfg);
    rig_apply(&r);
    struct io_src s;
    io_start(&s, &r, false, 256000, 2);
    engine_run_until(r.e, 60 * ENGINE_NS_PER_SEC);
    char *out = malloc(128);
    snprintf(out, 128, "%llu %llu %llx", (unsigned long long)s.done, (unsigned long long)s.rt_sum,
             (unsigned long long)engine_trace_hash(r.e));
    rig_free(&r);
    return out;
}

/* G18: the same configuration twice: identical counters and trace hash. */
START_TEST(g18_deterministic)
{
    char *a = run_once(), *b = run_once();
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    rig_init(&r, 0, 0, 1500); /* for the teardown */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fcip");
    TCase *tc = tcase_create("fcip");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, comes_up_trunking);
    tcase_add_test(tc, g1_fcping_round_trip);
    tcase_add_test(tc, both_passive_never_up);
    tcase_add_test(tc, trunk_vsans_follow_both_ends);
    tcase_add_test(tc, g12_max_retransmissions_take_it_down);
    tcase_add_test(tc, g13_keepalive_takes_an_idle_link_down);
    tcase_add_test(tc, g5_rate_bound);
    tcase_add_test(tc, g9_line_rate);
    tcase_add_test(tc, g8_window_bound);
    tcase_add_test(tc, compression_follows_the_data);
    tcase_add_test(tc, g18_deterministic);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
