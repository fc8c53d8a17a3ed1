/* FCIP failures as on an MDS (mds-cli-15-failures.md, docs/failures.md),
 * on the two-switch rig and virtual time: a cause reaches the tunnel when
 * it happens, each end reads its own reason, and every change is told to
 * the feature (which logs it). Before: a shut source port left the tunnel
 * trunking until TCP gave up, a shut fcip read `reset by peer` at the far
 * end, a mismatched port VSAN was `up`, every reason was `Link failure`. */
#include <check.h>
#include <stdio.h>
#include "fcip_rig.h"
#include "fcip/fcip_wire.h"
#include "capture/capture.h"

static struct rig r;
static struct rig_changes ch;

static void setup(void)
{
    rig_init(&r, 1, 0, 1500);
    rig_record_changes(&r, &ch);
}

static void teardown(void) { rig_free(&r); }

static void run_for(uint64_t ns) { engine_run_until(r.e, engine_now(r.e) + ns); }

static enum fcip_cause cause(int sw)
{
    struct fcip_status st;
    rig_state(&r, sw, &st);
    return st.cause;
}

/* Until the end leaves `from` (at most `limit`): how long it took. */
static uint64_t time_to_leave(int sw, enum fcip_state from, uint64_t limit)
{
    uint64_t t0 = engine_now(r.e);
    while (rig_state(&r, sw, NULL) == from && engine_now(r.e) < t0 + limit)
        run_for(10 * ENGINE_NS_PER_MS);
    return engine_now(r.e) - t0;
}

START_TEST(source_shut_takes_the_local_end_down_at_once)
{
    rig_apply(&r);
    run_for(ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
    struct io_src s;
    io_start(&s, &r, false, 65536, 2); /* traffic: TCP, not keepalive, notices */
    run_for(ENGINE_NS_PER_SEC);
    rig_source_admin(&r, false);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_DOWN); /* no time passed */
    ck_assert_int_eq(cause(0), FCIP_CAUSE_SRC_ADMIN_DOWN);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_TRUNKING); /* no RST leaves a shut port */
    uint64_t took = time_to_leave(1, FCIP_TRUNKING, 30 * ENGINE_NS_PER_SEC);
    printf("source shut: the far end down %.3f s later\n", took / 1e9);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_DOWN);
    ck_assert_int_eq(cause(1), FCIP_CAUSE_MAX_RETX);
    ck_assert_msg(took <= 7 * ENGINE_NS_PER_SEC, "far end took %.3f s", took / 1e9);
    run_for(60 * ENGINE_NS_PER_SEC); /* retrying, its SYNs unanswered, keeps the reason (case M) */
    ck_assert_int_eq(cause(1), FCIP_CAUSE_MAX_RETX);
    ck_assert_int_eq(cause(0), FCIP_CAUSE_SRC_ADMIN_DOWN);
    rig_source_admin(&r, true);
    run_for(5 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_TRUNKING);
}
END_TEST

START_TEST(shut_fcip_reads_closed_by_peer)
{
    rig_apply(&r);
    run_for(ENGINE_NS_PER_SEC);
    r.conf[0].admin_up = false;
    rig_apply(&r);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_ADMIN_DOWN);
    ck_assert_int_eq(cause(0), FCIP_CAUSE_ADMIN);
    uint64_t took = time_to_leave(1, FCIP_TRUNKING, 5 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_DOWN);
    ck_assert_int_eq(cause(1), FCIP_CAUSE_PEER_CLOSE);
    ck_assert_msg(took < 100 * ENGINE_NS_PER_MS, "the peer learned it %.3f s later", took / 1e9);
    run_for(60 * ENGINE_NS_PER_SEC); /* its attempts refused meanwhile: the reason stays */
    ck_assert_int_eq(cause(1), FCIP_CAUSE_PEER_CLOSE);
    r.conf[0].admin_up = true;
    rig_apply(&r);
    run_for(5 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_TRUNKING);
}
END_TEST

/* A profile address on no port is accepted, reads unbound, and binds as
 * soon as the port has it: no shut / no shut needed (case F). */
START_TEST(unbound_source_binds_when_fixed)
{
    r.conf[0].local_ip = 0x0A090909u; /* 10.9.9.9: on no port */
    rig_apply(&r);
    run_for(5 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_DOWN);
    ck_assert_int_eq(cause(0), FCIP_CAUSE_SRC_UNBOUND);
    r.conf[0].local_ip = IP1;
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
}
END_TEST

START_TEST(port_vsan_mismatch_isolates_both_ends)
{
    for (int i = 0; i < 2; i++)
        r.conf[i].trunk = FCIP_TRUNK_OFF;
    r.conf[1].port_vsan = 20;
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, NULL), FCIP_ISOLATED);
        ck_assert_int_eq(cause(i), FCIP_CAUSE_PORT_VSAN);
    }
    r.conf[1].port_vsan = 1;
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_UP);
    ck_assert_int_eq(cause(0), FCIP_CAUSE_NONE);
}
END_TEST

/* Case P: with time-stamp on, frames stamped further than acceptable-diff
 * from the receiver's clock are discarded and counted; the link
 * parameters among them isolate both ends (ELP failure); clocks brought
 * back together, the parameters cross again and the link trunks. */
/* MDS2's clock set `ahead` of the lab's, which both ends know to be
 * lab_ns ahead of lab time from the capture epoch; MDS1's never set. */
static void set_clock(int64_t lab_ns, int64_t ahead)
{
    for (int i = 0; i < 2; i++)
        r.conf[i].lab_clock_ns = r.conf[i].clock_ns = lab_ns;
    r.conf[1].clock_set = true;
    r.conf[1].clock_ns = lab_ns + ahead;
}

START_TEST(time_stamps_apart_isolate_both_ends)
{
    r.conf[0].time_stamp = true;
    r.conf[0].ts_diff_ms = 2000;
    set_clock(0, 600 * (int64_t)ENGINE_NS_PER_SEC); /* MDS2 10 minutes ahead */
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    struct fcip_status st;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_ISOLATED);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_ELP);
        ck_assert_int_eq(st.nconn_up, 2); /* TCP stays up */
    }
    rig_state(&r, 0, &st);
    ck_assert_uint_ge(st.ts_errors, 1);
    rig_state(&r, 1, &st);
    ck_assert_uint_eq(st.ts_errors, 0); /* MDS2 does not check */
    set_clock(0, 1900 * (int64_t)ENGINE_NS_PER_MS); /* within 2000 ms, transit included */
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(rig_state(&r, i, NULL), FCIP_TRUNKING);
    set_clock(0, -2100 * (int64_t)ENGINE_NS_PER_MS); /* behind counts too */
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(rig_state(&r, i, NULL), FCIP_ISOLATED);
    r.conf[0].time_stamp = false; /* nobody checks: up again */
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(rig_state(&r, i, NULL), FCIP_TRUNKING);
}
END_TEST

/* A clock never set reads the lab's, wherever the lab's is (the wall
 * clock's second the lab opened in), though it stamps 0: MDS2 set 1.9 s
 * ahead of it passes both ends' checks, 10 minutes ahead does not. */
START_TEST(an_unset_clock_reads_the_labs)
{
    const int64_t lab_ns = 86400LL * 1000 * (int64_t)ENGINE_NS_PER_SEC; /* 1000 days after the epoch */
    for (int i = 0; i < 2; i++) {
        r.conf[i].time_stamp = true;
        r.conf[i].ts_diff_ms = 2000;
    }
    set_clock(lab_ns, 1900 * (int64_t)ENGINE_NS_PER_MS);
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(rig_state(&r, i, NULL), FCIP_TRUNKING);
    set_clock(lab_ns, 600 * (int64_t)ENGINE_NS_PER_SEC);
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(rig_state(&r, i, NULL), FCIP_ISOLATED);
}
END_TEST

/* The FCIP header's time stamp (NTP seconds, word 4) is the sender's
 * clock: lab time from the capture epoch, plus its offset. */
START_TEST(stamps_carry_the_senders_clock)
{
    struct fc_frame f;
    memset(&f, 0, sizeof f);
    f.kind = FC_FCP_RSP;
    f.carrier_len = FCIP_ENCAP_BYTES + FC_HDR_BYTES;
    f.carrier_at = 1500 * ENGINE_NS_PER_MS;
    uint8_t b[16];
    fcip_wire_render(&f, 16, b, 8);
    uint32_t sec = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    uint32_t frac = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 8 | b[7];
    ck_assert_uint_eq(sec, (uint32_t)(2208988800ULL + CAPTURE_EPOCH_S + 1));
    ck_assert_uint_eq(frac, 0x80000000u);
    f.carrier_clock_set = true;
    f.carrier_clock_ns = 600 * (int64_t)ENGINE_NS_PER_SEC;
    fcip_wire_render(&f, 16, b, 8);
    sec = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    ck_assert_uint_eq(sec, (uint32_t)(2208988800ULL + CAPTURE_EPOCH_S + 601));
}
END_TEST

START_TEST(both_passive_stay_not_connected)
{
    r.conf[0].passive = r.conf[1].passive = true;
    rig_apply(&r);
    run_for(30 * ENGINE_NS_PER_SEC);
    for (int i = 0; i < 2; i++) {
        struct fcip_status st;
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_DOWN);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_NOT_CONNECTED);
        ck_assert_uint_eq(st.attempts, 0);
    }
}
END_TEST

/* Every change is told once, in order, with its cause. */
START_TEST(changes_are_told_as_they_happen)
{
    rig_apply(&r);
    run_for(ENGINE_NS_PER_SEC);
    int up = ch.n;
    ck_assert_int_ge(up, 2);
    ck_assert_int_eq(ch.c[up - 1].to, FCIP_TRUNKING);
    rig_source_admin(&r, false);
    ck_assert_int_eq(ch.n, up + 1);
    ck_assert_int_eq(ch.c[up].sw, 0);
    ck_assert_int_eq(ch.c[up].from, FCIP_TRUNKING);
    ck_assert_int_eq(ch.c[up].to, FCIP_DOWN);
    ck_assert_int_eq(ch.c[up].cause, FCIP_CAUSE_SRC_ADMIN_DOWN);
    run_for(ENGINE_NS_PER_SEC);
    ck_assert_int_eq(ch.n, up + 1); /* nothing new while it stays down */
}
END_TEST

/* shut / no shut of the interface, then of its source port, all at one
 * instant: each bounce is seen, and the tunnel comes back. */
START_TEST(bounces_at_one_instant_come_back)
{
    rig_apply(&r);
    run_for(ENGINE_NS_PER_SEC);
    r.conf[0].admin_up = false;
    rig_apply(&r);
    r.conf[0].admin_up = true;
    rig_apply(&r);
    rig_source_admin(&r, false);
    rig_source_admin(&r, true);
    run_for(10 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
    ck_assert_int_eq(rig_state(&r, 1, NULL), FCIP_TRUNKING);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fcip_failures");
    TCase *tc = tcase_create("failures");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, source_shut_takes_the_local_end_down_at_once);
    tcase_add_test(tc, shut_fcip_reads_closed_by_peer);
    tcase_add_test(tc, unbound_source_binds_when_fixed);
    tcase_add_test(tc, port_vsan_mismatch_isolates_both_ends);
    tcase_add_test(tc, both_passive_stay_not_connected);
    tcase_add_test(tc, time_stamps_apart_isolate_both_ends);
    tcase_add_test(tc, an_unset_clock_reads_the_labs);
    tcase_add_test(tc, stamps_carry_the_senders_clock);
    tcase_add_test(tc, changes_are_told_as_they_happen);
    tcase_add_test(tc, bounces_at_one_instant_come_back);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
