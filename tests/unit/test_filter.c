/* Output filters: POSIX patterns on bounded PCRE2 (what matches, what is
 * refused, what stops), and a slow filter in one session that does not
 * hold up a command in another (filters run with the lab released). */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include "pattern.h"

#include "lab_fixture.h"

static int match(const char *re, enum pattern_syntax syn, int flags, const char *line)
{
    char err[96];
    struct pattern *p = pattern_compile(re, syn, flags, err, sizeof err);
    ck_assert_msg(p != NULL, "'%s' refused: %s", re, err);
    int m = pattern_match(p, line, strlen(line));
    pattern_free(p);
    return m;
}

static void refused(const char *re, enum pattern_syntax syn, const char *want)
{
    char err[96] = "";
    struct pattern *p = pattern_compile(re, syn, 0, err, sizeof err);
    ck_assert_msg(p == NULL, "'%s' compiled", re);
    ck_assert_str_eq(err, want);
}

START_TEST(test_posix_extended)
{
    ck_assert_int_eq(match("mtu|description", PATTERN_ERE, 0, "  switchport mtu 2300"), 1);
    ck_assert_int_eq(match("Gig.*2/[13]$", PATTERN_ERE, 0, "interface GigabitEthernet2/3"), 1);
    ck_assert_int_eq(match("Gig.*2/[13]$", PATTERN_ERE, 0, "interface GigabitEthernet2/2"), 0);
    ck_assert_int_eq(match("[\\d]", PATTERN_ERE, 0, "a\\b"), 1); /* backslash literal in brackets */
    ck_assert_int_eq(match("[\\d]", PATTERN_ERE, 0, "123"), 0);
    ck_assert_int_eq(match("\\d", PATTERN_ERE, 0, "123"), 0);    /* glibc: \d is d */
    ck_assert_int_eq(match("[]x]", PATTERN_ERE, 0, "a]"), 1);
    ck_assert_int_eq(match("[[:digit:]]+", PATTERN_ERE, 0, "v5"), 1);
    ck_assert_int_eq(match("a)", PATTERN_ERE, 0, "(a)"), 1);     /* a lone ) is literal */
    ck_assert_int_eq(match("a+?b", PATTERN_ERE, 0, "b"), 1);     /* (a+)? is a*, not lazy a+ */
    ck_assert_int_eq(match("a+++++++++++++++++++++++", PATTERN_ERE, 0, "xay"), 1);
    ck_assert_int_eq(match("\\<Gig", PATTERN_ERE, 0, "interface Gig2/1"), 1);
    ck_assert_int_eq(match("\\<Gig", PATTERN_ERE, 0, "xGig2/1"), 0);
    ck_assert_int_eq(match("mtu", PATTERN_ERE, 0, "MTU"), 0);
}
END_TEST

START_TEST(test_posix_basic_and_options)
{
    ck_assert_int_eq(match("mtu|desc", PATTERN_BRE, 0, "mtu"), 0); /* | is a character */
    ck_assert_int_eq(match("mtu|desc", PATTERN_BRE, 0, "mtu|desc"), 1);
    ck_assert_int_eq(match("mtu\\|desc", PATTERN_BRE, 0, "desc"), 1);
    ck_assert_int_eq(match("\\(ab\\)\\{2\\}", PATTERN_BRE, 0, "xababy"), 1);
    ck_assert_int_eq(match("a+", PATTERN_BRE, 0, "aa"), 0);
    ck_assert_int_eq(match("a+", PATTERN_BRE, 0, "a+"), 1);
    ck_assert_int_eq(match("*a", PATTERN_BRE, 0, "x*a"), 1); /* a leading * is literal */
    ck_assert_int_eq(match("gig", PATTERN_ERE, PATTERN_ICASE, "GigabitEthernet"), 1);
    ck_assert_int_eq(match("Gig", PATTERN_ERE, PATTERN_WORD, "GigabitEthernet"), 0);
    ck_assert_int_eq(match("Gig|up", PATTERN_ERE, PATTERN_WORD, "port is up"), 1);
    ck_assert_int_eq(match("a|b", PATTERN_ERE, PATTERN_LINE, "ab"), 0);
    ck_assert_int_eq(match("a|b", PATTERN_ERE, PATTERN_LINE, "b"), 1);
}
END_TEST

/* Each of these took glibc seconds and gigabytes, or is not POSIX. The
 * test's timeout (ctest's) is the bound on their time: they must finish. */
START_TEST(test_refused)
{
    refused("(", PATTERN_ERE, "% Invalid regular expression");
    refused("[", PATTERN_ERE, "% Invalid regular expression");
    refused("*a", PATTERN_ERE, "% Invalid regular expression");
    refused("(?i)a", PATTERN_ERE, "% Invalid regular expression");
    refused("(*LIMIT_MATCH=1)a", PATTERN_ERE, "% Invalid regular expression");
    refused("((a{255}){255}){255}", PATTERN_ERE, "% Regular expression too complex");
    char deep[200] = "";
    for (int i = 0; i < 40; i++)
        strcat(deep, "(");
    strcat(deep, "a");
    for (int i = 0; i < 40; i++)
        strcat(deep, ")");
    refused(deep, PATTERN_ERE, "% Regular expression too complex");
    char longer[PATTERN_MAX_CHARS + 2];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    refused(longer, PATTERN_ERE, "% Regular expression too complex");
}
END_TEST

START_TEST(test_match_limit)
{
    /* catastrophic backtracking on a line without x or y: stopped, not run
     * out (a class, not a letter: PCRE2 rejects a line without a required
     * letter before matching at all) */
    char line[200];
    memset(line, 'a', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    ck_assert_int_eq(match("(a|aa)*(a|aa)*[xy]", PATTERN_ERE, 0, line), -1);
    ck_assert_int_eq(match("(.*)*[xy]", PATTERN_ERE, 0, line), -1);
}
END_TEST

static void sink(void *ctx, const char *s, size_t n) { sb_add(ctx, s, n); }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Ten filters that never match and each cost tens of milliseconds or more
 * on `show interface`, each under every bound. */
#define SLOW " | exclude (.*[a-z]){3}[=%]"
static const char slow_line[] = "show interface" SLOW SLOW SLOW SLOW SLOW SLOW SLOW SLOW SLOW SLOW;

static atomic_bool a_started, a_done;
static double a_secs;
static strbuf a_out;

static void *slow_session(void *arg)
{
    (void)arg;
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = sink, .ctx = &a_out});
    atomic_store(&a_started, true);
    double t0 = now_s();
    ck_assert_int_eq(session_exec(&s, slow_line), 0);
    a_secs = now_s() - t0;
    atomic_store(&a_done, true);
    session_free(&s);
    return NULL;
}

/* Before filters ran outside the lock, a `show clock` on MDS2 typed while
 * MDS1 filtered waited for the whole of MDS1's filters. Now each is
 * answered while they run. MDS2 runs `show clock` again and again until
 * MDS1 is done; the slowest must take less than half MDS1's line. Both
 * sides are measured on the same machine at the same time, so load slows
 * them alike. */
START_TEST(test_slow_filter_holds_up_no_one)
{
    sb_init(&a_out);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, slow_session, NULL), 0);
    while (!atomic_load(&a_started))
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    struct session s;
    session_init(&s, lab, 1, (struct session_io){.write = capture});
    double slowest = 0;
    int runs = 0;
    while (!atomic_load(&a_done)) {
        double t0 = now_s();
        ck_assert_int_eq(session_exec(&s, "show clock"), 0);
        double secs = now_s() - t0;
        slowest = secs > slowest ? secs : slowest;
        runs++;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    session_free(&s);
    pthread_join(t, NULL);
    ck_assert_msg(strstr(sb_str(&a_out), "GigabitEthernet2/1 is") != NULL, "%s", sb_str(&a_out));
    ck_assert_msg(strchr(sb_str(&out), ':') != NULL, "show clock printed %s", sb_str(&out));
    fprintf(stderr, "test_filter: %d show clock, the slowest %.3f s, beside filters of %.3f s\n", runs,
            slowest, a_secs);
    ck_assert_msg(slowest < a_secs / 2, "a show clock took %.3f s beside filters of %.3f s", slowest,
                  a_secs);
    sb_free(&a_out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("filter");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_posix_extended);
    tcase_add_test(tc, test_posix_basic_and_options);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_match_limit);
    tcase_add_test(tc, test_slow_filter_holds_up_no_one);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
