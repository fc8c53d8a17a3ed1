/* FSPF's shortest paths in the fabric alone (backend/fabric/spf.c,
 * docs/fspf.md): a line of three switches routes through the middle one,
 * a triangle with unequal costs follows the cost, a configured cost and a
 * link that goes move the path, and frames take the path hop by hop. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "fabric/fabric.h"

static engine_t *e;
static struct fabric *fab;

/* Each ISL end knows its fabric and the switch it leads to; a frame sent
 * over it enters the fabric there (the hop a tunnel would carry). */
struct end {
    int sw, peer, id;
    int frames;
};
static struct end ends[16];
static int nends;
static int path[16], npath;

static void isl_send(void *ctx, struct fc_frame *f)
{
    struct end *x = ctx;
    x->frames++;
    path[npath++] = x->peer;
    fabric_send(fab, x->peer, f);
}

static void setup(void)
{
    e = engine_new(1);
    fab = fabric_new(e, 3);
    nends = npath = 0;
}

static void teardown(void)
{
    engine_run_until(e, engine_now(e) + ENGINE_NS_PER_SEC);
    fabric_free(fab);
    engine_free(e);
}

/* A link between a and b, both ends named fcip<n>, each with its cost. */
static void link(int a, int b, int n, uint32_t cost_ab, uint32_t cost_ba)
{
    struct vsan_set v;
    memset(&v, 0, sizeof v);
    vsan_set_add(&v, 1, 1);
    for (int k = 0; k < 2; k++) {
        struct end *x = &ends[nends++];
        x->sw = k ? b : a;
        x->peer = k ? a : b;
        x->id = fabric_isl_up(fab, x->sw, x->peer, &v, isl_send, x);
        struct fabric_isl_info info = {.ifindex = (uint32_t)n,
                                       .local_ip = 0x0a000000u + (uint32_t)(n * 2 + k),
                                       .peer_ip = 0x0a000000u + (uint32_t)(n * 2 + 1 - k),
                                       .cost = k ? cost_ba : cost_ab};
        snprintf(info.ifname, sizeof info.ifname, "fcip%d", n);
        fabric_isl_describe(fab, x->id, &info);
    }
}

static void unlink_ends(int a, int b)
{
    for (int i = 0; i < nends; i++)
        if ((ends[i].sw == a && ends[i].peer == b) || (ends[i].sw == b && ends[i].peer == a))
            fabric_isl_down(fab, ends[i].id);
}

/* A frame from sw's domain controller to dst's: the switches it crossed. */
static int send_to(int sw, int dst)
{
    npath = 0;
    struct fc_frame *f = fabric_frame_new(fab);
    f->kind = FC_ELS_ECHO;
    f->class_f = true;
    f->vsan = 1;
    f->s_id = FC_DOMAIN_CONTROLLER(fabric_domain(fab, sw, 1));
    f->d_id = FC_DOMAIN_CONTROLLER(fabric_domain(fab, dst, 1));
    fabric_send(fab, sw, f);
    return npath;
}

START_TEST(a_line_routes_through_the_middle)
{
    link(0, 1, 1, 1000, 1000);
    link(1, 2, 2, 1000, 1000);
    struct fabric_route r[3];
    fabric_spf(fab, 0, 1, r);
    ck_assert_int_eq(r[0].first_isl, -2);
    ck_assert_uint_eq(r[1].cost, 1000);
    ck_assert_uint_eq(r[2].cost, 2000);
    ck_assert_int_eq(r[2].hops, 2);
    ck_assert_int_eq(r[2].isl_id, ends[0].id);
    ck_assert_int_eq(fabric_next_hop(fab, 0, 1, fabric_domain(fab, 2, 1)), 1);
    ck_assert_int_eq(fabric_next_hop(fab, 1, 1, fabric_domain(fab, 2, 1)), 2);
    ck_assert_int_eq(fabric_next_hop(fab, 2, 1, fabric_domain(fab, 2, 1)), 2);
    ck_assert_int_eq(send_to(0, 2), 2);
    ck_assert_int_eq(path[0], 1);
    ck_assert_int_eq(path[1], 2);
    /* the LSR of the middle switch: both its links, peers and costs */
    struct fabric_link l[4];
    ck_assert_int_eq(fabric_lsr(fab, 1, 1, l, 4), 2);
    ck_assert_int_eq(l[0].peer_domain, fabric_domain(fab, 0, 1));
    ck_assert_str_eq(l[0].ifname, "fcip1");
    ck_assert_str_eq(l[0].peer_ifname, "fcip1");
    ck_assert_int_eq(l[1].peer_sw, 2);
    ck_assert_uint_eq(l[1].cost, 1000);
}
END_TEST

START_TEST(a_triangle_follows_the_cost)
{
    link(0, 1, 1, 1000, 1000);
    link(1, 2, 2, 1000, 1000);
    link(0, 2, 3, 3000, 3000); /* direct, but dearer than two hops */
    int d2 = fabric_domain(fab, 2, 1);
    ck_assert_int_eq(fabric_next_hop(fab, 0, 1, d2), 1);
    ck_assert_int_eq(send_to(0, 2), 2);
    ck_assert_int_eq(path[0], 1);
    /* cheaper by configuration (`fspf cost 1500 vsan 1` on MDS1's fcip3) */
    fabric_cost_set(fab, 0, "fcip3", 1, 1500);
    ck_assert_int_eq(fabric_next_hop(fab, 0, 1, d2), 2);
    ck_assert_int_eq(send_to(0, 2), 1);
    /* each end's own cost counts: the way back still goes round */
    ck_assert_int_eq(fabric_next_hop(fab, 2, 1, fabric_domain(fab, 0, 1)), 1);
    /* another VSAN's cost does not count; clearing restores the default */
    fabric_costs_clear(fab, 0);
    fabric_cost_set(fab, 0, "fcip3", 2, 1);
    fabric_costs_done(fab, 0);
    ck_assert_int_eq(fabric_next_hop(fab, 0, 1, d2), 1);
    /* the LSR changes only when a cost does */
    struct fabric_lsr_stamp a, b;
    fabric_lsr_stamp(fab, 0, 1, &a);
    fabric_costs_clear(fab, 0);
    fabric_cost_set(fab, 0, "fcip3", 2, 1);
    fabric_costs_done(fab, 0);
    fabric_lsr_stamp(fab, 0, 1, &b);
    ck_assert_uint_eq(a.changes, b.changes);
    fabric_costs_clear(fab, 0);
    fabric_costs_done(fab, 0);
    fabric_lsr_stamp(fab, 0, 1, &b);
    ck_assert_uint_eq(a.changes + 1, b.changes);
    /* equal costs: fewer hops win */
    fabric_cost_set(fab, 0, "fcip3", 1, 2000);
    ck_assert_int_eq(fabric_next_hop(fab, 0, 1, d2), 2);
}
END_TEST

START_TEST(a_link_down_moves_the_path)
{
    link(0, 1, 1, 1000, 1000);
    link(1, 2, 2, 1000, 1000);
    link(0, 2, 3, 3000, 3000);
    int d2 = fabric_domain(fab, 2, 1);
    ck_assert_int_eq(fabric_next_hop(fab, 0, 1, d2), 1);
    unlink_ends(1, 2);
    ck_assert_int_eq(fabric_next_hop(fab, 0, 1, d2), 2);
    ck_assert_int_eq(send_to(0, 2), 1);
    struct fabric_route r[3];
    fabric_spf(fab, 0, 1, r);
    ck_assert_uint_eq(r[2].cost, 3000);
    unlink_ends(0, 2);
    ck_assert_int_eq(fabric_next_hop(fab, 0, 1, d2), -1);
    ck_assert_int_eq(send_to(0, 2), 0); /* dropped at the source: no route */
    struct fabric_stats st;
    fabric_stats_get(fab, &st);
    ck_assert_uint_ge(st.no_route, 1);
}
END_TEST

START_TEST(bandwidth_gives_the_default_cost)
{
    ck_assert_uint_eq(fabric_cost_of_bandwidth(1000000000ull), 1000);
    ck_assert_uint_eq(fabric_cost_of_bandwidth(2000000000ull), 500);
    ck_assert_uint_eq(fabric_cost_of_bandwidth(4000000000ull), 250);
    ck_assert_uint_eq(fabric_cost_of_bandwidth(100000000ull), 10000);
    ck_assert_uint_eq(fabric_cost_of_bandwidth(10000000ull), 65535); /* 10 Mb/s: capped */
    ck_assert_uint_eq(fabric_cost_of_bandwidth(0), 65535);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spf");
    TCase *tc = tcase_create("spf");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_line_routes_through_the_middle);
    tcase_add_test(tc, a_triangle_follows_the_cost);
    tcase_add_test(tc, a_link_down_moves_the_path);
    tcase_add_test(tc, bandwidth_gives_the_default_cost);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
