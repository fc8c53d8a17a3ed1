/*
 * Unit tests of the grammar machinery on a small grammar of our own:
 * grammar_compile, lex_line, match_line and match_help, with no store and
 * no session. Each test asserts the status, the error offset (where the
 * caret would go) and the parsed values.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "lex.h"
#include "match.h"
#include "ifname.h"

static int fn_ok(struct session *s, const struct cmd_args *a)
{
    (void)s;
    (void)a;
    return 0;
}

/* A gate, as a feature would declare one (its fields are the backend's). */
struct gate {
    const char *name;
};
static const struct gate test_gate = {"test"};

/* Every keyword brings its own help, so the test does not depend on the
 * program's keyword dictionary. */
static const struct cmd_def exec_cmds[] = {
    {MODES(MODE_EXEC), "show clock", "show: Show information\nclock: The clock", fn_ok, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show counters", "show: Show information\ncounters: Counters", fn_ok, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show counters-detail", "show: Show information\ncounters-detail: Detailed counters",
     fn_ok, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "configure [terminal]", "configure: Configure\nterminal: From the terminal", fn_ok, 0, 0,
     0},
    {MODES(MODE_EXEC), "copy running-config startup-config",
     "copy: Copy\nrunning-config: Running\nstartup-config: Startup", fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "mtu <size:576-9000>", "mtu: Set MTU\nsize: MTU in bytes", fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "route <dest:ipv4> <mask:netmask> [metric <m:1-15>]",
     "route: Add a route\nmetric: Route metric\nm: Metric value", fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "alias <pwwn:wwn>", "alias: Name a port", fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "at <when:hh:mm:ss>", "at: Schedule", fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "name <n:word>", "name: Set a name\nn: The name", fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "note <text:line>", "note: Leave a note\ntext: Note text", fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "speed {auto | fixed <mbps:10-1000>}",
     "speed: Port speed\nauto: Negotiate\nfixed: Fixed speed\nmbps: Megabits per second", fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "level {max | <n:1-10>}", "level: Set level\nmax: Highest level\nn: Level", fn_ok, 0, 0,
     0},
    {MODES(MODE_EXEC), "label {default | <n:word>}", "label: Set a label\ndefault: The default label\nn: Label",
     fn_ok, 0, 0, 0},
    {MODES(MODE_EXEC), "secret", "secret: Not offered", fn_ok, CMD_HIDDEN, 0, 0},
    {MODES(MODE_EXEC), "gated", "gated: Needs a feature", fn_ok, 0, &test_gate, 0},
    {0},
};

static const struct cmd_def config_cmds[] = {
    {MODES(MODE_CONFIG, MODE_IF), "interface gigabitethernet <port:slot/port>",
     "interface: Select an interface\ngigabitethernet: Gigabit Ethernet\nport: Slot/port", fn_ok, 0, 0, 0},
    {MODES(MODE_CONFIG, MODE_IF), "interface fcip <id:1-255>",
     "interface: Select an interface\nfcip: FCIP interface\nid: Interface id", fn_ok, 0, 0, 0},
    {MODES(MODE_IF), "[no] shutdown", "no: Negate a command\nshutdown: Disable the port", fn_ok, 0, 0, 0},
    {MODES(MODE_IF), "ips compression {auto | mode1 | mode2 | mode3}",
     "ips: IP storage\ncompression: Compression\nauto: Automatic\nmode1: Mode 1\nmode2: Mode 2\nmode3: Mode 3",
     fn_ok, 0, 0, 0},
    {MODES(MODE_IF), "description <text:line>", "description: Port description\ntext: Text", fn_ok, 0, 0, 0},
    {0},
};

static const struct cmd_def *const tables[] = {exec_cmds, config_cmds, NULL};

/* The interface types a program would have its features declare. */
static const struct iftype ge_type = {"gigabitethernet", "GigabitEthernet", true};
static const struct iftype fcip_type = {"fcip", "fcip", false};
static const struct iftype *const iftypes[] = {&ge_type, &fcip_type, NULL};

static struct grammar *G;
static bool feature_on;

static bool gate(void *ctx, const struct cmd_def *cmd)
{
    (void)ctx;
    return cmd->gate == NULL || feature_on;
}

static void setup(void)
{
    G = grammar_compile(tables);
    ck_assert_ptr_nonnull(G);
    feature_on = false;
}

static void teardown(void)
{
    grammar_free(G);
    G = NULL;
}

/* Matches `line` in mode m. The caller frees r. */
static enum match_status run(const struct mode_info *m, const char *line, struct match_result *r)
{
    struct words w = {0};
    lex_line(&w, line, strlen(line));
    struct match_env e = {G, m, gate, NULL, NULL};
    enum match_status st = match_line(&e, &w, r);
    lex_free(&w);
    return st;
}

/* The status alone, with the offset checked. */
static void expect(const struct mode_info *m, const char *line, enum match_status want, size_t off)
{
    struct match_result r;
    enum match_status st = run(m, line, &r);
    ck_assert_msg(st == want, "\"%s\": status %d, want %d", line, st, want);
    ck_assert_int_eq(r.status, want);
    if (want != MATCH_OK)
        ck_assert_msg(r.err_off == off, "\"%s\": err_off %zu, want %zu", line, r.err_off, off);
    match_result_free(&r);
}

/* The syntax string of the command that `line` matched. */
static const char *matched(const struct mode_info *m, const char *line)
{
    struct match_result r;
    enum match_status st = run(m, line, &r);
    ck_assert_msg(st == MATCH_OK, "\"%s\" did not match (status %d at %zu)", line, st, r.err_off);
    const char *syn = r.var->cmd->syntax;
    match_result_free(&r);
    return syn;
}

/* ------------------------------------------------------------------ */

START_TEST(test_exact_and_abbreviated)
{
    ck_assert_str_eq(matched(MODE_EXEC, "show clock"), "show clock");
    ck_assert_str_eq(matched(MODE_EXEC, "sh cl"), "show clock");
    ck_assert_str_eq(matched(MODE_EXEC, "sho cl"), "show clock");
    expect(MODE_EXEC, "s cl", MATCH_AMBIGUOUS, 0); /* show, speed, secret (hidden, yet a command) */
    ck_assert_str_eq(matched(MODE_EXEC, "conf t"), "configure [terminal]");
    ck_assert_str_eq(matched(MODE_EXEC, "conf"), "configure [terminal]");
    ck_assert_str_eq(matched(MODE_EXEC, "cop r s"), "copy running-config startup-config");
    /* extra spaces and tabs between words do not matter */
    ck_assert_str_eq(matched(MODE_EXEC, "  show \t  clock  "), "show clock");
}
END_TEST

START_TEST(test_case_insensitive)
{
    ck_assert_str_eq(matched(MODE_EXEC, "SHOW CLOCK"), "show clock");
    ck_assert_str_eq(matched(MODE_EXEC, "Sh Cl"), "show clock");
    ck_assert_str_eq(matched(MODE_EXEC, "CoNfIgUrE TeRm"), "configure [terminal]");
}
END_TEST

START_TEST(test_ambiguous)
{
    /* `c` starts configure and copy; `co` still both */
    expect(MODE_EXEC, "c", MATCH_AMBIGUOUS, 0);
    expect(MODE_EXEC, "co t", MATCH_AMBIGUOUS, 0);
    /* the ambiguous word is the second one: the offset points at it */
    expect(MODE_EXEC, "show c", MATCH_AMBIGUOUS, 5);
    expect(MODE_EXEC, "show   co", MATCH_AMBIGUOUS, 7);
    expect(MODE_EXEC, "show counter", MATCH_AMBIGUOUS, 5);
    /* one more letter makes it unique */
    ck_assert_str_eq(matched(MODE_EXEC, "conf"), "configure [terminal]");
    ck_assert_str_eq(matched(MODE_EXEC, "show cl"), "show clock");
    /* a keyword typed in full wins over a longer keyword it prefixes */
    ck_assert_str_eq(matched(MODE_EXEC, "show counters"), "show counters");
    ck_assert_str_eq(matched(MODE_EXEC, "show counters-"), "show counters-detail");
}
END_TEST

START_TEST(test_invalid_and_too_many)
{
    expect(MODE_EXEC, "bogus", MATCH_INVALID, 0);
    expect(MODE_EXEC, "show bogus", MATCH_INVALID, 5);
    expect(MODE_EXEC, "show clockx", MATCH_INVALID, 5);
    /* too many words: the first extra word is the invalid one */
    expect(MODE_EXEC, "show clock now", MATCH_INVALID, 11);
    expect(MODE_EXEC, "configure terminal twice", MATCH_INVALID, 19);
    expect(MODE_EXEC, "name a b", MATCH_INVALID, 7);
    /* a command of another mode is invalid here */
    expect(MODE_EXEC, "shutdown", MATCH_INVALID, 0);
    expect(MODE_CONFIG, "show clock", MATCH_INVALID, 0);
}
END_TEST

START_TEST(test_incomplete)
{
    /* incomplete: the offset is the end of the line */
    expect(MODE_EXEC, "show", MATCH_INCOMPLETE, 4);
    expect(MODE_EXEC, "show ", MATCH_INCOMPLETE, 5);
    expect(MODE_EXEC, "copy running-config", MATCH_INCOMPLETE, 19);
    expect(MODE_EXEC, "mtu", MATCH_INCOMPLETE, 3);
    expect(MODE_EXEC, "route 10.0.0.0", MATCH_INCOMPLETE, 14);
    expect(MODE_EXEC, "route 10.0.0.0 255.0.0.0 metric", MATCH_INCOMPLETE, 31);
    expect(MODE_EXEC, "note", MATCH_INCOMPLETE, 4);
    expect(MODE_EXEC, "", MATCH_INCOMPLETE, 0);
    expect(MODE_CONFIG, "interface gigabitethernet", MATCH_INCOMPLETE, 25);
}
END_TEST

START_TEST(test_integer_range)
{
    struct match_result r;
    ck_assert_int_eq(run(MODE_EXEC, "mtu 576", &r), MATCH_OK);
    ck_assert_int_eq(arg_num(&r.args, "size", -1), 576);
    ck_assert_int_eq(r.args.v[1].kind, TOK_INT);
    ck_assert_int_eq(r.args.v[1].off, 4);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "mtu 9000", &r), MATCH_OK);
    ck_assert_int_eq(arg_num(&r.args, "size", -1), 9000);
    match_result_free(&r);

    /* just outside the range: MATCH_RANGE with the range and the offset */
    ck_assert_int_eq(run(MODE_EXEC, "mtu 9001", &r), MATCH_RANGE);
    ck_assert_int_eq(r.lo, 576);
    ck_assert_int_eq(r.hi, 9000);
    ck_assert_uint_eq(r.err_off, 4);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "mtu 575", &r), MATCH_RANGE);
    ck_assert_int_eq(r.lo, 576);
    ck_assert_int_eq(r.hi, 9000);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "mtu 0", &r), MATCH_RANGE);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "route 1.1.1.0 255.255.255.0 metric 16", &r), MATCH_RANGE);
    ck_assert_int_eq(r.lo, 1);
    ck_assert_int_eq(r.hi, 15);
    ck_assert_uint_eq(r.err_off, 35);
    match_result_free(&r);

    /* more digits than any number: still a number out of range */
    ck_assert_int_eq(run(MODE_EXEC, "mtu 99999999999", &r), MATCH_RANGE);
    ck_assert_int_eq(r.lo, 576);
    ck_assert_int_eq(r.hi, 9000);
    ck_assert_uint_eq(r.err_off, 4);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "mtu 18446744073709551617", &r), MATCH_RANGE);
    match_result_free(&r);

    /* not a number at all */
    expect(MODE_EXEC, "mtu 12a", MATCH_INVALID, 4);
    expect(MODE_EXEC, "mtu 99999999999x", MATCH_INVALID, 4);
    expect(MODE_EXEC, "mtu -5", MATCH_INVALID, 4);
    expect(MODE_EXEC, "mtu 1500.0", MATCH_INVALID, 4);
}
END_TEST

START_TEST(test_ipv4_and_netmask)
{
    struct match_result r;
    ck_assert_int_eq(run(MODE_EXEC, "route 10.1.2.3 255.255.0.0", &r), MATCH_OK);
    ck_assert_uint_eq(arg_get(&r.args, "dest")->ip, 0x0A010203u);
    ck_assert_uint_eq(arg_get(&r.args, "mask")->ip, 0xFFFF0000u);
    ck_assert_int_eq(arg_get(&r.args, "dest")->kind, TOK_IPV4);
    ck_assert_int_eq(arg_get(&r.args, "mask")->kind, TOK_NETMASK);
    ck_assert(!arg_has(&r.args, "metric"));
    match_result_free(&r);

    ck_assert_int_eq(run(MODE_EXEC, "route 192.168.0.0 255.255.255.252 metric 7", &r), MATCH_OK);
    ck_assert_uint_eq(arg_get(&r.args, "dest")->ip, 0xC0A80000u);
    ck_assert_uint_eq(arg_get(&r.args, "mask")->ip, 0xFFFFFFFCu);
    ck_assert(arg_has(&r.args, "metric"));
    ck_assert_int_eq(arg_num(&r.args, "m", -1), 7);
    match_result_free(&r);

    /* all-ones and all-zeros are contiguous masks */
    ck_assert_str_eq(matched(MODE_EXEC, "route 1.2.3.4 255.255.255.255"), exec_cmds[6].syntax);
    ck_assert_str_eq(matched(MODE_EXEC, "route 0.0.0.0 0.0.0.0"), exec_cmds[6].syntax);

    /* malformed addresses */
    expect(MODE_EXEC, "route 10.1.2.256 255.0.0.0", MATCH_INVALID, 6);
    expect(MODE_EXEC, "route 10.1.2 255.0.0.0", MATCH_INVALID, 6);
    expect(MODE_EXEC, "route 10.1.2.3.4 255.0.0.0", MATCH_INVALID, 6);
    expect(MODE_EXEC, "route 10..2.3 255.0.0.0", MATCH_INVALID, 6);
    expect(MODE_EXEC, "route a.b.c.d 255.0.0.0", MATCH_INVALID, 6);
    /* non-contiguous masks are rejected where the mask is */
    expect(MODE_EXEC, "route 10.0.0.0 255.0.255.0", MATCH_INVALID, 15);
    expect(MODE_EXEC, "route 10.0.0.0 0.255.255.255", MATCH_INVALID, 15);
    expect(MODE_EXEC, "route 10.0.0.0 255.255.255.253", MATCH_INVALID, 15);
}
END_TEST

START_TEST(test_wwn)
{
    static const uint8_t want[8] = {0x20, 0x00, 0x00, 0x0d, 0xec, 0x01, 0xab, 0xFF};
    struct match_result r;
    ck_assert_int_eq(run(MODE_EXEC, "alias 20:00:00:0d:ec:01:AB:ff", &r), MATCH_OK);
    const struct cmd_arg *a = arg_get(&r.args, "pwwn");
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->kind, TOK_WWN);
    ck_assert_mem_eq(a->wwn, want, 8);
    ck_assert_str_eq(a->str, "20:00:00:0d:ec:01:AB:ff");
    match_result_free(&r);

    expect(MODE_EXEC, "alias 20:00:00:0d:ec:01:ab", MATCH_INVALID, 6);     /* 7 bytes */
    expect(MODE_EXEC, "alias 20:00:00:0d:ec:01:ab:ff:00", MATCH_INVALID, 6);
    expect(MODE_EXEC, "alias 2g:00:00:0d:ec:01:ab:ff", MATCH_INVALID, 6);  /* not hex */
    expect(MODE_EXEC, "alias 20-00-00-0d-ec-01-ab-ff", MATCH_INVALID, 6);  /* wrong separator */
    expect(MODE_EXEC, "alias 2:00:00:0d:ec:01:ab:fff", MATCH_INVALID, 6);  /* misaligned */
}
END_TEST

START_TEST(test_slot_port)
{
    struct match_result r;
    ck_assert_int_eq(run(MODE_CONFIG, "interface gigabitethernet 2/3", &r), MATCH_OK);
    const struct cmd_arg *p = arg_get(&r.args, "port");
    ck_assert_int_eq(p->kind, TOK_SLOTPORT);
    ck_assert_int_eq(p->slot, 2);
    ck_assert_int_eq(p->port, 3);
    match_result_free(&r);

    expect(MODE_CONFIG, "interface gigabitethernet 2", MATCH_INVALID, 26);
    expect(MODE_CONFIG, "interface gigabitethernet 2/", MATCH_INVALID, 26);
    expect(MODE_CONFIG, "interface gigabitethernet 2/x", MATCH_INVALID, 26);
    expect(MODE_CONFIG, "interface gigabitethernet 2/3/4", MATCH_INVALID, 26);
    expect(MODE_CONFIG, "interface gigabitethernet /3", MATCH_INVALID, 26);
}
END_TEST

START_TEST(test_time_of_day)
{
    struct match_result r;
    ck_assert_int_eq(run(MODE_EXEC, "at 23:59:59", &r), MATCH_OK);
    ck_assert_int_eq(arg_num(&r.args, "when", -1), 86399);
    ck_assert_int_eq(arg_get(&r.args, "when")->kind, TOK_TIME);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "at 00:00:00", &r), MATCH_OK);
    ck_assert_int_eq(arg_num(&r.args, "when", -1), 0);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "at 7:05:09", &r), MATCH_OK);
    ck_assert_int_eq(arg_num(&r.args, "when", -1), 7 * 3600 + 5 * 60 + 9);
    match_result_free(&r);

    expect(MODE_EXEC, "at 24:00:00", MATCH_INVALID, 3);
    expect(MODE_EXEC, "at 10:60:00", MATCH_INVALID, 3);
    expect(MODE_EXEC, "at 10:00:60", MATCH_INVALID, 3);
    expect(MODE_EXEC, "at 10:00", MATCH_INVALID, 3);
    expect(MODE_EXEC, "at 10:00:00:00", MATCH_INVALID, 3);
}
END_TEST

START_TEST(test_word_and_line)
{
    struct match_result r;
    ck_assert_int_eq(run(MODE_EXEC, "name Core-1_a", &r), MATCH_OK);
    ck_assert_str_eq(arg_str(&r.args, "n"), "Core-1_a");
    ck_assert_int_eq(arg_get(&r.args, "n")->kind, TOK_WORD);
    match_result_free(&r);

    /* rest of line: everything after the keyword, inner spacing kept,
     * trailing blanks dropped */
    ck_assert_int_eq(run(MODE_EXEC, "note  hello   big  world \t ", &r), MATCH_OK);
    ck_assert_str_eq(arg_str(&r.args, "text"), "hello   big  world");
    ck_assert_int_eq(arg_get(&r.args, "text")->off, 6);
    ck_assert_int_eq(arg_get(&r.args, "text")->kind, TOK_LINE);
    match_result_free(&r);

    /* words that look like other things are still text */
    ck_assert_int_eq(run(MODE_EXEC, "note 10.1.1.1 show clock g2/2", &r), MATCH_OK);
    ck_assert_str_eq(arg_str(&r.args, "text"), "10.1.1.1 show clock g2/2");
    match_result_free(&r);
}
END_TEST

START_TEST(test_optional_and_alternatives)
{
    struct match_result r;
    ck_assert_int_eq(run(MODE_EXEC, "configure", &r), MATCH_OK);
    ck_assert(!arg_has(&r.args, "terminal"));
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "configure terminal", &r), MATCH_OK);
    ck_assert(arg_has(&r.args, "terminal"));
    match_result_free(&r);

    ck_assert_int_eq(run(MODE_EXEC, "speed auto", &r), MATCH_OK);
    ck_assert(arg_has(&r.args, "auto"));
    ck_assert(!arg_has(&r.args, "fixed"));
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "speed fixed 100", &r), MATCH_OK);
    ck_assert(arg_has(&r.args, "fixed"));
    ck_assert(!arg_has(&r.args, "auto"));
    ck_assert_int_eq(arg_num(&r.args, "mbps", -1), 100);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "sp f 1001", &r), MATCH_RANGE);
    ck_assert_int_eq(r.lo, 10);
    ck_assert_int_eq(r.hi, 1000);
    match_result_free(&r);

    expect(MODE_EXEC, "speed", MATCH_INCOMPLETE, 5);
    expect(MODE_EXEC, "speed fixed", MATCH_INCOMPLETE, 11);
    expect(MODE_EXEC, "speed auto 100", MATCH_INVALID, 11);
    expect(MODE_EXEC, "speed both", MATCH_INVALID, 6);
    expect(MODE_IF, "ips compression mode4", MATCH_INVALID, 16);
    ck_assert_str_eq(matched(MODE_IF, "ips compression mode3"), config_cmds[3].syntax);
    ck_assert_str_eq(matched(MODE_IF, "ips comp a"), config_cmds[3].syntax);
    expect(MODE_IF, "ips compression mode", MATCH_AMBIGUOUS, 16);
}
END_TEST

START_TEST(test_no_form)
{
    struct match_result r;
    ck_assert_int_eq(run(MODE_IF, "shutdown", &r), MATCH_OK);
    ck_assert(!r.args.negated);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_IF, "no shutdown", &r), MATCH_OK);
    ck_assert(r.args.negated);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_IF, "NO SHUT", &r), MATCH_OK);
    ck_assert(r.args.negated);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_IF, "no sh", &r), MATCH_OK);
    ck_assert(r.args.negated);
    match_result_free(&r);
    /* commands without a no form do not take one */
    expect(MODE_IF, "no description x", MATCH_INVALID, 3);
    expect(MODE_IF, "no", MATCH_INCOMPLETE, 2);
    /* a plain command's args are not negated */
    ck_assert_int_eq(run(MODE_IF, "description no shutdown", &r), MATCH_OK);
    ck_assert(!r.args.negated);
    ck_assert_str_eq(arg_str(&r.args, "text"), "no shutdown");
    match_result_free(&r);
}
END_TEST

START_TEST(test_keyword_beats_variable)
{
    struct match_result r;
    /* `label {default | <n:word>}`: the word `default` could be a name,
     * but the keyword wins, typed in full or abbreviated */
    ck_assert_int_eq(run(MODE_EXEC, "label default", &r), MATCH_OK);
    ck_assert(arg_has(&r.args, "default"));
    ck_assert_ptr_null(arg_get(&r.args, "n"));
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "label def", &r), MATCH_OK);
    ck_assert(arg_has(&r.args, "default"));
    ck_assert_ptr_null(arg_get(&r.args, "n"));
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "label other", &r), MATCH_OK);
    ck_assert(!arg_has(&r.args, "default"));
    ck_assert_str_eq(arg_str(&r.args, "n"), "other");
    match_result_free(&r);

    /* `level {max | <n:1-10>}`: a typed number takes the variable */
    ck_assert_int_eq(run(MODE_EXEC, "level m", &r), MATCH_OK);
    ck_assert(arg_has(&r.args, "max"));
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_EXEC, "level 4", &r), MATCH_OK);
    ck_assert(!arg_has(&r.args, "max"));
    ck_assert_int_eq(arg_num(&r.args, "n", -1), 4);
    match_result_free(&r);
}
END_TEST

/* `n` starts both `name` and `note`: ambiguous unless one is typed in full. */
START_TEST(test_prefix_of_two_commands)
{
    expect(MODE_EXEC, "n x", MATCH_AMBIGUOUS, 0);
}
END_TEST

START_TEST(test_feature_gate)
{
    expect(MODE_EXEC, "gated", MATCH_INVALID, 0);
    feature_on = true;
    ck_assert_str_eq(matched(MODE_EXEC, "gated"), "gated");
    /* a hidden command still matches */
    ck_assert_str_eq(matched(MODE_EXEC, "secret"), "secret");
}
END_TEST

/* ---------------------------- lexer ------------------------------- */

static void lex_expect(const char *line, int n, const char *const *words, const size_t *offs)
{
    struct words w = {0};
    lex_line(&w, line, strlen(line));
    ck_assert_msg(w.n == n, "\"%s\": %d words, want %d", line, w.n, n);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(w.w[i].len == strlen(words[i]) && strncmp(w.w[i].s, words[i], w.w[i].len) == 0,
                      "\"%s\" word %d: \"%.*s\", want \"%s\"", line, i, (int)w.w[i].len, w.w[i].s, words[i]);
        ck_assert_msg(w.w[i].off == offs[i], "\"%s\" word %d at %zu, want %zu", line, i, w.w[i].off, offs[i]);
    }
    lex_free(&w);
}

START_TEST(test_lex_interface_names)
{
    lex_expect("int g2/2", 3, (const char *[]){"int", "g", "2/2"}, (const size_t[]){0, 4, 5});
    lex_expect("int gig 2/2", 3, (const char *[]){"int", "gig", "2/2"}, (const size_t[]){0, 4, 8});
    lex_expect("interface GigabitEthernet2/2", 3, (const char *[]){"interface", "GigabitEthernet", "2/2"},
               (const size_t[]){0, 10, 25});
    lex_expect("interface fcip1", 3, (const char *[]){"interface", "fcip", "1"}, (const size_t[]){0, 10, 14});
    lex_expect("int Gig3/1.601", 3, (const char *[]){"int", "Gig", "3/1.601"}, (const size_t[]){0, 4, 7});
    /* not interface names: left whole */
    lex_expect("ips compression mode3", 3, (const char *[]){"ips", "compression", "mode3"},
               (const size_t[]){0, 4, 16});
    lex_expect("name abc2", 2, (const char *[]){"name", "abc2"}, (const size_t[]){0, 5});
    lex_expect("name g2x", 2, (const char *[]){"name", "g2x"}, (const size_t[]){0, 5});
    lex_expect("", 0, NULL, NULL);
    lex_expect(" \t ", 0, NULL, NULL);
}
END_TEST

START_TEST(test_interface_spellings_match)
{
    static const char *const ge[] = {"interface gigabitethernet 2/2", "int g2/2", "int gig 2/2",
                                     "INT GigabitEthernet2/2", "in gigabitethernet2/2", "int g 2/2"};
    for (size_t i = 0; i < sizeof ge / sizeof ge[0]; i++) {
        struct match_result r;
        ck_assert_msg(run(MODE_CONFIG, ge[i], &r) == MATCH_OK, "\"%s\" did not match", ge[i]);
        ck_assert_str_eq(r.var->cmd->syntax, config_cmds[0].syntax);
        ck_assert_int_eq(arg_get(&r.args, "port")->slot, 2);
        ck_assert_int_eq(arg_get(&r.args, "port")->port, 2);
        match_result_free(&r);
    }
    struct match_result r;
    ck_assert_int_eq(run(MODE_CONFIG, "int fcip1", &r), MATCH_OK);
    ck_assert_str_eq(r.var->cmd->syntax, config_cmds[1].syntax);
    ck_assert_int_eq(arg_num(&r.args, "id", -1), 1);
    match_result_free(&r);
    ck_assert_int_eq(run(MODE_CONFIG, "int fcip256", &r), MATCH_RANGE);
    ck_assert_uint_eq(r.err_off, 8); /* at the number, inside the glued word */
    match_result_free(&r);
    /* a bad port glued to its type is not split: the caret goes under
     * the word as typed; spaced, under the number */
    expect(MODE_CONFIG, "int g2/x", MATCH_INVALID, 4);
    expect(MODE_CONFIG, "int g 2/x", MATCH_INVALID, 6);
    expect(MODE_CONFIG, "int g2/2/2", MATCH_INVALID, 5);
    /* a type prefix that fits neither interface type */
    expect(MODE_CONFIG, "int x2/2", MATCH_INVALID, 4);
    /* also from (config-if) */
    ck_assert_str_eq(matched(MODE_IF, "int g2/3"), config_cmds[0].syntax);
}
END_TEST

/* ---------------------------- help -------------------------------- */

/* Help for `line`: a trailing space means "what comes next", else the
 * last word is a partial one (as the session does). */
static void help(const struct mode_info *m, const char *line, struct help_list *h, struct words *w)
{
    lex_line(w, line, strlen(line));
    size_t len = strlen(line);
    bool partial = len > 0 && line[len - 1] != ' ' && w->n > 0;
    int nfull = partial ? w->n - 1 : w->n;
    struct match_env e = {G, m, gate, NULL, NULL};
    match_help(&e, w, nfull, partial ? w->w[w->n - 1].s : "", partial ? w->w[w->n - 1].len : 0, h);
}

static int help_find(const struct help_list *h, const char *word)
{
    for (int i = 0; i < h->n; i++)
        if (strcmp(h->items[i].word, word) == 0)
            return i;
    return -1;
}

START_TEST(test_help_first_words)
{
    struct help_list h;
    struct words w = {0};
    help(MODE_EXEC, "", &h, &w);
    ck_assert_int_eq(h.status, MATCH_OK);
    ck_assert(!h.cr);
    ck_assert(!h.pipe);
    static const char *const want[] = {"alias", "at", "configure", "copy", "label", "level", "mtu",
                                       "name", "note", "route", "show", "speed"};
    ck_assert_int_eq(h.n, (int)(sizeof want / sizeof want[0])); /* no secret, no gated */
    for (int i = 0; i < h.n; i++) /* sorted, each once */
        ck_assert_str_eq(h.items[i].word, want[i]);
    ck_assert_str_eq(h.items[help_find(&h, "mtu")].help, "Set MTU");
    help_list_free(&h);
    lex_free(&w);

    feature_on = true;
    help(MODE_EXEC, "", &h, &w);
    ck_assert_int_ge(help_find(&h, "gated"), 0);
    ck_assert_int_lt(help_find(&h, "secret"), 0);
    help_list_free(&h);
    lex_free(&w);
}
END_TEST

START_TEST(test_help_next_word)
{
    struct help_list h;
    struct words w = {0};
    help(MODE_EXEC, "show ", &h, &w);
    ck_assert_int_eq(h.n, 3);
    ck_assert_str_eq(h.items[0].word, "clock");
    ck_assert_str_eq(h.items[1].word, "counters");
    ck_assert_str_eq(h.items[2].word, "counters-detail");
    ck_assert_str_eq(h.items[1].help, "Counters");
    ck_assert(!h.cr);
    help_list_free(&h);
    lex_free(&w);

    /* a complete command: <CR>, and `|` when it prints output */
    help(MODE_EXEC, "show clock ", &h, &w);
    ck_assert_int_eq(h.n, 0);
    ck_assert(h.cr);
    ck_assert(h.pipe);
    help_list_free(&h);
    lex_free(&w);
    help(MODE_EXEC, "sh cl ", &h, &w);
    ck_assert(h.cr && h.pipe);
    help_list_free(&h);
    lex_free(&w);

    /* complete, or more to come: both <CR> and the keyword; no pipe */
    help(MODE_EXEC, "configure ", &h, &w);
    ck_assert_int_eq(h.n, 1);
    ck_assert_str_eq(h.items[0].word, "terminal");
    ck_assert(h.cr);
    ck_assert(!h.pipe);
    help_list_free(&h);
    lex_free(&w);

    /* variables in display form; keywords before variables */
    help(MODE_EXEC, "mtu ", &h, &w);
    ck_assert_int_eq(h.n, 1);
    ck_assert_str_eq(h.items[0].word, "<576-9000>");
    ck_assert_str_eq(h.items[0].help, "MTU in bytes");
    ck_assert(!h.cr);
    help_list_free(&h);
    lex_free(&w);
    help(MODE_EXEC, "level ", &h, &w);
    ck_assert_int_eq(h.n, 2);
    ck_assert_str_eq(h.items[0].word, "max");
    ck_assert_str_eq(h.items[1].word, "<1-10>");
    help_list_free(&h);
    lex_free(&w);
    help(MODE_EXEC, "route ", &h, &w);
    ck_assert_int_eq(h.n, 1);
    ck_assert_str_eq(h.items[0].word, "A.B.C.D");
    help_list_free(&h);
    lex_free(&w);
    help(MODE_EXEC, "route 1.0.0.0 255.0.0.0 ", &h, &w);
    ck_assert_int_eq(h.n, 1);
    ck_assert_str_eq(h.items[0].word, "metric");
    ck_assert(h.cr);
    help_list_free(&h);
    lex_free(&w);

    /* a bad word before the one asked about: status and offset */
    help(MODE_EXEC, "show bogus ", &h, &w);
    ck_assert_int_eq(h.status, MATCH_INVALID);
    ck_assert_uint_eq(h.err_off, 5);
    ck_assert_int_eq(h.n, 0);
    help_list_free(&h);
    lex_free(&w);
    help(MODE_EXEC, "co ", &h, &w);
    ck_assert_int_eq(h.status, MATCH_AMBIGUOUS);
    ck_assert_uint_eq(h.err_off, 0);
    help_list_free(&h);
    lex_free(&w);
}
END_TEST

START_TEST(test_help_partial_word)
{
    struct help_list h;
    struct words w = {0};
    help(MODE_EXEC, "show co", &h, &w);
    ck_assert_int_eq(h.status, MATCH_OK);
    ck_assert_int_eq(h.n, 2);
    ck_assert_str_eq(h.items[0].word, "counters");
    ck_assert_str_eq(h.items[1].word, "counters-detail");
    ck_assert(!h.cr); /* `show co` itself is not a command */
    help_list_free(&h);
    lex_free(&w);

    help(MODE_EXEC, "c", &h, &w);
    ck_assert_int_eq(h.n, 2);
    ck_assert_str_eq(h.items[0].word, "configure");
    ck_assert_str_eq(h.items[1].word, "copy");
    help_list_free(&h);
    lex_free(&w);

    help(MODE_EXEC, "SH", &h, &w); /* case-insensitive */
    ck_assert_int_eq(h.n, 1);
    ck_assert_str_eq(h.items[0].word, "show");
    help_list_free(&h);
    lex_free(&w);

    help(MODE_EXEC, "xyz", &h, &w);
    ck_assert_int_eq(h.n, 0);
    ck_assert(!h.cr);
    help_list_free(&h);
    lex_free(&w);

    /* a partial value: offered only when it could still become one */
    help(MODE_EXEC, "mtu 15", &h, &w);
    ck_assert_int_eq(h.n, 1);
    ck_assert_str_eq(h.items[0].word, "<576-9000>");
    help_list_free(&h);
    lex_free(&w);
    help(MODE_EXEC, "mtu x", &h, &w);
    ck_assert_int_eq(h.n, 0);
    help_list_free(&h);
    lex_free(&w);
    help(MODE_EXEC, "level m", &h, &w);
    ck_assert_int_eq(h.n, 1);
    ck_assert_str_eq(h.items[0].word, "max");
    help_list_free(&h);
    lex_free(&w);

    /* [no] forms in (config-if) */
    help(MODE_IF, "no ", &h, &w);
    ck_assert_int_eq(h.n, 1);
    ck_assert_str_eq(h.items[0].word, "shutdown");
    help_list_free(&h);
    lex_free(&w);
}
END_TEST

START_TEST(test_gtoken_display)
{
    char buf[32];
    struct gtoken t = {TOK_INT, "x", NULL, 1, 255, NULL};
    gtoken_display(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "<1-255>");
    t.kind = TOK_IPV4;
    gtoken_display(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "A.B.C.D");
    t.kind = TOK_TIME;
    gtoken_display(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "HH:MM:SS");
    t.kind = TOK_LINE;
    gtoken_display(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "LINE");
    t.kind = TOK_KEYWORD;
    t.text = "shutdown";
    gtoken_display(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "shutdown");
}
END_TEST

static Suite *match_suite(void)
{
    Suite *s = suite_create("match");
    ifname_use_types(iftypes);
    TCase *tc = tcase_create("match_line");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_exact_and_abbreviated);
    tcase_add_test(tc, test_case_insensitive);
    tcase_add_test(tc, test_ambiguous);
    tcase_add_test(tc, test_invalid_and_too_many);
    tcase_add_test(tc, test_incomplete);
    tcase_add_test(tc, test_integer_range);
    tcase_add_test(tc, test_ipv4_and_netmask);
    tcase_add_test(tc, test_wwn);
    tcase_add_test(tc, test_slot_port);
    tcase_add_test(tc, test_time_of_day);
    tcase_add_test(tc, test_word_and_line);
    tcase_add_test(tc, test_optional_and_alternatives);
    tcase_add_test(tc, test_no_form);
    tcase_add_test(tc, test_keyword_beats_variable);
    tcase_add_test(tc, test_prefix_of_two_commands);
    tcase_add_test(tc, test_feature_gate);
    tcase_add_test(tc, test_interface_spellings_match);
    suite_add_tcase(s, tc);

    TCase *tl = tcase_create("lex");
    tcase_add_test(tl, test_lex_interface_names);
    suite_add_tcase(s, tl);

    TCase *th = tcase_create("match_help");
    tcase_add_checked_fixture(th, setup, teardown);
    tcase_add_test(th, test_help_first_words);
    tcase_add_test(th, test_help_next_word);
    tcase_add_test(th, test_help_partial_word);
    tcase_add_test(th, test_gtoken_display);
    suite_add_tcase(s, th);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(match_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
