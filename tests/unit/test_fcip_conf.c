/* The FCIP and VSAN configuration API the engine reads (fcip.h, vsan.h):
 * values in engine units, defaults, the allowed-VSAN set, port VSANs, and
 * VSAN lists parsed and printed. */
#include <stdio.h>
#include <string.h>
#include "session.h"
#include "lab/lab.h"
#include "fcip/fcip.h"
#include "vsan/vsan.h"
#include "feature.h"

#include "lab_fixture.h"

static void run(struct session *s, const char *line)
{
    ck_assert_msg(session_exec(s, line) == 0, "'%s' failed: %s", line, s->last_error);
}

static void run_all(struct session *s, const char *const *lines)
{
    for (; *lines; lines++)
        run(s, *lines);
}

static const char *const base[] = {
    "configure terminal", "feature fcip", "interface gigabitethernet 2/2", "ip address 192.168.10.1 255.255.255.0",
    "fcip profile 1", "ip address 192.168.10.1", NULL,
};

START_TEST(test_profile_defaults_and_units)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    run_all(&s, base);
    struct fcip_profile_conf c;
    ck_assert(fcip_profile_get(lab, 0, 1, &c));
    ck_assert(c.has_ip && c.ip == 0xc0a80a01u);
    ck_assert_int_eq(c.port, 3225);
    ck_assert_int_eq(c.keepalive_s, 60);
    ck_assert_int_eq(c.max_retrans, 4);
    ck_assert_int_eq(c.min_rto_ms, 200);
    ck_assert(c.pmtu && c.sack && c.cwm);
    ck_assert_int_eq(c.pmtu_reset_s, 3600);
    ck_assert_uint_eq(c.max_bw_kbps, 1000000);
    ck_assert_uint_eq(c.min_bw_kbps, 500000);
    ck_assert_uint_eq(c.rtt_us, 1000);
    ck_assert_uint_eq(c.cwm_burst_bytes, 50 * 1024);
    ck_assert_uint_eq(c.max_jitter_us, 1000);
    ck_assert_uint_eq(c.send_buf_bytes, 0);
    run(&s, "tcp max-bandwidth-mbps 10 min-available-bandwidth-mbps 5 round-trip-time-ms 200");
    run(&s, "tcp cwm burstsize 30");
    run(&s, "tcp send-buffer-size 100");
    run(&s, "no tcp sack-enable");
    fcip_profile_get(lab, 0, 1, &c);
    ck_assert_uint_eq(c.max_bw_kbps, 10000);
    ck_assert_uint_eq(c.min_bw_kbps, 5000);
    ck_assert_uint_eq(c.rtt_us, 200000);
    ck_assert_uint_eq(c.cwm_burst_bytes, 30 * 1024);
    ck_assert_uint_eq(c.send_buf_bytes, 100 * 1024);
    ck_assert(!c.sack);
    /* refused: min above max changes nothing */
    ck_assert_int_ne(session_exec(&s, "tcp max-bandwidth-kbps 2000 min-available-bandwidth-kbps 3000 "
                                      "round-trip-time-us 5"), 0);
    fcip_profile_get(lab, 0, 1, &c);
    ck_assert_uint_eq(c.max_bw_kbps, 10000);
    ck_assert_uint_eq(c.rtt_us, 200000);
    ck_assert(!fcip_profile_get(lab, 0, 2, &c));
    ck_assert(!fcip_profile_get(lab, 1, 1, &c)); /* the other switch */
    session_free(&s);
}
END_TEST

static void collect(void *ctx, const struct fcip_if_conf *c)
{
    int *ids = ctx;
    ids[++ids[0]] = c->id;
}

START_TEST(test_interface_conf)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    run_all(&s, base);
    const char *const lines[] = {"interface fcip 7", "interface fcip 2", "use-profile 1",
                                 "peer-info ipaddr 192.168.10.2 port 3300", "passive-mode", "tcp-connections 1",
                                 "ip-compression mode2", "write-accelerator tape-accelerator",
                                 "time-stamp acceptable-diff 700", "switchport trunk mode auto",
                                 "switchport trunk allowed vsan 1-10,100", "switchport description to DR",
                                 "no shutdown", NULL};
    run_all(&s, lines);
    struct fcip_if_conf c;
    ck_assert(fcip_if_get(lab, 0, 7, &c)); /* all defaults */
    ck_assert_int_eq(c.profile, 0);
    ck_assert(!c.has_peer && !c.passive && c.shutdown && !c.write_acc && !c.time_stamp);
    ck_assert_int_eq(c.peer_port, 3225);
    ck_assert_int_eq(c.tcp_connections, 2);
    ck_assert_int_eq(c.compression, FCIP_COMP_OFF);
    ck_assert_int_eq(c.trunk_mode, FCIP_TRUNK_ON);
    ck_assert(vsan_set_has(&c.allowed, 1) && vsan_set_has(&c.allowed, 4093));
    ck_assert(!vsan_set_has(&c.allowed, 0) && !vsan_set_has(&c.allowed, 4094));
    ck_assert(fcip_if_get(lab, 0, 2, &c));
    ck_assert_int_eq(c.profile, 1);
    ck_assert(c.has_peer && c.peer_ip == 0xc0a80a02u);
    ck_assert_int_eq(c.peer_port, 3300);
    ck_assert(c.passive && !c.shutdown && c.write_acc && c.tape_acc && c.time_stamp);
    ck_assert_int_eq(c.tcp_connections, 1);
    ck_assert_int_eq(c.compression, FCIP_COMP_MODE2);
    ck_assert_int_eq(c.ts_diff_ms, 700);
    ck_assert_int_eq(c.trunk_mode, FCIP_TRUNK_AUTO);
    ck_assert(vsan_set_has(&c.allowed, 10) && vsan_set_has(&c.allowed, 100));
    ck_assert(!vsan_set_has(&c.allowed, 11) && !vsan_set_has(&c.allowed, 4093));
    ck_assert_str_eq(c.description, "to DR");
    int ids[8] = {0};
    fcip_ifs_each(lab, 0, collect, ids);
    ck_assert_int_eq(ids[0], 2);
    ck_assert_int_eq(ids[1], 2);
    ck_assert_int_eq(ids[2], 7);
    ck_assert_int_eq(fcip_if_count(lab, 0), 2);
    ck_assert(!fcip_if_get(lab, 0, 3, &c));
    session_free(&s);
}
END_TEST

START_TEST(test_port_vsan)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    s.dont_ask = true;
    run_all(&s, base);
    const char *const lines[] = {"interface fcip 1", "vsan database", "vsan 10", "vsan 10 interface fcip1", NULL};
    run_all(&s, lines);
    ck_assert(vsan_exists(lab, 0, 1) && vsan_exists(lab, 0, 10) && vsan_exists(lab, 0, 4094));
    ck_assert(!vsan_exists(lab, 0, 11) && !vsan_exists(lab, 1, 10));
    ck_assert_int_eq(vsan_port_vsan(lab, 0, "fcip1"), 10);
    ck_assert_int_eq(vsan_port_vsan(lab, 0, "fcip2"), 1);
    run(&s, "no vsan 10");
    ck_assert_int_eq(vsan_port_vsan(lab, 0, "fcip1"), VSAN_ISOLATED);
    run(&s, "no interface fcip 1"); /* the membership goes with the interface */
    run(&s, "interface fcip 1");
    ck_assert_int_eq(vsan_port_vsan(lab, 0, "fcip1"), 1);
    session_free(&s);
}
END_TEST

/* The saved configuration comes back whole after reload, through the
 * parser; `write erase` + reload leaves no FCIP or VSAN row behind. */
START_TEST(test_reload)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    s.dont_ask = true;
    run_all(&s, base);
    const char *const lines[] = {"interface fcip 4", "use-profile 1", "switchport trunk allowed vsan 5-6",
                                 "vsan database", "vsan 5 name five", "vsan 5 interface fcip4", "end",
                                 "copy running-config startup-config", "reload", NULL};
    run_all(&s, lines);
    struct fcip_if_conf c;
    ck_assert(fcip_if_get(lab, 0, 4, &c));
    ck_assert_int_eq(c.profile, 1);
    ck_assert(vsan_set_has(&c.allowed, 6) && !vsan_set_has(&c.allowed, 7));
    ck_assert_int_eq(vsan_port_vsan(lab, 0, "fcip4"), 5);
    run(&s, "write erase");
    run(&s, "reload");
    ck_assert(!fcip_if_get(lab, 0, 4, &c));
    ck_assert(!vsan_exists(lab, 0, 5));
    ck_assert_int_eq(vsan_port_vsan(lab, 0, "fcip4"), 1);
    ck_assert(!lab_feature_enabled(lab, 0, &fcip_gate));
    session_free(&s);
}
END_TEST

static void fmt(const char *in, const char *want)
{
    struct vsan_set v;
    ck_assert_msg(vsan_set_parse(&v, in), "%s refused", in);
    strbuf b;
    sb_init(&b);
    vsan_set_format(&v, &b);
    ck_assert_str_eq(sb_str(&b), want);
    sb_free(&b);
}

START_TEST(test_vsan_lists)
{
    fmt("", "");
    fmt("1-4093", "1-4093");
    fmt("5,1,2,3", "1-3,5");
    fmt("10-20,15-25,4093", "10-25,4093");
    fmt("7-7", "7");
    static const char *const bad[] = {"0", "4094", "1-", "-1", ",1", "1,", "1,,2", "5-3", "a", "1-2-3",
                                      "99999999999", "1 2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct vsan_set v;
        ck_assert_msg(!vsan_set_parse(&v, bad[i]), "%s accepted", bad[i]);
    }
    bool range = false;
    ck_assert(!arg_rangelist_each("1,4094", 6, 1, 4093, &range, NULL, NULL) && range);
    range = false;
    ck_assert(!arg_rangelist_each("5-3", 3, 1, 4093, &range, NULL, NULL) && !range);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fcip_conf");
    TCase *tc = tcase_create("fcip_conf");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_profile_defaults_and_units);
    tcase_add_test(tc, test_interface_conf);
    tcase_add_test(tc, test_port_vsan);
    tcase_add_test(tc, test_vsan_lists);
    tcase_add_test(tc, test_reload);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
