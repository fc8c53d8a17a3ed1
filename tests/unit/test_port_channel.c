/* FCIP port-channels (backend/fcip/pchan.c, docs/port-channel.md): the
 * hash spreads exchanges evenly and keeps an exchange (or, in
 * src-dst-id, a source/destination pair) on one member, the same member
 * at both ends; two members carry about twice one member's window-bound
 * throughput; a member that fails leaves the ISL up, its I/Os in flight
 * fail at the initiator's timeout and the traffic goes on on the other.
 *
 * The rig: two FCIP links between MDS1 and MDS2, each through its own
 * netsim pair on MDS1 (g2/2 -> g2/3 | g2/4 -> MDS2 g2/2, and g2/5 ->
 * g2/6 | g2/7 -> MDS2 g2/5), 25 ms each way; both fcip1 and fcip2 in
 * port-channel 1 at both ends; profiles of 100 Mb/s and 50 ms (G8). */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "engine/engine.h"
#include "ipnet/ipnet.h"
#include "netsim/pipe.h"
#include "fabric/fabric.h"
#include "fcip/tunnel.h"
#include "fcip/pchan.h"
#include "sanext/tuner.h"

#define A1 0xC0A80A01u /* 192.168.10.1 */
#define A2 0xC0A80A02u
#define B1 0xC0A81401u /* 192.168.20.1 */
#define B2 0xC0A81402u
#define G8_MBPS 11.44 /* one link's window bound (docs/fcip-engine.md, G8) */

static engine_t *e;
static struct ipnet *net;
static struct fabric *fab;
static struct fcip_engine *fe;
static struct tuner *tu;
static struct fcip_tunnel_conf conf[2][2]; /* [switch][member] */
static bool b_port_up;
static const uint8_t W1[8] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11};
static const uint8_t W2[8] = {0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22};

static void port(int sw, int p, uint32_t ip, bool up)
{
    struct ipnet_port_conf c = {up, ip != 0, ip, ip ? 0xFFFFFF00u : 0, ip ? 1500u : 9000u};
    ipnet_port_set(net, sw, 2, p, &c);
}

/* The ports as the interface feature declares them; MDS1 g2/5 (member
 * B's source) up or shut. */
static void ports(void)
{
    ipnet_ports_begin(net);
    port(0, 2, A1, true);
    port(0, 5, B1, b_port_up);
    for (int p = 3; p <= 7; p++)
        if (p != 5)
            port(0, p, 0, true);
    port(1, 2, A2, true);
    port(1, 5, B2, true);
    ipnet_ports_end(net);
}

static void apply(void)
{
    fcip_engine_begin(fe);
    for (int sw = 0; sw < 2; sw++)
        for (int m = 0; m < 2; m++)
            fcip_tunnel_apply(fe, &conf[sw][m]);
    fcip_engine_end(fe);
}

static void run_for(double s) { engine_run_until(e, engine_now(e) + (uint64_t)(s * 1e9)); }

static void rig(int members)
{
    e = engine_new(1);
    net = ipnet_new(e, 2);
    b_port_up = true;
    ports();
    ipnet_cable(net, 0, 2, 2, 0, 2, 3);
    ipnet_cable(net, 0, 2, 4, 1, 2, 2);
    ipnet_cable(net, 0, 2, 5, 0, 2, 6);
    ipnet_cable(net, 0, 2, 7, 1, 2, 5);
    ipnet_bridges_begin(net);
    ipnet_bridge(net, 0, 2, 3, 2, 4);
    ipnet_bridge(net, 0, 2, 6, 2, 7);
    ipnet_bridges_end(net);
    netsim_pipe_config cfg;
    netsim_pipe_config_init(&cfg);
    cfg.delay_set = true;
    cfg.delay_ns = 25 * ENGINE_NS_PER_MS;
    for (int p = 3; p <= 7; p++)
        if (p != 5)
            netsim_pipe_configure(ipnet_ingress_pipe(net, 0, 2, p), &cfg);
    fab = fabric_new(e, 2);
    struct vsan_set every;
    memset(&every, 0xff, sizeof every);
    fabric_set_zone_permit(fab, 0, &every);
    fabric_set_zone_permit(fab, 1, &every);
    fe = fcip_engine_new(e, net, fab);
    for (int sw = 0; sw < 2; sw++)
        for (int m = 0; m < 2; m++) {
            struct fcip_tunnel_conf *c = &conf[sw][m];
            uint32_t mine = m ? (sw ? B2 : B1) : (sw ? A2 : A1), peer = m ? (sw ? B1 : B2) : (sw ? A1 : A2);
            *c = (struct fcip_tunnel_conf){.sw = sw, .id = m + 1, .admin_up = m < members, .local_ip = mine,
                                           .local_port = 3225, .peer_ip = peer, .peer_port = 3225, .nconn = 2,
                                           .trunk = FCIP_TRUNK_ON, .port_vsan = 1, .channel = 1};
            tcp_params_default(&c->tcp);
            c->tcp.max_bw_bps = 100000000u;
            c->tcp.min_avail_bps = 50000000u;
            c->tcp.rtt_cfg_ns = 50 * ENGINE_NS_PER_MS;
            vsan_set_all(&c->allowed);
        }
    apply();
    run_for(3);
    tu = tuner_new(e, fab);
}

static void teardown(void)
{
    tuner_free(tu);
    ipnet_free(net);
    fcip_engine_free(fe);
    fabric_free(fab);
    engine_free(e);
}

static void writes(int outstanding)
{
    struct tuner_nport_conf a = {.sw = 0, .vsan = 1, .slot = 2, .port = 2}, b = a;
    memcpy(a.pwwn, W1, 8);
    b.sw = 1;
    memcpy(b.pwwn, W2, 8);
    struct tuner_cmd_conf c = {.id = 1, .op = TUNER_WRITE, .size = 1000000, .outstanding = outstanding, .start = 1};
    memcpy(c.target, W2, 8);
    tuner_begin(tu);
    tuner_nport(tu, &a);
    tuner_nport(tu, &b);
    tuner_cmd(tu, 0, W1, 1, &c);
    tuner_end(tu);
}

/* MB/s of writes completed over secs. */
static double rate(double secs, struct tuner_counters *end)
{
    struct tuner_counters c0;
    tuner_counters(tu, 0, W1, 1, &c0);
    run_for(secs);
    tuner_counters(tu, 0, W1, 1, end);
    return (double)(end->writes - c0.writes) * 1e6 / secs / 1e6;
}

static struct pchan_status channel(int sw)
{
    struct pchan_status st;
    pchan_status_get(fcip_engine_pchans(fe), sw, 1, &st);
    return st;
}

/* Many exchanges between one pair: within a few % of even; every
 * exchange's frames, both ways, on one member. */
START_TEST(exchanges_spread_evenly)
{
    uint64_t pairs[2] = {(uint64_t)A1 << 32 | A2, (uint64_t)B1 << 32 | B2};
    int count[2] = {0, 0};
    struct fc_frame f = {.s_id = 0xEF0001, .d_id = 0xEE0001, .vsan = 1};
    for (int ox = 0; ox < 20000; ox++) {
        f.ox_id = (uint16_t)ox;
        f.s_id = 0xEF0001, f.d_id = 0xEE0001;
        int there = pchan_pick(pairs, 2, &f, false);
        f.s_id = 0xEE0001, f.d_id = 0xEF0001; /* the answer, from the other end */
        ck_assert_int_eq(pchan_pick(pairs, 2, &f, false), there);
        count[there]++;
    }
    double share = count[0] / 20000.0;
    printf("src-dst-ox-id: %d / %d exchanges (%.2f %%)\n", count[0], count[1], share * 100);
    ck_assert_msg(share > 0.48 && share < 0.52, "%.4f", share);
}
END_TEST

/* src-dst-id: every exchange of a pair on one member; pairs spread. */
START_TEST(pairs_stay_on_one_member)
{
    uint64_t pairs[2] = {(uint64_t)A1 << 32 | A2, (uint64_t)B1 << 32 | B2};
    int count[2] = {0, 0};
    for (uint32_t port = 1; port <= 2000; port++) {
        struct fc_frame f = {.s_id = 0xEF0000 | port, .d_id = 0xEE0001, .vsan = 1};
        int first = pchan_pick(pairs, 2, &f, true);
        for (int ox = 1; ox < 50; ox++) {
            f.ox_id = (uint16_t)ox;
            ck_assert_int_eq(pchan_pick(pairs, 2, &f, true), first);
        }
        count[first]++;
    }
    double share = count[0] / 2000.0;
    printf("src-dst-id: %d / %d pairs\n", count[0], count[1]);
    ck_assert_msg(share > 0.45 && share < 0.55, "%.4f", share);
}
END_TEST

/* A member going away moves only its own exchanges. */
START_TEST(only_the_lost_members_exchanges_move)
{
    uint64_t pairs[3] = {1, 2, 3};
    struct fc_frame f = {.s_id = 0xEF0001, .d_id = 0xEE0001};
    for (int ox = 0; ox < 5000; ox++) {
        f.ox_id = (uint16_t)ox;
        int before = pchan_pick(pairs, 3, &f, false), after = pchan_pick(pairs, 2, &f, false);
        if (before < 2)
            ck_assert_int_eq(after, before);
    }
}
END_TEST

/* The fabric sees one ISL of the summed bandwidth; two members carry
 * about twice what one does, each bound by its window. */
START_TEST(two_members_twice_one)
{
    rig(1);
    ck_assert_int_eq(channel(0).nup, 1);
    writes(32);
    run_for(5);
    struct tuner_counters c;
    double one = rate(20, &c);
    teardown();
    rig(2);
    struct pchan_status st = channel(0);
    ck_assert(st.up);
    ck_assert_int_eq(st.nup, 2);
    ck_assert_uint_eq(st.bw_bps, 200000000u);
    struct fabric_link l[4];
    ck_assert_int_eq(fabric_lsr(fab, 0, 1, l, 4), 1); /* one FSPF link */
    ck_assert_str_eq(l[0].ifname, "port-channel1");
    ck_assert_uint_eq(l[0].cost, fabric_cost_of_bandwidth(200000000u));
    writes(32);
    run_for(5);
    double two = rate(20, &c);
    st = channel(0);
    printf("window-bound writes: one member %.2f MB/s (G8 %.2f), two %.2f MB/s (x%.2f); frames %llu / %llu\n", one,
           G8_MBPS, two, two / one, (unsigned long long)st.frames[0], (unsigned long long)st.frames[1]);
    ck_assert_msg(one > G8_MBPS * 0.93 && one < G8_MBPS * 1.05, "one %.2f", one);
    ck_assert_msg(two > one * 1.85 && two < one * 2.1, "two %.2f vs one %.2f", two, one);
    ck_assert_uint_eq(c.errors, 0);
}
END_TEST

/* Member B's GE port shut under traffic: the ISL stays (no fabric
 * change), its I/Os in flight time out at the initiator, and the writes
 * go on at one member's rate. */
START_TEST(member_down_keeps_the_isl)
{
    rig(2);
    writes(32);
    run_for(5);
    struct tuner_counters c;
    rate(5, &c);
    struct fabric_lsr_stamp before, after;
    fabric_lsr_stamp(fab, 0, 1, &before);
    b_port_up = false;
    ports();
    apply();
    run_for(0.001);
    struct pchan_status st = channel(0);
    ck_assert(st.up);
    ck_assert_int_eq(st.nup, 1);
    ck_assert_int_eq(st.up_ids[0], 1);
    struct fabric_link l[4];
    ck_assert_int_eq(fabric_lsr(fab, 0, 1, l, 4), 1);
    uint64_t errors0 = c.errors;
    run_for(TUNER_IO_TIMEOUT_NS / 1e9 + 2);
    struct tuner_counters mid;
    double after_rate = rate(20, &mid);
    printf("member down: %llu I/Os timed out, then %.2f MB/s on one member\n",
           (unsigned long long)(mid.errors - errors0), after_rate);
    ck_assert_uint_gt(mid.errors, errors0); /* those in flight on B */
    ck_assert_msg(after_rate > G8_MBPS * 0.9 && after_rate < G8_MBPS * 1.05, "%.2f", after_rate);
    fabric_lsr_stamp(fab, 0, 1, &after);
    ck_assert_int_eq(channel(1).nup, 1); /* the peer saw B go too */
    /* the ISL itself never went: only its cost and VSANs were told again */
    ck_assert_int_eq(fabric_lsr(fab, 0, 1, l, 4), 1);
    ck_assert_uint_eq(l[0].cost, fabric_cost_of_bandwidth(100000000u));
    (void)before, (void)after;
}
END_TEST

/* src-dst-id in the VSAN: the one initiator/target pair's exchanges all
 * take one member, at both ends, and run at that member's rate. */
START_TEST(src_dst_id_keeps_the_pair_on_one_link)
{
    rig(2);
    struct vsan_set v1 = {{0}};
    vsan_set_add(&v1, 1, 1);
    pchan_set_src_dst(fcip_engine_pchans(fe), 0, &v1);
    pchan_set_src_dst(fcip_engine_pchans(fe), 1, &v1);
    writes(32);
    run_for(5);
    struct tuner_counters c;
    double x = rate(20, &c);
    for (int sw = 0; sw < 2; sw++) {
        struct pchan_status st = channel(sw);
        ck_assert_int_eq(st.nup, 2);
        printf("src-dst-id, switch %d: frames %llu / %llu\n", sw + 1, (unsigned long long)st.frames[0],
               (unsigned long long)st.frames[1]);
        ck_assert(st.frames[0] == 0 || st.frames[1] == 0);
        ck_assert_uint_gt(st.frames[0] + st.frames[1], sw ? 500 : 100000); /* MDS2: XFER_RDY, RSP */
    }
    printf("src-dst-id: %.2f MB/s on one member\n", x);
    ck_assert_msg(x > G8_MBPS * 0.93 && x < G8_MBPS * 1.05, "%.2f", x);
}
END_TEST

/* The last member down takes the ISL down; back up, it returns. */
START_TEST(last_member_takes_the_isl)
{
    rig(2);
    for (int sw = 0; sw < 2; sw++)
        conf[sw][0].admin_up = conf[sw][1].admin_up = false;
    apply();
    run_for(1);
    ck_assert(!channel(0).up);
    struct fabric_link l[4];
    ck_assert_int_eq(fabric_lsr(fab, 0, 1, l, 4), 0);
    for (int sw = 0; sw < 2; sw++)
        conf[sw][0].admin_up = conf[sw][1].admin_up = true;
    apply();
    run_for(5);
    ck_assert_int_eq(channel(0).nup, 2);
    ck_assert_int_eq(fabric_lsr(fab, 0, 1, l, 4), 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("port_channel");
    TCase *h = tcase_create("hash");
    tcase_add_test(h, exchanges_spread_evenly);
    tcase_add_test(h, pairs_stay_on_one_member);
    tcase_add_test(h, only_the_lost_members_exchanges_move);
    suite_add_tcase(s, h);
    TCase *tc = tcase_create("links");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_members_twice_one);
    tcase_add_test(tc, member_down_keeps_the_isl);
    tcase_add_test(tc, last_member_takes_the_isl);
    tcase_add_test(tc, src_dst_id_keeps_the_pair_on_one_link);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
