/* Reading a check file (docs/check.md) into steps. */
#include "check_file.h"
#include "canon.h"
#include "pattern.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A line of a `has` or `lacks` block, until the block ends and its
 * leaves become steps. */
struct block_line {
    int indent, parent, line;
    bool parent_of_some; /* another line is under it: not an item itself */
    char *text, *key;
    const struct mode_info *mode;
};

struct parser {
    struct check_file *cf;
    int line;
    const char *sw;
    char *err;
    size_t errlen;
    enum { BLOCK_NONE, BLOCK_CONFIG, BLOCK_SHOW } block;
    bool lacks;      /* the configuration block is a `lacks` */
    int block_start; /* its line */
    struct block_line *bl;
    int nbl;
};

/* Room for one more: a check file holds at most CHECK_ITEMS_MAX of each. */
static void *grow(void *v, int n, size_t size)
{
    if (!(v = realloc(v, (size_t)(n + 1) * size)))
        abort();
    return v;
}

static char *dup(const char *s, size_t n)
{
    char *d = strndup(s, n);
    if (!d)
        abort();
    return d;
}

static bool fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct parser *p, const char *fmt, ...)
{
    int n = snprintf(p->err, p->errlen, "%s:%d: ", p->cf->name, p->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < p->errlen)
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

/* As the switch answers a line it refuses: its message, then the line and
 * a caret under the word (as lab files report a starting configuration). */
static bool refused(struct parser *p, const char *text, const struct canon_error *e)
{
    char msg[128];
    match_error_text(e->status, e->lo, e->hi, msg, sizeof msg);
    return fail(p, "%s\n  %s\n  %*s^", msg, text, (int)e->off, "");
}

static bool count_items(struct parser *p, int items)
{
    if (p->cf->nitems + items > CHECK_ITEMS_MAX)
        return fail(p, "more than %d items in one check file", CHECK_ITEMS_MAX);
    p->cf->nitems += items;
    return true;
}

static struct check_step *add_step(struct parser *p, enum step_kind kind, int items)
{
    struct check_file *cf = p->cf;
    if (!count_items(p, items))
        return NULL;
    cf->steps = grow(cf->steps, cf->nsteps, sizeof *cf->steps);
    struct check_step *s = &cf->steps[cf->nsteps++];
    *s = (struct check_step){.kind = kind, .line = p->line, .sw = p->sw};
    return s;
}

/* ---- configuration blocks ---- */

/* The path of a leaf, outermost first, as keys and as written. */
static bool config_step(struct parser *p, int leaf)
{
    int path[CHECK_DEPTH_MAX], n = 0;
    for (int i = leaf; i >= 0; i = p->bl[i].parent)
        path[n++] = i;
    int line = p->line;
    p->line = p->bl[leaf].line;
    struct check_step *s = add_step(p, STEP_CONFIG, 1);
    p->line = line;
    if (!s)
        return false;
    s->lacks = p->lacks;
    s->keys = calloc((size_t)n, sizeof *s->keys);
    s->lines = calloc((size_t)n, sizeof *s->lines);
    if (!s->keys || !s->lines)
        abort();
    s->nkeys = n;
    size_t len = 0;
    for (int k = 0; k < n; k++)
        len += strlen(p->bl[path[k]].text) + 3;
    s->text = calloc(1, len + 1);
    if (!s->text)
        abort();
    for (int k = 0; k < n; k++) {
        const struct block_line *b = &p->bl[path[n - 1 - k]];
        s->keys[k] = dup(b->key, strlen(b->key));
        s->lines[k] = dup(b->text, strlen(b->text));
        if (k)
            strcat(s->text, " / ");
        strcat(s->text, b->text);
    }
    return true;
}

static bool config_line(struct parser *p, int indent, const char *text)
{
    int parent = p->nbl - 1;
    while (parent >= 0 && p->bl[parent].indent >= indent)
        parent = p->bl[parent].parent;
    int depth = 1;
    for (int i = parent; i >= 0; i = p->bl[i].parent)
        depth++;
    if (depth > CHECK_DEPTH_MAX)
        return fail(p, "configuration nested more than %d deep", CHECK_DEPTH_MAX);
    strbuf key;
    sb_init(&key);
    struct canon_error e;
    const struct mode_info *m;
    bool ok = canon_config(parent < 0 ? NULL : &p->bl[parent].mode, text, &key, &m, &e);
    if (!ok) {
        sb_free(&key);
        return refused(p, text, &e);
    }
    p->bl = grow(p->bl, p->nbl, sizeof *p->bl);
    p->bl[p->nbl++] = (struct block_line){indent, parent, p->line, false, dup(text, strlen(text)),
                                          dup(sb_str(&key), key.len), m};
    if (parent >= 0)
        p->bl[parent].parent_of_some = true;
    sb_free(&key);
    return true;
}

static bool close_config(struct parser *p)
{
    bool ok = true;
    if (p->nbl == 0) {
        p->line = p->block_start;
        ok = fail(p, "%s with no configuration line under it (indented, as in show running-config)",
                  p->lacks ? "lacks" : "has");
    }
    for (int i = 0; i < p->nbl && ok; i++)
        if (!p->bl[i].parent_of_some)
            ok = config_step(p, i);
    for (int i = 0; i < p->nbl; i++) {
        free(p->bl[i].text);
        free(p->bl[i].key);
    }
    p->nbl = 0;
    return ok;
}

/* ---- show blocks ---- */

/* A bound of a counter's range: digits, maybe a decimal part. */
static bool bound(const char *s, size_t n, double *v)
{
    size_t i = 0, digits = 0;
    while (i < n && isdigit((unsigned char)s[i]))
        i++, digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && isdigit((unsigned char)s[i]); i++)
            digits++;
    if (i != n || digits == 0 || n > 32)
        return false;
    char num[33];
    memcpy(num, s, n);
    num[n] = '\0';
    *v = strtod(num, NULL);
    return true;
}

/* LO..HI, either side left out for no bound. */
static bool range(struct parser *p, const char *word, size_t n, struct check_expect *x)
{
    char r[72];
    snprintf(r, sizeof r, "%.*s", (int)n, word);
    const char *dots = strstr(r, "..");
    size_t ll = dots ? (size_t)(dots - r) : 0, hl = dots ? strlen(dots + 2) : 0;
    x->lo = -1e300;
    x->hi = 1e300;
    bool ok = n < sizeof r && dots && ll + hl > 0;
    if (!ok || (ll && !bound(r, ll, &x->lo)) || (hl && !bound(dots + 2, hl, &x->hi)))
        return fail(p, "counter needs a range LO..HI (numbers; one side may be left out), then a pattern");
    if (x->lo > x->hi)
        return fail(p, "the range %s is empty", r);
    x->range = dup(r, n);
    return true;
}

static bool compile(struct parser *p, struct check_expect *x)
{
    char msg[128];
    if (!(x->re = pattern_compile(x->text, PATTERN_ERE, 0, msg, sizeof msg)))
        return fail(p, "%s: %s", msg, x->text);
    return true;
}

const char *const check_expect_words[] = {
    [EXPECT_CONTAINS] = "contains",
    [EXPECT_LACKS] = "lacks",
    [EXPECT_MATCHES] = "matches",
    [EXPECT_COUNTER] = "counter",
};

/* The kind a line under a show starts with, or -1. */
static int expect_kind(const char *text, size_t w)
{
    for (int k = 0; k <= EXPECT_COUNTER; k++)
        if (strlen(check_expect_words[k]) == w && strncasecmp(text, check_expect_words[k], w) == 0)
            return k;
    return -1;
}

static bool expect_line(struct parser *p, const char *text)
{
    struct check_step *s = &p->cf->steps[p->cf->nsteps - 1];
    size_t w = strcspn(text, " ");
    int k = expect_kind(text, w);
    if (k < 0)
        return fail(p, "under a show: contains, lacks, matches or counter, not '%.*s'", (int)w, text);
    const char *rest = text + w + strspn(text + w, " ");
    if (!*rest)
        return fail(p, "%s needs %s after it", check_expect_words[k],
                    k == EXPECT_COUNTER ? "a range and a pattern" : "text");
    struct check_expect x = {.kind = (enum expect_kind)k, .line = p->line};
    if (k == EXPECT_COUNTER) {
        size_t rl = strcspn(rest, " ");
        if (!range(p, rest, rl, &x))
            return false;
        rest += rl + strspn(rest + rl, " ");
        if (!*rest) {
            free(x.range);
            return fail(p, "counter needs a pattern after its range");
        }
    }
    x.text = dup(rest, strlen(rest));
    if ((k == EXPECT_MATCHES || k == EXPECT_COUNTER) && !compile(p, &x)) {
        free(x.text);
        free(x.range);
        return false;
    }
    if (!count_items(p, 1)) {
        free(x.text);
        free(x.range);
        pattern_free(x.re);
        return false;
    }
    s->ex = grow(s->ex, s->nex, sizeof *s->ex);
    s->ex[s->nex++] = x;
    return true;
}

static bool close_block(struct parser *p)
{
    int kind = p->block;
    p->block = BLOCK_NONE;
    if (kind == BLOCK_CONFIG)
        return close_config(p);
    if (kind == BLOCK_SHOW && p->cf->steps[p->cf->nsteps - 1].nex == 0) {
        p->line = p->block_start;
        return fail(p, "nothing to look for under this show: indented contains, lacks, matches or counter lines");
    }
    return true;
}

/* ---- statements ---- */

static bool need_switch(struct parser *p, const char *what)
{
    return p->sw || fail(p, "%s before any switch line: say which switch it checks", what);
}

static bool st_switch(struct parser *p, const char *rest)
{
    size_t n = strcspn(rest, " ");
    if (n == 0 || rest[n + strspn(rest + n, " ")])
        return fail(p, "switch needs one name: the switch's name in the lab");
    struct check_file *cf = p->cf;
    int i = 0;
    while (i < cf->nswitches && (strlen(cf->switches[i]) != n || strncasecmp(cf->switches[i], rest, n) != 0))
        i++;
    if (i == cf->nswitches) {
        cf->switches = grow(cf->switches, cf->nswitches, sizeof *cf->switches);
        cf->switches[cf->nswitches++] = dup(rest, n);
    }
    p->sw = cf->switches[i];
    return true;
}

static bool st_wait(struct parser *p, const char *rest)
{
    char *end;
    long v = isdigit((unsigned char)*rest) ? strtol(rest, &end, 10) : 0;
    if (v < 1 || v > CHECK_WAIT_MAX_S || *end)
        return fail(p, "wait needs a number of seconds, 1-%d", CHECK_WAIT_MAX_S);
    struct check_step *s = add_step(p, STEP_WAIT, 0);
    if (s)
        s->seconds = v;
    return s != NULL;
}

static bool open_config(struct parser *p, const char *rest, bool lacks)
{
    if (*rest)
        return fail(p, "%s takes nothing after it: its configuration lines go under it, indented",
                    lacks ? "lacks" : "has");
    if (!need_switch(p, lacks ? "lacks" : "has"))
        return false;
    p->block = BLOCK_CONFIG;
    p->lacks = lacks;
    p->block_start = p->line;
    return true;
}

static bool st_has(struct parser *p, const char *rest) { return open_config(p, rest, false); }
static bool st_lacks(struct parser *p, const char *rest) { return open_config(p, rest, true); }

static const struct {
    const char *word;
    bool (*parse)(struct parser *p, const char *rest);
} statements[] = {{"switch", st_switch}, {"wait", st_wait}, {"has", st_has}, {"lacks", st_lacks}};

/* Any other line is a command for the switch: a show (whose output the
 * lines under it look at), a ping or an fcping; nothing that changes it. */
static bool command(struct parser *p, const char *text)
{
    if (strchr(text, '|'))
        return fail(p, "no output filters in a check: the lines under a show say what to look for");
    strbuf canon;
    sb_init(&canon);
    struct canon_error e;
    bool ok = canon_line(MODE_EXEC, text, &canon, &e);
    const char *c = sb_str(&canon);
    bool show = strncmp(c, "show ", 5) == 0, ping = strncmp(c, "ping ", 5) == 0 || strncmp(c, "fcping ", 7) == 0;
    sb_free(&canon);
    if (ok && !show && !ping)
        return fail(p, "'%s' is not for a check: switch, wait, has, lacks, or a show, ping or fcping command", text);
    if (!ok)
        return refused(p, text, &e);
    if (!need_switch(p, show ? "a show" : "a ping"))
        return false;
    struct check_step *s = add_step(p, show ? STEP_SHOW : STEP_PING, show ? 0 : 1);
    if (!s)
        return false;
    s->text = dup(text, strlen(text));
    if (show) {
        p->block = BLOCK_SHOW;
        p->block_start = p->line;
    }
    return true;
}

static bool statement(struct parser *p, const char *text)
{
    size_t w = strcspn(text, " ");
    for (size_t i = 0; i < sizeof statements / sizeof statements[0]; i++)
        if (strlen(statements[i].word) == w && strncasecmp(text, statements[i].word, w) == 0)
            return statements[i].parse(p, text + w + strspn(text + w, " "));
    return command(p, text);
}

/* A line: its indentation, then a statement at the margin, or a line of
 * the block above when indented. */
static bool one_line(struct parser *p, char *l)
{
    size_t len = strlen(l);
    while (len && (l[len - 1] == ' ' || l[len - 1] == '\t' || l[len - 1] == '\r'))
        l[--len] = '\0';
    if (len > CHECK_LINE_MAX)
        return fail(p, "line longer than %d characters", CHECK_LINE_MAX);
    size_t indent = strspn(l, " \t");
    if (l[indent] == '\0' || l[indent] == '!')
        return true;
    if (memchr(l, '\t', indent))
        return fail(p, "a tab in the indentation: indent with spaces");
    for (const char *c = l + indent; *c; c++)
        if (iscntrl((unsigned char)*c) && *c != '\t')
            return fail(p, "a control character in the line");
    if (indent == 0)
        return close_block(p) && statement(p, l);
    if (p->block == BLOCK_CONFIG)
        return config_line(p, (int)indent, l + indent);
    if (p->block == BLOCK_SHOW)
        return expect_line(p, l + indent);
    return fail(p, "an indented line belongs under a has, lacks or show line");
}

static const char *next_line(const char *l)
{
    l += strcspn(l, "\n");
    return *l ? l + 1 : l;
}

bool check_file_parse(struct check_file *cf, const char *name, const char *text, char *err, size_t errlen)
{
    *cf = (struct check_file){.name = dup(name, strlen(name))};
    struct parser p = {.cf = cf, .err = err, .errlen = errlen};
    size_t size = strlen(text);
    bool ok = size <= CHECK_FILE_MAX;
    if (!ok)
        snprintf(err, errlen, "%s: over %d KiB (%zu bytes): not a check file", name, CHECK_FILE_MAX >> 10, size);
    for (const char *l = text; ok && *l; l = next_line(l)) {
        char *line = dup(l, strcspn(l, "\n"));
        p.line++;
        ok = one_line(&p, line);
        free(line);
    }
    ok = ok && close_block(&p);
    for (int i = 0; i < p.nbl; i++) {
        free(p.bl[i].text);
        free(p.bl[i].key);
    }
    free(p.bl);
    if (ok && cf->nitems == 0) {
        snprintf(err, errlen, "%s: no item to check", name);
        ok = false;
    }
    if (!ok)
        check_file_free(cf);
    return ok;
}

void check_file_free(struct check_file *cf)
{
    for (int i = 0; i < cf->nsteps; i++) {
        struct check_step *s = &cf->steps[i];
        for (int k = 0; k < s->nkeys; k++) {
            free(s->keys[k]);
            free(s->lines[k]);
        }
        for (int k = 0; k < s->nex; k++) {
            free(s->ex[k].text);
            free(s->ex[k].range);
            pattern_free(s->ex[k].re);
        }
        free(s->keys);
        free(s->lines);
        free(s->ex);
        free(s->text);
    }
    for (int i = 0; i < cf->nswitches; i++)
        free(cf->switches[i]);
    free(cf->switches);
    free(cf->steps);
    free(cf->name);
    *cf = (struct check_file){0};
}
