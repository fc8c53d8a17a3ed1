/* POSIX regular expressions, as NX-OS filters take them, on bounded PCRE2. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "pattern.h"
#include "strbuf.h"
#include <pcre2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bounds (docs/filters.md). A pattern a person types for a show
 * output is tens of characters, a few groups deep, a few hundred bytes
 * compiled, and matches a line in well under a thousand steps. */
enum {
    MAX_PCRE_CHARS = 4 * PATTERN_MAX_CHARS, /* after translation (`\<` grows) */
    MAX_NEST = 32,                           /* parentheses */
    MAX_COMPILED = 64 * 1024,                /* bytes of compiled pattern */
    MAX_MEMORY = 4 * 1024 * 1024,            /* bytes PCRE2 may allocate in all */
    MATCH_STEPS = 50000,                     /* per line: tens of ms at worst */
    MATCH_DEPTH = 2000,                      /* nested backtracking frames */
    MATCH_HEAP_KB = 1024,                    /* backtracking memory per match */
};

struct pattern {
    size_t used; /* bytes allocated through gc: all of PCRE2's memory */
    pcre2_general_context *gc;
    pcre2_compile_context *cc;
    pcre2_match_context *mc;
    pcre2_code *code;
    pcre2_match_data *md;
};

/* PCRE2's allocator: refuses past MAX_MEMORY, so that no pattern or line
 * can make it take more, whatever the limits below miss. */
static void *bounded_malloc(size_t n, void *arg)
{
    struct pattern *p = arg;
    if (n > MAX_MEMORY - p->used)
        return NULL;
    size_t *m = malloc(sizeof(size_t) * 2 + n);
    if (!m)
        return NULL;
    m[0] = n;
    p->used += n;
    return m + 2;
}

static void bounded_free(void *ptr, void *arg)
{
    struct pattern *p = arg;
    if (!ptr)
        return;
    size_t *m = (size_t *)ptr - 2;
    p->used -= m[0];
    free(m);
}

/* A POSIX bracket expression from *pp (at its `[`): backslash is an
 * ordinary character there, `]` first is literal, [:class:] passes. */
static bool bracket(const char **pp, strbuf *o)
{
    const char *p = *pp + 1;
    sb_add(o, "[", 1);
    if (*p == '^')
        sb_add(o, p++, 1);
    if (*p == ']')
        sb_puts(o, "\\]"), p++;
    for (; *p && *p != ']'; p++) {
        if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
            char close[3] = {p[1], ']', '\0'};
            const char *end = strstr(p + 2, close);
            if (!end)
                return false;
            sb_add(o, p, (size_t)(end + 2 - p));
            p = end + 1;
            continue;
        }
        if (*p == '\\' || *p == '[')
            sb_add(o, "\\", 1);
        sb_add(o, p, 1);
    }
    if (*p != ']')
        return false;
    sb_add(o, "]", 1);
    *pp = p;
    return true;
}

/* A run of `*`, `+`, `?` after an atom, as POSIX reads it ((a+)? is a*),
 * as one PCRE2 quantifier; PCRE2 would read `+?` as lazy, `++` as
 * possessive and `+++` as an error. In BRE only `*` is one. */
static void quantifiers(const char **pp, enum pattern_syntax syn, strbuf *o)
{
    const char *p = *pp;
    bool plus = *p == '+', opt = *p == '?';
    while (p[1] == '*' || (syn == PATTERN_ERE && (p[1] == '+' || p[1] == '?'))) {
        p++;
        plus = plus && *p == '+';
        opt = opt && *p == '?';
    }
    sb_add(o, plus ? "+" : opt ? "?" : "*", 1);
    *pp = p;
}

/* GNU escapes PCRE2 reads the same; any other escaped letter or digit 0
 * is the character itself, as glibc takes it. */
static void escape(char c, strbuf *o)
{
    if (c == '<')
        sb_puts(o, "\\b(?=\\w)");
    else if (c == '>')
        sb_puts(o, "\\b(?<=\\w)");
    else if (strchr("wWsSbB123456789", c) || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '0'))
        sb_add(o, "\\", 1), sb_add(o, &c, 1);
    else
        sb_add(o, &c, 1);
}

/* POSIX extended (or basic) syntax to PCRE2's. What differs: brackets,
 * escapes, stacked quantifiers, a quantifier with nothing before it (an
 * error in ERE, literal in BRE), `)` with no `(` (literal), and BRE's
 * operators, which are the escaped characters. PCRE2's own extensions
 * (`(?`, `(*`) are not POSIX and are refused. */
static bool translate(const char *re, enum pattern_syntax syn, strbuf *o)
{
    int depth = 0;
    bool atom = false; /* something a quantifier may follow was just written */
    for (const char *p = re; *p; p++) {
        char c = *p;
        bool op = syn == PATTERN_ERE && strchr("(){}|+?*", c);
        if (syn == PATTERN_BRE && c == '\\' && p[1] && strchr("(){}|+?", p[1]))
            op = true, c = *++p;
        else if (syn == PATTERN_BRE && c == '*')
            op = atom; /* `*` first, or after `\(` or `\|`, is literal */
        if (c == '[' && !op) {
            if (!bracket(&p, o))
                return false;
            atom = true;
        } else if (c == '\\' && !op) {
            if (!p[1])
                return false;
            escape(*++p, o);
            atom = true;
        } else if (op && (c == '*' || c == '+' || c == '?')) {
            if (!atom && syn == PATTERN_ERE)
                return false;
            if (!atom)
                sb_add(o, "\\", 1), sb_add(o, &c, 1), atom = true;
            else
                quantifiers(&p, syn, o);
        } else if (op && c == '(') {
            if (p[1] == '?' || p[1] == '*')
                return false;
            depth++;
            sb_add(o, "(", 1);
            atom = false;
        } else if (op && c == ')' && depth == 0) {
            sb_puts(o, "\\)");
            atom = true;
        } else if (op && (c == ')' || c == '{' || c == '}' || c == '|')) {
            if (c == '{' && !atom)
                return false;
            depth -= c == ')';
            sb_add(o, &c, 1);
            atom = c == ')' || c == '}';
        } else {
            if (strchr("(){}|+?*", c)) /* BRE: an ordinary character */
                sb_add(o, "\\", 1);
            sb_add(o, &c, 1);
            atom = c != '^' && c != '|';
        }
    }
    return depth == 0;
}

void pattern_free(struct pattern *p)
{
    if (!p)
        return;
    pcre2_match_data_free(p->md);
    pcre2_code_free(p->code);
    pcre2_match_context_free(p->mc);
    pcre2_compile_context_free(p->cc);
    pcre2_general_context_free(p->gc);
    free(p);
}

static bool too_complex(int code)
{
    return code == PCRE2_ERROR_PATTERN_TOO_LARGE || code == PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP ||
           code == PCRE2_ERROR_HEAP_FAILED || code == PCRE2_ERROR_PATTERN_TOO_COMPLICATED ||
           code == PCRE2_ERROR_PATTERN_STRING_TOO_LONG;
}

static struct pattern *refuse(struct pattern *p, bool complex, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s",
             complex ? "% Regular expression too complex" : "% Invalid regular expression");
    pattern_free(p);
    return NULL;
}

/* The contexts that carry the limits, all allocating through p. */
static bool contexts(struct pattern *p)
{
    p->gc = pcre2_general_context_create(bounded_malloc, bounded_free, p);
    p->cc = p->gc ? pcre2_compile_context_create(p->gc) : NULL;
    p->mc = p->gc ? pcre2_match_context_create(p->gc) : NULL;
    if (!p->cc || !p->mc)
        return false;
    pcre2_set_max_pattern_length(p->cc, MAX_PCRE_CHARS);
    pcre2_set_parens_nest_limit(p->cc, MAX_NEST);
    pcre2_set_match_limit(p->mc, MATCH_STEPS);
    pcre2_set_depth_limit(p->mc, MATCH_DEPTH);
    pcre2_set_heap_limit(p->mc, MATCH_HEAP_KB);
    return true;
}

struct pattern *pattern_compile(const char *re, enum pattern_syntax syntax, int flags, char *err,
                                size_t errlen)
{
    struct pattern *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    if (strlen(re) > PATTERN_MAX_CHARS)
        return refuse(p, true, err, errlen);
    strbuf t;
    sb_init(&t);
    sb_puts(&t, flags & PATTERN_LINE ? "^(?:" : flags & PATTERN_WORD ? "(?<![[:alnum:]_])(?:" : "");
    bool ok = translate(re, syntax, &t);
    sb_puts(&t, flags & PATTERN_LINE ? ")$" : flags & PATTERN_WORD ? ")(?![[:alnum:]_])" : "");
    if (!ok) {
        sb_free(&t);
        return refuse(p, false, err, errlen);
    }
    if (!contexts(p)) {
        sb_free(&t);
        return refuse(p, true, err, errlen);
    }
    int code;
    PCRE2_SIZE off;
    p->code = pcre2_compile((PCRE2_SPTR)sb_str(&t), t.len, flags & PATTERN_ICASE ? PCRE2_CASELESS : 0,
                            &code, &off, p->cc);
    sb_free(&t);
    if (!p->code)
        return refuse(p, too_complex(code), err, errlen);
    size_t size = 0;
    pcre2_pattern_info(p->code, PCRE2_INFO_SIZE, &size);
    p->md = pcre2_match_data_create(1, p->gc);
    if (size > MAX_COMPILED || !p->md)
        return refuse(p, true, err, errlen);
    return p;
}

int pattern_find(struct pattern *p, const char *line, size_t n, size_t *start, size_t *end)
{
    int rc = pcre2_match(p->code, (PCRE2_SPTR)line, n, 0, 0, p->md, p->mc);
    if (rc < 0)
        return rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
    *start = ov[0];
    *end = ov[1];
    return 1;
}

int pattern_match(struct pattern *p, const char *line, size_t n)
{
    size_t start, end;
    return pattern_find(p, line, n, &start, &end);
}
