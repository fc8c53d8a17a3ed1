/* Unit tests of cli/login_throttle.c: connections waiting to log in per
 * peer and in all (the address holding the most gives one up), failed-login
 * delays per address, per user name and address and per user name across
 * connections, and the rate-limited log, on a clock the tests move by hand. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "login_throttle.h"

enum { T0 = 1000000, FAR = T0 + 3600 * 1000 };

static void setup(void) { login_throttle_reset(); }

/* The log goes to a buffer the tests read (and not to ctest's output). */

static char *log_buf;
static size_t log_len;
static FILE *log_file;

static void log_setup(void)
{
    login_throttle_reset();
    log_file = open_memstream(&log_buf, &log_len);
    login_log_to(log_file);
}

static void log_teardown(void)
{
    login_log_to(NULL);
    fclose(log_file);
    free(log_buf);
}

static int log_lines_with(const char *what)
{
    fflush(log_file);
    int n = 0;
    for (const char *p = log_buf; p && (p = strstr(p, what)); p++)
        n++;
    return n;
}

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

/* Evictions, as serve.c's callback would see them. */
static int evictions;
static void count_eviction(void *ctx)
{
    (void)ctx;
    evictions++;
}

static bool take(struct login_ticket *t, const char *peer)
{
    t->evict = count_eviction;
    return login_ticket_take(t, peer);
}

/* All places taken by one each: a newcomer gets in, the oldest goes. */
START_TEST(test_preauth_total)
{
    static struct login_ticket t[LOGIN_PREAUTH_TOTAL + 1];
    char peer[32];
    evictions = 0;
    for (int i = 0; i < LOGIN_PREAUTH_TOTAL; i++) {
        snprintf(peer, sizeof peer, "10.0.%d.%d", i / 250, i % 250);
        ck_assert(take(&t[i], peer));
    }
    ck_assert_int_eq(evictions, 0);
    ck_assert(take(&t[LOGIN_PREAUTH_TOTAL], "10.9.9.9"));
    ck_assert_int_eq(evictions, 1);
    ck_assert(login_ticket_evicted(&t[0]) && !t[0].held);
    ck_assert(!login_ticket_evicted(&t[1]) && t[1].held);
    login_ticket_drop(&t[0]); /* its thread ends: nothing more to give back */
    login_ticket_drop(&t[5]);
    ck_assert(take(&t[5], "10.9.9.8")); /* a place is free: nobody goes */
    ck_assert_int_eq(evictions, 1);
}
END_TEST

/* Issue 16: two addresses holding every place locked every user out.
 * Now the newcomer takes the place of the oldest connection of the
 * address that holds the most; an attacker coming back evicts its own. */
START_TEST(test_preauth_attacker_pays)
{
    static struct login_ticket a[LOGIN_PREAUTH_PER_PEER], b[LOGIN_PREAUTH_PER_PEER], user, user2, more[200];
    evictions = 0;
    for (int i = 0; i < LOGIN_PREAUTH_PER_PEER; i++) {
        ck_assert(take(&a[i], "10.6.6.6"));
        ck_assert(take(&b[i], "10.7.7.7"));
    }
    ck_assert(take(&user, "10.0.0.1"));
    ck_assert(login_ticket_evicted(&a[0])); /* 64 each: the oldest of both */
    ck_assert(take(&user2, "10.0.0.2"));
    ck_assert(login_ticket_evicted(&b[0])); /* 10.7.7.7 held the most */
    /* the attacker comes back again and again: its own connections go */
    for (int i = 0; i < 200; i++)
        ck_assert(take(&more[i], i % 2 ? "10.6.6.6" : "10.7.7.7"));
    ck_assert(user.held && !login_ticket_evicted(&user));
    ck_assert(user2.held && !login_ticket_evicted(&user2));
    ck_assert_int_eq(evictions, 202);
    ck_assert_int_ge(log_lines_with("closing a connection from 10.6.6.6 waiting to log in"), 1);
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
    /* from the same address, at once: bob's turn comes after the delay */
    ck_assert_int_eq(fail_at("10.0.0.1", "bob", T0, &d), LOGIN_DELAY_BASE_MS);
    ck_assert_uint_eq(d, 2 * LOGIN_DELAY_BASE_MS);
    /* capped */
    for (int i = 0; i < 20; i++)
        fail_at("10.0.0.1", "bob", FAR - 100000, &d);
    ck_assert_uint_eq(d, LOGIN_DELAY_MAX_MS);
    /* another name is not slowed, from an address that is not */
    ck_assert_int_eq(fail_at("10.0.0.4", "alice", T0, &d), 0);
}
END_TEST

/* Issue 16: guessing admin's password from one address slowed admin from
 * everywhere, so an attacker locked the real admin out. Now the name is
 * counted per address; a clean address is not slowed by another's. */
START_TEST(test_user_counted_per_address)
{
    unsigned d, counted;
    for (int i = 0; i < 40; i++)
        fail_at("10.6.6.6", "admin", T0 + (uint64_t)i * LOGIN_DELAY_MAX_MS, &d);
    uint64_t now = T0 + 40ull * LOGIN_DELAY_MAX_MS - LOGIN_DELAY_MAX_MS / 2; /* its delay not over */
    ck_assert_int_gt(login_admit("10.6.6.6", 0, "admin", now, FAR, &counted), 0);
    ck_assert_int_eq(login_admit("10.7.7.7", 0, "admin", now, FAR, &counted), 0);
    login_record("10.7.7.7", 0, "admin", true, counted, now);
    /* even the attacker's queue pushed far ahead, by parallel tries */
    for (int i = 0; i < 20; i++)
        login_admit("10.6.6.6", 0, "admin", now, FAR, &counted);
    ck_assert_int_eq(login_admit("10.8.8.8", 0, "admin", now, now + 1000, &counted), 0);
}
END_TEST

/* The name's ceiling: once it has failed LOGIN_USER_FREE_FAILS times from
 * anywhere, addresses that failed on it already are spaced together, as
 * one would be; an address with no failure on it keeps its chance. */
START_TEST(test_user_ceiling)
{
    unsigned d, counted;
    char peer[32];
    for (int i = 0; i < LOGIN_USER_FREE_FAILS + 2; i++) {
        snprintf(peer, sizeof peer, "10.1.0.%d", i);
        ck_assert_int_eq(fail_at(peer, "bob", T0, &d), 0); /* fresh: not held back */
    }
    /* 10.1.0.0 failed once (its own delay, 1 s, is over at T0 + 1500);
     * bob failed 12 times: the ceiling's delay is 2 s */
    long w = login_admit("10.1.0.0", 0, "bob", T0 + 1500, FAR, &counted);
    ck_assert_int_eq(w, 500);
    /* the next failing address takes the turn after it */
    ck_assert_int_gt(login_admit("10.1.0.1", 0, "bob", T0 + 1500, FAR, &counted), w);
    ck_assert_int_eq(login_admit("10.1.9.9", 0, "bob", T0 + 1500, FAR, &counted), 0);
}
END_TEST

/* Parallel attempts on a failing name from one address are spaced as one
 * connection's would be: the k-th waits for the k-1 before it, delays
 * doubling. */
START_TEST(test_parallel_attempts_spaced)
{
    unsigned d, counted;
    fail_at("10.0.0.1", "bob", T0, &d);
    long prev = -1;
    for (int i = 0; i < 4; i++) {
        long w = login_admit("10.0.0.1", 0, "bob", T0, FAR, &counted);
        ck_assert_int_gt(w, prev);
        if (i > 0)
            ck_assert_int_ge(w - prev, LOGIN_DELAY_BASE_MS << i);
        prev = w;
    }
    /* past the deadline: refused unchecked */
    ck_assert_int_eq(login_admit("10.0.0.1", 0, "bob", T0, T0 + 5000, &counted), -1);
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
    ck_assert_int_gt(login_admit("10.0.0.1", 0, "admin", T0 + 2, FAR, &counted), 0);
}
END_TEST

/* ---- the log ---- */

/* Issue 16: each refused login wrote a line, 44 MB in 70 s of attack. Now
 * a few lines per address and minute, then one summary with the count. */
START_TEST(test_log_bounded_per_address)
{
    for (int i = 0; i < 1000; i++)
        login_log(LOGIN_LOG_REFUSED, "10.6.6.6", T0 + (uint64_t)i, "login from %s refused", "10.6.6.6");
    login_log(LOGIN_LOG_FAILED, "10.6.6.6", T0 + 1000, "failed login from %s", "10.6.6.6");
    login_log(LOGIN_LOG_REFUSED, "10.7.7.7", T0 + 1000, "login from %s refused", "10.7.7.7");
    int shown = log_lines_with("login from 10.6.6.6 refused");
    ck_assert_int_ge(shown, 1);
    ck_assert_int_le(shown, 20);
    ck_assert_int_eq(log_lines_with("failed login from 10.6.6.6"), 1); /* its own allowance */
    ck_assert_int_eq(log_lines_with("login from 10.7.7.7 refused"), 1);
    ck_assert_int_eq(log_lines_with("in the last minute"), 0);
    /* the minute is over: one summary, for the address with lines held back */
    ck_assert_int_gt(login_log_tick(T0 + LOGIN_LOG_WINDOW_MS - 1), 0);
    ck_assert_int_eq(login_log_tick(T0 + LOGIN_LOG_WINDOW_MS), -1);
    char want[128];
    snprintf(want, sizeof want, "mdsim serve: %d more refused logins or connections in the last minute from 10.6.6.6\n",
             1000 - shown);
    ck_assert_int_eq(log_lines_with(want), 1);
    ck_assert_int_eq(log_lines_with("in the last minute"), 1);
    /* a new minute, a new allowance */
    login_log(LOGIN_LOG_REFUSED, "10.6.6.6", T0 + LOGIN_LOG_WINDOW_MS + 1, "login from %s refused", "10.6.6.6");
    ck_assert_int_eq(log_lines_with("login from 10.6.6.6 refused"), shown + 1);
    ck_assert_int_eq(login_log_tick(T0 + 10 * LOGIN_LOG_WINDOW_MS), -1); /* nothing held back: no summary */
    ck_assert_int_eq(log_lines_with("in the last minute"), 1);
}
END_TEST

/* Many addresses: the lines of a minute in all, and the table, are bounded. */
START_TEST(test_log_bounded_in_all)
{
    char peer[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(peer, sizeof peer, "10.2.%d.%d", i / 250, i % 250);
        for (int k = 0; k < 5; k++)
            login_log(LOGIN_LOG_CONNECTED, peer, T0, "connection from %s", peer);
    }
    ck_assert_int_le(log_lines_with("connection from"), LOGIN_LOG_LINES_TOTAL);
    ck_assert_int_gt(log_lines_with("connection from"), 0);
    login_log_tick(T0 + LOGIN_LOG_WINDOW_MS);
    ck_assert_int_le(log_lines_with("in the last minute"), LOGIN_LOG_PEERS + 1);
    ck_assert_int_eq(log_lines_with("in the last minute from other addresses"), 1);
}
END_TEST

static Suite *throttle_suite(void)
{
    Suite *s = suite_create("login_throttle");
    TCase *c = tcase_create("preauth");
    tcase_add_checked_fixture(c, log_setup, log_teardown);
    tcase_add_test(c, test_preauth_per_peer);
    tcase_add_test(c, test_preauth_total);
    tcase_add_test(c, test_preauth_attacker_pays);
    suite_add_tcase(s, c);
    TCase *f = tcase_create("failures");
    tcase_add_checked_fixture(f, setup, NULL);
    tcase_add_test(f, test_user_delay_doubles);
    tcase_add_test(f, test_user_counted_per_address);
    tcase_add_test(f, test_user_ceiling);
    tcase_add_test(f, test_parallel_attempts_spaced);
    tcase_add_test(f, test_success_clears);
    tcase_add_test(f, test_peer_free_then_slowed);
    tcase_add_test(f, test_forgotten_after_a_while);
    tcase_add_test(f, test_table_bounded_keeps_the_attacked);
    suite_add_tcase(s, f);
    TCase *l = tcase_create("log");
    tcase_add_checked_fixture(l, log_setup, log_teardown);
    tcase_add_test(l, test_log_bounded_per_address);
    tcase_add_test(l, test_log_bounded_in_all);
    suite_add_tcase(s, l);
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
