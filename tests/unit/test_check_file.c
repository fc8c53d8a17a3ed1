/*
 * `mdsim check`'s parts without a lab: lines in canonical form through the
 * program's grammar (parser/canon.c), a running configuration read as
 * configuration (cli/check/runconf.c), and check files read into steps or
 * refused with their line (cli/check/check_file.c).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "check/check_file.h"
#include "feature.h"
#include "check/runconf.h"
#include "fcip/fcip.h"
#include "vsan/vsan.h"
#include "session.h"

static void setup(void) { features_install(); }

/* The canonical form of line in mode m, or "" when it does not match. */
static char *canon(const struct mode_info *m, const char *line)
{
    strbuf b;
    sb_init(&b);
    struct canon_error e;
    char *s = strdup(canon_line(m, line, &b, &e) ? sb_str(&b) : "");
    sb_free(&b);
    return s;
}

static void same(const struct mode_info *m, const char *a, const char *b, const char *want)
{
    char *ca = canon(m, a), *cb = canon(m, b);
    ck_assert_str_eq(ca, want);
    ck_assert_str_eq(cb, want);
    free(ca);
    free(cb);
}

START_TEST(spellings_of_one_line)
{
    same(MODE_CONFIG, "int fcip1", "INTERFACE FCIP 1", "interface fcip 1");
    same(MODE_CONFIG, "int g2/2", "interface GigabitEthernet2/2", "interface gigabitethernet 2/2");
    same(MODE_IF, "use-prof 010", "use-profile 10", "use-profile 10");
    same(MODE_IF, "peer-info ipaddr 192.168.010.2", "peer-info   ipaddr 192.168.10.2", "peer-info ipaddr 192.168.10.2");
    same(MODE_IF, "no shut", "No Shutdown", "no shutdown");
    same(MODE_IF, "switchport trunk allowed vsan 100-100,200", "switchport trunk allowed vsan 100,200",
         "switchport trunk allowed vsan 100,200");
    same(MODE_EXEC, "fcping pwwn 22:22:22:22:22:22:22:AA vsan 100", "fcping pwwn 22:22:22:22:22:22:22:aa vsan 100",
         "fcping pwwn 22:22:22:22:22:22:22:aa vsan 100");
}
END_TEST

START_TEST(different_lines_differ)
{
    char *a = canon(MODE_IF, "use-profile 1"), *b = canon(MODE_IF, "use-profile 2");
    char *c = canon(MODE_IF, "shutdown"), *d = canon(MODE_IF, "no shutdown");
    ck_assert_str_ne(a, b);
    ck_assert_str_ne(c, d);
    free(a), free(b), free(c), free(d);
}
END_TEST

START_TEST(errors_say_where)
{
    strbuf b;
    sb_init(&b);
    struct canon_error e;
    ck_assert(!canon_line(MODE_CONFIG, "interfce fcip1", &b, &e));
    ck_assert_int_eq(e.status, MATCH_INVALID);
    ck_assert_uint_eq(e.off, 0);
    ck_assert(!canon_line(MODE_CONFIG, "interface fcip 999", &b, &e));
    ck_assert_int_eq(e.status, MATCH_RANGE);
    ck_assert(!canon_line(MODE_IF, "use-profile", &b, &e));
    ck_assert_int_eq(e.status, MATCH_INCOMPLETE);
    sb_free(&b);
}
END_TEST

/* A line under a section is read in the sub-mode whose commands take it. */
START_TEST(children_find_their_mode)
{
    strbuf b;
    sb_init(&b);
    struct canon_error e;
    const struct mode_info *m;
    ck_assert(canon_child(MODE_CONFIG, "ip address 192.168.10.1", &b, &m, &e));
    ck_assert_ptr_eq(m, &fcip_profile_mode);
    sb_clear(&b);
    ck_assert(canon_child(MODE_CONFIG, "ip addr 192.168.10.1 255.255.255.0", &b, &m, &e));
    ck_assert_ptr_eq(m, MODE_IF);
    sb_clear(&b);
    ck_assert(canon_child(MODE_CONFIG, "vsan 100 interface fcip1", &b, &m, &e));
    ck_assert_ptr_eq(m, &vsan_db_mode);
    sb_clear(&b);
    ck_assert(!canon_child(MODE_CONFIG, "feature fcip", &b, &m, &e));
    sb_free(&b);
}
END_TEST

static const char running[] = "!Command: show running-config\n"
                              "!Time: Wed Dec  2 09:21:10 2026\n"
                              "\n"
                              "version 5.2(8)\n"
                              "feature fcip\n"
                              "vsan database\n"
                              "  vsan 100\n"
                              "\n"
                              "interface fcip1\n"
                              "  use-profile 1\n"
                              "  no shutdown\n"
                              "\n"
                              "interface fcip2\n"
                              "  shutdown\n"
                              "vsan database\n"
                              "  vsan 100 interface fcip1\n";

static int find(const struct runconf *rc, const struct mode_info *top, const char *a, const char *b)
{
    char *keys[2] = {canon(MODE_CONFIG, a), b ? canon(top, b) : NULL};
    int n = runconf_find(rc, keys, b ? 2 : 1);
    free(keys[0]);
    free(keys[1]);
    return n;
}

START_TEST(running_config_as_configuration)
{
    struct runconf *rc = runconf_read(running);
    ck_assert_int_eq(find(rc, MODE_IF, "feature fcip", NULL), 1);
    ck_assert_int_eq(find(rc, MODE_IF, "int fcip1", "use-prof 1"), 2);
    ck_assert_int_eq(find(rc, MODE_IF, "int fcip1", "no shut"), 2);
    ck_assert_int_eq(find(rc, MODE_IF, "int fcip1", "shutdown"), 1); /* fcip2's, not fcip1's */
    ck_assert_int_eq(find(rc, MODE_IF, "int fcip2", "shutdown"), 2);
    ck_assert_int_eq(find(rc, MODE_IF, "int fcip3", "shutdown"), 0);
    /* a section that appears twice: either has the line */
    ck_assert_int_eq(find(rc, &vsan_db_mode, "vsan database", "vsan 100 interface fcip1"), 2);
    ck_assert_int_eq(find(rc, &vsan_db_mode, "vsan database", "vsan 100"), 2);
    runconf_free(rc);
}
END_TEST

static const char good[] = "! a comment\n"
                           "wait 10\n"
                           "switch MDS1\n"
                           "has\n"
                           "  int fcip1\n"
                           "    use-prof 1\n"
                           "    no shut\n"
                           "  feature fcip\n"
                           "lacks\n"
                           "  interface fcip1\n"
                           "    passive-mode\n"
                           "show interface fcip1\n"
                           "  contains fcip1 is trunking\n"
                           "  lacks isolated\n"
                           "  matches ^fcip1 is (up|trunking)$\n"
                           "  counter 2..2 [0-9]+ Active TCP connections\n"
                           "   \n"
                           "switch MDS2\n"
                           "ping 192.168.10.1 count 2\n";

START_TEST(a_good_file)
{
    struct check_file cf;
    char err[512];
    ck_assert_msg(check_file_parse(&cf, "t.check", good, err, sizeof err), "%s", err);
    ck_assert_int_eq(cf.nitems, 9);
    ck_assert_int_eq(cf.nsteps, 7);
    ck_assert_int_eq(cf.steps[0].kind, STEP_WAIT);
    ck_assert_int_eq(cf.steps[0].seconds, 10);
    const struct check_step *s = &cf.steps[1];
    ck_assert_int_eq(s->kind, STEP_CONFIG);
    ck_assert_str_eq(s->sw, "MDS1");
    ck_assert_int_eq(s->line, 6);
    ck_assert_int_eq(s->nkeys, 2);
    ck_assert_str_eq(s->keys[0], "interface fcip 1");
    ck_assert_str_eq(s->keys[1], "use-profile 1");
    ck_assert_str_eq(s->text, "int fcip1 / use-prof 1");
    ck_assert_int_eq(cf.steps[3].nkeys, 1);
    ck_assert_str_eq(cf.steps[3].keys[0], "feature fcip");
    ck_assert(cf.steps[4].lacks);
    s = &cf.steps[5];
    ck_assert_int_eq(s->kind, STEP_SHOW);
    ck_assert_int_eq(s->nex, 4);
    ck_assert_int_eq(s->ex[3].kind, EXPECT_COUNTER);
    ck_assert(s->ex[3].lo == 2 && s->ex[3].hi == 2);
    ck_assert_str_eq(s->ex[3].text, "[0-9]+ Active TCP connections");
    ck_assert_int_eq(cf.steps[6].kind, STEP_PING);
    ck_assert_str_eq(cf.steps[6].sw, "MDS2");
    check_file_free(&cf);
}
END_TEST

/* Each bad file is refused at its line, with a message that says why. */
static const struct {
    const char *text, *err;
} bad[] = {
    {"has\n  feature fcip\n", "t.check:1: has before any switch line"},
    {"switch MDS1\nhas\nwait 5\n", "t.check:2: has with no configuration line"},
    {"switch MDS1\nhas\n  interfce fcip1\n", "t.check:3: % Invalid command at '^' marker.\n  interfce fcip1\n  ^"},
    {"switch MDS1\nhas\n  int fcip1\n    use-profile\n", "t.check:4: % Incomplete command"},
    {"switch MDS1\nshow interface fcip1\n", "t.check:2: nothing to look for"},
    {"switch MDS1\nshow interface fcip1\n  has x\n", "t.check:3: under a show"},
    {"switch MDS1\nshow interface fcip1\n  counter 3..2 x\n", "t.check:3: the range 3..2 is empty"},
    {"switch MDS1\nshow interface fcip1\n  counter 2 x\n", "t.check:3: counter needs a range"},
    {"switch MDS1\nshow interface fcip1\n  matches a(\n", "t.check:3: % Invalid regular expression"},
    {"switch MDS1\nconfigure terminal\n", "t.check:2: 'configure terminal' is not for a check"},
    {"switch MDS1\nshow clock | include x\n  contains x\n", "t.check:2: no output filters"},
    {"wait 3601\n", "t.check:1: wait needs a number of seconds"},
    {"switch MDS1\n  feature fcip\n", "t.check:2: an indented line belongs under"},
    {"switch MDS1\nhas\n\tfeature fcip\n", "t.check:3: a tab in the indentation"},
    {"! only a comment\n", "t.check: no item to check"},
};

START_TEST(bad_files)
{
    struct check_file cf;
    char err[512];
    bool ok = check_file_parse(&cf, "t.check", bad[_i].text, err, sizeof err);
    ck_assert_msg(!ok, "accepted: %s", bad[_i].text);
    ck_assert_msg(strncmp(err, bad[_i].err, strlen(bad[_i].err)) == 0, "got \"%s\", want \"%s...\"", err, bad[_i].err);
}
END_TEST

START_TEST(bounded)
{
    size_t n = CHECK_ITEMS_MAX + 1, len = 32 + n * 16;
    char *text = malloc(len);
    strcpy(text, "switch MDS1\nhas\n");
    for (size_t i = 0; i < n; i++)
        strcat(text, "  feature fcip\n");
    struct check_file cf;
    char err[512];
    ck_assert(!check_file_parse(&cf, "t.check", text, err, sizeof err));
    ck_assert_msg(strstr(err, "more than 1000 items"), "%s", err);
    free(text);
    char *big = malloc(CHECK_FILE_MAX + 2);
    memset(big, '!', CHECK_FILE_MAX + 1);
    big[CHECK_FILE_MAX + 1] = '\0';
    ck_assert(!check_file_parse(&cf, "t.check", big, err, sizeof err));
    ck_assert_msg(strstr(err, "not a check file"), "%s", err);
    free(big);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("check_file");
    TCase *tc = tcase_create("check_file");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, spellings_of_one_line);
    tcase_add_test(tc, different_lines_differ);
    tcase_add_test(tc, errors_say_where);
    tcase_add_test(tc, children_find_their_mode);
    tcase_add_test(tc, running_config_as_configuration);
    tcase_add_test(tc, a_good_file);
    tcase_add_loop_test(tc, bad_files, 0, sizeof bad / sizeof bad[0]);
    tcase_add_test(tc, bounded);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
