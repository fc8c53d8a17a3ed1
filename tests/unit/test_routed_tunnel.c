/* An FCIP tunnel across two routers of a lab file (docs/routing.md): its
 * TCP's measured round trip is the sum of the hops' delays, each counted
 * both ways, whatever the delays; a ping agrees; and with no route back
 * the tunnel never comes up. */
#include "lab_fixture.h"
#include "fcip/fcip_engine.h"
#include "fcip/tunnel.h"

/* The lab of examples/labs/routed-wan.lab with hop delays d1 and d2 ms. */
static void make_lab(int d1, int d2)
{
    static const char *const fmt =
        "switch MDS1 chassis DS-C9509\n module 2 DS-X9308-SMIP\n module 5 DS-X9530-SF2-K9\n"
        "switch MDS2 chassis DS-C9509\n module 2 DS-X9308-SMIP\n module 5 DS-X9530-SF2-K9\n"
        "router WAN1\n interface eth1 192.168.10.254 255.255.255.0\n"
        " interface eth2 172.16.0.1 255.255.255.252 delay-ms %d\n route 10.1.1.0 255.255.255.0 172.16.0.2\n"
        "router WAN2\n interface eth1 172.16.0.2 255.255.255.252\n"
        " interface eth2 10.1.1.254 255.255.255.0 mtu 1400 delay-ms %d\n"
        " route 192.168.10.0 255.255.255.0 172.16.0.1\n"
        "link MDS1 g2/2 WAN1 eth1\nlink WAN1 eth2 WAN2 eth1\nlink WAN2 eth2 MDS2 g2/2\n";
    char text[1024];
    snprintf(text, sizeof text, fmt, d1, d2);
    lab_fixture_open(text);
}

/* A switch's port, its route (NULL: none) and its end of fcip1. */
static void configure(int sw, const char *ip, const char *route, const char *peer)
{
    char addr[64], prof[64], pi[64];
    snprintf(addr, sizeof addr, "ip address %s 255.255.255.0", ip);
    snprintf(prof, sizeof prof, "ip address %s", ip);
    snprintf(pi, sizeof pi, "peer-info ipaddr %s", peer);
    const char *lines[20];
    int n = 0;
    lines[n++] = "configure terminal";
    lines[n++] = "interface gigabitethernet 2/2";
    lines[n++] = addr;
    lines[n++] = "no shutdown";
    lines[n++] = "exit";
    if (route)
        lines[n++] = route;
    const char *const rest[] = {"fcip enable", "fcip profile 1", prof, "exit", "interface fcip1", "use-profile 1",
                                pi, "no shutdown", "end", NULL};
    for (int i = 0; rest[i]; i++)
        lines[n++] = rest[i];
    lines[n] = NULL;
    lab_fixture_run(sw, lines);
}

static void both_ends(bool route_back)
{
    configure(0, "192.168.10.1", "ip route 10.1.1.0 255.255.255.0 192.168.10.254", "10.1.1.2");
    configure(1, "10.1.1.2", route_back ? "ip route 0.0.0.0 0.0.0.0 10.1.1.254" : NULL, "192.168.10.1");
    lab_fixture_run(0, (const char *const[]){"sleep 10", NULL});
}

static struct fcip_status status(int sw)
{
    struct fcip_status st;
    struct fcip_tunnel *t = fcip_live(lab, sw, 1);
    ck_assert_ptr_nonnull(t);
    fcip_tunnel_status(t, &st);
    return st;
}

/* The path's round trip without queueing, as TCP saw it: 2 x (d1 + d2)
 * plus at most 20 us of serialization and cables. */
static void check_rtt(int d1, int d2)
{
    uint64_t want = 2u * (uint64_t)(d1 + d2) * 1000000u;
    for (int sw = 0; sw < 2; sw++) {
        struct fcip_status st = status(sw);
        ck_assert_int_ge(st.state, FCIP_UP);
        ck_assert(st.conn[0].present);
        ck_assert_uint_ge(st.conn[0].tcp.min_rtt_ns, want);
        ck_assert_uint_le(st.conn[0].tcp.min_rtt_ns, want + 20000);
        ck_assert_uint_ge(st.conn[0].tcp.srtt_ns, want - 1000000);
        ck_assert_uint_le(st.conn[0].tcp.srtt_ns, want + 1000000);
    }
}

START_TEST(rtt_is_both_ways_of_both_hops)
{
    static const int delays[][2] = {{5, 20}, {40, 3}};
    int d1 = delays[_i][0], d2 = delays[_i][1];
    make_lab(d1, d2);
    both_ends(true);
    check_rtt(d1, d2);
    teardown();
}
END_TEST

START_TEST(no_route_back_no_tunnel)
{
    make_lab(5, 20);
    both_ends(false);
    struct fcip_status st = status(0);
    ck_assert_int_lt(st.state, FCIP_INIT);
    ck_assert(!st.conn[0].present || st.conn[0].tcp.state != TCP_ESTABLISHED);
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("routed_tunnel");
    TCase *k = tcase_create("routed_tunnel");
    tcase_set_timeout(k, 60);
    tcase_add_loop_test(k, rtt_is_both_ways_of_both_hops, 0, 2);
    tcase_add_test(k, no_route_back_no_tunnel);
    suite_add_tcase(s, k);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
