/* The lab's hosts on the data plane alone (no lab, no session): netperf
 * against netserver over a clean 1 GbE cable, a routed path with a
 * delay, and a 10 Mb/s hop, each against the path's analytic bound
 * (docs/hosts.md), request-response rates against the round trip, and
 * the errors: nobody listening, no route. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "host/hostnet.h"
#include "ipnet/ipnet.h"

#define MS ENGINE_NS_PER_MS
#define SEC ENGINE_NS_PER_SEC
#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
#define M24 IP(255, 255, 255, 0)

static engine_t *e;
static struct ipnet *net;
static struct hostnet *hn;

/* H0 eth0 10.0.0.1 -- H1 eth0 10.0.0.2, one cable. */
static void cable_setup(void)
{
    e = engine_new(1);
    net = ipnet_new_hosts(e, 0, 2);
    hn = hostnet_new(net, 2);
    hostnet_port(hn, 0, 0, IP(10, 0, 0, 1), M24, 1500);
    hostnet_port(hn, 1, 0, IP(10, 0, 0, 2), M24, 1500);
    ipnet_cable(net, 0, 1, 1, 1, 1, 1);
}

/* H0 10.1.1.10 -- eth1 R eth2 -- H1 10.2.2.10, gateways .254; R's eth1
 * impairs each way with delay_ms and rate_kbps (0: none). */
static void routed_setup(uint64_t delay_ms, uint64_t rate_kbps)
{
    e = engine_new(1);
    net = ipnet_new_hosts(e, 0, 2);
    hn = hostnet_new(net, 2);
    hostnet_port(hn, 0, 0, IP(10, 1, 1, 10), M24, 1500);
    hostnet_port(hn, 1, 0, IP(10, 2, 2, 10), M24, 1500);
    hostnet_gateway(hn, 0, IP(10, 1, 1, 254));
    hostnet_gateway(hn, 1, IP(10, 2, 2, 254));
    int r = ipnet_router_add(net, "R", true);
    struct ipnet_router_port_conf c = {.ip = IP(10, 1, 1, 254), .mask = M24, .mtu = 1500};
    netsim_pipe_config_init(&c.imp);
    c.imp.delay_set = delay_ms > 0, c.imp.delay_ns = delay_ms * MS;
    c.imp.rate_set = rate_kbps > 0, c.imp.rate_bps = rate_kbps * 1000;
    ipnet_router_port(net, r, 1, &c);
    struct ipnet_router_port_conf d = {.ip = IP(10, 2, 2, 254), .mask = M24, .mtu = 1500};
    netsim_pipe_config_init(&d.imp);
    ipnet_router_port(net, r, 2, &d);
    ipnet_router_cable(net, r, 1, 0, 1, 1);
    ipnet_router_cable(net, r, 2, 1, 1, 1);
}

static void teardown(void)
{
    ipnet_free(net);
    hostnet_free(hn);
    engine_free(e);
}

static bool running(void *ctx)
{
    struct netperf_result r;
    return !netperf_done(ctx, &r);
}

static struct netperf_result run(enum netperf_test t, uint32_t dst, uint64_t secs, uint32_t req)
{
    struct netperf_conf c = {.host = 0, .remote = dst, .port = NETPERF_PORT, .test = t, .len_ns = secs * SEC,
                             .req = req, .resp = req};
    struct netperf_result r = {0};
    struct netperf *np = netperf_start(hn, &c, &r);
    if (!np)
        return r;
    engine_run_while(e, running, np, netperf_deadline(np));
    ck_assert(netperf_done(np, &r));
    netperf_free(np);
    engine_run_until(e, engine_now(e) + SEC); /* the connections close and free */
    return r;
}

static double mbps(const struct netperf_result *r) { return (double)r->bytes * 8e3 / (double)r->elapsed_ns; }

static void near(double got, double want, double tol)
{
    ck_assert_msg(got > want * (1 - tol) && got < want * (1 + tol), "got %.3f, want %.3f +/- %.0f%%", got, want,
                  tol * 100);
}

/* Line rate less headers: 1448 payload bytes of each 1500-byte datagram
 * and its 18 bytes of Ethernet, at 1 Gb/s. */
START_TEST(stream_clean_cable)
{
    cable_setup();
    ck_assert(hostnet_netserver(hn, 1, NETPERF_PORT));
    ck_assert(!hostnet_netserver(hn, 1, NETPERF_PORT)); /* one a port */
    struct netperf_result r = run(NETPERF_TCP_STREAM, IP(10, 0, 0, 2), 2, 0);
    ck_assert_int_eq(r.error, NETPERF_OK);
    ck_assert_uint_eq(r.rsr, 87380);
    ck_assert_uint_eq(r.lss, 16384);
    ck_assert_uint_eq(r.send_size, 16384);
    near(mbps(&r), 1000.0 * 1448 / 1518, 0.02);
    near((double)r.elapsed_ns / SEC, 2.0, 0.01);
    teardown();
}
END_TEST

/* No rate limit, 10 ms each way: the receiver's 87380-byte window a
 * round trip, 87380 x 8 / 20 ms = 34.95 Mb/s. */
START_TEST(stream_window_bound)
{
    routed_setup(10, 0);
    hostnet_netserver(hn, 1, NETPERF_PORT);
    struct netperf_result r = run(NETPERF_TCP_STREAM, IP(10, 2, 2, 10), 10, 0);
    ck_assert_int_eq(r.error, NETPERF_OK);
    near(mbps(&r), 87380 * 8 / 20e3, 0.04);
    teardown();
}
END_TEST

/* 10 Mb/s each way: 1448 of every 1518 bytes, 9.54 Mb/s. */
START_TEST(stream_rate_bound)
{
    routed_setup(0, 10000);
    hostnet_netserver(hn, 1, NETPERF_PORT);
    struct netperf_result r = run(NETPERF_TCP_STREAM, IP(10, 2, 2, 10), 10, 0);
    ck_assert_int_eq(r.error, NETPERF_OK);
    near(mbps(&r), 10.0 * 1448 / 1518, 0.03);
    teardown();
}
END_TEST

/* One transaction a round trip: 20 ms, 50 per second. */
START_TEST(rr_rates)
{
    routed_setup(10, 0);
    hostnet_netserver(hn, 1, NETPERF_PORT);
    struct netperf_result r = run(NETPERF_TCP_RR, IP(10, 2, 2, 10), 10, 1);
    ck_assert_int_eq(r.error, NETPERF_OK);
    near((double)r.transactions * SEC / (double)r.elapsed_ns, 50.0, 0.02);
    ck_assert_uint_eq(r.elapsed_ns, 10 * SEC);
    r = run(NETPERF_UDP_RR, IP(10, 2, 2, 10), 10, 1);
    ck_assert_int_eq(r.error, NETPERF_OK);
    near((double)r.transactions * SEC / (double)r.elapsed_ns, 50.0, 0.02);
    ck_assert_uint_eq(r.rsr, 212992);
    teardown();
}
END_TEST

START_TEST(errors)
{
    cable_setup();
    struct netperf_result r = run(NETPERF_TCP_STREAM, IP(10, 0, 0, 2), 1, 0);
    ck_assert_int_eq(r.error, NETPERF_REFUSED); /* no netserver: a reset */
    r = run(NETPERF_TCP_STREAM, IP(192, 168, 0, 1), 1, 0);
    ck_assert_int_eq(r.error, NETPERF_UNREACHABLE); /* no route, no gateway */
    hostnet_netserver(hn, 1, 5000);
    r = run(NETPERF_TCP_RR, IP(10, 0, 0, 2), 1, 1);
    ck_assert_int_eq(r.error, NETPERF_REFUSED); /* on another port */
    teardown();
}
END_TEST

/* Ctrl-C in the middle: the test is freed, its connections close and
 * free themselves; the hosts going under a running test (an engine
 * restart) leave it failed, still readable and freed by its command. */
START_TEST(stopped_midway)
{
    routed_setup(10, 0);
    hostnet_netserver(hn, 1, NETPERF_PORT);
    struct netperf_conf c = {.host = 0, .remote = IP(10, 2, 2, 10), .port = NETPERF_PORT, .test = NETPERF_TCP_STREAM,
                             .len_ns = 10 * SEC};
    struct netperf_result r = {0};
    struct netperf *np = netperf_start(hn, &c, &r);
    ck_assert_ptr_nonnull(np);
    engine_run_until(e, engine_now(e) + 2 * SEC);
    ck_assert(!netperf_done(np, &r));
    netperf_free(np);
    engine_run_until(e, engine_now(e) + 5 * SEC);
    np = netperf_start(hn, &c, &r); /* the server still serves */
    engine_run_until(e, engine_now(e) + 3 * SEC);
    ipnet_free(net);
    hostnet_free(hn);
    ck_assert(netperf_done(np, &r));
    ck_assert_int_eq(r.error, NETPERF_DATA_FAILED);
    netperf_free(np);
    engine_free(e);
}
END_TEST

/* A switch's TCP (FCIP's) and a host's never meet: a host's SYN to a
 * switch's address reaches no switch handler (netperf times out, as
 * against a firewall), and a switch's segment to a host is dropped before
 * the host's stack could read its payload as its own. */
static int switch_tcp_calls;
static void switch_tcp(void *ctx, int sw, const struct ipnet_pkt *pkt)
{
    (void)ctx, (void)sw, (void)pkt;
    switch_tcp_calls++;
}

START_TEST(switch_and_host_stacks_apart)
{
    e = engine_new(1);
    net = ipnet_new_hosts(e, 1, 1);
    hn = hostnet_new(net, 1);
    ipnet_register(net, IPNET_TCP, switch_tcp, NULL, NULL);
    struct ipnet_port_conf pc = {.admin_up = true, .has_ip = true, .ip = IP(10, 0, 0, 1), .mask = M24, .mtu = 1500};
    ipnet_ports_begin(net);
    ipnet_port_set(net, 0, 2, 2, &pc);
    ipnet_ports_end(net);
    hostnet_port(hn, 0, 0, IP(10, 0, 0, 2), M24, 1500);
    ipnet_cable(net, 0, 2, 2, 1, 1, 1);
    struct netperf_result r = run(NETPERF_TCP_RR, IP(10, 0, 0, 1), 1, 1);
    ck_assert_int_eq(r.error, NETPERF_TIMEOUT);
    struct ipnet_pkt pkt = {.dst = IP(10, 0, 0, 2), .proto = IPNET_TCP, .ip_len = 52};
    memset(pkt.payload, 0xa5, sizeof pkt.payload); /* not a host's segment */
    pkt.host = true; /* and a caller's say-so does not count */
    ck_assert(ipnet_send(net, 0, &pkt));
    engine_run_until(e, engine_now(e) + SEC);
    ck_assert_int_eq(switch_tcp_calls, 0);
    struct ipnet_port_stats st;
    ipnet_port_stats(net, 1, 1, 1, &st);
    ck_assert_uint_gt(st.in_pkts, 0); /* it did arrive */
    teardown();
}
END_TEST

/* The same run twice gives the same figures. */
START_TEST(deterministic)
{
    uint64_t b[2];
    for (int i = 0; i < 2; i++) {
        routed_setup(5, 20000);
        hostnet_netserver(hn, 1, NETPERF_PORT);
        struct netperf_result r = run(NETPERF_TCP_STREAM, IP(10, 2, 2, 10), 2, 0);
        b[i] = r.bytes * 1000003u + r.elapsed_ns;
        teardown();
    }
    ck_assert_uint_eq(b[0], b[1]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hosts");
    TCase *tc = tcase_create("netperf");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, stream_clean_cable);
    tcase_add_test(tc, stream_window_bound);
    tcase_add_test(tc, stream_rate_bound);
    tcase_add_test(tc, rr_rates);
    tcase_add_test(tc, errors);
    tcase_add_test(tc, stopped_midway);
    tcase_add_test(tc, switch_and_host_stacks_apart);
    tcase_add_test(tc, deterministic);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
