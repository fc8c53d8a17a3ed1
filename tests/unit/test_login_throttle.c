/* Unit tests of cli/login_throttle.c: connections waiting to log in per
 * peer and in all, and failed-login delays per address and per user name
 * across connections, on a clock the tests move by hand. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "login_throttle.h"

enum { T0 = 1000000, FAR = T0 + 3600 * 1000 };

static void setup(void) { login_throttle_reset(); }

START_TEST(test_preauth_per_peer)
{
    static struct login_ticket t[LOGIN_PREAUTH_PER_PEER + 1], other;
    for (int i = 0; i < LOGIN_PREAUTH_PER_PEER; i++)
        ck_assert(login_ticket_take(&t[i], "10.0.0.1"));
    ck_assert(!login_ticket_take(&t[LOGIN_PREAUTH_PER_PEER], "10.0.0.1"));
    ck_assert(login_ticket_take(&other, "10.0.0.2"));
    login_ticket_drop(&t[0]);
    login_ticket_drop(&t[0]); /* twice: counted once */
    ck_assert(login_ticket_take(&t[LOGIN_PREAUTH_PER_PEER], "10.0.0.1"));
    ck_assert(!login_ticket_take(&t[0], "10.0.0.1"));
}
END_TEST

START_TEST(test_preauth_total)
{
    static struct login_ticket t[LOGIN_PREAUTH_TOTAL + 1];
    char peer[32];
    for (int i = 0; i < LOGIN_PREAUTH_TOTAL; i++) {
        snprintf(peer, sizeof peer, "10.0.%d.%d", i / 250, i % 250);
        ck_assert(login_ticket_take(&t[i], peer));
    }
    ck_assert(!login_ticket_take(&t[LOGIN_PREAUTH_TOTAL], "10.9.9.9"));
    login_ticket_drop(&t[5]);
    ck_assert(login_ticket_take(&t[LOGIN_PREAUTH_TOTAL], "10.9.9.9"));
}
END_TEST

/* One attempt at time now: its wait, then a failure recorded at its turn. */
static long fail_at(const char *peer, const char *user, uint64_t now, unsigned *answer_delay)
{
    unsigned counted;
    long w = login_admit(peer, 0, user, now, FAR, &counted);
    if (w >= 0)
        *answer_delay = login_record(peer, 0, user, false, counted, now + (uint64_t)w);
    return w;
}

START_TEST(test_user_delay_doubles)
{
    unsigned d;
    ck_assert_int_eq(fail_at("10.0.0.1", "bob", T0, &d), 0);
    ck_assert_uint_eq(d, LOGIN_DELAY_BASE_MS);
    /* from another address, at once: bob's turn comes after the delay */
    ck_assert_int_eq(fail_at("10.0.0.2", "bob", T0, &d), LOGIN_DELAY_BASE_MS);
    ck_assert_uint_eq(d, 2 * LOGIN_DELAY_BASE_MS);
    /* capped */
    for (int i = 0; i < 20; i++)
        fail_at("10.0.0.3", "bob", FAR - 100000, &d);
    ck_assert_uint_eq(d, LOGIN_DELAY_MAX_MS);
    /* another name is not slowed */
    ck_assert_int_eq(fail_at("10.0.0.4", "alice", T0, &d), 0);
}
END_TEST

/* Parallel attempts on a failing name are spaced as one connection's
 * would be: the k-th waits for the k-1 before it, delays doubling. */
START_TEST(test_parallel_attempts_spaced)
{
    unsigned d, counted;
    fail_at("10.0.0.1", "bob", T0, &d);
    long prev = -1;
    for (int i = 0; i < 4; i++) {
        char peer[32];
        snprintf(peer, sizeof peer, "10.1.0.%d", i);
        long w = login_admit(peer, 0, "bob", T0, FAR, &counted);
        ck_assert_int_gt(w, prev);
        if (i > 0)
            ck_assert_int_ge(w - prev, LOGIN_DELAY_BASE_MS << i);
        prev = w;
    }
    /* past the deadline: refused unchecked */
    ck_assert_int_eq(login_admit("10.2.0.1", 0, "bob", T0, T0 + 5000, &counted), -1);
}
END_TEST

START_TEST(test_success_clears)
{
    unsigned d, counted;
    fail_at("10.0.0.1", "bob", T0, &d);
    fail_at("10.0.0.1", "bob", T0 + 5000, &d);
    long w = login_admit("10.0.0.1", 0, "bob", T0 + 20000, FAR, &counted);
    login_record("10.0.0.1", 0, "bob", true, counted, T0 + 20000 + (uint64_t)w);
    ck_assert_int_eq(login_admit("10.0.0.1", 0, "bob", T0 + 20000 + (uint64_t)w, FAR, &counted), 0);
}
END_TEST

START_TEST(test_peer_free_then_slowed)
{
    unsigned d;
    char name[16];
    for (int i = 0; i < LOGIN_PEER_FREE_FAILS; i++) {
        snprintf(name, sizeof name, "u%d", i);
        ck_assert_int_eq(fail_at("10.0.0.1", name, T0, &d), 0);
    }
    ck_assert_int_eq(fail_at("10.0.0.1", "v1", T0, &d), 0);
    ck_assert_uint_eq(d, LOGIN_DELAY_BASE_MS); /* the address's sixth failure */
    ck_assert_int_eq(fail_at("10.0.0.1", "v2", T0, &d), LOGIN_DELAY_BASE_MS);
    ck_assert_int_eq(fail_at("10.0.0.2", "v3", T0, &d), 0); /* another address */
}
END_TEST

START_TEST(test_forgotten_after_a_while)
{
    unsigned d, counted;
    for (int i = 0; i < 6; i++)
        fail_at("10.0.0.1", "bob", T0, &d);
    uint64_t later = T0 + LOGIN_DELAY_MAX_MS * 8 + LOGIN_FORGET_SECONDS * 1000ull;
    ck_assert_int_eq(login_admit("10.0.0.1", 0, "bob", later, (uint64_t)FAR * 2, &counted), 0);
    ck_assert_uint_eq(counted, 0);
}
END_TEST

/* A flood of made-up names does not push out a name under attack. */
START_TEST(test_table_bounded_keeps_the_attacked)
{
    unsigned d, counted;
    for (int i = 0; i < 4; i++)
        fail_at("10.0.0.1", "admin", T0, &d);
    char name[16], peer[32];
    for (int i = 0; i < 3 * LOGIN_SLOTS; i++) {
        snprintf(name, sizeof name, "x%d", i);
        snprintf(peer, sizeof peer, "10.%d.%d.%d", 1 + i / 62500, i / 250 % 250, i % 250);
        login_record(peer, 0, name, false, 0, T0 + 1);
    }
    ck_assert_int_gt(login_admit("10.3.3.3", 0, "admin", T0 + 2, FAR, &counted), 0);
}
END_TEST

static Suite *throttle_suite(void)
{
    Suite *s = suite_create("login_throttle");
    TCase *c = tcase_create("preauth");
    tcase_add_checked_fixture(c, setup, NULL);
    tcase_add_test(c, test_preauth_per_peer);
    tcase_add_test(c, test_preauth_total);
    suite_add_tcase(s, c);
    TCase *f = tcase_create("failures");
    tcase_add_checked_fixture(f, setup, NULL);
    tcase_add_test(f, test_user_delay_doubles);
    tcase_add_test(f, test_parallel_attempts_spaced);
    tcase_add_test(f, test_success_clears);
    tcase_add_test(f, test_peer_free_then_slowed);
    tcase_add_test(f, test_forgotten_after_a_while);
    tcase_add_test(f, test_table_bounded_keeps_the_attacked);
    suite_add_tcase(s, f);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(throttle_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
