/* A lab's SQLite connection has no mutex of its own (docs/store.md): once
 * the lab is shared, every statement is taken under the lab lock, and a
 * debug build aborts on one taken without it. */
#include <signal.h>
#include <sqlite3.h>
#include "session.h"
#include "lab/lab.h"

#include "lab_fixture.h"

START_TEST(test_commands_of_a_shared_lab_run)
{
    lab_share(lab);
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    ck_assert_int_eq(session_exec(&s, "configure terminal"), 0);
    ck_assert_int_eq(session_exec(&s, "switchname LOCKED"), 0);
    ck_assert_int_eq(session_exec(&s, "end"), 0);
    session_free(&s);
    lab_lock(lab);
    sqlite3_stmt *st = lab_stmt(lab, "SELECT count(*) FROM switch");
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(st, 0), 2);
    lab_unlock(lab);
    ck_assert_str_eq(lab_hostname(lab, 0), "LOCKED");
}
END_TEST

START_TEST(test_unlocked_statement_of_a_shared_lab)
{
    ck_assert_ptr_nonnull(lab_stmt(lab, "SELECT 1")); /* before sharing: one thread, no lock needed */
    lab_share(lab);
    sqlite3_stmt *st = lab_stmt(lab, "SELECT 2"); /* debug: aborts here */
    ck_assert_ptr_nonnull(st); /* release: not checked */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lab_lock");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_commands_of_a_shared_lab_run);
#ifdef NDEBUG
    tcase_add_test(tc, test_unlocked_statement_of_a_shared_lab);
#else
    tcase_add_test_raise_signal(tc, test_unlocked_statement_of_a_shared_lab, SIGABRT);
#endif
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
