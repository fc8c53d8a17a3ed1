/* The IP Network Simulator commands against the store: what a typed
 * command leaves in netsim_pair / netsim_ingress as the pipe will take it,
 * what a rejected one leaves (nothing), roles, the feature gate, reset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "session.h"
#include "lab/lab.h"
#include "feature.h"
#include "netsim/netsim.h"
#include "sanext/sanext.h"

#include "lab_fixture.h"

/* Runs one line as `role` on MDS1; returns its status, error in *err. */
static int exec_as(enum role role, const char *line, char *err, size_t n)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    s.role = role;
    int rc = session_exec(&s, line);
    if (err)
        snprintf(err, n, "%s", s.last_error);
    session_free(&s);
    return rc;
}

static void ok(const char *line)
{
    char err[128];
    ck_assert_msg(exec_as(ROLE_ADMIN, line, err, sizeof err) == 0, "'%s' failed: %s", line, err);
}

static void fails(const char *line, const char *want)
{
    char err[128];
    ck_assert_msg(exec_as(ROLE_ADMIN, line, err, sizeof err) != 0, "'%s' succeeded", line);
    ck_assert_str_eq(err, want);
}

static void enable_feature(void)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    ck_assert_int_eq(session_exec(&s, "configure terminal"), 0);
    ck_assert_int_eq(session_exec(&s, "san-ext-tuner enable"), 0);
    ck_assert_int_eq(session_exec(&s, "end"), 0);
    session_free(&s);
}

START_TEST(test_units_reach_the_pipe_config)
{
    enable_feature();
    ok("ips netsim enable interface g2/3 g2/4");
    ok("ips netsim delay-ms 100 ingress g2/3");
    ok("ips netsim max-bandwidth-mbps 10 ingress g2/3");
    ok("ips netsim qsize 250 ingress g2/3");
    ok("ips netsim drop nth 200 burst 3 ingress g2/3");
    ok("ips netsim drop random 100 ingress g2/3");
    ok("ips netsim reorder random 25 distance 4 ingress g2/3");
    netsim_pipe_config c;
    netsim_config_load(lab, 0, 2, 3, &c);
    ck_assert(c.delay_set && c.delay_ns == 100000000u);
    ck_assert(c.rate_set && c.rate_bps == 10000000u);
    ck_assert(c.qsize_set && c.qsize_bytes == 250000u);
    ck_assert(c.drop_nth_set && c.drop_nth == 200 && c.drop_nth_burst == 3);
    ck_assert(c.drop_random_set && c.drop_random == 100 && c.drop_random_burst == 1);
    ck_assert(c.reorder_set && c.reorder_mode == NETSIM_REORDER_RANDOM && c.reorder_value == 25 &&
              c.reorder_distance == 4);
    ck_assert_int_eq(netsim_pipe_config_check(&c), 0);
    /* the other direction is untouched */
    netsim_config_load(lab, 0, 2, 4, &c);
    ck_assert(!c.delay_set && !c.rate_set && !c.qsize_set && !c.drop_nth_set && !c.drop_random_set &&
              !c.reorder_set);
    /* the other unit of the same knob replaces it; `no` clears it */
    ok("ips netsim delay-us 1500 ingress g2/3");
    ok("ips netsim max-bandwidth-kbps 1500 ingress g2/3");
    netsim_config_load(lab, 0, 2, 3, &c);
    ck_assert(c.delay_ns == 1500000u && c.rate_bps == 1500000u);
    ok("no ips netsim delay-ms ingress g2/3");
    ok("no ips netsim drop nth 5 ingress g2/3");
    ok("no ips netsim reorder ingress g2/3");
    netsim_config_load(lab, 0, 2, 3, &c);
    ck_assert(!c.delay_set && !c.drop_nth_set && !c.reorder_set);
    ck_assert(c.rate_set && c.qsize_set && c.drop_random_set);
}
END_TEST

START_TEST(test_rejected_commands_change_nothing)
{
    enable_feature();
    ok("ips netsim enable interface g2/3 g2/4");
    fails("ips netsim enable interface g2/5 g2/3", "% Interface GigabitEthernet2/3 is already in network simulator mode");
    ck_assert(!netsim_paired(lab, 0, 2, 5, NULL, NULL));
    fails("ips netsim enable interface g2/5 g2/5", "% Network simulator needs two different interfaces");
    fails("ips netsim enable interface g2/5 g3/1", "% Invalid interface format");
    ck_assert(!netsim_paired(lab, 0, 2, 5, NULL, NULL));
    fails("ips netsim qsize 10 ingress g2/5", "% Network simulator is not enabled on interface GigabitEthernet2/5");
    fails("ips netsim qsize 1001 ingress g2/3", "% Invalid number, range is (1:1000)");
    netsim_pipe_config c;
    netsim_config_load(lab, 0, 2, 3, &c);
    ck_assert(!c.qsize_set);
    int ps, pp;
    ck_assert(netsim_paired(lab, 0, 2, 4, &ps, &pp));
    ck_assert_int_eq(ps, 2);
    ck_assert_int_eq(pp, 3);
}
END_TEST

START_TEST(test_operator_may_look_not_touch)
{
    enable_feature();
    ok("ips netsim enable interface g2/3 g2/4");
    char err[128];
    const char *const denied[] = {
        "ips netsim enable interface g2/5 g2/6", "no ips netsim enable interface g2/3 g2/4",
        "ips netsim delay-ms 10 ingress g2/3",   "no ips netsim delay-ms ingress g2/3",
        "clear ips stats netsim ingress g2/3",
    };
    for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++) {
        ck_assert_msg(exec_as(ROLE_OPERATOR, denied[i], err, sizeof err) != 0, "%s", denied[i]);
        ck_assert_str_eq(err, "% Permission denied");
    }
    ck_assert(netsim_paired(lab, 0, 2, 3, NULL, NULL) && !netsim_paired(lab, 0, 2, 5, NULL, NULL));
    ck_assert_int_eq(exec_as(ROLE_OPERATOR, "show ips netsim", err, sizeof err), 0);
    ck_assert_int_eq(exec_as(ROLE_OPERATOR, "show ips stats netsim ingress g2/3", err, sizeof err), 0);
}
END_TEST

START_TEST(test_disable_and_reset_forget)
{
    enable_feature();
    ok("ips netsim enable interface g2/3 g2/4");
    ok("ips netsim delay-ms 10 ingress g2/4");
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    ck_assert_int_eq(session_exec(&s, "configure terminal"), 0);
    ck_assert_int_eq(session_exec(&s, "no san-ext-tuner enable"), 0);
    ck_assert(!netsim_paired(lab, 0, 2, 3, NULL, NULL));
    netsim_pipe_config c;
    netsim_config_load(lab, 0, 2, 4, &c);
    ck_assert(!c.delay_set);
    /* the commands are gone with the feature */
    ck_assert_int_ne(session_exec(&s, "do ips netsim enable interface g2/3 g2/4"), 0);
    ck_assert_str_eq(s.last_error, "% Invalid command at '^' marker.");
    ck_assert_int_eq(session_exec(&s, "san-ext-tuner enable"), 0);
    ck_assert_int_eq(session_exec(&s, "do ips netsim enable interface g2/3 g2/4"), 0);
    session_free(&s);
    lab_factory_reset(lab, 0);
    ck_assert(!netsim_paired(lab, 0, 2, 3, NULL, NULL));
    ck_assert(!lab_feature_enabled(lab, 0, &sanext_gate));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("netsim_cmds");
    TCase *tc = tcase_create("store");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_units_reach_the_pipe_config);
    tcase_add_test(tc, test_rejected_commands_change_nothing);
    tcase_add_test(tc, test_operator_may_look_not_touch);
    tcase_add_test(tc, test_disable_and_reset_forget);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
