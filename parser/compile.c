/* Compiles syntax strings into variants: every optional part and every
 * alternative expanded, so matching walks flat token arrays. */
#include "grammar.h"
#include "tokens.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct grammar {
    struct variant *v;
    int n, cap;
    /* per mode, the variants it offers, in grammar order: matching a line
     * starts from its mode's list, not from every variant */
    const struct variant **by_mode[MODE_MAX];
    int n_mode[MODE_MAX];
    void **blocks; /* every allocation, freed together */
    int nblocks, capblocks;
};

struct seq {
    struct gtoken *t;
    int n;
};
struct seqlist {
    struct seq *s;
    int n;
};

struct cx {
    struct grammar *g;
    const struct cmd_def *cmd;
    const char *p;
};

static void *galloc(struct grammar *g, size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        abort();
    if (g->nblocks == g->capblocks) {
        g->capblocks = g->capblocks ? g->capblocks * 2 : 64;
        g->blocks = realloc(g->blocks, (size_t)g->capblocks * sizeof *g->blocks);
        if (!g->blocks)
            abort();
    }
    g->blocks[g->nblocks++] = p;
    return p;
}

static _Noreturn void die(const struct cx *c, const char *why)
{
    fprintf(stderr, "mdsim: grammar error in \"%s\": %s near \"%s\"\n", c->cmd->syntax, why, c->p);
    abort();
}

static char *gstrndup(struct grammar *g, const char *s, size_t n)
{
    char *d = galloc(g, n + 1);
    memcpy(d, s, n);
    return d;
}

/* "name: text" line of the command's own help, or NULL. */
static const char *own_help(struct cx *c, const char *name)
{
    size_t n = strlen(name);
    for (const char *h = c->cmd->help; h && *h;) {
        const char *eol = strchr(h, '\n');
        size_t len = eol ? (size_t)(eol - h) : strlen(h);
        if (len > n + 1 && strncmp(h, name, n) == 0 && h[n] == ':') {
            const char *t = h + n + 1;
            while (*t == ' ')
                t++;
            return gstrndup(c->g, t, len - (size_t)(t - h));
        }
        h = eol ? eol + 1 : h + len;
    }
    return NULL;
}

static void parse_var(struct cx *c, struct gtoken *t, const char *s, size_t n)
{
    const char *colon = memchr(s, ':', n);
    if (!colon)
        die(c, "variable without a type");
    const char *at = memchr(colon, '@', n - (size_t)(colon - s)); /* <pid:1-255@fcip-profile> */
    if (at) {
        if (at + 1 == s + n)
            die(c, "empty value source");
        t->source = gstrndup(c->g, at + 1, n - (size_t)(at + 1 - s));
        n = (size_t)(at - s);
    }
    t->text = gstrndup(c->g, s, (size_t)(colon - s));
    const char *ty = colon + 1;
    size_t tn = n - (size_t)(ty - s);
    char *end;
    bool list = tn > 5 && strncmp(ty, "list:", 5) == 0; /* <vsans:list:1-4093> */
    const char *num = list ? ty + 5 : ty;
    t->lo = strtol(num, &end, 10);
    if (end != num && *end == '-') {
        t->kind = list ? TOK_RANGELIST : TOK_INT;
        t->hi = strtol(end + 1, &end, 10);
        if (end != s + n)
            die(c, "bad range");
    } else if (!tok_kind_named(ty, tn, &t->kind)) {
        die(c, "unknown variable type");
    }
    const char *h = own_help(c, t->text);
    t->help = h ? h : tok_kind(t->kind)->help;
}

static void parse_keyword(struct cx *c, struct gtoken *t, const char *s, size_t n)
{
    t->kind = TOK_KEYWORD;
    t->text = gstrndup(c->g, s, n);
    t->help = own_help(c, t->text); /* else the dictionary's, per variant */
}

/* Dictionary help for keywords without their own: "show clock" (the word
 * after the one before it) first, then "clock" alone. */
static void dictionary_help(struct cx *c, struct seq s)
{
    for (int i = 0; i < s.n; i++) {
        struct gtoken *t = &s.t[i];
        if (t->kind != TOK_KEYWORD || t->help)
            continue;
        if (i > 0 && s.t[i - 1].kind == TOK_KEYWORD) {
            char pair[128];
            snprintf(pair, sizeof pair, "%s %s", s.t[i - 1].text, t->text);
            t->help = keyword_help(pair);
        }
        if (!t->help)
            t->help = keyword_help(t->text);
        if (!t->help)
            die(c, "keyword has no help text");
    }
    /* Handlers look arguments up by name: a variable named like one of the
     * command's keywords would be shadowed when it is absent. */
    for (int i = 0; i < s.n; i++)
        for (int j = 0; j < s.n; j++)
            if (s.t[i].kind != TOK_KEYWORD && s.t[j].kind == TOK_KEYWORD && strcmp(s.t[i].text, s.t[j].text) == 0)
                die(c, "variable named like a keyword");
}

static struct seqlist single(struct cx *c, struct seq s)
{
    struct seqlist l = {galloc(c->g, sizeof(struct seq)), 1};
    l.s[0] = s;
    return l;
}

static struct seqlist product(struct cx *c, struct seqlist a, struct seqlist b)
{
    struct seqlist r = {galloc(c->g, sizeof(struct seq) * (size_t)(a.n * b.n)), 0};
    for (int i = 0; i < a.n; i++)
        for (int j = 0; j < b.n; j++) {
            struct seq s = {galloc(c->g, sizeof(struct gtoken) * (size_t)(a.s[i].n + b.s[j].n)),
                            a.s[i].n + b.s[j].n};
            if (a.s[i].n) /* an empty sequence has no array: memcpy(NULL) is undefined */
                memcpy(s.t, a.s[i].t, sizeof(struct gtoken) * (size_t)a.s[i].n);
            if (b.s[j].n)
                memcpy(s.t + a.s[i].n, b.s[j].t, sizeof(struct gtoken) * (size_t)b.s[j].n);
            r.s[r.n++] = s;
        }
    return r;
}

static struct seqlist concat(struct cx *c, struct seqlist a, struct seqlist b)
{
    struct seqlist r = {galloc(c->g, sizeof(struct seq) * (size_t)(a.n + b.n)), a.n + b.n};
    memcpy(r.s, a.s, sizeof(struct seq) * (size_t)a.n);
    memcpy(r.s + a.n, b.s, sizeof(struct seq) * (size_t)b.n);
    return r;
}

static struct seqlist parse_alt(struct cx *c);

static void skip_space(struct cx *c)
{
    while (*c->p == ' ')
        c->p++;
}

static struct seqlist parse_item(struct cx *c)
{
    char open = *c->p;
    if (open == '[' || open == '{') {
        c->p++;
        struct seqlist inner = parse_alt(c);
        skip_space(c);
        if (*c->p != (open == '[' ? ']' : '}'))
            die(c, "unbalanced bracket");
        c->p++;
        if (open == '{')
            return inner;
        return concat(c, single(c, (struct seq){NULL, 0}), inner);
    }
    struct seq s = {galloc(c->g, sizeof(struct gtoken)), 1};
    const char *start = c->p;
    if (open == '<') {
        const char *end = strchr(start, '>');
        if (!end)
            die(c, "unterminated variable");
        parse_var(c, s.t, start + 1, (size_t)(end - start - 1));
        c->p = end + 1;
    } else {
        while (*c->p && !strchr(" []{}|<>", *c->p))
            c->p++;
        if (c->p == start)
            die(c, "empty word");
        parse_keyword(c, s.t, start, (size_t)(c->p - start));
    }
    return single(c, s);
}

static struct seqlist parse_seq(struct cx *c)
{
    struct seqlist r = single(c, (struct seq){NULL, 0});
    for (;;) {
        skip_space(c);
        if (!*c->p || strchr("|]}", *c->p))
            return r;
        r = product(c, r, parse_item(c));
    }
}

static struct seqlist parse_alt(struct cx *c)
{
    struct seqlist r = parse_seq(c);
    skip_space(c);
    while (*c->p == '|') {
        c->p++;
        r = concat(c, r, parse_seq(c));
        skip_space(c);
    }
    return r;
}

static void add_variant(struct grammar *g, const struct cmd_def *cmd, struct seq s)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 256;
        g->v = realloc(g->v, (size_t)g->cap * sizeof *g->v);
        if (!g->v)
            abort();
    }
    g->v[g->n++] = (struct variant){cmd, s.n, s.t};
}

/* After the last variant is added (g->v no longer moves). */
static void index_modes(struct grammar *g)
{
    for (int m = 0; m < mode_count(); m++) {
        g->by_mode[m] = malloc(sizeof *g->by_mode[m] * (size_t)(g->n ? g->n : 1));
        if (!g->by_mode[m])
            abort();
        for (int i = 0; i < g->n; i++)
            if (mode_in(g->v[i].cmd->modes, mode_at(m)))
                g->by_mode[m][g->n_mode[m]++] = &g->v[i];
    }
}

/* A command names modes the program registered (mode_use), or sets. */
static void check_modes(const struct cx *c)
{
    if (!c->cmd->modes || !c->cmd->modes[0])
        die(c, "no mode");
    for (const struct mode_info *const *m = c->cmd->modes; *m; m++)
        if ((*m)->set == MODE_SET_NONE && mode_index(*m) < 0)
            die(c, "a mode no feature registered");
}

struct grammar *grammar_compile(const struct cmd_def *const *tables)
{
    struct grammar *g = calloc(1, sizeof *g);
    if (!g)
        abort();
    for (; *tables; tables++)
        for (const struct cmd_def *d = *tables; d->syntax; d++) {
            struct cx c = {g, d, d->syntax};
            check_modes(&c);
            struct seqlist l = parse_alt(&c);
            if (*c.p)
                die(&c, "unexpected character");
            for (int i = 0; i < l.n; i++)
                if (l.s[i].n > 0) {
                    dictionary_help(&c, l.s[i]);
                    add_variant(g, d, l.s[i]);
                }
        }
    index_modes(g);
    return g;
}

void grammar_free(struct grammar *g)
{
    if (!g)
        return;
    for (int m = 0; m < MODE_MAX; m++)
        free(g->by_mode[m]);
    for (int i = 0; i < g->nblocks; i++)
        free(g->blocks[i]);
    free(g->blocks);
    free(g->v);
    free(g);
}

int grammar_variants(const struct grammar *g, const struct variant **out)
{
    *out = g->v;
    return g->n;
}

int grammar_mode_variants(const struct grammar *g, const struct mode_info *m, const struct variant *const **out)
{
    int i = mode_index(m);
    *out = i < 0 ? NULL : g->by_mode[i];
    return i < 0 ? 0 : g->n_mode[i];
}
