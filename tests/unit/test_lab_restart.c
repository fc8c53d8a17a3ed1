/* lab_batch_abort then lab_restart_clock, as the fuzz targets run each
 * input (docs/fuzzing.md): the same lines give the same output again,
 * whether the input before ran the data plane (a ping, its counters, lab
 * time) or never reached the engine, which the restart then keeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "session.h"
#include "lab/lab.h"

#include "lab_fixture.h"

/* MDS1 g2/4 is cabled to MDS2 g2/2 (tests/transcripts/ips_stats.txt). */
static const char *const traffic[][2] = {
    {"0", "configure terminal"},
    {"0", "interface g2/4"},
    {"0", "ip address 192.168.20.1 255.255.255.0"},
    {"0", "no shutdown"},
    {"0", "end"},
    {"1", "configure terminal"},
    {"1", "interface g2/2"},
    {"1", "ip address 192.168.20.2 255.255.255.0"},
    {"1", "no shutdown"},
    {"1", "end"},
    {"0", "ping 192.168.20.2 count 2"},
    {"0", "show ips stats all interface gigabitethernet 2/4"},
    {"1", "show ips stats ip interface gigabitethernet 2/2"},
    {"0", "show interface gigabitethernet 2/4 counters"},
    {"0", "show system uptime"},
    {NULL, NULL},
};

/* Only the store: nothing here reaches the engine. */
static const char *const store_only[][2] = {
    {"0", "configure terminal"},
    {"0", "switchname EDGE1"},
    {"0", "interface g2/4"},
    {"0", "ip address 10.0.0.1 255.255.255.0"},
    {"0", "end"},
    {"0", "show version"},
    {NULL, NULL},
};

/* One input as the fuzz target runs it: inside a batch, rolled back, the
 * engine restarted (unless told not to). Returns what the sessions printed. */
static char *run_input(const char *const lines[][2], bool restart)
{
    struct session s[2];
    for (int i = 0; i < 2; i++)
        session_init(&s[i], lab, i, (struct session_io){.write = capture});
    sb_clear(&out);
    lab_batch_begin(lab, true);
    for (int i = 0; lines[i][0]; i++)
        session_exec(&s[lines[i][0][0] - '0'], lines[i][1]);
    char *text = strdup(out.data ? out.data : "");
    for (int i = 0; i < 2; i++)
        session_free(&s[i]);
    lab_batch_abort(lab);
    if (restart)
        lab_restart_clock(lab);
    ck_assert(text != NULL);
    return text;
}

START_TEST(test_traffic_twice_prints_the_same)
{
    char *first = run_input(traffic, true);
    ck_assert_msg(strstr(first, "2 packets received") != NULL, "%s", first);
    ck_assert_uint_eq(lab_now(lab), 0);
    char *second = run_input(traffic, true);
    ck_assert_str_eq(second, first);
    free(first);
    free(second);
}
END_TEST

/* Without the restart the second run differs (the counters and the clock
 * of the first): what the test above needs the restart for. */
START_TEST(test_without_restart_the_engine_remembers)
{
    char *first = run_input(traffic, false);
    ck_assert_uint_gt(lab_now(lab), 0);
    char *second = run_input(traffic, false);
    ck_assert_str_ne(second, first);
    lab_restart_clock(lab);
    ck_assert_uint_eq(lab_now(lab), 0);
    free(first);
    free(second);
}
END_TEST

/* An input that never reached the engine leaves it as it was made: the
 * restart keeps it, and the next input still sees a lab as new. */
START_TEST(test_untouched_engine_is_kept_and_works)
{
    char *fresh = run_input(traffic, true);
    uint64_t reconciles = lab_reconcile_count(lab);
    char *shown = run_input(store_only, true);
    ck_assert_msg(strstr(shown, "EDGE1") != NULL, "%s", shown);
    ck_assert_uint_eq(lab_reconcile_count(lab), reconciles); /* the engine was not reached */
    ck_assert_str_eq(lab_hostname(lab, 0), "MDS1");
    char *again = run_input(traffic, true);
    ck_assert_str_eq(again, fresh);
    free(fresh);
    free(shown);
    free(again);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lab_restart");
    TCase *tc = tcase_create("restart");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_traffic_twice_prints_the_same);
    tcase_add_test(tc, test_without_restart_the_engine_remembers);
    tcase_add_test(tc, test_untouched_engine_is_kept_and_works);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
