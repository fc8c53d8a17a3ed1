/* `?` and Tab offer the values the lab knows (value sources named in the
 * grammar, `<pid:1-255@fcip-profile>`), and a sub-mode whose object
 * another session deleted refuses its commands (mode checks): two
 * sessions on one lab, as two terminals would be. */
#include <stdio.h>
#include <string.h>
#include "session.h"
#include "lab/lab.h"
#include "fcip/fcip.h"
#include "fcip/fcip_store.h"
#include "zone/zone.h"
#include "sanext/sanext.h"
#include "match.h"

#include "lab_fixture.h"

static void run(struct session *s, const char *line)
{
    ck_assert_msg(session_exec(s, line) == 0, "'%s' failed: %s", line, s->last_error);
}

static void refused(struct session *s, const char *line, const char *error)
{
    ck_assert_msg(session_exec(s, line) != 0, "'%s' was accepted", line);
    ck_assert_str_eq(s->last_error, error);
}

static void open_session(struct session *s)
{
    session_init(s, lab, 0, (struct session_io){.write = capture});
}

/* The candidates of Tab after `line`, joined by spaces. */
static void complete(struct session *s, const char *line, char *buf, size_t n)
{
    char **v;
    int k = session_complete(s, line, &v);
    buf[0] = '\0';
    for (int i = 0; i < k; i++) {
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? " " : "", v[i]);
        free(v[i]);
    }
    free(v);
}

static void expect_complete(struct session *s, const char *line, const char *want)
{
    char got[2048];
    complete(s, line, got, sizeof got);
    ck_assert_msg(strcmp(got, want) == 0, "Tab after '%s': got \"%s\", want \"%s\"", line, got, want);
}

static const char *const fcip_setup[] = {
    "configure terminal", "feature fcip", "fcip profile 10", "fcip profile 2", "fcip profile 100",
    "interface fcip 3", "exit", "interface fcip 12", "end", NULL,
};

static void run_all(struct session *s, const char *const *lines)
{
    for (; *lines; lines++)
        run(s, *lines);
}

START_TEST(test_complete_fcip_profiles)
{
    struct session s;
    open_session(&s);
    run_all(&s, fcip_setup);
    run(&s, "configure terminal");
    expect_complete(&s, "fcip profile ", "2 10 100");
    expect_complete(&s, "fcip profile 1", "10 100");
    expect_complete(&s, "fcip profile 5", "");
    expect_complete(&s, "no fcip profile 10", "10 100");
    expect_complete(&s, "no fcip profile 2", "2");
    expect_complete(&s, "interface fcip ", "3 12");
    /* glued to its type, as the lexer splits it: the front-end completes
     * the whole word it sees */
    expect_complete(&s, "interface fcip1", "fcip12");
    /* a type typed in part: the interfaces the lab has, glued to it */
    expect_complete(&s, "no interface fcip", "fcip fcip3 fcip12");
    expect_complete(&s, "interface fc", "fcip fcip3 fcip12");
    expect_complete(&s, "interface ", "fcip gigabitethernet mgmt port-channel");
    run(&s, "interface fcip3");
    expect_complete(&s, "use-profile ", "2 10 100");
    expect_complete(&s, "no use-profile 1", "10 100");
    run(&s, "end");
    expect_complete(&s, "show interface fcip ", "3 12");
    /* completion offers, it does not restrict: a new id is taken */
    run(&s, "configure terminal");
    run(&s, "fcip profile 7");
    run(&s, "end");
    expect_complete(&s, "show fcip profile ", "all 2 7 10 100");
    session_free(&s);
}
END_TEST

START_TEST(test_help_lists_values)
{
    struct session s;
    open_session(&s);
    run_all(&s, fcip_setup);
    run(&s, "configure terminal");
    sb_clear(&out);
    session_help(&s, "fcip profile 1");
    ck_assert_str_eq(sb_str(&out), "  <1-255>  Enter profile id\n"
                                   "  10       Existing profile\n"
                                   "  100      Existing profile\n");
    session_free(&s);
}
END_TEST

/* However many objects the lab has, a list holds HELP_VALUES_MAX. */
START_TEST(test_values_bounded)
{
    struct session s;
    open_session(&s);
    run(&s, "configure terminal");
    run(&s, "feature fcip");
    char line[32];
    for (int i = 1; i <= 200; i++) {
        snprintf(line, sizeof line, "fcip profile %d", i);
        run(&s, line);
    }
    char **v;
    int n = session_complete(&s, "fcip profile ", &v);
    ck_assert_int_eq(n, HELP_VALUES_MAX);
    ck_assert_str_eq(v[0], "1");
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
    session_free(&s);
}
END_TEST

static const char *const sanext_setup[] = {
    "configure terminal", "san-ext-tuner enable", "end", "san-ext-tuner", "nwwn 10:00:00:00:00:00:00:00",
    "nport pwwn 11:11:11:11:11:11:11:11 vsan 100 interface g2/2", "exit",
    "nport pwwn 11:11:11:11:11:11:11:11 vsan 1 interface g2/2", "exit",
    "nport pwwn 22:22:22:22:22:22:22:22 vsan 5 interface g2/1", "exit", NULL,
};

START_TEST(test_complete_nports)
{
    struct session s;
    open_session(&s);
    run_all(&s, sanext_setup);
    expect_complete(&s, "nport pwwn ", "11:11:11:11:11:11:11:11 22:22:22:22:22:22:22:22");
    expect_complete(&s, "no nport pwwn 2", "22:22:22:22:22:22:22:22");
    expect_complete(&s, "no nport pwwn 11:11:11:11:11:11:11:11 vsan ", "1 100");
    expect_complete(&s, "nport pwwn 33:33:33:33:33:33:33:33 vsan ", "");
    sb_clear(&out);
    session_help(&s, "no nport pwwn 11:11:11:11:11:11:11:11 vsan 1");
    ck_assert_str_eq(sb_str(&out), "  <1-4093>  VSAN id\n"
                                   "  1         VSAN of an existing N port\n"
                                   "  100       VSAN of an existing N port\n");
    session_free(&s);
}
END_TEST

/* Another session deletes the profile this one configures: its commands
 * are refused, nothing is written (the profile is not brought back), the
 * prompt stays, exit and the parents' commands still work. */
START_TEST(test_stale_profile)
{
    struct session a, b;
    open_session(&a);
    open_session(&b);
    run_all(&a, fcip_setup);
    run(&a, "configure terminal");
    run(&a, "fcip profile 10");
    run(&b, "configure terminal");
    run(&b, "no fcip profile 10");
    refused(&a, "tcp max-jitter 100", "% Profile 10 does not exist");
    refused(&a, "no tcp sack-enable", "% Profile 10 does not exist");
    ck_assert(!fcip_profile_exists(lab, 0, 10));
    ck_assert_ptr_eq(a.mode, &fcip_profile_mode);
    run(&a, "do show clock"); /* exec commands, config ones */
    run(&a, "fcip profile 2"); /* another profile: a parent mode's command */
    run(&a, "tcp max-jitter 100");
    struct fcip_profile_conf c;
    ck_assert(fcip_profile_get(lab, 0, 2, &c));
    ck_assert_uint_eq(c.max_jitter_us, 100);
    run(&b, "no fcip profile 2");
    run(&a, "exit");
    ck_assert_ptr_eq(a.mode, MODE_CONFIG);
    /* recreated by the other session: the mode is about it again */
    run(&a, "fcip profile 10");
    run(&b, "no fcip profile 10");
    run(&b, "fcip profile 10");
    run(&a, "tcp max-jitter 200");
    run(&a, "end");
    session_free(&a);
    session_free(&b);
}
END_TEST

START_TEST(test_stale_fcip_interface)
{
    struct session a, b;
    open_session(&a);
    open_session(&b);
    run_all(&a, fcip_setup);
    run(&a, "configure terminal");
    run(&a, "interface fcip 3");
    run(&b, "configure terminal");
    run(&b, "no interface fcip 3");
    refused(&a, "no shutdown", "% Interface fcip3 does not exist");
    refused(&a, "use-profile 2", "% Interface fcip3 does not exist");
    ck_assert(!fcip_if_exists(lab, 0, 3));
    ck_assert_ptr_eq(a.mode, MODE_IF);
    run(&a, "end");
    ck_assert_ptr_eq(a.mode, MODE_EXEC);
    session_free(&a);
    session_free(&b);
}
END_TEST

START_TEST(test_stale_nport)
{
    struct session a, b;
    open_session(&a);
    open_session(&b);
    run_all(&a, sanext_setup);
    run(&a, "nport pwwn 22:22:22:22:22:22:22:22 vsan 5 interface g2/1");
    run(&b, "san-ext-tuner");
    run(&b, "no nport pwwn 22:22:22:22:22:22:22:22 vsan 5 interface g2/1");
    refused(&a, "clear counters", "% nport does not exist");
    refused(&a, "stop all", "% nport does not exist");
    ck_assert_ptr_eq(a.mode, &sanext_nport_mode);
    /* entering another N port is the parent mode's: it works */
    run(&a, "nport pwwn 11:11:11:11:11:11:11:11 vsan 1 interface g2/2");
    run(&a, "stop all");
    run(&b, "no nport pwwn 11:11:11:11:11:11:11:11 vsan 1 interface g2/2");
    run(&a, "exit");
    ck_assert_ptr_eq(a.mode, &sanext_mode);
    session_free(&a);
    session_free(&b);
}
END_TEST

/* A zone's and a zoneset's sub-mode key (name and VSAN, kept by the zone
 * feature in the session's mode context) still names them after other
 * commands, and their checks refuse once another session deleted them. */
START_TEST(test_stale_zone)
{
    struct session a, b;
    open_session(&a);
    open_session(&b);
    run(&a, "configure terminal");
    run(&a, "vsan database");
    run(&a, "vsan 10");
    run(&a, "exit");
    run(&a, "zone name Z_STALE vsan 10");
    run(&a, "member pwwn 21:00:00:e0:8b:05:05:04");
    ck_assert(zone_member_has(lab, 0, 10, "Z_STALE", "pwwn", "21:00:00:e0:8b:05:05:04"));
    run(&a, "zoneset name ZS_STALE vsan 10");
    run(&a, "member Z_STALE");
    ck_assert(zoneset_member_has(lab, 0, 10, "ZS_STALE", "Z_STALE"));
    run(&b, "configure terminal");
    run(&b, "no zoneset name ZS_STALE vsan 10");
    refused(&a, "member Z_OTHER", "% Zoneset ZS_STALE not present in vsan 10");
    ck_assert_ptr_eq(a.mode, &zoneset_mode);
    run(&a, "zone name Z_STALE vsan 10");
    run(&b, "no zone name Z_STALE vsan 10");
    refused(&a, "member pwwn 21:00:00:e0:8b:05:05:05", "% Zone Z_STALE not present in vsan 10");
    ck_assert_ptr_eq(a.mode, &zone_mode);
    session_free(&a);
    session_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lab_values");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_complete_fcip_profiles);
    tcase_add_test(tc, test_help_lists_values);
    tcase_add_test(tc, test_values_bounded);
    tcase_add_test(tc, test_complete_nports);
    tcase_add_test(tc, test_stale_profile);
    tcase_add_test(tc, test_stale_fcip_interface);
    tcase_add_test(tc, test_stale_nport);
    tcase_add_test(tc, test_stale_zone);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
