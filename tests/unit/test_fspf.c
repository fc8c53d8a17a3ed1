/* FSPF hellos on an up ISL (backend/fcip/fspf.c, docs/failures.md), on
 * the two-switch rig and virtual time. Before them, the far end of an idle
 * tunnel whose source port was shut waited for its keepalive (68 s); the
 * reference (mds-cli-15 case A, §15.4) expects a hello every 20 s to keep
 * the link busy, so retransmissions give up first: <= 20 s + ~6.2 s. */
#include <check.h>
#include <stdio.h>
#include "fcip_rig.h"
#include "fcip/fspf.h"

static struct rig r;

static void setup(void) { rig_init(&r, 1, 0, 1500); }
static void teardown(void) { rig_free(&r); }
static void run_for(uint64_t ns) { engine_run_until(r.e, engine_now(r.e) + ns); }

static const struct fspf_link *link_of(int sw) { return fcip_tunnel_fspf(fcip_tunnel_find(r.fe, sw, 1)); }

/* Shut MDS1's source port at several phases of the hello cycle, nothing
 * else on the link: MDS2 reads `retransmit failure` within [6 s, 27 s]. */
static const uint64_t shut_after_ms[] = {1000, 10000, 19900, 20200, 57000};

START_TEST(idle_far_end_finds_a_dead_path_by_retransmissions)
{
    rig_apply(&r);
    run_for(shut_after_ms[_i] * ENGINE_NS_PER_MS);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_TRUNKING);
    rig_source_admin(&r, false);
    uint64_t t0 = engine_now(r.e);
    while (rig_state(&r, 1, NULL) == FCIP_TRUNKING && engine_now(r.e) < t0 + 100 * ENGINE_NS_PER_SEC)
        run_for(10 * ENGINE_NS_PER_MS);
    double took = (engine_now(r.e) - t0) / 1e9;
    printf("idle tunnel, source shut %.1f s after up: far end down %.2f s later\n",
           shut_after_ms[_i] / 1e3, took);
    struct fcip_status st;
    ck_assert_int_eq(rig_state(&r, 1, &st), FCIP_DOWN);
    ck_assert_int_eq(st.cause, FCIP_CAUSE_MAX_RETX);
    ck_assert_msg(took >= 6.0 && took <= 27.0, "far end took %.2f s", took);
}
END_TEST

/* One hello per VSAN per interval from each end, as class F, on the
 * control connection; each end sees its neighbor two-way (FULL). */
START_TEST(hellos_every_interval_make_full_neighbors)
{
    rig_apply(&r);
    run_for(ENGINE_NS_PER_SEC);
    struct fcip_status st0, st1;
    rig_state(&r, 0, &st0);
    ck_assert_uint_eq(st0.cf_frames_out, 1); /* the link parameters only: first hello after 20 s */
    run_for(100 * ENGINE_NS_PER_SEC);        /* hellos at 20, 40, 60, 80, 100 s */
    rig_state(&r, 0, &st0);
    rig_state(&r, 1, &st1);
    ck_assert_uint_eq(st0.cf_frames_out, 1 + 5);
    ck_assert_uint_eq(st1.cf_frames_in, 1 + 5);
    ck_assert_uint_eq(st0.cf_bytes_out, (36 + 120) + 5 * (36 + FSPF_HLO_PAYLOAD));
    ck_assert_uint_eq(st0.frames_out, st0.cf_frames_out); /* no other traffic */
    for (int sw = 0; sw < 2; sw++) {
        struct fspf_nbr n[4];
        ck_assert_int_eq(fspf_link_nbrs(link_of(sw), n, 4), 1);
        ck_assert_int_eq(n[0].vsan, 1);
        ck_assert_uint_eq(n[0].hellos_out, 5);
        ck_assert_uint_eq(n[0].hellos_in, 5);
        ck_assert_int_eq(n[0].nbr_domain, 0xEF - (1 - sw));
        ck_assert_int_eq(fspf_nbr_state(&n[0], engine_now(r.e)), FSPF_NBR_FULL);
        /* the dead interval: silent for 80 s, the neighbor is down */
        ck_assert_int_eq(fspf_nbr_state(&n[0], n[0].last_rx_ns + FSPF_DEAD_NS), FSPF_NBR_FULL);
        ck_assert_int_eq(fspf_nbr_state(&n[0], n[0].last_rx_ns + FSPF_DEAD_NS + 1), FSPF_NBR_DOWN);
    }
    /* no keepalive fires on a link kept busy */
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_TRUNKING);
}
END_TEST

/* The link goes: hellos stop and the neighbors are forgotten. */
START_TEST(hellos_stop_with_the_link)
{
    rig_apply(&r);
    run_for(30 * ENGINE_NS_PER_SEC);
    r.conf[0].admin_up = false;
    rig_apply(&r);
    run_for(ENGINE_NS_PER_SEC);
    struct fspf_nbr n[4];
    ck_assert_int_eq(fspf_link_nbrs(link_of(0), n, 4), 0);
    ck_assert_int_eq(fspf_link_nbrs(link_of(1), n, 4), 0);
    struct fcip_status st;
    rig_state(&r, 1, &st);
    uint64_t before = st.cf_frames_out;
    run_for(60 * ENGINE_NS_PER_SEC);
    rig_state(&r, 1, &st);
    ck_assert_uint_eq(st.cf_frames_out, before);
}
END_TEST

/* Same script, same events: hellos keep the run deterministic. */
static uint64_t run_once(void)
{
    struct rig q;
    rig_init(&q, 1, 0, 1500);
    rig_apply(&q);
    engine_run_until(q.e, 200 * ENGINE_NS_PER_SEC);
    uint64_t h = engine_trace_hash(q.e);
    rig_free(&q);
    return h;
}

START_TEST(same_run_same_events)
{
    ck_assert_uint_eq(run_once(), run_once());
}
END_TEST

/* An interface's hello interval in VSAN 1 (the fspf feature's reconcile
 * gives the fabric its configuration as a whole). */
static void set_hello(int sw, uint32_t hello_s)
{
    struct fabric_if_fspf c = {0, hello_s, 0};
    fabric_costs_clear(r.fab, sw);
    fabric_if_fspf_set(r.fab, sw, "fcip1", 1, &c);
    fabric_costs_done(r.fab, sw);
}

static struct fspf_nbr nbr_of(int sw)
{
    struct fspf_nbr n[4];
    ck_assert_int_eq(fspf_link_nbrs(link_of(sw), n, 4), 1);
    return n[0];
}

/* A configured interval: hellos at that cadence and carrying it; the
 * peer, at the default, refuses them (errors, no adjacency) and the fabric
 * routes nothing over the link in that VSAN until both ends agree. */
START_TEST(intervals_must_agree)
{
    rig_apply(&r);
    run_for(ENGINE_NS_PER_SEC);
    set_hello(0, 10);
    run_for(60 * ENGINE_NS_PER_SEC); /* MDS1: at 20 s (the old cadence), then 30, 40, 50, 60 */
    struct fspf_nbr a = nbr_of(0), b = nbr_of(1);
    ck_assert_uint_eq(a.hellos_out, 5);
    ck_assert_uint_eq(b.hellos_out, 3); /* MDS2: 20, 40, 60 */
    ck_assert_uint_eq(b.errors, 5);
    ck_assert_uint_eq(a.errors, 3);
    ck_assert(a.refused && b.refused);
    ck_assert_int_eq(fspf_nbr_state(&b, engine_now(r.e)), FSPF_NBR_DOWN);
    int d1 = fabric_domain(r.fab, 1, 1), d0 = fabric_domain(r.fab, 0, 1);
    ck_assert_int_eq(fabric_next_hop(r.fab, 0, 1, d1), -1);
    ck_assert_int_eq(fabric_next_hop(r.fab, 1, 1, d0), -1);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING); /* the link itself stays up */
    /* MDS2 agrees: hellos accepted again, two-way after each side heard one */
    set_hello(1, 10);
    run_for(30 * ENGINE_NS_PER_SEC);
    a = nbr_of(0);
    b = nbr_of(1);
    ck_assert(!a.refused && !b.refused);
    ck_assert_int_eq(fspf_nbr_state(&a, engine_now(r.e)), FSPF_NBR_FULL);
    ck_assert_int_eq(fspf_nbr_state(&b, engine_now(r.e)), FSPF_NBR_FULL);
    ck_assert_int_eq(fabric_next_hop(r.fab, 0, 1, d1), 1);
    /* the dead interval is the configured one */
    ck_assert_uint_eq(b.dead_s, 80);
    ck_assert_uint_eq(b.hello_s, 10);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fspf");
    TCase *tc = tcase_create("hellos");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, idle_far_end_finds_a_dead_path_by_retransmissions, 0,
                        (int)(sizeof shut_after_ms / sizeof shut_after_ms[0]));
    tcase_add_test(tc, hellos_every_interval_make_full_neighbors);
    tcase_add_test(tc, hellos_stop_with_the_link);
    tcase_add_test(tc, same_run_same_events);
    tcase_add_test(tc, intervals_must_agree);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
