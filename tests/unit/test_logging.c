/* The system log (backend/logging): a switch's logfile keeps its newest
 * 4096 messages; a message emitted inside a command that is rolled back
 * is still logged; a store that refuses the log's writes fails nothing,
 * in a replay's batch or not; messages above the logfile severity stay
 * out of it. */
#include <stdio.h>
#include <string.h>
#include "logging/syslog.h"
#include "lab_fixture.h"

static int count(const char *where)
{
    char sql[256];
    sqlite3_stmt *st;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM syslog_message WHERE %s", where);
    ck_assert_int_eq(sqlite3_prepare_v2(lab_db(lab), sql, -1, &st, NULL), SQLITE_OK);
    int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

static void run(struct session *s, const char *line)
{
    ck_assert_msg(session_exec(s, line) == 0, "'%s' failed: %s", line, s->last_error);
}

START_TEST(test_keeps_the_newest_4096)
{
    for (int i = 1; i <= 4100; i++) {
        lab_lock(lab); /* each unlock flushes */
        syslog_emit(lab, 0, "TEST", SEV_NOTICE, "N", 0, "message %d", i);
        lab_unlock(lab);
    }
    lab_lock(lab);
    syslog_emit(lab, 1, "TEST", SEV_NOTICE, "N", 0, "other switch");
    lab_unlock(lab);
    ck_assert_int_eq(count("switch_id = 1"), 4096);
    ck_assert_int_eq(count("switch_id = 1 AND text = 'message 4'"), 0);
    ck_assert_int_eq(count("switch_id = 1 AND text = 'message 5'"), 1);
    ck_assert_int_eq(count("switch_id = 1 AND text = 'message 4100'"), 1);
    ck_assert_int_eq(count("switch_id = 2"), 1);
    /* many in one flush: the queue and the store keep the same bound */
    lab_lock(lab);
    for (int i = 1; i <= 5000; i++)
        syslog_emit(lab, 0, "TEST", SEV_NOTICE, "N", 0, "burst %d", i);
    lab_unlock(lab);
    ck_assert_int_eq(count("switch_id = 1"), 4096);
    ck_assert_int_eq(count("switch_id = 1 AND text = 'burst 905'"), 1);
    ck_assert_int_eq(count("switch_id = 1 AND text = 'burst 904'"), 0);
}
END_TEST

START_TEST(test_logged_after_rollback)
{
    lab_lock(lab);
    lab_txn_begin(lab); /* a command that fails after its handler logged */
    syslog_emit(lab, 0, "PORT", SEV_NOTICE, "IF_DOWN_ADMIN_DOWN", 10, "Interface fcip1 is down");
    lab_txn_end(lab, false);
    lab_unlock(lab);
    ck_assert_int_eq(count("mnemonic = 'IF_DOWN_ADMIN_DOWN' AND vsan = 10"), 1);
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    run(&s, "show logging logfile");
    ck_assert_msg(strstr(out.data, " MDS1 %PORT-5-IF_DOWN_ADMIN_DOWN: %$VSAN 10%$ Interface fcip1 is down\n"), "%s",
                  out.data);
    session_free(&s);
}
END_TEST

START_TEST(test_severity_and_config_exit)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    run(&s, "configure terminal");
    run(&s, "logging logfile messages 4");
    run(&s, "end"); /* VSHD-5: above 4, not in the logfile */
    lab_lock(lab);
    syslog_emit(lab, 0, "ZONE", SEV_CRIT, "ZS_MERGE_FAILED", 0, "kept");
    syslog_emit(lab, 0, "PORT", SEV_NOTICE, "IF_UP", 0, "dropped");
    lab_unlock(lab);
    ck_assert_int_eq(count("1"), 1);
    ck_assert_int_eq(count("text = 'kept'"), 1);
    run(&s, "configure terminal");
    run(&s, "no logging logfile");
    run(&s, "logging logfile messages");
    run(&s, "exit");
    ck_assert_int_eq(count("mnemonic = 'VSHD_SYSLOG_CONFIG_I' AND text = 'Configured from vty by admin on console0'"),
                     1);
    session_free(&s);
}
END_TEST

static void set_query_only(bool on)
{
    ck_assert_int_eq(sqlite3_exec(lab_db(lab), on ? "PRAGMA query_only=ON" : "PRAGMA query_only=OFF", NULL, NULL,
                                  NULL),
                     SQLITE_OK);
}

/* A refused flush loses its messages and nothing else. */
START_TEST(test_store_refusal_fails_nothing)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    set_query_only(true);
    lab_lock(lab);
    syslog_emit(lab, 0, "TEST", SEV_NOTICE, "LOST", 0, "alone");
    lab_unlock(lab);
    set_query_only(false);
    run(&s, "configure terminal");
    run(&s, "switchname AFTER1");
    lab_lock(lab); /* in a replay's batch: the flush is a savepoint of it */
    lab_batch_begin(lab, false);
    lab_unlock(lab);
    run(&s, "switchname AFTER2");
    set_query_only(true);
    lab_lock(lab);
    syslog_emit(lab, 0, "TEST", SEV_NOTICE, "LOST", 0, "in a batch");
    lab_unlock(lab);
    set_query_only(false);
    run(&s, "switchname AFTER3");
    lab_lock(lab);
    ck_assert(lab_batch_end(lab));
    lab_unlock(lab);
    ck_assert_int_eq(count("mnemonic = 'LOST'"), 0);
    ck_assert_str_eq(lab_hostname(lab, 0), "AFTER3");
    session_free(&s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("logging");
    TCase *tc = tcase_create("logging");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_keeps_the_newest_4096);
    tcase_add_test(tc, test_logged_after_rollback);
    tcase_add_test(tc, test_severity_and_config_exit);
    tcase_add_test(tc, test_store_refusal_fails_nothing);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
