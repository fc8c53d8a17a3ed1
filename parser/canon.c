/* Lines in canonical form: the grammar reads them, the values write them. */
#include "canon.h"
#include "session.h"
#include "tokens.h"
#include <string.h>

/* Each word as its kind writes it (parser/tokens.c): keywords as the
 * grammar spells them, values as the parser read them. */
static void render(const struct match_result *r, strbuf *out)
{
    for (int i = 0; i < r->args.n; i++) {
        if (i)
            sb_puts(out, " ");
        tok_canon(out, &r->var->tok[i], &r->args.v[i]);
    }
}

static enum match_status try_mode(const struct mode_info *m, const struct words *w, strbuf *out,
                                  struct canon_error *e)
{
    struct match_env env = {.g = session_grammar(), .mode = m};
    struct match_result r;
    enum match_status st = match_line(&env, w, &r);
    if (st == MATCH_OK)
        render(&r, out);
    *e = (struct canon_error){st, r.err_off, r.lo, r.hi};
    match_result_free(&r);
    return st;
}

static bool canon_in(const struct mode_info *const *modes, int n, const char *line, strbuf *out,
                     const struct mode_info **m, struct canon_error *e)
{
    struct words w = {0};
    lex_line(&w, line, strlen(line));
    struct canon_error best = {MATCH_INVALID, 0, 0, 0};
    bool ok = false;
    for (int i = 0; i < n && !ok && w.n > 0; i++) {
        struct canon_error got;
        ok = try_mode(modes[i], &w, out, &got) == MATCH_OK;
        if (ok)
            *m = modes[i];
        if (ok || i == 0 || got.off > best.off) /* failing: the error that got furthest */
            best = got;
    }
    lex_free(&w);
    *e = best;
    return ok;
}

bool canon_line(const struct mode_info *m, const char *line, strbuf *out, struct canon_error *e)
{
    const struct mode_info *in;
    return canon_in(&m, 1, line, out, &in, e);
}

bool canon_child(const struct mode_info *parent, const char *line, strbuf *out, const struct mode_info **m,
                 struct canon_error *e)
{
    const struct mode_info *subs[MODE_MAX];
    int n = 0;
    for (int c = 0; c < mode_count(); c++)
        if (mode_is_sub(mode_at(c)) && mode_at(c)->parent == parent)
            subs[n++] = mode_at(c);
    return canon_in(subs, n, line, out, m, e);
}

bool canon_config(const struct mode_info *const *parent, const char *line, strbuf *out, const struct mode_info **m,
                  struct canon_error *e)
{
    *m = MODE_CONFIG;
    return parent ? canon_child(*parent, line, out, m, e) : canon_line(MODE_CONFIG, line, out, e);
}
