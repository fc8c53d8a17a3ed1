/* The IP data plane end to end: configuration typed into sessions, pings
 * crossing cables and the IP Network Simulator on the lab clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "session.h"
#include "lab/lab.h"
#include "ipnet/ipnet.h"

#include "lab_fixture.h"

/* Runs lines on a switch; every line must succeed. Output lands in `out`. */
static const char *const mds1_ip[] = {"configure terminal", "interface gigabitethernet 2/2",
                                      "ip address 192.168.10.1 255.255.255.0", "no shutdown", "end", NULL};
static const char *const mds2_ip[] = {"configure terminal", "interface gigabitethernet 2/2",
                                      "ip address 192.168.10.2 255.255.255.0", "no shutdown", "end", NULL};
static const char *const netsim_50ms[] = {
    "configure terminal", "san-ext-tuner enable", "end",
    "ips netsim enable interface gigabitethernet 2/3 gigabitethernet 2/4",
    "ips netsim delay-ms 50 ingress gigabitethernet 2/3",
    "ips netsim delay-ms 50 ingress gigabitethernet 2/4", NULL};

/* Round-trip times (ms) printed by the last ping in `out`. */
static int rtts(double *ms, int max)
{
    int n = 0;
    for (const char *p = sb_str(&out); (p = strstr(p, "time=")) && n < max; p++)
        ms[n++] = atof(p + 5);
    return n;
}

START_TEST(no_path_without_netsim)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    /* g2/2 is cabled to g2/3, which is shut and bridges nothing yet */
    ck_assert_int_ne(session_exec(&s, "ping 192.168.10.2 count 2"), 0);
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "No route to host"));
    session_free(&s);
}
END_TEST

/* G1: 50 ms each way through the simulator, no rate limit. */
START_TEST(g1_idle_round_trip)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    lab_fixture_run(0, netsim_50ms);
    sb_clear(&out);
    uint64_t t0 = lab_now(lab);
    lab_fixture_run(0, (const char *const[]){"ping 192.168.10.2 count 5", NULL});
    double ms[8];
    ck_assert_int_eq(rtts(ms, 8), 5);
    for (int i = 0; i < 5; i++)
        ck_assert_msg(ms[i] >= 100.0 && ms[i] <= 101.0, "rtt %d = %.3f ms", i, ms[i]);
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "5 packets transmitted, 5 packets received, 0.00% packet loss"));
    /* the ping took lab time: four seconds of spacing plus the last reply */
    uint64_t took = lab_now(lab) - t0;
    ck_assert_uint_ge(took, 4100000000u);
    ck_assert_uint_le(took, 4200000000u);
}
END_TEST

/* The switch answers its own address, without the wire. */
START_TEST(own_address)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(0, netsim_50ms); /* g2/3 in the simulator: g2/2's link comes up */
    sb_clear(&out);
    lab_fixture_run(0, (const char *const[]){"ping 192.168.10.1 count 2", NULL});
    double ms[4];
    ck_assert_int_eq(rtts(ms, 4), 2);
    ck_assert_double_eq_tol(ms[0], IPNET_LOCAL_RTT_NS / 1e6, 1e-9);
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "2 packets transmitted, 2 packets received, 0.00% packet loss"));
}
END_TEST

START_TEST(counters_follow_traffic)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    lab_fixture_run(0, netsim_50ms);
    lab_fixture_run(0, (const char *const[]){"ping 192.168.10.2 count 3 size 100", NULL});
    sb_clear(&out);
    lab_fixture_run(0, (const char *const[]){"show interface gigabitethernet 2/2", NULL});
    /* 3 requests out, 3 replies in, each 100 + 28 + 18 bytes on the wire */
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "3 packets input, 438 bytes"));
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "3 packets output, 438 bytes"));
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "GigabitEthernet2/2 is up"));
}
END_TEST

START_TEST(disabling_netsim_cuts_the_path)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    lab_fixture_run(0, netsim_50ms);
    lab_fixture_run(0, (const char *const[]){"no ips netsim enable interface gigabitethernet 2/3 gigabitethernet 2/4",
                                 NULL});
    sb_clear(&out);
    lab_fixture_run(0, (const char *const[]){"show interface gigabitethernet 2/3", NULL});
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "is down (Administratively down)"));
}
END_TEST

/* A reply still inside the simulator when the lab closes is freed with it
 * (the ASan build's leak check would report it). */
START_TEST(closing_with_packets_in_flight)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    lab_fixture_run(0, netsim_50ms);
    lab_fixture_run(0, (const char *const[]){"ips netsim max-bandwidth-mbps 1 ingress gigabitethernet 2/3",
                                 "ips netsim max-bandwidth-mbps 1 ingress gigabitethernet 2/4",
                                 "ping 192.168.10.2 count 1 size 65000 timeout 1", NULL});
    /* 520 ms to serialize each way at 1 Mb/s + 100 ms of delay > 1 s */
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "Request 0 timed out"));
}
END_TEST

/* A datagram larger than the MTU crosses as fragments of the MTU: 20 008
 * bytes of ICMP in 14 frames (13 x 1480 data bytes + 768), 18 bytes of
 * Ethernet each; the reply comes back the same way. */
START_TEST(large_ping_is_fragmented)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    lab_fixture_run(0, netsim_50ms);
    lab_fixture_run(0, (const char *const[]){"ping 192.168.10.2 count 1 size 20000", NULL});
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "1 packets received"));
    sb_clear(&out);
    lab_fixture_run(0, (const char *const[]){"show interface gigabitethernet 2/2", NULL});
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "14 packets output, 20540 bytes"));
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "14 packets input, 20540 bytes"));
}
END_TEST

/* One lost fragment loses the datagram: drops count frames. */
START_TEST(lost_fragment_loses_the_datagram)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    lab_fixture_run(0, netsim_50ms);
    lab_fixture_run(0, (const char *const[]){"ips netsim drop nth 10 ingress gigabitethernet 2/3",
                                 "ping 192.168.10.2 count 1 size 20000", NULL});
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "Request 0 timed out"));
    sb_clear(&out);
    lab_fixture_run(0, (const char *const[]){"show ips stats netsim ingress gigabitethernet 2/3", NULL});
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "\nDropped (tot) = 1\n"));
}
END_TEST

static int got_sw = -1, got_n;
static struct ipnet_pkt got;
static void test_rx(void *ctx, int sw, const struct ipnet_pkt *pkt)
{
    (void)ctx;
    got_sw = sw;
    got = *pkt;
    got_n++;
}

/* A port hands what it receives to the protocol registered for it; a
 * datagram of a protocol nobody registered is dropped, never echoed. */
START_TEST(protocols_demultiplex)
{
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    lab_fixture_run(0, netsim_50ms);
    struct ipnet *net = lab_ipnet(lab);
    struct ipnet_port_stats before, after;
    ipnet_register(net, 200, test_rx, NULL, NULL);
    struct ipnet_pkt p = {.dst = 0xC0A80A02, .proto = 200, .df = true, .ip_len = 1000};
    memcpy(p.payload, "hello", 6);
    got_n = 0;
    ck_assert(ipnet_send(net, 0, &p));
    lab_advance_to(lab, lab_now(lab) + 200000000u);
    ck_assert_int_eq(got_n, 1);
    ck_assert_int_eq(got_sw, 1);
    ck_assert_uint_eq(got.src, 0xC0A80A01);
    ck_assert_str_eq((const char *)got.payload, "hello");
    ipnet_port_stats(net, 0, 2, 2, &before);
    p.proto = 201; /* nobody listens */
    ck_assert(ipnet_send(net, 0, &p));
    lab_advance_to(lab, lab_now(lab) + 200000000u);
    ipnet_port_stats(net, 0, 2, 2, &after);
    ck_assert_uint_eq(after.out_pkts, before.out_pkts + 1);
    ck_assert_uint_eq(after.in_pkts, before.in_pkts); /* nothing came back */
    p.ip_len = 3000; /* DF and larger than the MTU: refused at the port */
    ck_assert(ipnet_send(net, 0, &p));
    ipnet_port_stats(net, 0, 2, 2, &after);
    ck_assert_uint_eq(after.frag_drops, 1);
    ck_assert_uint_eq(after.out_pkts, before.out_pkts + 1);
}
END_TEST

static char *transcript(void)
{
    setup();
    lab_fixture_run(0, mds1_ip);
    lab_fixture_run(1, mds2_ip);
    lab_fixture_run(0, netsim_50ms);
    lab_fixture_run(0, (const char *const[]){"ips netsim drop random 3000 ingress gigabitethernet 2/3",
                                 "ping 192.168.10.2 count 20", "show interface gigabitethernet 2/4", NULL});
    char *text = strdup(sb_str(&out));
    teardown();
    return text;
}

/* Same lab, same seed, same commands: the same output, drops included. */
START_TEST(deterministic)
{
    char *a = transcript(), *b = transcript();
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(a, "timed out")); /* 30 % loss shows */
    free(a);
    free(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ipnet");
    TCase *tc = tcase_create("ping");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, no_path_without_netsim);
    tcase_add_test(tc, g1_idle_round_trip);
    tcase_add_test(tc, own_address);
    tcase_add_test(tc, counters_follow_traffic);
    tcase_add_test(tc, disabling_netsim_cuts_the_path);
    tcase_add_test(tc, closing_with_packets_in_flight);
    tcase_add_test(tc, large_ping_is_fragmented);
    tcase_add_test(tc, lost_fragment_loses_the_datagram);
    tcase_add_test(tc, protocols_demultiplex);
    suite_add_tcase(s, tc);
    TCase *det = tcase_create("determinism");
    tcase_add_test(det, deterministic);
    suite_add_tcase(s, det);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
