/* Domain IDs and their overlap (mds-cli-15-failures.md case J,
 * docs/fcdomain.md), on the two-switch rig and virtual time: a running
 * domain changes only when taken again (a disruptive restart), a
 * preferred one yields to the fabric and a static one does not; a link
 * between two switches holding one domain isolates that VSAN (a trunk
 * stays up, an E port goes down), no frame crosses it, and the fix brings
 * it back at once. Before: every switch had domain 0xEF - i, fixed. */
#include <check.h>
#include <stdio.h>
#include "fcip_rig.h"

static struct rig r;
static struct rig_changes ch;

static void setup(void)
{
    rig_init(&r, 1, 0, 1500);
    rig_record_changes(&r, &ch);
}

static void teardown(void) { rig_free(&r); }

static void run_for(uint64_t ns) { engine_run_until(r.e, engine_now(r.e) + ns); }

static void vsan1(struct vsan_set *v)
{
    memset(v, 0, sizeof *v);
    vsan_set_add(v, 1, 1);
}

/* `fcdomain domain N static|preferred vsan 1` then `fcdomain restart
 * [disruptive] vsan 1` on switch sw (as the reconcile and the command do). */
static void domain(int sw, int dom, bool is_static, bool disruptive)
{
    struct vsan_set v;
    vsan1(&v);
    fabric_domains_unconfigure(r.fab, sw);
    fabric_domain_configure(r.fab, sw, 1, dom, is_static);
    fabric_restart(r.fab, sw, &v, disruptive);
}

static void trunk_off(void)
{
    for (int i = 0; i < 2; i++)
        r.conf[i].trunk = FCIP_TRUNK_OFF;
}

START_TEST(a_new_domain_needs_a_disruptive_restart)
{
    ck_assert_int_eq(fabric_domain(r.fab, 0, 1), FABRIC_FIRST_DOMAIN);
    ck_assert_int_eq(fabric_domain(r.fab, 1, 1), FABRIC_FIRST_DOMAIN - 1);
    domain(0, 10, true, false);
    ck_assert_int_eq(fabric_domain(r.fab, 0, 1), FABRIC_FIRST_DOMAIN); /* configured, not running */
    domain(0, 10, true, true);
    ck_assert_int_eq(fabric_domain(r.fab, 0, 1), 10);
    fabric_domains_unconfigure(r.fab, 0); /* `no fcdomain domain`: still 10 until the next build */
    ck_assert_int_eq(fabric_domain(r.fab, 0, 1), 10);
    struct vsan_set v;
    vsan1(&v);
    fabric_restart(r.fab, 0, &v, true);
    ck_assert_int_eq(fabric_domain(r.fab, 0, 1), FABRIC_FIRST_DOMAIN);
}
END_TEST

/* Connected in VSAN 1, MDS2 asks for MDS1's domain: preferred, it gets
 * another (the highest free); static, it keeps it and the VSAN isolates. */
START_TEST(preferred_yields_static_does_not)
{
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
    domain(1, FABRIC_FIRST_DOMAIN, false, true);
    ck_assert_int_eq(fabric_domain(r.fab, 1, 1), FABRIC_FIRST_DOMAIN - 1);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
    domain(1, FABRIC_FIRST_DOMAIN, true, true);
    ck_assert_int_eq(fabric_domain(r.fab, 1, 1), FABRIC_FIRST_DOMAIN);
    struct fcip_status st;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_TRUNKING);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_NOT_ALL_UP);
        ck_assert(!vsan_set_has(&st.up, 1));
        ck_assert(vsan_set_has(&st.isolated, 1));
    }
}
END_TEST

/* Static domain 10 at both ends before the link comes up: the trunk comes
 * up with VSAN 1 isolated, no I/O crosses; MDS2 moved to 20 with a
 * disruptive restart, the VSAN comes up at once and the I/O flows. */
START_TEST(trunk_isolates_an_overlapping_vsan)
{
    domain(0, 10, true, true);
    domain(1, 10, true, true);
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    struct fcip_status st;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_TRUNKING);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_NOT_ALL_UP);
        ck_assert(vsan_set_empty(&st.up));
        ck_assert(vsan_set_has(&st.isolated, 1));
    }
    ck_assert_int_eq(ch.c[ch.n - 1].to, FCIP_TRUNKING);
    ck_assert(vsan_set_has(ch.c[ch.n - 1].overlap, 1));
    uint8_t w[8] = {0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22};
    uint32_t fcid;
    uint32_t mine = fabric_login(r.fab, 1, 1, w, NULL, NULL);
    ck_assert_uint_eq(mine >> 16, 10);
    ck_assert(!fabric_lookup(r.fab, 0, 1, w, &fcid)); /* the name server does not see across */
    fabric_logout(r.fab, 1, 1, mine);
    domain(1, 20, true, true);
    for (int i = 0; i < 2; i++) { /* no time passed */
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_TRUNKING);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_NONE);
        ck_assert(vsan_set_has(&st.up, 1));
    }
    struct io_src s;
    io_start(&s, &r, false, 65536, 2);
    ck_assert_uint_eq(s.targ_fcid >> 16, 20); /* the target logged in with MDS2's new domain */
    run_for(ENGINE_NS_PER_SEC);
    ck_assert_uint_gt(s.done, 10);
}
END_TEST

/* A VSAN that goes isolated under a trunk that stays up is told (the
 * feature logs IF_TRUNK_DOWN), and so is its return (IF_TRUNK_UP). */
START_TEST(a_trunk_tells_a_vsan_going_and_coming)
{
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    struct io_src s;
    io_start(&s, &r, false, 65536, 2);
    run_for(ENGINE_NS_PER_SEC);
    uint64_t done = s.done;
    ck_assert_uint_gt(done, 10);
    int before = ch.n;
    domain(0, 10, true, true);
    domain(1, 10, true, true);
    ck_assert_int_eq(ch.n, before + 2); /* each end once: MDS1's restart changed nothing */
    for (int i = before; i < ch.n; i++) {
        ck_assert_int_eq(ch.c[i].from, FCIP_TRUNKING);
        ck_assert_int_eq(ch.c[i].to, FCIP_TRUNKING);
        ck_assert_int_eq(ch.c[i].cause, FCIP_CAUSE_NOT_ALL_UP);
        ck_assert(vsan_set_has(ch.c[i].was_up, 1));
    }
    run_for(ENGINE_NS_PER_SEC);
    ck_assert_uint_le(s.done, done + 2); /* what was under way when it isolated, at most */
    struct fabric_stats fs;
    fabric_stats_get(r.fab, &fs);
    uint64_t lost = fs.no_route;
    fabric_send(r.fab, 0, io_frame(&s, 0, FC_FCP_CMND, 0, 32)); /* a new command has no path */
    fabric_stats_get(r.fab, &fs);
    ck_assert_uint_eq(fs.no_route, lost + 1);
    before = ch.n;
    domain(0, 11, true, true);
    ck_assert_int_eq(ch.n, before + 2);
    ck_assert_int_eq(ch.c[before].cause, FCIP_CAUSE_NONE);
    ck_assert(vsan_set_has(ch.c[before].up, 1));
}
END_TEST

/* Non-trunking (E ports in VSAN 1): the link goes down isolated, with the
 * overlap as its reason, and comes up when the domains differ again. */
START_TEST(e_port_isolates_on_overlap)
{
    trunk_off();
    domain(0, 10, true, true);
    domain(1, 10, false, true); /* not connected yet: nothing holds it */
    ck_assert_int_eq(fabric_domain(r.fab, 1, 1), 10);
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    struct fcip_status st;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_ISOLATED);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_DOMAIN_OVERLAP);
    }
    domain(0, 11, true, true);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_UP);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_NONE);
    }
    /* fcping: MDS2's domain controller answers across the link */
    struct fabric_echo e = {.vsan = 1, .d_id = FC_DOMAIN_CONTROLLER(10), .count = 1, .size = 4,
                            .timeout_ns = ENGINE_NS_PER_SEC};
    ck_assert_int_eq(fabric_echo_start(r.fab, 0, &e), 0);
    ck_assert_uint_ne(fabric_echo_wait(r.fab, &e, 0), UINT64_MAX);
    fabric_echo_end(r.fab, &e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("domain_overlap");
    TCase *tc = tcase_create("overlap");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_new_domain_needs_a_disruptive_restart);
    tcase_add_test(tc, preferred_yields_static_does_not);
    tcase_add_test(tc, trunk_isolates_an_overlapping_vsan);
    tcase_add_test(tc, a_trunk_tells_a_vsan_going_and_coming);
    tcase_add_test(tc, e_port_isolates_on_overlap);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
