/* Default zoning in the fabric engine: two N ports logged in on one
 * switch exchange nothing in a VSAN whose default zone denies (counted in
 * zone_drops), everything once it permits, and the domain controller
 * still answers ELS ECHO (fcping) under deny. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "engine/engine.h"
#include "fabric/fabric.h"

static int received[2];

static void rx(void *ctx, struct fc_frame *f)
{
    struct fabric *fab = *(struct fabric **)ctx;
    received[((struct fabric **)ctx)[1] != NULL]++;
    fabric_frame_free(fab, f);
}

static struct fc_frame *frame(struct fabric *fab, uint32_t from, uint32_t to, int vsan)
{
    struct fc_frame *f = fabric_frame_new(fab);
    f->s_id = from;
    f->d_id = to;
    f->vsan = (uint16_t)vsan;
    f->kind = FC_FCP_DATA;
    f->payload = 512;
    return f;
}

/* Sets built without vsan_set_add, whose signature differs between the
 * fabric's and the vsan database's set: none, all, and VSAN 2 alone
 * (checked through vsan_set_has, so a layout it misreads fails here). */
static struct vsan_set filled(int byte)
{
    struct vsan_set s;
    memset(&s, byte, sizeof s);
    return s;
}

static struct vsan_set vsan2_only(void)
{
    struct vsan_set s = filled(0);
    ((unsigned char *)&s)[0] = 1u << 2;
    ck_assert(vsan_set_has(&s, 2) && !vsan_set_has(&s, 1) && !vsan_set_has(&s, 3));
    return s;
}

START_TEST(test_default_zone_deny_then_permit)
{
    static const uint8_t w1[8] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11};
    static const uint8_t w2[8] = {0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22};
    engine_t *e = engine_new(1);
    struct fabric *fab = fabric_new(e, 2);
    struct vsan_set all = filled(0xff), none = filled(0), v2 = vsan2_only();
    void *ctx1[2] = {fab, NULL}, *ctx2[2] = {fab, fab};
    received[0] = received[1] = 0;
    uint32_t a = fabric_login(fab, 0, 1, w1, rx, ctx1);
    uint32_t b = fabric_login(fab, 0, 1, w2, rx, ctx2);
    ck_assert_uint_ne(a, 0);
    ck_assert_uint_ne(b, 0);
    struct fabric_stats st;

    /* deny, the default: dropped both ways */
    fabric_send(fab, 0, frame(fab, a, b, 1));
    fabric_send(fab, 0, frame(fab, b, a, 1));
    engine_run_until(e, engine_now(e) + 1000000000ull);
    fabric_stats_get(fab, &st);
    ck_assert_int_eq(received[0] + received[1], 0);
    ck_assert_uint_eq(st.zone_drops, 2);
    ck_assert_uint_eq(st.delivered, 0);

    /* permitted in another VSAN only: still dropped */
    fabric_set_zone_permit(fab, 0, &v2);
    fabric_send(fab, 0, frame(fab, a, b, 1));
    engine_run_until(e, engine_now(e) + 1000000000ull);
    fabric_stats_get(fab, &st);
    ck_assert_uint_eq(st.zone_drops, 3);

    /* permit (every VSAN): delivered */
    fabric_set_zone_permit(fab, 0, &all);
    fabric_send(fab, 0, frame(fab, a, b, 1));
    fabric_send(fab, 0, frame(fab, b, a, 1));
    engine_run_until(e, engine_now(e) + 1000000000ull);
    fabric_stats_get(fab, &st);
    ck_assert_int_eq(received[0], 1);
    ck_assert_int_eq(received[1], 1);
    ck_assert_uint_eq(st.zone_drops, 3);
    ck_assert_uint_eq(st.delivered, 2);

    /* back to deny (`no zone default-zone permit vsan 1`) */
    fabric_set_zone_permit(fab, 0, &none);
    fabric_send(fab, 0, frame(fab, a, b, 1));
    engine_run_until(e, engine_now(e) + 1000000000ull);
    fabric_stats_get(fab, &st);
    ck_assert_uint_eq(st.zone_drops, 4);
    ck_assert_int_eq(received[1], 1);
    fabric_free(fab);
    engine_free(e);
}
END_TEST

/* The domain controller is no zone member: fcping works under deny. */
START_TEST(test_domain_controller_not_zoned)
{
    engine_t *e = engine_new(1);
    struct fabric *fab = fabric_new(e, 1);
    struct fabric_echo echo = {.vsan = 1, .d_id = FC_DOMAIN_CONTROLLER(FABRIC_FIRST_DOMAIN), .count = 1,
                               .size = 28, .timeout_ns = 1000000000ull};
    ck_assert_int_ge(fabric_echo_start(fab, 0, &echo), 0);
    ck_assert_uint_ne(fabric_echo_wait(fab, &echo, 0), UINT64_MAX);
    fabric_echo_end(fab, &echo);
    struct fabric_stats st;
    fabric_stats_get(fab, &st);
    ck_assert_uint_eq(st.zone_drops, 0);
    fabric_free(fab);
    engine_free(e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("zone");
    TCase *t = tcase_create("default-zone");
    tcase_add_test(t, test_default_zone_deny_then_permit);
    tcase_add_test(t, test_domain_controller_not_zoned);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
