/* Output filters after `|`: each rewrites the command's output buffer. */
#include "session.h"
#include "parser_cmds.h"
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* Calls fn for each line of the output (without its newline). */
static void each_line(strbuf *in, void (*fn)(const char *l, size_t n, void *arg), void *arg)
{
    const char *p = sb_str(in), *end = p + in->len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        fn(p, n, arg);
        p += n + (nl ? 1 : 0);
    }
}

struct grep {
    regex_t re;
    bool invert, begun, begin_mode, section;
    size_t section_indent; /* indentation of the line that opened a section */
    bool in_section;
    strbuf out;
};

static size_t indent_of(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && l[i] == ' ')
        i++;
    return i;
}

static bool line_matches(struct grep *g, const char *l, size_t n)
{
    char *z = strndup(l, n);
    if (!z)
        abort();
    bool m = regexec(&g->re, z, 0, NULL, 0) == 0;
    free(z);
    return m;
}

static void grep_line(const char *l, size_t n, void *arg)
{
    struct grep *g = arg;
    bool keep;
    if (g->begin_mode) {
        g->begun = g->begun || line_matches(g, l, n);
        keep = g->begun;
    } else if (g->section) {
        if (g->in_section && n > 0 && indent_of(l, n) > g->section_indent)
            keep = true;
        else if ((g->in_section = line_matches(g, l, n)))
            g->section_indent = indent_of(l, n), keep = true;
        else
            keep = false;
    } else {
        keep = line_matches(g, l, n) != g->invert;
    }
    if (keep) {
        sb_add(&g->out, l, n);
        sb_add(&g->out, "\n", 1);
    }
}

/* The pattern as typed, less the double quotes around it: `include "a b"`
 * matches `a b`, as NX-OS reads it. */
static char *pattern(const struct cmd_args *a)
{
    const char *r = arg_str(a, "regex");
    size_t n = strlen(r);
    char *p = n >= 2 && r[0] == '"' && r[n - 1] == '"' ? strndup(r + 1, n - 2) : strdup(r);
    if (!p)
        abort();
    return p;
}

static int run_grep(struct session *s, const struct cmd_args *a, struct grep g)
{
    char *re = pattern(a);
    int bad = regcomp(&g.re, re, REG_EXTENDED | REG_NOSUB);
    free(re);
    if (bad) {
        sb_clear(&s->out); /* the error replaces the output, not follows it */
        return cmd_error(s, "%% Invalid regular expression");
    }
    sb_init(&g.out);
    each_line(&s->out, grep_line, &g);
    regfree(&g.re);
    sb_swap(&s->out, &g.out);
    sb_free(&g.out);
    return 0;
}

static int f_include(struct session *s, const struct cmd_args *a)
{
    return run_grep(s, a, (struct grep){.invert = false});
}

static int f_exclude(struct session *s, const struct cmd_args *a)
{
    return run_grep(s, a, (struct grep){.invert = true});
}

static int f_begin(struct session *s, const struct cmd_args *a)
{
    return run_grep(s, a, (struct grep){.begin_mode = true});
}

static int f_section(struct session *s, const struct cmd_args *a)
{
    return run_grep(s, a, (struct grep){.section = true});
}

static void count_line(const char *l, size_t n, void *arg)
{
    (void)l;
    (void)n;
    ++*(long *)arg;
}

static int f_count(struct session *s, const struct cmd_args *a)
{
    (void)a;
    long n = 0;
    each_line(&s->out, count_line, &n);
    sb_clear(&s->out);
    sb_printf(&s->out, "%ld\n", n);
    return 0;
}

static int f_last(struct session *s, const struct cmd_args *a)
{
    long want = arg_num(a, "lines", 10), total = 0;
    each_line(&s->out, count_line, &total);
    const char *p = sb_str(&s->out);
    for (long skip = total - want; skip > 0; skip--)
        p = strchr(p, '\n') + 1;
    strbuf t;
    sb_init(&t);
    sb_puts(&t, p);
    sb_swap(&s->out, &t);
    sb_free(&t);
    return 0;
}

static int f_no_more(struct session *s, const struct cmd_args *a)
{
    (void)a;
    s->no_more = true;
    return 0;
}

const struct cmd_def filter_cmds[] = {
    {M(MODE_FILTER), "include <regex:line>", "regex: Regular expression", f_include, CMD_PIPE, 0, 0},
    {M(MODE_FILTER), "exclude <regex:line>", "regex: Regular expression", f_exclude, CMD_PIPE, 0, 0},
    {M(MODE_FILTER), "begin <regex:line>", "regex: Regular expression", f_begin, CMD_PIPE, 0, 0},
    {M(MODE_FILTER), "section <regex:line>", "regex: Regular expression", f_section, CMD_PIPE, 0, 0},
    {M(MODE_FILTER), "count", NULL, f_count, CMD_PIPE, 0, 0},
    {M(MODE_FILTER), "last [<lines:1-9999>]", "lines: Number of lines from the end (default 10)",
     f_last, CMD_PIPE, 0, 0},
    {M(MODE_FILTER), "no-more", NULL, f_no_more, CMD_PIPE, 0, 0},
    {0},
};
