/* In a debug build a handler asking for an argument its command's syntax
 * does not have aborts, naming both (parser/args.c); names from optional
 * parts and alternatives the line did not take are fine. A release build
 * (NDEBUG) answers such a lookup as absent. */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "grammar.h"
#include "match.h"
#include "lex.h"

static int asks(struct session *s, const struct cmd_args *a)
{
    (void)s;
    /* every name of its syntax, whether typed or not */
    return arg_has(a, "detail") + (int)arg_num(a, "n", 0) + (arg_str(a, "word") != NULL) +
           (arg_get(a, "fast") != NULL) + arg_has(a, "slow") + arg_has(a, "thing");
}

static int asks_other(struct session *s, const struct cmd_args *a)
{
    (void)s;
    return arg_has(a, "detail"); /* the other command's word */
}

static const struct cmd_def cmds[] = {
    {MODES(MODE_EXEC), "show thing [detail] [<n:1-9>] [{fast | slow} <word:word>]",
     "thing: A thing\ndetail: Details\nn: A number\nfast: Fast\nslow: Slow\nword: A word", asks, 0, 0, 0},
    {MODES(MODE_EXEC), "show other", "other: Another thing", asks_other, 0, 0, 0},
    {0},
};

/* Compiled before any test forks: a grammar error (which aborts too)
 * cannot pass for the abort the death test expects. */
static struct grammar *g;

/* Matches line and runs its handler, as a session would. */
static int run(const char *line)
{
    struct match_env e = {g, MODE_EXEC, NULL, NULL, NULL};
    struct words w = {0};
    struct match_result r;
    lex_line(&w, line, strlen(line));
    ck_assert_int_eq(match_line(&e, &w, &r), MATCH_OK);
    ck_assert_ptr_eq(r.args.cmd, r.var->cmd);
    int rc = r.var->cmd->fn(NULL, &r.args);
    match_result_free(&r);
    lex_free(&w);
    return rc;
}

START_TEST(test_names_of_the_syntax)
{
    ck_assert_int_eq(run("show thing"), 1);
    ck_assert_int_eq(run("show thing detail 3"), 5);
    ck_assert_int_eq(run("show thing slow x"), 3);
}
END_TEST

START_TEST(test_foreign_name)
{
    run("show other"); /* debug: aborts here */
#ifdef NDEBUG
    ck_assert_int_eq(run("show other"), 0); /* release: simply absent */
#endif
}
END_TEST

int main(void)
{
    static const struct cmd_def *const tables[] = {cmds, NULL};
    g = grammar_compile(tables);
    Suite *s = suite_create("arg_names");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_names_of_the_syntax);
#ifdef NDEBUG
    tcase_add_test(tc, test_foreign_name);
#else
    tcase_add_test_raise_signal(tc, test_foreign_name, SIGABRT);
#endif
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    grammar_free(g);
    return failed ? 1 : 0;
}
