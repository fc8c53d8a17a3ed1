/* Zoning in the fabric engine (docs/zoning.md, mds-cli-15-failures.md
 * case K), on the two-switch rig and virtual time: an active zoneset lets
 * two N ports talk only when a zone holds both (by pWWN or FCID), the
 * default zone's policy for ports in no zone; activation reaches the
 * switches of the VSAN; an ISL coming up merges the two sides (one empty
 * or both equal: the union on both), and a zone of one name with other
 * members isolates the VSAN on the link (a trunk stays up, an E port goes
 * down) until the fix and a new bring-up. */
#include <check.h>
#include <stdio.h>
#include "fcip_rig.h"
#include "fabric/zoning.h"

static struct rig r;
static struct rig_changes ch;
static const uint8_t IW[8] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11}; /* the rig's initiator */
static const uint8_t TW[8] = {0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22}; /* ... and target */
static const uint8_t XW[8] = {0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33};

static void setup(void)
{
    rig_init(&r, 1, 0, 1500);
    rig_record_changes(&r, &ch);
}

static void teardown(void) { rig_free(&r); }

static void run_for(uint64_t ns) { engine_run_until(r.e, engine_now(r.e) + ns); }

static void deny_default(void)
{
    struct vsan_set none;
    memset(&none, 0, sizeof none);
    fabric_set_zone_permit(r.fab, 0, &none);
    fabric_set_zone_permit(r.fab, 1, &none);
}

/* A zoneset of one zone with the given pWWNs (n of them). */
static struct zoneset_db *one_zone(const char *set, const char *zone, const uint8_t *const *wwns, int n)
{
    struct zoneset_db *db = zs_new(set);
    int z = zs_zone(db, zone);
    for (int i = 0; i < n; i++) {
        struct zs_member m = {false, 0, {0}};
        memcpy(m.pwwn, wwns[i], 8);
        zs_add(db, z, &m);
    }
    zs_canon(db);
    return db;
}

static void activate(int sw, struct zoneset_db *db)
{
    fabric_zoning_activate(r.fab, sw, 1, db);
    zs_free(db);
}

static uint64_t io_for(struct io_src *s, uint64_t ns)
{
    uint64_t before = s->done;
    run_for(ns);
    return s->done - before;
}

/* Zoned together, the I/O flows; the zone activated again with a third
 * port instead of the target, it stops (the initiator is zoned, not with
 * its peer); the target's FCID added, activated from MDS2, it flows. */
START_TEST(enforcement_by_pwwn_and_fcid)
{
    deny_default();
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    const uint8_t *both[2] = {IW, TW};
    activate(0, one_zone("S", "Z", both, 2));
    ck_assert_ptr_nonnull(fabric_zoning_active(r.fab, 1, 1)); /* distributed across the up link */
    struct io_src s;
    io_start(&s, &r, false, 65536, 2);
    ck_assert_uint_gt(io_for(&s, ENGINE_NS_PER_SEC), 10);
    const uint8_t *other[2] = {IW, XW};
    activate(0, one_zone("S", "Z", other, 2));
    run_for(ENGINE_NS_PER_SEC / 10); /* what was under way finishes */
    ck_assert_uint_eq(io_for(&s, ENGINE_NS_PER_SEC), 0);
    struct fabric_stats fs;
    fabric_stats_get(r.fab, &fs);
    ck_assert_uint_gt(fs.zone_drops, 0);
    /* by FCID: the target's address in the zone brings it back */
    struct zoneset_db *db = one_zone("S", "Z", other, 2);
    struct zs_member m = {true, s.targ_fcid, {0}};
    zs_add(db, 0, &m);
    zs_canon(db);
    activate(1, db); /* from MDS2 this time: it reaches MDS1 too */
    ck_assert_int_eq(fabric_zoning_active(r.fab, 0, 1)->z[0].n, 3);
    fabric_send(r.fab, 0, io_frame(&s, 0, FC_FCP_CMND, 0, 32)); /* the stalled I/Os' tags start again */
    fabric_send(r.fab, 0, io_frame(&s, 0, FC_FCP_CMND, 1, 32));
    ck_assert_uint_gt(io_for(&s, ENGINE_NS_PER_SEC), 10);
}
END_TEST

/* Ports in no active zone follow the default zone's policy. */
START_TEST(default_zone_for_ports_in_no_zone)
{
    rig_apply(&r); /* the rig permits by default */
    run_for(3 * ENGINE_NS_PER_SEC);
    const uint8_t *others[1] = {XW};
    activate(0, one_zone("S", "Z", others, 1));
    struct io_src s;
    io_start(&s, &r, false, 65536, 2);
    ck_assert_uint_gt(io_for(&s, ENGINE_NS_PER_SEC), 10);
    deny_default();
    run_for(ENGINE_NS_PER_SEC / 10);
    ck_assert_uint_eq(io_for(&s, ENGINE_NS_PER_SEC), 0);
}
END_TEST

/* MDS1 alone has an active zoneset: the link up, MDS2 has it too. Two
 * zonesets with zones of different names: the union, under the greater
 * name, on both. */
START_TEST(merge_takes_the_union)
{
    const uint8_t *both[2] = {IW, TW};
    activate(0, one_zone("A_set", "Z1", both, 2));
    ck_assert_ptr_null(fabric_zoning_active(r.fab, 1, 1)); /* no link yet */
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    ck_assert_int_eq(rig_state(&r, 0, NULL), FCIP_TRUNKING);
    const struct zoneset_db *b = fabric_zoning_active(r.fab, 1, 1);
    ck_assert_ptr_nonnull(b);
    ck_assert(zs_equal(b, fabric_zoning_active(r.fab, 0, 1)));
    ck_assert(b->merged);
    ck_assert(!fabric_zoning_active(r.fab, 0, 1)->merged); /* MDS1 kept its own */

    rig_free(&r);
    setup();
    activate(0, one_zone("A_set", "Z1", both, 2));
    const uint8_t *x[1] = {XW};
    activate(1, one_zone("B_set", "Z2", x, 1));
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    struct fcip_status st;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_TRUNKING);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_NONE);
        const struct zoneset_db *u = fabric_zoning_active(r.fab, i, 1);
        ck_assert_str_eq(u->name, "B_set");
        ck_assert_int_eq(u->nzones, 2);
        ck_assert_str_eq(u->z[0].name, "Z1");
        ck_assert_str_eq(u->z[1].name, "Z2");
    }
}
END_TEST

/* Case K on a trunk: zone Z with other members at each end. The trunk
 * comes up with VSAN 1 isolated at both ends, told with the zone conflict;
 * each side keeps its own zoneset; no I/O crosses. MDS2 deactivates and
 * the link is brought up again (shut / no shut): MDS2 takes MDS1's. */
START_TEST(conflict_isolates_the_vsan_on_a_trunk)
{
    const uint8_t *mine[2] = {IW, TW};
    const uint8_t *theirs[2] = {IW, XW};
    activate(0, one_zone("S", "Z", mine, 2));
    activate(1, one_zone("S", "Z", theirs, 2));
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    struct fcip_status st;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_TRUNKING);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_NOT_ALL_UP);
        ck_assert(!vsan_set_has(&st.up, 1));
        ck_assert(vsan_set_has(&st.isolated, 1));
    }
    ck_assert(vsan_set_has(ch.c[ch.n - 1].zone_conflict, 1));
    ck_assert(!vsan_set_has(ch.c[ch.n - 1].overlap, 1));
    ck_assert(!zs_equal(fabric_zoning_active(r.fab, 0, 1), fabric_zoning_active(r.fab, 1, 1)));
    struct io_src s;
    io_start(&s, &r, false, 65536, 2);
    ck_assert_uint_eq(io_for(&s, ENGINE_NS_PER_SEC), 0);

    fabric_zoning_activate(r.fab, 1, 1, NULL); /* `no zoneset activate` on MDS2 */
    ck_assert_int_eq(rig_state(&r, 0, &st), FCIP_TRUNKING);
    ck_assert(vsan_set_has(&st.isolated, 1)); /* still: the fix needs a new bring-up */
    rig_source_admin(&r, false);
    run_for(ENGINE_NS_PER_SEC);
    rig_source_admin(&r, true);
    run_for(30 * ENGINE_NS_PER_SEC);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_TRUNKING);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_NONE);
        ck_assert(vsan_set_has(&st.up, 1));
    }
    ck_assert(zs_equal(fabric_zoning_active(r.fab, 0, 1), fabric_zoning_active(r.fab, 1, 1)));
    fabric_send(r.fab, 0, io_frame(&s, 0, FC_FCP_CMND, 0, 32));
    ck_assert_uint_gt(io_for(&s, ENGINE_NS_PER_SEC), 5);
}
END_TEST

/* Non-trunking: the E port goes down isolated with the zone merge as its
 * reason, at both ends. */
START_TEST(conflict_isolates_an_e_port)
{
    for (int i = 0; i < 2; i++)
        r.conf[i].trunk = FCIP_TRUNK_OFF;
    const uint8_t *mine[1] = {IW};
    const uint8_t *theirs[1] = {TW};
    activate(0, one_zone("S1", "Z", mine, 1));
    activate(1, one_zone("S2", "Z", theirs, 1));
    rig_apply(&r);
    run_for(3 * ENGINE_NS_PER_SEC);
    struct fcip_status st;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rig_state(&r, i, &st), FCIP_ISOLATED);
        ck_assert_int_eq(st.cause, FCIP_CAUSE_ZONE_MERGE);
    }
}
END_TEST

/* The canonical form: order and duplicates do not make two zonesets
 * differ; the size counts as the reference's 84-byte example. */
START_TEST(canonical_form_and_size)
{
    const uint8_t *ab[3] = {IW, TW, IW};
    const uint8_t *ba[2] = {TW, IW};
    struct zoneset_db *x = one_zone("S", "Z", ab, 3), *y = one_zone("S", "Z", ba, 2);
    ck_assert(zs_equal(x, y));
    ck_assert_uint_eq(zs_hash(x), zs_hash(y));
    zs_free(x);
    zs_free(y);
    const uint8_t *four[4] = {IW, TW, XW, (const uint8_t *)"\x44\x44\x44\x44\x44\x44\x44\x44"};
    struct zoneset_db *ref = one_zone("Zoneset1", "Zone1", four, 4);
    ck_assert_uint_eq(zs_bytes(ref), 84);
    zs_free(ref);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("zoning");
    TCase *tc = tcase_create("zoning");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, enforcement_by_pwwn_and_fcid);
    tcase_add_test(tc, default_zone_for_ports_in_no_zone);
    tcase_add_test(tc, merge_takes_the_union);
    tcase_add_test(tc, conflict_isolates_the_vsan_on_a_trunk);
    tcase_add_test(tc, conflict_isolates_an_e_port);
    tcase_add_test(tc, canonical_form_and_size);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
