/*
 * Output filters after `|`: each rewrites the command's output buffer.
 * They run with the lab released (session.c) and their cost is bounded:
 * the patterns by parser/pattern.c, the whole chain by FILTER_CPU_NS of
 * this thread's CPU time and the output they take by FILTER_MAX_BYTES
 * (docs/filters.md).
 */
#include "session.h"
#include "parser_cmds.h"
#include "pattern.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { FILTER_MAX_BYTES = 16 * 1024 * 1024 };
static const long long FILTER_CPU_NS = 2000000000LL;

/* One line of the output, without its newline. */
struct line {
    const char *s;
    size_t n;
};

/* What every filter shares while it walks the lines. */
struct walk {
    struct session *s;
    long long cpu_end;  /* thread CPU time past which the filter stops */
    const char *error;  /* why it stopped, or NULL */
    strbuf out;
};

static long long cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void walk_init(struct walk *w, struct session *s)
{
    w->s = s;
    w->cpu_end = cpu_ns() + FILTER_CPU_NS;
    w->error = NULL;
    sb_init(&w->out);
}

/* Calls fn for each line until it returns false or the walk fails. */
static void each_line(struct walk *w, bool (*fn)(struct walk *w, struct line l, void *arg), void *arg)
{
    const char *p = sb_str(&w->s->out), *end = p + w->s->out.len;
    if (w->s->out.len > FILTER_MAX_BYTES)
        w->error = "% Output too large to filter";
    for (long i = 0; p < end && !w->error; i++) {
        if ((i & 63) == 63 && cpu_ns() > w->cpu_end) {
            w->error = "% Filter took too long, output dropped";
            break;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (!fn(w, (struct line){p, n}, arg))
            break;
        p += n + (nl ? 1 : 0);
    }
}

/* The walk's output replaces the command's; an error replaces it alone. */
static int walk_end(struct walk *w)
{
    int rc = 0;
    if (w->error) {
        sb_clear(&w->s->out);
        rc = cmd_error(w->s, "%s", w->error);
    } else {
        sb_swap(&w->s->out, &w->out);
    }
    sb_free(&w->out);
    return rc;
}

static void put_line(struct walk *w, struct line l)
{
    sb_add(&w->out, l.s, l.n);
    sb_add(&w->out, "\n", 1);
}

/* How a pattern filter picks lines. */
enum grep_kind { G_INCLUDE, G_EXCLUDE, G_BEGIN, G_SECTION, G_GREP };

struct grep {
    enum grep_kind kind;
    struct pattern *re;
    bool invert, count_only, numbers;
    long after, before; /* context lines (grep next / prev) */
    bool begun, in_section;
    size_t section_indent; /* indentation of the line that opened a section */
    long lineno, matches, last_shown, after_left;
    struct line ring[1000]; /* the last `prev` lines, line k at k % before */
};

static size_t indent_of(struct line l)
{
    size_t i = 0;
    while (i < l.n && l.s[i] == ' ')
        i++;
    return i;
}

static bool matches(struct walk *w, struct grep *g, struct line l)
{
    int m = pattern_match(g->re, l.s, l.n);
    if (m < 0)
        w->error = "% Regular expression too complex for this output";
    return m > 0;
}

/* grep's own output: `N:` before a match, `N-` before context, `--`
 * between groups that do not touch, as GNU grep prints them. */
static void grep_show(struct walk *w, struct grep *g, struct line l, long no, bool match)
{
    if (g->last_shown && no > g->last_shown + 1 && (g->after || g->before))
        sb_puts(&w->out, "--\n");
    if (g->numbers)
        sb_printf(&w->out, "%ld%c", no, match ? ':' : '-');
    put_line(w, l);
    g->last_shown = no;
}

static void grep_context(struct walk *w, struct grep *g, struct line l, bool hit)
{
    long no = g->lineno;
    if (hit) {
        g->matches++;
        if (g->count_only)
            return;
        for (long k = no - g->before; k < no; k++) /* the lines before, kept in the ring */
            if (k > g->last_shown && k >= 1)
                grep_show(w, g, g->ring[k % g->before], k, false);
        grep_show(w, g, l, no, true);
        g->after_left = g->after;
    } else if (g->after_left > 0 && !g->count_only) {
        g->after_left--;
        grep_show(w, g, l, no, false);
    }
    if (g->before)
        g->ring[no % g->before] = l;
}

static bool grep_line(struct walk *w, struct line l, void *arg)
{
    struct grep *g = arg;
    g->lineno++;
    bool keep;
    switch (g->kind) {
    case G_BEGIN:
        g->begun = g->begun || matches(w, g, l);
        keep = g->begun;
        break;
    case G_SECTION:
        if (g->in_section && l.n > 0 && indent_of(l) > g->section_indent)
            keep = true;
        else if ((g->in_section = matches(w, g, l)))
            g->section_indent = indent_of(l), keep = true;
        else
            keep = false;
        break;
    case G_GREP:
        grep_context(w, g, l, matches(w, g, l) != g->invert);
        return true;
    default:
        keep = matches(w, g, l) != (g->kind == G_EXCLUDE);
    }
    if (keep)
        put_line(w, l);
    return true;
}

/* The pattern as typed, less the double quotes around it: `include "a b"`
 * matches `a b`, as NX-OS reads it. */
static char *pattern_text(const struct cmd_args *a)
{
    const char *r = arg_str(a, "regex");
    size_t n = strlen(r);
    char *p = n >= 2 && r[0] == '"' && r[n - 1] == '"' ? strndup(r + 1, n - 2) : strdup(r);
    if (!p)
        abort();
    return p;
}

static int run_grep(struct session *s, const struct cmd_args *a, struct grep *g,
                    enum pattern_syntax syn, int flags)
{
    char err[96], *text = pattern_text(a);
    g->re = pattern_compile(text, syn, flags, err, sizeof err);
    free(text);
    if (!g->re) {
        sb_clear(&s->out); /* the error replaces the output, not follows it */
        return cmd_error(s, "%s", err);
    }
    struct walk w;
    walk_init(&w, s);
    each_line(&w, grep_line, g);
    if (g->count_only && !w.error)
        sb_printf(&w.out, "%ld\n", g->matches);
    pattern_free(g->re);
    return walk_end(&w);
}

static int f_include(struct session *s, const struct cmd_args *a)
{
    return run_grep(s, a, &(struct grep){.kind = G_INCLUDE}, PATTERN_ERE, 0);
}

static int f_exclude(struct session *s, const struct cmd_args *a)
{
    return run_grep(s, a, &(struct grep){.kind = G_EXCLUDE}, PATTERN_ERE, 0);
}

static int f_begin(struct session *s, const struct cmd_args *a)
{
    return run_grep(s, a, &(struct grep){.kind = G_BEGIN}, PATTERN_ERE, 0);
}

static int f_section(struct session *s, const struct cmd_args *a)
{
    return run_grep(s, a, &(struct grep){.kind = G_SECTION}, PATTERN_ERE, 0);
}

/* `grep` and `egrep`: the same options, basic or extended syntax. */
static int grep_cmd(struct session *s, const struct cmd_args *a, enum pattern_syntax syn)
{
    const struct cmd_arg *re = arg_get(a, "regex");
    if (re->str[0] == '-') { /* GNU grep's options (-v, -i) are not NX-OS's */
        sb_clear(&s->out);
        sb_printf(&s->out, "%*s^\n", a->offset + re->off + 1, "");
        return cmd_error(s, "%% Invalid command at '^' marker.");
    }
    struct grep *g = calloc(1, sizeof *g); /* the ring is large for a stack */
    if (!g)
        abort();
    *g = (struct grep){
        .kind = G_GREP,
        .invert = arg_has(a, "invert-match"),
        .count_only = arg_has(a, "count"),
        .numbers = arg_has(a, "line-number"),
        .after = arg_num(a, "after", 0),
        .before = arg_num(a, "before", 0),
    };
    int flags = (arg_has(a, "ignore-case") ? PATTERN_ICASE : 0) |
                (arg_has(a, "word-exp") ? PATTERN_WORD : 0) | (arg_has(a, "line-exp") ? PATTERN_LINE : 0);
    int rc = run_grep(s, a, g, syn, flags);
    free(g);
    return rc;
}

static int f_grep(struct session *s, const struct cmd_args *a) { return grep_cmd(s, a, PATTERN_BRE); }
static int f_egrep(struct session *s, const struct cmd_args *a) { return grep_cmd(s, a, PATTERN_ERE); }

/* The output as lines, for the filters that need them all at once. */
struct lines {
    struct line *v;
    long n, cap;
};

static bool collect(struct walk *w, struct line l, void *arg)
{
    (void)w;
    struct lines *ls = arg;
    if (ls->n == ls->cap) {
        ls->cap = ls->cap ? ls->cap * 2 : 64;
        ls->v = realloc(ls->v, (size_t)ls->cap * sizeof *ls->v);
        if (!ls->v)
            abort();
    }
    ls->v[ls->n++] = l;
    return true;
}

static int f_count(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct lines ls = {0};
    struct walk w;
    walk_init(&w, s);
    each_line(&w, collect, &ls);
    sb_printf(&w.out, "%ld\n", ls.n);
    free(ls.v);
    return walk_end(&w);
}

/* `last` and `head`: a run of lines kept, by position. */
static int keep_range(struct session *s, long from_end, long first)
{
    struct lines ls = {0};
    struct walk w;
    walk_init(&w, s);
    each_line(&w, collect, &ls);
    long lo = from_end ? ls.n - from_end : 0, hi = from_end ? ls.n : first;
    for (long i = lo < 0 ? 0 : lo; i < hi && i < ls.n; i++)
        put_line(&w, ls.v[i]);
    free(ls.v);
    return walk_end(&w);
}

static int f_last(struct session *s, const struct cmd_args *a)
{
    return keep_range(s, arg_num(a, "lines", 10), 0);
}

static int f_head(struct session *s, const struct cmd_args *a)
{
    return keep_range(s, 0, arg_num(a, "count", 10));
}

static int cmp_line(const void *x, const void *y)
{
    const struct line *a = x, *b = y;
    int c = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);
    return c ? c : (a->n > b->n) - (a->n < b->n);
}

/* Byte order, as `sort` in the C locale. */
static int f_sort(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct lines ls = {0};
    struct walk w;
    walk_init(&w, s);
    each_line(&w, collect, &ls);
    if (ls.n > 1) /* qsort(NULL, 0) is undefined: every line may be filtered away */
        qsort(ls.v, (size_t)ls.n, sizeof *ls.v, cmp_line);
    for (long i = 0; i < ls.n; i++)
        put_line(&w, ls.v[i]);
    free(ls.v);
    return walk_end(&w);
}

static bool uniq_line(struct walk *w, struct line l, void *arg)
{
    struct line *prev = arg;
    if (!prev->s || cmp_line(prev, &l) != 0)
        put_line(w, l);
    *prev = l;
    return true;
}

static int f_uniq(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct line prev = {0};
    struct walk w;
    walk_init(&w, s);
    each_line(&w, uniq_line, &prev);
    return walk_end(&w);
}

/* wc's counts: newlines, words, UTF-8 characters, bytes. */
static int f_wc(struct session *s, const struct cmd_args *a)
{
    if (s->out.len > FILTER_MAX_BYTES) {
        sb_clear(&s->out);
        return cmd_error(s, "%% Output too large to filter");
    }
    const char *p = sb_str(&s->out);
    long lines = 0, words = 0, chars = 0, bytes = (long)s->out.len;
    bool in_word = false;
    for (size_t i = 0; i < s->out.len; i++) {
        unsigned char c = (unsigned char)p[i];
        lines += c == '\n';
        chars += (c & 0xc0) != 0x80;
        bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
        words += !space && !in_word;
        in_word = !space;
    }
    static const char *const which[] = {"lines", "words", "chars", "bytes"};
    long v[] = {lines, words, chars, bytes};
    sb_clear(&s->out);
    for (int i = 0; i < 4; i++)
        if (arg_has(a, which[i])) {
            sb_printf(&s->out, "%ld\n", v[i]);
            return 0;
        }
    sb_printf(&s->out, "%7ld %7ld %7ld\n", lines, words, bytes); /* as wc prints stdin */
    return 0;
}

static int f_no_more(struct session *s, const struct cmd_args *a)
{
    (void)a;
    s->no_more = true;
    return 0;
}

#define GREP_OPTS                                                                           \
    " [count] [ignore-case] [invert-match] [line-exp] [line-number] [next <after:0-999>]" \
    " [prev <before:0-999>] [word-exp] <regex:line>"
#define GREP_HELP                                                                              \
    "count: Print a total count of matching lines only\n"                                      \
    "ignore-case: Ignore case difference when comparing strings\n"                             \
    "invert-match: Print only lines that contain no matches for <expr>\n"                      \
    "line-exp: Print only lines where the match is a whole line\n"                             \
    "line-number: Print each match preceded by its line number\n"                              \
    "next: Print <num> lines of context after every matching line\n"                           \
    "prev: Print <num> lines of context before every matching line\n"                          \
    "word-exp: Print only lines where the match is a complete word\n"                          \
    "after: Number of lines\nbefore: Number of lines\nregex: Regular expression"

const struct cmd_def filter_cmds[] = {
    {MODES(MODE_FILTER), "include <regex:line>", "regex: Regular expression", f_include, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "exclude <regex:line>", "regex: Regular expression", f_exclude, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "begin <regex:line>", "regex: Regular expression", f_begin, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "section <regex:line>", "regex: Regular expression", f_section, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "grep" GREP_OPTS, GREP_HELP, f_grep, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "egrep" GREP_OPTS, GREP_HELP, f_egrep, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "count", NULL, f_count, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "last [<lines:1-9999>]", "lines: Number of lines from the end (default 10)",
     f_last, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "head [lines <count:1-9999>]",
     "lines: Print first <num> lines (default 10)\ncount: Number of lines", f_head, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "sort", NULL, f_sort, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "uniq", NULL, f_uniq, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "wc [{bytes | chars | lines | words}]",
     "bytes: Print the byte count\nchars: Print the character count\n"
     "lines: Print the newline count\nwords: Print the word count",
     f_wc, CMD_PIPE, 0, 0},
    {MODES(MODE_FILTER), "no-more", NULL, f_no_more, CMD_PIPE, 0, 0},
    {0},
};
