#include "match.h"
#include "tokens.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The state of matching: which variants still fit the words so far. */
struct walk {
    const struct variant **alive;
    int n;
    bool line_done; /* a rest-of-line variable took the remaining words */
};
/* The mode's variants its session may use: whether a command is allowed
 * is asked once per command, its variants being consecutive. */
static void walk_start(const struct match_env *e, struct walk *k)
{
    const struct variant *const *list;
    int n = grammar_mode_variants(e->g, e->mode, &list);
    k->alive = malloc(sizeof *k->alive * (size_t)(n ? n : 1));
    if (!k->alive)
        abort();
    k->n = 0;
    k->line_done = false;
    const struct cmd_def *last = NULL;
    bool ok = false;
    for (int i = 0; i < n; i++) {
        if (list[i]->cmd != last) {
            last = list[i]->cmd;
            ok = !e->allowed || e->allowed(e->ctx, last);
        }
        if (ok)
            k->alive[k->n++] = list[i];
    }
}

/* Keeps the variants that take word i best; reports why none does. */
static enum match_status walk_step(struct walk *k, const struct word *w, int i, long *lo, long *hi,
                                   enum level *level)
{
    enum level best = L_NONE;
    const struct gtoken *range_tok = NULL;
    enum level small[512]; /* a word after the first leaves few variants */
    enum level *lv = k->n <= 512 ? small : malloc(sizeof *lv * (size_t)k->n);
    if (!lv)
        abort();
    int c0 = w->len ? tolower((unsigned char)w->s[0]) : -1;
    for (int j = 0; j < k->n; j++) {
        struct value v = {0};
        const struct variant *var = k->alive[j];
        const struct gtoken *t = i < var->ntok ? &var->tok[i] : NULL;
        /* most keywords differ at their first letter: no call for those */
        if (!t || (t->kind == TOK_KEYWORD && c0 >= 0 && tolower((unsigned char)t->text[0]) != c0)) {
            lv[j] = L_NONE;
            continue;
        }
        lv[j] = match_token(t, w, &v);
        if (v.range_err && !range_tok)
            range_tok = &var->tok[i];
        if (lv[j] > best)
            best = lv[j];
    }
    int m = 0;
    const char *kw = NULL;
    bool ambiguous = false, line = false;
    for (int j = 0; j < k->n; j++) {
        if (best == L_NONE || lv[j] != best)
            continue;
        const struct gtoken *t = &k->alive[j]->tok[i];
        if (best == L_PARTIAL && kw && strcasecmp(kw, t->text) != 0)
            ambiguous = true;
        kw = t->text;
        line |= t->kind == TOK_LINE;
        k->alive[m++] = k->alive[j];
    }
    if (lv != small)
        free(lv);
    *level = best;
    if (best == L_NONE) {
        if (range_tok) {
            *lo = range_tok->lo;
            *hi = range_tok->hi;
            return MATCH_RANGE;
        }
        return MATCH_INVALID;
    }
    k->n = m;
    if (line) { /* keep only the rest-of-line variants: they are complete */
        m = 0;
        for (int j = 0; j < k->n; j++)
            if (k->alive[j]->tok[i].kind == TOK_LINE)
                k->alive[m++] = k->alive[j];
        k->n = m;
        k->line_done = true;
    }
    return ambiguous ? MATCH_AMBIGUOUS : MATCH_OK;
}

static void fill_args(const struct variant *var, const struct words *w, int nused,
                      struct match_result *r)
{
    size_t linelen = strlen(w->line);
    r->strings = malloc(linelen * 2 + (size_t)w->n + 2);
    r->args.v = calloc((size_t)(var->ntok ? var->ntok : 1), sizeof *r->args.v);
    if (!r->strings || !r->args.v)
        abort();
    char *p = r->strings;
    r->args.cmd = var->cmd;
    r->args.n = 0;
    for (int i = 0; i < nused; i++) {
        const struct gtoken *t = &var->tok[i];
        struct cmd_arg *a = &r->args.v[r->args.n++];
        struct value v = {0};
        match_token(t, &w->w[i], &v);
        a->name = t->text;
        a->kind = t->kind;
        a->num = v.num;
        a->ip = v.ip;
        a->slot = v.slot;
        a->port = v.port;
        memcpy(a->wwn, v.wwn, 8);
        size_t n = w->w[i].len;
        if (t->kind == TOK_LINE) { /* the rest of the line, as typed */
            n = linelen - w->w[i].off;
            while (n && (w->line[w->w[i].off + n - 1] == ' ' || w->line[w->w[i].off + n - 1] == '\t'))
                n--;
        }
        memcpy(p, w->w[i].s, n);
        p[n] = '\0';
        a->str = p;
        a->off = (int)w->w[i].off;
        p += n + 1;
    }
    r->args.negated = var->ntok > 0 && var->tok[0].kind == TOK_KEYWORD &&
                      strcmp(var->tok[0].text, "no") == 0;
}

enum match_status match_line(const struct match_env *e, const struct words *w,
                             struct match_result *r)
{
    memset(r, 0, sizeof *r);
    struct walk k;
    walk_start(e, &k);
    int i = 0;
    for (; i < w->n && !k.line_done; i++) {
        enum level lv;
        enum match_status st = walk_step(&k, &w->w[i], i, &r->lo, &r->hi, &lv);
        if (i == 0 && st == MATCH_OK && k.alive[0]->tok[0].kind == TOK_KEYWORD) {
            r->kw0 = k.alive[0]->tok[0].text; /* static grammar text */
            r->kw0_exact = lv == L_EXACT;
        }
        if (st != MATCH_OK) {
            r->status = st;
            r->err_off = w->w[i].off;
            free(k.alive);
            return st;
        }
    }
    const struct variant *done = NULL;
    for (int j = 0; j < k.n && !done; j++)
        if (k.line_done || k.alive[j]->ntok == w->n)
            done = k.alive[j];
    free(k.alive);
    if (!done) {
        r->status = MATCH_INCOMPLETE;
        r->err_off = strlen(w->line);
        return r->status;
    }
    r->var = done;
    fill_args(done, w, k.line_done ? i : w->n, r);
    return r->status = MATCH_OK;
}

void match_result_free(struct match_result *r)
{
    free(r->strings);
    free(r->args.v);
    r->strings = NULL;
    r->args.v = NULL;
}

void match_error_text(enum match_status st, long lo, long hi, char *buf, size_t n)
{
    static const char *const msg[] = {
        [MATCH_INVALID] = "% Invalid command at '^' marker.",
        [MATCH_INCOMPLETE] = "% Incomplete command at '^' marker.",
        [MATCH_AMBIGUOUS] = "% Ambiguous command at '^' marker.",
    };
    if (st == MATCH_RANGE)
        snprintf(buf, n, "%% Invalid number, range is (%ld:%ld)", lo, hi);
    else
        snprintf(buf, n, "%s", st == MATCH_OK ? "" : msg[st]);
}

static void help_push(struct help_list *h, struct help_item it)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 16;
        h->items = realloc(h->items, (size_t)h->cap * sizeof *h->items);
        if (!h->items)
            abort();
    }
    if (!(it.word = strdup(it.word)))
        abort();
    h->items[h->n++] = it;
    h->nvalues += it.value;
}

static void help_add(struct help_list *h, const struct gtoken *t)
{
    char disp[64];
    gtoken_display(t, disp, sizeof disp);
    for (int i = 0; i < h->n; i++) {
        const struct help_item *it = &h->items[i];
        if (it->value)
            continue;
        if (strcmp(it->word, disp) == 0 && t->source && !it->tok->source)
            h->items[i].tok = t; /* the same variable, one that knows its values */
        if (strcmp(it->word, disp) == 0 ||
            (t->kind == TOK_KEYWORD && it->tok->kind == TOK_KEYWORD && strcasecmp(it->tok->text, t->text) == 0))
            return;
    }
    help_push(h, (struct help_item){disp, t->help, t, false});
}

static void help_add_value(struct help_list *h, const struct gtoken *t, const char *value, const char *help)
{
    for (int i = 0; i < h->n; i++)
        if (h->items[i].value && strcmp(h->items[i].word, value) == 0)
            return;
    help_push(h, (struct help_item){value, help, t, true});
}

static int help_rank(const struct help_item *x) { return x->value ? 2 : x->tok->kind == TOK_KEYWORD ? 0 : 1; }

/* Keywords, variables, values; numbers by value (`9` before `10`). */
static int help_cmp(const void *a, const void *b)
{
    const struct help_item *x = a, *y = b;
    if (help_rank(x) != help_rank(y))
        return help_rank(x) - help_rank(y);
    size_t lx = strlen(x->word), ly = strlen(y->word);
    if (x->value && lx != ly && strspn(x->word, "0123456789") == lx && strspn(y->word, "0123456789") == ly)
        return lx < ly ? -1 : 1;
    return strcmp(x->word, y->word);
}

struct value_sink {
    struct help_list *h;
    const struct gtoken *t;
    const char *partial;
    size_t plen;
};

/* A value the lab offers: kept when it starts with what is typed and is a
 * value of the variable (a source cannot widen what the grammar takes). */
static bool value_add(void *ctx, const char *value)
{
    struct value_sink *vs = ctx;
    if (vs->h->nvalues >= HELP_VALUES_MAX)
        return false;
    struct word w = {value, strlen(value), 0};
    struct value v = {0};
    if (w.len >= vs->plen && strncasecmp(value, vs->partial, vs->plen) == 0 && match_token(vs->t, &w, &v) >= L_TYPED)
        help_add_value(vs->h, vs->t, value, NULL);
    return vs->h->nvalues < HELP_VALUES_MAX;
}

/* The values of each variable offered that names a source, asked with the
 * words before it as arguments of the variant that offered it. */
static void add_values(const struct match_env *e, const struct walk *k, const struct words *w, int nfull,
                       const char *partial, size_t plen, struct help_list *out)
{
    int nvars = out->n;
    for (int i = 0; i < nvars; i++) {
        const struct gtoken *t = out->items[i].tok;
        const struct variant *var = NULL;
        for (int j = 0; j < k->n && !var && t->source; j++)
            if (k->alive[j]->ntok > nfull && &k->alive[j]->tok[nfull] == t)
                var = k->alive[j];
        if (!var)
            continue;
        struct match_result so_far = {0};
        fill_args(var, w, nfull, &so_far);
        char *prefix = strndup(partial, plen);
        if (!prefix)
            abort();
        struct value_sink vs = {out, t, partial, plen};
        int from = out->n;
        const char *help = e->values(e->ctx, t, &so_far.args, prefix, value_add, &vs);
        for (int j = from; j < out->n; j++) /* the source names its values' help once they are in */
            out->items[j].help = help ? help : t->help;
        free(prefix);
        match_result_free(&so_far);
    }
}

void match_help(const struct match_env *e, const struct words *w, int nfull,
                const char *partial, size_t plen, struct help_list *out)
{
    memset(out, 0, sizeof *out);
    struct walk k;
    walk_start(e, &k);
    long lo, hi;
    enum level lv;
    for (int i = 0; i < nfull && !k.line_done; i++) {
        enum match_status st = walk_step(&k, &w->w[i], i, &lo, &hi, &lv);
        if (st != MATCH_OK) {
            out->status = st;
            out->err_off = w->w[i].off;
            free(k.alive);
            return;
        }
    }
    for (int j = 0; j < k.n; j++) {
        const struct variant *v = k.alive[j];
        if (k.line_done || v->ntok == nfull) {
            if (plen == 0) {
                out->cr = true;
                out->pipe |= (v->cmd->flags & CMD_PIPE) != 0;
            }
            if (!k.line_done)
                continue;
        }
        if (k.line_done || (v->cmd->flags & CMD_HIDDEN))
            continue;
        const struct gtoken *t = &v->tok[nfull];
        if (t->kind == TOK_KEYWORD ? (strlen(t->text) >= plen && strncasecmp(t->text, partial, plen) == 0)
                                   : tok_accepts_prefix(t, partial, plen))
            help_add(out, t);
    }
    if (e->values && !k.line_done)
        add_values(e, &k, w, nfull, partial, plen, out);
    free(k.alive);
    if (out->n > 1)
        qsort(out->items, (size_t)out->n, sizeof *out->items, help_cmp);
}

void help_list_merge(struct help_list *into, const struct help_list *from)
{
    for (int i = 0; i < from->n; i++)
        if (from->items[i].value)
            help_add_value(into, from->items[i].tok, from->items[i].word, from->items[i].help);
        else
            help_add(into, from->items[i].tok);
    if (into->n > 1)
        qsort(into->items, (size_t)into->n, sizeof *into->items, help_cmp);
}

void help_list_free(struct help_list *h)
{
    for (int i = 0; i < h->n; i++)
        free((char *)h->items[i].word);
    free(h->items);
    memset(h, 0, sizeof *h);
}
