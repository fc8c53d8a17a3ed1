/* Routed paths on the data plane alone (no lab, no session): static
 * routes (connected before static, longest prefix), two routers whose
 * hops each delay as a netsim pipe does, TTL and time exceeded,
 * unreachable, and fragmentation needed for a DF datagram too large for
 * a hop, delivered to the protocol that sent it. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "ipnet/ipnet.h"

#define MS ENGINE_NS_PER_MS
#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
#define M24 IP(255, 255, 255, 0)
#define M30 IP(255, 255, 255, 252)

static engine_t *e;
static struct ipnet *net;
static int r1, r2;

static void port(int sw, int slot, int p, uint32_t ip, uint32_t mask, uint32_t mtu)
{
    struct ipnet_port_conf c = {.admin_up = true, .has_ip = true, .ip = ip, .mask = mask, .mtu = mtu};
    ipnet_port_set(net, sw, slot, p, &c);
}

static void rport(int r, int p, uint32_t ip, uint32_t mask, uint32_t mtu, uint64_t delay_ms)
{
    struct ipnet_router_port_conf c = {.ip = ip, .mask = mask, .mtu = mtu};
    netsim_pipe_config_init(&c.imp);
    if (delay_ms) {
        c.imp.delay_set = true;
        c.imp.delay_ns = delay_ms * MS;
    }
    ipnet_router_port(net, r, p, &c);
}

/* MDS1 g2/2 192.168.10.1 - R1 eth1 .254 | R1 eth2 172.16.0.1/30 - R2 eth1
 * .2 | R2 eth2 10.1.1.254 - MDS2 g2/2 10.1.1.2. R1's hop delays 5 ms
 * each way, R2's 20 ms; R2's link to MDS2 carries 1400 bytes. */
static void setup(void)
{
    e = engine_new(1);
    net = ipnet_new(e, 2);
    ipnet_ports_begin(net);
    port(0, 2, 2, IP(192, 168, 10, 1), M24, 1500);
    port(1, 2, 2, IP(10, 1, 1, 2), M24, 1500);
    ipnet_ports_end(net);
    r1 = ipnet_router_add(net, "R1", true);
    r2 = ipnet_router_add(net, "R2", true);
    rport(r1, 1, IP(192, 168, 10, 254), M24, 1500, 0);
    rport(r1, 2, IP(172, 16, 0, 1), M30, 1500, 5);
    rport(r2, 1, IP(172, 16, 0, 2), M30, 1500, 0);
    rport(r2, 2, IP(10, 1, 1, 254), M24, 1400, 20);
    ipnet_router_cable(net, r1, 1, 0, 2, 2);
    ipnet_router_cable_router(net, r1, 2, r2, 1);
    ipnet_router_cable(net, r2, 2, 1, 2, 2);
    struct ipnet_route a = {IP(10, 1, 1, 0), M24, IP(172, 16, 0, 2), 0, 0};
    struct ipnet_route b = {IP(192, 168, 10, 0), M24, IP(172, 16, 0, 1), 0, 0};
    ipnet_router_routes(net, r1, &a, 1);
    ipnet_router_routes(net, r2, &b, 1);
    struct ipnet_route s1 = {0, 0, IP(192, 168, 10, 254), 0, 0};
    struct ipnet_route s2 = {IP(192, 168, 10, 0), M24, IP(10, 1, 1, 254), 0, 0};
    ipnet_routes_set(net, 0, &s1, 1);
    ipnet_routes_set(net, 1, &s2, 1);
}

static void teardown(void)
{
    ipnet_free(net);
    engine_free(e);
}

/* One echo from sw to dst with ttl; its round trip (UINT64_MAX: none). */
static uint64_t probe(int sw, uint32_t dst, uint8_t ttl, int size, uint32_t *from, uint8_t *type, uint8_t *code)
{
    struct ipnet_ping p = {.dst = dst, .count = 1, .size = size, .timeout_ns = 5000 * MS, .ttl = ttl};
    ck_assert_int_eq(ipnet_ping_start(net, sw, &p), 0);
    ck_assert(ipnet_ping_wait(net, &p, 0, UINT64_MAX));
    uint64_t rtt = ipnet_ping_rtt(&p, 0);
    uint8_t t, c;
    uint32_t f = ipnet_ping_from(&p, 0, &t, &c);
    if (from)
        *from = f, *type = t, *code = c;
    ipnet_ping_end(net, &p);
    return rtt;
}

START_TEST(rtt_is_the_sum_of_the_hops)
{
    uint32_t from;
    uint8_t type, code;
    uint64_t rtt = probe(0, IP(10, 1, 1, 2), 0, 56, &from, &type, &code);
    /* each way: 5 + 20 ms of the hops' delays; five transmissions of the
     * 102-byte frame (84 bytes of IP and 18 of Ethernet) at 1 Gb/s, 816 ns
     * each (the switch's port, each impaired hop's pipe and the port it
     * leaves by); three cables of 50 ns */
    uint64_t way = 25 * MS + 5 * (102 * 8) + 3 * IPNET_CABLE_DELAY_NS;
    ck_assert_uint_eq(rtt, 2 * way);
    ck_assert_uint_eq(from, IP(10, 1, 1, 2));
    ck_assert_uint_eq(type, 0);
    /* MDS2 is no neighbour of MDS1's port, nor MDS1 of MDS2's: routers are between */
    struct ipnet_arp arp[IPNET_ARP_MAX];
    ck_assert_int_eq(ipnet_arp_table(net, 0, 2, 2, arp), 0);
    ck_assert_int_eq(ipnet_arp_table(net, 1, 2, 2, arp), 0);
    /* the near router answers itself: no hop delay on its eth1 */
    rtt = probe(0, IP(192, 168, 10, 254), 0, 56, &from, &type, &code);
    ck_assert_uint_lt(rtt, 20000);
}
END_TEST

START_TEST(ttl_expires_hop_by_hop)
{
    uint32_t from;
    uint8_t type, code;
    probe(0, IP(10, 1, 1, 2), 1, 32, &from, &type, &code);
    ck_assert_uint_eq(from, IP(192, 168, 10, 254));
    ck_assert_uint_eq(type, IPNET_ICMP_TIME_EXCEEDED);
    uint64_t rtt = probe(0, IP(10, 1, 1, 2), 2, 32, &from, &type, &code);
    ck_assert_uint_eq(from, IP(172, 16, 0, 2)); /* R2 answers from the port it heard on */
    ck_assert_uint_eq(type, IPNET_ICMP_TIME_EXCEEDED);
    ck_assert_uint_ge(rtt, 10 * MS); /* R1's hop both ways */
    ck_assert_uint_lt(rtt, 11 * MS);
    probe(0, IP(10, 1, 1, 2), 3, 32, &from, &type, &code);
    ck_assert_uint_eq(from, IP(10, 1, 1, 2));
    ck_assert_uint_eq(type, 0);
    struct ipnet_router_stats st;
    ipnet_router_stats(net, r1, &st);
    ck_assert_uint_eq(st.ttl_expired, 1);
}
END_TEST

START_TEST(unreachable_beyond_the_routes)
{
    uint32_t from;
    uint8_t type, code;
    /* MDS1's default route takes it to R1, which has no route to 10.9/16 */
    ck_assert_uint_ne(probe(0, IP(10, 9, 0, 1), 0, 32, &from, &type, &code), UINT64_MAX);
    ck_assert_uint_eq(from, IP(192, 168, 10, 254));
    ck_assert_uint_eq(type, IPNET_ICMP_UNREACH);
    ck_assert_uint_eq(code, IPNET_UNREACH_NET);
    /* MDS2 has no default route: no route at all */
    struct ipnet_ping p = {.dst = IP(10, 9, 0, 1), .count = 1, .size = 32, .timeout_ns = MS};
    ck_assert_int_eq(ipnet_ping_start(net, 1, &p), -1);
}
END_TEST

START_TEST(connected_before_static_longest_prefix_first)
{
    int slot, p;
    ipnet_ports_begin(net);
    port(0, 2, 2, IP(192, 168, 10, 1), M24, 1500);
    port(0, 2, 5, IP(10, 1, 1, 7), M24, 1500); /* connected 10.1.1/24, no cable: down */
    port(0, 2, 6, IP(10, 1, 2, 7), M24, 1500);
    port(1, 2, 2, IP(10, 1, 1, 2), M24, 1500);
    ipnet_ports_end(net);
    rport(r1, 3, IP(10, 1, 2, 254), M24, 1500, 0);
    ipnet_router_cable(net, r1, 3, 0, 2, 6); /* g2/6 up */
    struct ipnet_route t[] = {
        {0, 0, IP(192, 168, 10, 254), 0, 0},
        {IP(10, 0, 0, 0), IP(255, 0, 0, 0), 0, 2, 6},
        {IP(10, 1, 3, 0), M24, 0, 2, 6},
    };
    ipnet_routes_set(net, 0, t, 3);
    /* g2/5 is down: its connected subnet does not count, 10/8 wins over the default */
    ck_assert_int_eq(ipnet_route_port(net, 0, IP(10, 1, 1, 2), &slot, &p), 'S');
    ck_assert_int_eq(slot * 10 + p, 26);
    ck_assert_int_eq(ipnet_route_port(net, 0, IP(10, 1, 3, 9), &slot, &p), 'S');
    ck_assert_int_eq(ipnet_route_port(net, 0, IP(8, 8, 8, 8), &slot, &p), 'S');
    ck_assert_int_eq(slot * 10 + p, 22);
    ck_assert_int_eq(ipnet_route_port(net, 0, IP(192, 168, 10, 9), &slot, &p), 'C');
    ck_assert_int_eq(ipnet_route_port(net, 0, IP(192, 168, 10, 1), &slot, &p), 'L');
    /* longest prefix: a /24 through g2/2 beats the /8 */
    struct ipnet_route t2[] = {t[0], t[1], {IP(10, 1, 1, 0), M24, IP(192, 168, 10, 254), 0, 0}};
    ipnet_routes_set(net, 0, t2, 3);
    ck_assert_int_eq(ipnet_route_port(net, 0, IP(10, 1, 1, 2), &slot, &p), 'S');
    ck_assert_int_eq(slot * 10 + p, 22);
}
END_TEST

static struct ipnet_icmp_err heard;
static int nheard;

static void on_err(void *ctx, int sw, const struct ipnet_icmp_err *err)
{
    (void)ctx;
    ck_assert_int_eq(sw, 0);
    heard = *err;
    nheard++;
}

static bool none_heard(void *arg)
{
    (void)arg;
    return nheard == 0;
}

START_TEST(df_too_large_gets_fragmentation_needed)
{
    ipnet_on_icmp_error(net, IPNET_TCP, on_err, NULL);
    struct ipnet_pkt pkt = {.dst = IP(10, 1, 1, 2), .proto = IPNET_TCP, .df = true, .ip_len = 1500};
    const uint16_t ports[2] = {3225, 65000};
    memcpy(pkt.payload, ports, sizeof ports);
    ck_assert(ipnet_send(net, 0, &pkt));
    engine_run_while(e, none_heard, NULL, engine_now(e) + 1000 * MS);
    ck_assert_int_eq(nheard, 1);
    ck_assert_uint_eq(heard.type, IPNET_ICMP_UNREACH);
    ck_assert_uint_eq(heard.code, IPNET_UNREACH_FRAG_NEEDED);
    ck_assert_uint_eq(heard.mtu, 1400);
    ck_assert_uint_eq(heard.from, IP(172, 16, 0, 2));
    ck_assert_uint_eq(heard.src, IP(192, 168, 10, 1));
    ck_assert(memcmp(heard.quote, ports, sizeof ports) == 0);
    /* without DF it is cut again at R2 and arrives: a 1472-byte echo */
    uint32_t from;
    uint8_t type, code;
    ck_assert_uint_ne(probe(0, IP(10, 1, 1, 2), 0, 1472, &from, &type, &code), UINT64_MAX);
    ck_assert_uint_eq(type, 0);
    struct ipnet_router_stats st;
    ipnet_router_stats(net, r2, &st);
    ck_assert_uint_eq(st.frag_needed, 1);
    ck_assert_uint_eq(st.refragmented, 1);
}
END_TEST

START_TEST(a_router_without_icmp_is_a_black_hole)
{
    /* MDS1 and a router sending no ICMP, with no route beyond it */
    ipnet_free(net);
    net = ipnet_new(e, 2);
    ipnet_ports_begin(net);
    port(0, 2, 2, IP(192, 168, 10, 1), M24, 1500);
    ipnet_ports_end(net);
    r1 = ipnet_router_add(net, "R1", false);
    rport(r1, 1, IP(192, 168, 10, 254), M24, 1500, 0);
    ipnet_router_cable(net, r1, 1, 0, 2, 2);
    struct ipnet_route s1 = {0, 0, IP(192, 168, 10, 254), 0, 0};
    ipnet_routes_set(net, 0, &s1, 1);
    ck_assert_uint_eq(probe(0, IP(10, 9, 0, 1), 0, 32, NULL, NULL, NULL), UINT64_MAX);
    struct ipnet_router_stats st;
    ipnet_router_stats(net, r1, &st);
    ck_assert_uint_eq(st.unreachable, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("router");
    TCase *k = tcase_create("router");
    tcase_add_checked_fixture(k, setup, teardown);
    tcase_add_test(k, rtt_is_the_sum_of_the_hops);
    tcase_add_test(k, ttl_expires_hop_by_hop);
    tcase_add_test(k, unreachable_beyond_the_routes);
    tcase_add_test(k, connected_before_static_longest_prefix_first);
    tcase_add_test(k, df_too_large_gets_fragmentation_needed);
    tcase_add_test(k, a_router_without_icmp_is_a_black_hole);
    suite_add_tcase(s, k);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
