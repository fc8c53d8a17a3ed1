/* FCIP tape acceleration (backend/fcip/tape.c) against its analytic bounds
 * (docs/tape-acceleration.md): a tape stream with one command outstanding
 * over a 100 ms round trip, the profile's window at 100 Mb/s x 100 ms.
 * Without tape acceleration each I/O costs a round trip; with it the
 * writes run at the rate the flow-control buffer allows (buffer / RTT,
 * up to the path), and the reads at the read-ahead's (blocks x size /
 * RTT). */
#include <check.h>
#include <stdio.h>
#include "fcip_rig.h"
#include "sanext/tuner.h"

#define RTT_S 0.100
#define SIZE 65536u
#define WINDOW_MBPS 11.75 /* the profile's MWS over the RTT, FC payload (G8's rule) */

static struct rig r;
static struct tuner *tu;
static const uint8_t W1[8] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11};
static const uint8_t W2[8] = {0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22};

static void run_for(double s) { engine_run_until(r.e, engine_now(r.e) + (uint64_t)(s * 1e9)); }

/* The rig with 50 ms each way, write acceleration on, tape acceleration
 * as asked (buf_kb 0: automatic). */
static void setup(bool tape, uint32_t buf_kb)
{
    rig_init(&r, 50, 0, 1500);
    for (int i = 0; i < 2; i++) {
        r.conf[i].tcp.max_bw_bps = 100000000u;
        r.conf[i].tcp.min_avail_bps = 50000000u;
        r.conf[i].tcp.rtt_cfg_ns = 100 * ENGINE_NS_PER_MS;
        r.conf[i].write_acc = true;
        r.conf[i].tape_acc = tape;
        r.conf[i].tape_buf_kb = buf_kb;
    }
    rig_apply(&r);
    engine_run_until(r.e, 3 * ENGINE_NS_PER_SEC);
    tu = tuner_new(r.e, r.fab);
}

static void teardown(void)
{
    tuner_free(tu);
    tu = NULL;
    rig_free(&r);
}

/* MB/s of FC payload the initiator moved over `secs`, after 5 s to start. */
static double stream(enum tuner_op op, double secs, struct tuner_counters *out)
{
    struct tuner_nport_conf a = {.sw = 0, .vsan = 1, .slot = 2, .port = 2}, b = a;
    memcpy(a.pwwn, W1, 8);
    b.sw = 1;
    memcpy(b.pwwn, W2, 8);
    struct tuner_cmd_conf c = {.id = 1, .op = op, .size = SIZE, .outstanding = 1, .start = 1};
    memcpy(c.target, W2, 8);
    tuner_begin(tu);
    tuner_nport(tu, &a);
    tuner_nport(tu, &b);
    tuner_cmd(tu, 0, W1, 1, &c);
    tuner_end(tu);
    run_for(5);
    struct tuner_counters c0;
    tuner_counters(tu, 0, W1, 1, &c0);
    run_for(secs);
    tuner_counters(tu, 0, W1, 1, out);
    ck_assert_uint_eq(out->errors, 0);
    uint64_t n = op == TUNER_TAPE_WRITE ? out->writes - c0.writes : out->reads - c0.reads;
    return (double)n * SIZE / secs / 1e6;
}

static struct fcip_status status(int sw)
{
    struct fcip_status st;
    fcip_tunnel_status(fcip_tunnel_find(r.fe, sw, 1), &st);
    return st;
}

/* Without tape acceleration a write costs the round trip plus its
 * transfer (write acceleration saves the other round trip). */
START_TEST(write_without_is_rtt_bound)
{
    setup(false, 0);
    struct tuner_counters c;
    double x = stream(TUNER_TAPE_WRITE, 20, &c);
    double bound = SIZE / (RTT_S + SIZE * 8 / 100e6) / 1e6;
    printf("tape-write, no tape acceleration: %.3f MB/s (bound %.3f)\n", x, bound);
    ck_assert_msg(x > bound * 0.9 && x <= bound * 1.02, "%.3f MB/s", x);
    ck_assert(!status(0).tape_acc_active);
}
END_TEST

/* With it, the automatic buffer (bandwidth x RTT) lets the stream fill
 * the window: near the profile's window rate. */
START_TEST(write_with_auto_buffer_fills_the_window)
{
    setup(true, 0);
    struct tuner_counters c;
    double x = stream(TUNER_TAPE_WRITE, 20, &c);
    printf("tape-write, tape acceleration, auto buffer: %.3f MB/s (window %.2f)\n", x, WINDOW_MBPS);
    ck_assert_msg(x > WINDOW_MBPS * 0.8 && x <= WINDOW_MBPS * 1.02, "%.3f MB/s", x);
    struct fcip_status st = status(0);
    ck_assert(st.tape_acc_active);
    ck_assert_uint_eq(st.tape.host_sessions, 1);
    ck_assert_uint_gt(st.tape.proxy_status, 0);
    ck_assert_uint_ge(st.tape.writes, st.tape.good_status);
    ck_assert_uint_eq(status(1).tape.host_sessions, 0);
}
END_TEST

/* A 256 KB buffer: four writes proxied; the fifth command waits for the
 * first one's status, a round trip and a transfer after it left: the
 * buffer per (RTT + size / rate). */
START_TEST(write_buffer_bounds_the_rate)
{
    setup(true, 256);
    struct tuner_counters c;
    double x = stream(TUNER_TAPE_WRITE, 20, &c);
    double bound = 256 * 1024 / (RTT_S + SIZE * 8 / 100e6) / 1e6;
    printf("tape-write, 256 KB buffer: %.3f MB/s (bound %.3f)\n", x, bound);
    ck_assert_msg(x > bound * 0.95 && x <= bound * 1.02, "%.3f MB/s", x);
    struct fcip_status st = status(0);
    ck_assert_uint_eq(st.tape.not_proxied, 0);
    ck_assert_uint_gt(st.tape.write_buf_bytes, 0);
    ck_assert_uint_le(st.tape.write_buf_bytes, 256 * 1024);
}
END_TEST

START_TEST(read_without_is_rtt_bound)
{
    setup(false, 0);
    struct tuner_counters c;
    double x = stream(TUNER_TAPE_READ, 20, &c);
    double bound = SIZE / (RTT_S + SIZE * 8 / 100e6) / 1e6;
    printf("tape-read, no tape acceleration: %.3f MB/s (bound %.3f)\n", x, bound);
    ck_assert_msg(x > bound * 0.9 && x <= bound * 1.02, "%.3f MB/s", x);
}
END_TEST

/* Read-ahead of 256 KB / 64 KB = 4 blocks: four blocks per round trip. */
START_TEST(read_ahead_bounds_the_rate)
{
    setup(true, 256);
    struct tuner_counters c;
    double x = stream(TUNER_TAPE_READ, 20, &c);
    double lo = 4 * SIZE / RTT_S / 1e6, hi = 5 * SIZE / RTT_S / 1e6;
    printf("tape-read, 256 KB buffer (4 blocks ahead): %.3f MB/s (bounds %.3f-%.3f)\n", x, lo, hi);
    ck_assert_msg(x > lo * 0.85 && x < hi * 1.05, "%.3f MB/s", x);
    struct fcip_status st = status(0);
    ck_assert_uint_gt(st.tape.cached_reads, 0);
    ck_assert_uint_gt(status(1).tape.ahead_reads, st.tape.cached_reads - 1);
    ck_assert_uint_le(st.tape.read_buf_reads, 4);
    /* the initiator's reads answered locally take no round trip */
    ck_assert_uint_lt(c.rt_min_ns[0], 10 * ENGINE_NS_PER_MS);
}
END_TEST

START_TEST(read_with_auto_buffer_fills_the_window)
{
    setup(true, 0);
    struct tuner_counters c;
    double x = stream(TUNER_TAPE_READ, 20, &c);
    printf("tape-read, auto buffer: %.3f MB/s (window %.2f)\n", x, WINDOW_MBPS);
    ck_assert_msg(x > WINDOW_MBPS * 0.8 && x <= WINDOW_MBPS * 1.02, "%.3f MB/s", x);
}
END_TEST

/* Ordinary reads and writes are not tape I/O: nothing is proxied. */
START_TEST(disk_io_is_not_accelerated)
{
    setup(true, 0);
    struct tuner_counters c;
    stream(TUNER_WRITE, 5, &c);
    struct fcip_status st = status(0);
    ck_assert_uint_eq(st.tape.host_sessions, 0);
    ck_assert_uint_eq(st.tape.proxy_status, 0);
}
END_TEST

/* A flap under a tape stream: the I/Os in flight fail at the host's
 * timeout, the sessions go with the link, and the stream resumes. */
START_TEST(flap_then_resume)
{
    setup(true, 256);
    struct tuner_counters c;
    stream(TUNER_TAPE_READ, 2, &c);
    for (int i = 0; i < 2; i++)
        r.conf[i].admin_up = false;
    rig_apply(&r);
    run_for(1);
    ck_assert_uint_eq(status(0).tape.host_sessions, 0);
    for (int i = 0; i < 2; i++)
        r.conf[i].admin_up = true;
    rig_apply(&r);
    struct tuner_counters c0, c1;
    run_for(40);
    tuner_counters(tu, 0, W1, 1, &c0);
    run_for(5);
    tuner_counters(tu, 0, W1, 1, &c1);
    ck_assert_uint_gt(c1.reads, c0.reads + 20);
    ck_assert_uint_gt(status(0).tape.cached_reads, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tape");
    TCase *tc = tcase_create("acceleration");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, write_without_is_rtt_bound);
    tcase_add_test(tc, write_with_auto_buffer_fills_the_window);
    tcase_add_test(tc, write_buffer_bounds_the_rate);
    tcase_add_test(tc, read_without_is_rtt_bound);
    tcase_add_test(tc, read_ahead_bounds_the_rate);
    tcase_add_test(tc, read_with_auto_buffer_fills_the_window);
    tcase_add_test(tc, disk_io_is_not_accelerated);
    tcase_add_test(tc, flap_then_resume);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
