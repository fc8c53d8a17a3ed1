#include "session.h"
#include "match.h"
#include "lex.h"
#include "textwidth.h"
#include "ifname.h"
#include "session_host.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>
#include <ctype.h>

/* Longer lines are refused whole: nothing a person types is this long. */
enum { LINE_MAX_CHARS = 4096 };

static struct grammar *grammar;
static const struct cmd_def *const *tables;
static const struct session_host *host;
static void (*config_exit)(struct session *s);

void session_on_config_exit(void (*fn)(struct session *s))
{
    if (!config_exit)
        config_exit = fn;
}

void session_use_host(const struct session_host *h)
{
    if (!host)
        host = h;
}

void session_use_commands(const struct cmd_def *const *t)
{
    if (!tables)
        tables = t;
}

const struct cmd_def *const *session_commands(void) { return tables; }

static void compile_grammar(void)
{
    if (!tables)
        abort(); /* a program bug: no command tables were given */
    grammar = grammar_compile(tables);
}

/* Compiled once, by whichever thread asks first; the others wait for it
 * (a lab's owner starts compiling in a thread of its own while it opens
 * the lab: cli/owner.c). */
const struct grammar *session_grammar(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, compile_grammar);
    return grammar;
}

/* Every value source the grammar names is one the program registered: a
 * misspelt `@name` is found at start-up, as other grammar bugs are. */
static void check_sources(void)
{
    static bool done;
    const struct variant *v;
    int n = grammar_variants(session_grammar(), &v);
    for (int i = 0; i < n && !done; i++)
        for (int j = 0; j < v[i].ntok; j++)
            if (v[i].tok[j].source && (!host->value_source || !host->value_source(v[i].tok[j].source))) {
                fprintf(stderr, "mdsim: grammar error in \"%s\": no value source \"%s\"\n", v[i].cmd->syntax,
                        v[i].tok[j].source);
                abort();
            }
    done = true;
}

void session_init(struct session *s, struct lab *lab, int sw, struct session_io io)
{
    if (!host)
        abort(); /* a program bug: no lab gave the parser its host */
    check_sources();
    memset(s, 0, sizeof *s);
    s->lab = lab;
    s->sw = sw;
    s->mode = host->node_mode ? host->node_mode(lab, sw) : NULL;
    if (!s->mode)
        s->mode = MODE_EXEC;
    s->term_length = 24;
    s->term_width = 80;
    s->io = io;
    s->role = ROLE_ADMIN;
    snprintf(s->user, sizeof s->user, "admin");
    sb_init(&s->out);
}

void session_free(struct session *s) { sb_free(&s->out); }

void mode_ctx_key_set(struct mode_ctx *c, const void *key, size_t n)
{
    if (n > sizeof c->key)
        abort(); /* a feature's key larger than the area: a bug */
    memcpy(c->key, key, n);
}

void mode_ctx_key_get(const struct mode_ctx *c, void *key, size_t n)
{
    if (n > sizeof c->key)
        abort();
    memcpy(key, c->key, n);
}

void session_prompt(const struct session *s, char *buf, size_t n)
{
    if (s->mode->shell == SHELL_HOST) /* a Linux root shell's */
        snprintf(buf, n, "root@%s%s# ", host->hostname(s->lab, s->sw), s->mode->prompt);
    else
        snprintf(buf, n, "%s%s# ", host->hostname(s->lab, s->sw), s->mode->prompt);
}

void cmd_printf(struct session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&s->out, fmt, ap);
    va_end(ap);
}

int cmd_error(struct session *s, const char *fmt, ...)
{
    va_list ap;
    char msg[sizeof s->last_error];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (s->name_port && strncmp(msg, "% ", 2) == 0) /* which port of the list refused */
        snprintf(s->last_error, sizeof s->last_error, "%% %.31s: %.*s", s->ctx.ifname,
                 (int)sizeof s->last_error - 36, msg + 2);
    else
        snprintf(s->last_error, sizeof s->last_error, "%s", msg);
    sb_printf(&s->out, "%s\n", s->last_error);
    return -1;
}

bool cmd_confirm(struct session *s, const char *question)
{
    if (s->dont_ask)
        return true;
    if (!s->io.confirm) { /* unattended: show the question answered */
        cmd_printf(s, "%s y\n", question);
        return true;
    }
    sb_printf(&s->out, "%s", question);
    int depth = host->pause(s->lab); /* a person thinking holds up no one */
    s->io.write(s->io.ctx, s->out.data, s->out.len);
    sb_clear(&s->out);
    bool yes = s->io.confirm(s->io.ctx, question);
    host->resume(s->lab, depth);
    return yes;
}

static bool allowed(void *ctx, const struct cmd_def *cmd)
{
    struct session *s = ctx;
    if (cmd->iftype && s->mode == MODE_IF && cmd->iftype != s->ctx.iftype)
        return false;
    return !cmd->gate || host->gate_enabled(s->lab, s->sw, cmd->gate);
}

/* A variable's values, from the source the program registered for it. */
static const char *lab_values(void *ctx, const struct gtoken *t, const struct cmd_args *so_far, const char *prefix,
                              bool (*add)(void *actx, const char *value), void *actx)
{
    struct session *s = ctx;
    const struct value_source *src = host->value_source ? host->value_source(t->source) : NULL;
    if (!src)
        return NULL;
    src->list(s->lab, s->sw, so_far, prefix, add, actx);
    return src->help;
}

static struct match_env env_for(struct session *s, const struct mode_info *m)
{
    return (struct match_env){session_grammar(), m, allowed, lab_values, s};
}

/* The caret goes under byte `off` of `line`, which starts at screen column
 * col0: columns, not bytes, count (`café`, CJK text before the error). */
/* A host's shell says what went wrong as bash and the tools do. */
static void report_host(struct session *s, enum match_status st, const char *line, size_t off, long lo, long hi)
{
    size_t n0 = strcspn(line + strspn(line, " \t"), " \t"), n = strcspn(line + off, " \t");
    const char *w0 = line + strspn(line, " \t"), *w = line + off;
    if (st == MATCH_INVALID && w == w0)
        snprintf(s->last_error, sizeof s->last_error, "bash: %.*s: command not found", (int)n0, w0);
    else if (st == MATCH_INCOMPLETE)
        snprintf(s->last_error, sizeof s->last_error, "%.*s: missing argument (try %.*s ?)", (int)n0, w0, (int)n0, w0);
    else if (st == MATCH_RANGE)
        snprintf(s->last_error, sizeof s->last_error, "%.*s: %.*s: out of range (%ld-%ld)", (int)n0, w0, (int)n, w,
                 lo, hi);
    else if (st == MATCH_AMBIGUOUS)
        snprintf(s->last_error, sizeof s->last_error, "%.*s: ambiguous argument '%.*s'", (int)n0, w0, (int)n, w);
    else
        snprintf(s->last_error, sizeof s->last_error, "%.*s: invalid argument '%.*s'", (int)n0, w0, (int)n, w);
    sb_printf(&s->out, "%s\n", s->last_error);
}

/* A storage array's shell says it as SMcli's script parser does [G]. */
static void report_array(struct session *s, enum match_status st, const char *line, size_t off, long lo, long hi)
{
    int n = (int)strcspn(line + off, " \t");
    if (st == MATCH_INCOMPLETE)
        snprintf(s->last_error, sizeof s->last_error, "Syntax error: the statement is incomplete.");
    else if (st == MATCH_RANGE)
        snprintf(s->last_error, sizeof s->last_error, "Syntax error: \"%.*s\" is out of range (%ld-%ld).", n,
                 line + off, lo, hi);
    else
        snprintf(s->last_error, sizeof s->last_error, "Syntax error near \"%.*s\".", n, line + off);
    sb_printf(&s->out, "%s\nSMcli failed.\n", s->last_error);
}

static void report(struct session *s, enum match_status st, size_t col0, const char *line,
                   size_t off, long lo, long hi)
{
    if (s->mode->shell == SHELL_SMCLI) {
        report_array(s, st, line, off, lo, hi);
        return;
    }
    if (s->mode->shell == SHELL_HOST) {
        report_host(s, st, line, off, lo, hi);
        return;
    }
    size_t col = col0 + text_columns(line, off) + 1;
    sb_printf(&s->out, "%*s^\n", (int)col, "");
    match_error_text(st, lo, hi, s->last_error, sizeof s->last_error);
    sb_printf(&s->out, "%s\n", s->last_error);
}

/* A line split at its output pipes: `|` at the start of a word. */
struct segments {
    size_t start[16], end[16];
    int n;
};

static bool split_pipes(const char *line, struct segments *sg)
{
    size_t len = strlen(line);
    sg->n = 0;
    sg->start[0] = 0;
    for (size_t i = 0; i <= len; i++) {
        bool pipe = i < len && line[i] == '|' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t');
        if (i < len && !pipe)
            continue;
        if (sg->n == 16)
            return false;
        sg->end[sg->n++] = i;
        if (pipe) {
            if (sg->n == 16) /* no room for the segment after this pipe */
                return false;
            sg->start[sg->n] = i + 1;
        }
    }
    return true;
}

/* A parsed piece of the line: its own copy, words and match. */
struct piece {
    char *text;
    struct words w;
    struct match_result r;
    const struct mode_info *mode;
    size_t base; /* offset of text in the whole line */
};

static void piece_free(struct piece *p)
{
    match_result_free(&p->r);
    lex_free(&p->w);
    free(p->text);
}

static void piece_lex(struct piece *p, const char *line, size_t a, size_t b)
{
    memset(p, 0, sizeof *p);
    p->text = strndup(line + a, b - a);
    if (!p->text)
        abort();
    p->base = a;
    lex_line(&p->w, p->text, strlen(p->text));
}

/* One way to read a line: as a command of the session's mode, of a parent
 * mode it climbs to, or as an exec `show` taken in a config mode. */
struct reading {
    struct match_result r;
    const struct mode_info *mode; /* the mode the session is in when the command has run */
    const struct mode_info *env;  /* the mode whose commands it matched */
};

/* Did the first word select a command in this reading? */
static bool first_word_taken(const struct piece *p, const struct reading *rd)
{
    return rd->r.status == MATCH_OK || rd->r.err_off > p->w.w[0].off ||
           rd->r.status == MATCH_AMBIGUOUS;
}

/* Could the line still be this reading's command (complete, or to be
 * completed), rather than a word that fits and a rest that does not? */
static bool viable(const struct reading *rd)
{
    return rd->r.status != MATCH_INVALID;
}

static int collect_readings(struct session *s, struct piece *p, const struct mode_info *m, struct reading *rd)
{
    int n = 0;
    for (const struct mode_info *at = m;; at = at->parent) {
        struct match_env e = env_for(s, at);
        match_line(&e, &p->w, &rd[n].r);
        rd[n].env = at;
        rd[n++].mode = at;
        if (!mode_is_sub(at))
            break;
    }
    const struct word *w0 = &p->w.w[0];
    if (m->is_config && w0->len >= 2 && w0->len <= 4 &&
        strncasecmp(w0->s, "show", w0->len) == 0) {
        struct match_env e = env_for(s, MODE_EXEC);
        match_line(&e, &p->w, &rd[n].r);
        if (rd[n].r.kw0 && strcmp(rd[n].r.kw0, "show") != 0) { /* not a show: no reading */
            match_result_free(&rd[n].r);
            rd[n].r = (struct match_result){.status = MATCH_INVALID, .err_off = w0->off};
        }
        rd[n].env = MODE_EXEC;
        rd[n++].mode = m; /* a show leaves the mode alone */
    }
    return n;
}

/* Picks the reading to run or to report. A sub-mode takes its parents'
 * commands (`interface g2/3`, `no switchname` at (config-if)#) and config
 * modes take exec `show` commands. When the first word abbreviates
 * different commands of two readings that both still fit (`sh`: `shutdown`
 * and `show`; `sw`: `switchport` and `switchname`), the line is ambiguous,
 * as the word is; a word typed in full wins over abbreviations. Failing
 * everywhere, the error that got furthest into the line is reported. */
static int choose_reading(const struct piece *p, struct reading *rd, int n, bool *ambiguous)
{
    bool exact = false;
    for (int i = 0; i < n; i++)
        exact |= first_word_taken(p, &rd[i]) && rd[i].r.kw0_exact;
    int pick = -1;
    const char *kw = NULL;
    *ambiguous = false;
    for (int i = 0; i < n; i++) {
        const struct reading *r = &rd[i];
        if (!first_word_taken(p, r) || !viable(r) || (exact && !r->r.kw0_exact))
            continue;
        if (pick >= 0 && (!kw || !r->r.kw0 || strcasecmp(kw, r->r.kw0) != 0))
            *ambiguous = true;
        if (pick < 0 || (rd[pick].r.status != MATCH_OK && r->r.status == MATCH_OK))
            pick = i;
        kw = r->r.kw0;
    }
    if (pick >= 0)
        return pick;
    pick = 0;
    for (int i = 1; i < n; i++)
        if (rd[i].r.err_off > rd[pick].r.err_off)
            pick = i;
    return pick;
}

static enum match_status match_climbing(struct session *s, struct piece *p, const struct mode_info *m)
{
    if (p->w.n == 0) { /* nothing before a pipe */
        struct match_env e = env_for(s, m);
        p->mode = m;
        return match_line(&e, &p->w, &p->r);
    }
    struct reading rd[MODE_MAX + 1];
    int n = collect_readings(s, p, m, rd);
    bool ambiguous;
    int pick = choose_reading(p, rd, n, &ambiguous);
    for (int i = 0; i < n; i++)
        if (i != pick)
            match_result_free(&rd[i].r);
    p->r = rd[pick].r;
    p->mode = rd[pick].mode;
    if (ambiguous) {
        match_result_free(&p->r);
        p->r = (struct match_result){.status = MATCH_AMBIGUOUS, .err_off = p->w.w[0].off};
    }
    return p->r.status;
}

/* The filters of a typed line: matched with the command, under the lab
 * lock, and run on its output once the lab is released (filter.c bounds
 * their cost, but a session's filter must not hold up the others). */
struct pipeline {
    struct piece f[15];
    int n;
};

static int run_filters(struct session *s, struct pipeline *pl)
{
    int rc = 0;
    for (int i = 0; i < pl->n; i++) {
        if (rc == 0 && pl->f[i].r.var->cmd->fn(s, &pl->f[i].r.args) != 0)
            rc = 1;
        piece_free(&pl->f[i]);
    }
    return rc;
}

/* Runs the handler; an interface command at (config-if)# entered for a
 * list of ports (`interface g2/1-3, g2/5`) runs once per port, in one
 * savepoint: a port that refuses undoes the others, and is named. */
static int run_command(struct session *s, const struct cmd_def *cmd, const struct cmd_args *a)
{
    struct mode_ctx *c = &s->ctx;
    if (s->mode != MODE_IF || !cmd->iftype || c->nports <= 1) {
        const struct iftype *type = c->iftype;
        bool had_list = c->nports > 1;
        int rc = cmd->fn(s, a) == 0 ? 0 : 1;
        /* a command that entered another interface without making a list
         * of its own (`interface fcip 5` after `interface g2/1-3`) ends
         * the list, whatever its handler remembered to reset; a list the
         * command made (`interface g2/1-3` after `interface fcip 5`) stays */
        if (had_list && c->nports > 1 &&
            (c->iftype != type || c->a != c->ports[0][0] || c->b != c->ports[0][1]))
            c->nports = 0;
        return rc;
    }
    struct mode_ctx first = *c;
    int rc = 0;
    s->name_port = true;
    for (int i = 0; i < first.nports && rc == 0; i++) {
        c->a = first.ports[i][0];
        c->b = first.ports[i][1];
        ifname_format(c->ifname, sizeof c->ifname, c->iftype, c->a, c->b);
        rc = cmd->fn(s, a) == 0 ? 0 : 1;
    }
    s->name_port = false;
    if (s->mode == MODE_IF)
        *c = first;
    return rc;
}

/* A command of a sub-mode's own (one its parent mode does not have) is
 * about the mode's object, which another session may have deleted: it
 * runs only while the feature's check finds the object. `exit`, `end`,
 * `do`, shows and the parents' commands run in any case, so a stale mode
 * can always be left (docs/mode-context.md). */
static bool context_ok(struct session *s, const struct cmd_def *cmd, const struct mode_info *runs_in)
{
    if (runs_in != s->mode || !mode_is_sub(s->mode) || !mode_in(cmd->modes, s->mode) ||
        mode_in(cmd->modes, s->mode->parent) || !host->mode_check)
        return true;
    const struct mode_check *c = host->mode_check(s->mode, s->mode == MODE_IF ? s->ctx.iftype : NULL);
    return !c || c->ok(s);
}

/* Offset of the first byte no command may hold, or -1: control characters
 * (a terminal escape stored in a description would be replayed to every
 * terminal that shows it) and bytes that are not UTF-8. */
static long bad_char(const char *line)
{
    const unsigned char *p = (const unsigned char *)line;
    for (long i = 0; p[i];) {
        int n = p[i] < 0x80 ? 1 : p[i] >= 0xc2 && p[i] <= 0xdf ? 2 : p[i] >= 0xe0 && p[i] <= 0xef ? 3
              : p[i] >= 0xf0 && p[i] <= 0xf4 ? 4 : 0;
        if (n == 0 || (n == 1 && ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f)))
            return i;
        for (int k = 1; k < n; k++)
            if ((p[i + k] & 0xc0) != 0x80)
                return i;
        i += n;
    }
    return -1;
}

/* Runs the command of the line; its filters go to pl, or, when pl is NULL
 * (a line run within a command), a pipe is refused. */
static int run_line(struct session *s, const char *line, size_t col0, const struct mode_info *m,
                    struct pipeline *pl)
{
    struct segments sg;
    if (strlen(line) > LINE_MAX_CHARS)
        return cmd_error(s, "%% Line too long (limit is %d characters)", LINE_MAX_CHARS), 1;
    long bad = bad_char(line);
    if (bad >= 0)
        return report(s, MATCH_INVALID, col0, line, (size_t)bad, 0, 0), 1;
    if (!split_pipes(line, &sg))
        return cmd_error(s, "%% Too many output filters"), 1;
    struct piece p[16];
    int n = 0, rc = 1;
    piece_lex(&p[n++], line, sg.start[0], sg.end[0]);
    if (p[0].w.n == 0 && sg.n == 1) {
        piece_free(&p[0]);
        return 0;
    }
    if (match_climbing(s, &p[0], m) != MATCH_OK) {
        report(s, p[0].r.status, col0, line, p[0].base + p[0].r.err_off, p[0].r.lo, p[0].r.hi);
        goto out;
    }
    if (sg.n > 1 && (!(p[0].r.var->cmd->flags & CMD_PIPE) || !pl)) {
        report(s, MATCH_INVALID, col0, line, sg.end[0], 0, 0);
        goto out;
    }
    for (; n < sg.n; n++) {
        piece_lex(&p[n], line, sg.start[n], sg.end[n]);
        struct match_env e = env_for(s, MODE_FILTER);
        if (match_line(&e, &p[n].w, &p[n].r) != MATCH_OK) {
            size_t off = p[n].w.n ? p[n].r.err_off : strlen(p[n].text);
            report(s, p[n].w.n ? p[n].r.status : MATCH_INCOMPLETE, col0, line, p[n].base + off,
                   p[n].r.lo, p[n].r.hi);
            n++;
            goto out;
        }
    }
    if (n > 1)
        s->filtered = true; /* filters need the whole output */
    p[0].r.args.offset = (int)col0;
    /* an operator is never in a config mode, unless made one while there */
    if (((p[0].r.var->cmd->flags & CMD_ADMIN) || m->is_config) && s->role == ROLE_OPERATOR) {
        if (m->is_config)
            s->mode = MODE_EXEC;
        cmd_error(s, "%% Permission denied");
        goto out;
    }
    const struct mode_info *was = s->mode;
    struct mode_ctx was_ctx = s->ctx;
    bool ctx_ok = context_ok(s, p[0].r.var->cmd, p[0].mode);
    s->mode = p[0].mode; /* a parent mode's command leaves the sub-mode */
    size_t shown = s->out.len;
    if (p[0].r.var->cmd->flags & CMD_FREES)
        host->make_room(s->lab);
    host->txn_begin(s->lab);
    rc = ctx_ok ? run_command(s, p[0].r.var->cmd, &p[0].r.args) : 1;
    if (!host->txn_end(s->lab, rc == 0)) {
        sb_truncate(&s->out, shown); /* `Copy complete.` and the like were not so */
        cmd_error(s, "%% %s", host->store_error(s->lab));
        rc = 1;
    }
    if (rc != 0) { /* a command that fails leaves the session where it was */
        s->mode = was;
        s->ctx = was_ctx;
    }
    if (rc == 0 && n > 1) {
        memcpy(pl->f, p + 1, (size_t)(n - 1) * sizeof *p);
        pl->n = n - 1;
        for (int i = 0; i < pl->n; i++) /* for a filter's own caret */
            pl->f[i].r.args.offset = (int)(col0 + pl->f[i].base);
        n = 1;
    }
out:
    for (int i = 0; i < n; i++)
        piece_free(&p[i]);
    return rc;
}

/* Lines before the first --More--; 0 without a pager (`terminal length 0`
 * or 1): never -1, which says the user quit at --More-- and drops output
 * (a ping's statistics after Ctrl-C). */
static int first_page(const struct session *s) { return s->term_length > 1 ? s->term_length - 1 : 0; }

/* Shows the output so far, paging it on a terminal; the page carries on
 * across the pieces of a command that lasts. */
static void emit(struct session *s)
{
    const char *p = s->out.data ? s->out.data : "";
    const char *end = p + s->out.len;
    if (s->stopped && s->page_left < 0) /* `q` at --More--: no more output */
        p = end;
    if (!s->io.more || s->no_more || s->term_length <= 1) {
        s->io.write(s->io.ctx, p, (size_t)(end - p));
        p = end;
    }
    while (p < end) {
        if (s->page_left == 0 && (s->page_left = s->io.more(s->io.ctx, s->term_length - 1)) <= 0) {
            s->page_left = -1;
            s->stopped = true;
            break;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        s->io.write(s->io.ctx, p, (size_t)(next - p));
        p = next;
        s->page_left--;
    }
    sb_clear(&s->out);
}

static bool wait_wall(struct session *s, uint64_t ns)
{
    if (s->io.wait)
        return s->io.wait(s->io.ctx, ns);
    struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    if (ns)
        nanosleep(&ts, NULL);
    return true;
}

bool cmd_wait_until(struct session *s, uint64_t t)
{
    if (s->stopped || t > host->time_max_ns) /* the lab's clock goes no further: stop there */
        return false;
    if (!host->realtime(s->lab)) {
        host->advance_to(s->lab, t);
        return true;
    }
    uint64_t ns = host->wall_until(s->lab, t);
    int depth = host->pause(s->lab);
    if (!s->filtered)
        emit(s); /* unlocked: the pager may wait for a key */
    if (!s->stopped && !wait_wall(s, ns))
        s->stopped = true;
    host->resume(s->lab, depth);
    if (!s->stopped)
        host->advance_to(s->lab, t); /* the wall clock is rounded */
    return !s->stopped;
}

int session_exec_in(struct session *s, const struct mode_info *m, const char *line, size_t offset)
{
    return run_line(s, line, offset, m, NULL);
}

/* Under the lab lock: the role follows the store at every line, and a
 * deleted user's session ends. */
static bool account_ok(struct session *s) { return !s->check_account || s->check_account(s); }

#define ACCOUNT_GONE "User %s has been deleted, logging out.\n"

/* Its own buffer, not s->out: it may be called while a pager shows s->out. */
bool session_account_ok(struct session *s)
{
    host->lock(s->lab);
    bool ok = account_ok(s);
    host->unlock(s->lab);
    if (!ok) {
        char msg[sizeof ACCOUNT_GONE + sizeof s->user + 1];
        snprintf(msg, sizeof msg, "\n" ACCOUNT_GONE, s->user); /* off the prompt it waits at */
        s->io.write(s->io.ctx, msg, strlen(msg));
        s->closed = true;
    }
    return ok;
}

/* SMcli ends each statement with `;`: the grammar's words do not. */
static const char *array_statement(const char *line, char *buf, size_t n)
{
    size_t len = strlen(line);
    while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    if (!len || line[len - 1] != ';' || len >= n)
        return line;
    memcpy(buf, line, len - 1);
    buf[len - 1] = '\0';
    return buf;
}

int session_exec(struct session *s, const char *line)
{
    char prompt[128], statement[1024];
    if (s->mode->shell == SHELL_SMCLI)
        line = array_statement(line, statement, sizeof statement);
    host->lock(s->lab);
    host->tick(s->lab);
    session_prompt(s, prompt, sizeof prompt);
    sb_clear(&s->out);
    s->no_more = s->filtered = s->stopped = false;
    s->page_left = first_page(s);
    s->last_error[0] = '\0';
    struct pipeline pl = {.n = 0};
    int rc = 1;
    const struct mode_info *was = s->mode;
    if (account_ok(s)) {
        rc = run_line(s, line, s->no_prompt ? 0 : strlen(prompt), s->mode, &pl);
        if (config_exit && was->is_config && !s->mode->is_config)
            config_exit(s);
    } else {
        cmd_printf(s, ACCOUNT_GONE, s->user);
        s->closed = true;
    }
    uint64_t behind = host->wall_until(s->lab, host->now(s->lab));
    host->unlock(s->lab);
    if (run_filters(s, &pl) != 0)
        rc = 1;
    if (behind && !s->stopped) /* a command ran the clock ahead of the wall */
        wait_wall(s, behind);
    emit(s);
    return rc;
}

static void print_help(struct session *s, const struct help_list *h)
{
    int width = h->cr ? 4 : 1;
    for (int i = 0; i < h->n; i++)
        if ((int)strlen(h->items[i].word) > width)
            width = (int)strlen(h->items[i].word);
    for (int i = 0; i < h->n; i++)
        sb_printf(&s->out, "  %-*s  %s\n", width, h->items[i].word, h->items[i].help);
    if (h->pipe)
        sb_printf(&s->out, "  %-*s  %s\n", width, "|", "Pipe command output to filter");
    if (h->cr)
        sb_printf(&s->out, "  <CR>\n");
}

/* The mode whose commands `?` and Tab offer after the first word, chosen
 * as the line would run (match_climbing): `sh run?` at (config-if)# is a
 * show, `sh ?` is ambiguous. The partial last word helps decide when it
 * can; NULL: ambiguous. */
static const struct mode_info *help_env(struct session *s, struct piece *p, int nfull)
{
    int all = p->w.n;
    for (int pass = 0; pass < 2; pass++) {
        p->w.n = pass == 0 ? all : nfull;
        struct reading rd[MODE_MAX + 1];
        int n = collect_readings(s, p, s->mode, rd);
        bool ambiguous;
        int pick = choose_reading(p, rd, n, &ambiguous);
        const struct mode_info *env = ambiguous ? NULL : rd[pick].env;
        bool usable = pass == 1 || (!ambiguous && rd[pick].r.status != MATCH_INVALID);
        for (int i = 0; i < n; i++)
            match_result_free(&rd[i].r);
        if (usable) {
            p->w.n = all;
            return env;
        }
    }
    p->w.n = all;
    return s->mode;
}

/* What may come next, as the line would be read. The first word offers
 * the mode's commands, exec's `show` in config modes and, once a letter
 * is typed, the parent modes' commands it could abbreviate (`sw?` at
 * (config-if)#: switchname, switchport), so that Tab never completes to
 * one of two commands the line would find ambiguous. */
static void help_readings(struct session *s, struct piece *p, int nfull, const char *part, size_t plen,
                          struct help_list *h)
{
    if (nfull > 0) {
        const struct mode_info *env = help_env(s, p, nfull);
        if (!env) {
            memset(h, 0, sizeof *h);
            h->status = MATCH_AMBIGUOUS;
            h->err_off = p->w.w[0].off;
            return;
        }
        struct match_env e = env_for(s, env);
        match_help(&e, &p->w, nfull, part, plen, h);
        return;
    }
    struct match_env e = env_for(s, s->mode);
    match_help(&e, &p->w, 0, part, plen, h);
    for (const struct mode_info *at = s->mode; plen > 0 && mode_is_sub(at);) {
        at = at->parent;
        struct help_list more;
        struct match_env pe = env_for(s, at);
        match_help(&pe, &p->w, 0, part, plen, &more);
        help_list_merge(h, &more);
        help_list_free(&more);
    }
    if (s->mode->is_config && strncasecmp(part, "show", plen < 4 ? plen : 4) == 0 && plen <= 4) {
        struct help_list ex;
        struct match_env xe = env_for(s, MODE_EXEC);
        match_help(&xe, &p->w, 0, "show", 4, &ex);
        help_list_merge(h, &ex);
        help_list_free(&ex);
    }
}

/* Help for the part of the line after its last pipe, or the whole line. */
static void help_piece(struct session *s, const char *line, struct help_list *h,
                       size_t *partial_off)
{
    struct segments sg;
    split_pipes(line, &sg);
    struct piece p;
    piece_lex(&p, line, sg.start[sg.n - 1], sg.end[sg.n - 1]);
    size_t len = strlen(p.text);
    bool partial = len > 0 && p.text[len - 1] != ' ' && p.text[len - 1] != '\t' && p.w.n > 0;
    int nfull = partial ? p.w.n - 1 : p.w.n;
    const struct word *last = partial ? &p.w.w[p.w.n - 1] : NULL;
    const char *part = last ? last->s : "";
    size_t plen = last ? last->len : 0;
    if (sg.n > 1) {
        struct match_env e = env_for(s, MODE_FILTER);
        match_help(&e, &p.w, nfull, part, plen, h);
    } else {
        help_readings(s, &p, nfull, part, plen, h);
    }
    if (h->status != MATCH_OK)
        h->err_off += p.base;
    *partial_off = p.base + (last ? last->off : len);
    piece_free(&p);
}

void session_help(struct session *s, const char *line)
{
    char prompt[128];
    struct help_list h;
    size_t off;
    host->lock(s->lab);
    session_prompt(s, prompt, sizeof prompt);
    sb_clear(&s->out);
    help_piece(s, line, &h, &off);
    if (h.status != MATCH_OK)
        report(s, h.status, strlen(prompt), line, h.err_off, 0, 0);
    else if (h.n == 0 && !h.cr)
        report(s, MATCH_INVALID, strlen(prompt), line, off, 0, 0);
    else
        print_help(s, &h);
    help_list_free(&h);
    host->unlock(s->lab);
    s->stopped = false;
    s->page_left = first_page(s);
    emit(s);
}

/* Letters the word being completed is glued to (`fcip` of `fcip1`, which
 * the lexer splits): a front-end completes the word from its last space,
 * so each candidate carries them. */
static size_t glued_before(const char *line, size_t off)
{
    size_t i = off;
    while (i > 0 && (isalpha((unsigned char)line[i - 1]) || line[i - 1] == '-'))
        i--;
    return i > 0 && line[i - 1] != ' ' && line[i - 1] != '\t' ? 0 : off - i;
}

struct candidates {
    char **v;
    int n, cap;
};

static void cand_add(struct candidates *c, const char *glue, size_t glen, const char *word)
{
    if (c->n + 1 >= c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        if (!(c->v = realloc(c->v, (size_t)c->cap * sizeof *c->v)))
            abort();
    }
    size_t len = glen + strlen(word) + 1;
    if (!(c->v[c->n] = malloc(len)))
        abort();
    snprintf(c->v[c->n++], len, "%.*s%s", (int)glen, glue, word);
    c->v[c->n] = NULL;
}

/* `interface fcip<TAB>`: an interface type's keyword also offers the
 * interfaces the lab has, glued to it as they are typed (`fcip3`). */
static void add_glued_values(struct session *s, const char *line, size_t off, const char *kw, struct candidates *c)
{
    if (!iftype_by_keyword(kw))
        return;
    size_t len = off + strlen(kw) + 2, at;
    char *next = malloc(len);
    if (!next)
        abort();
    snprintf(next, len, "%.*s%s ", (int)off, line, kw);
    struct help_list h;
    help_piece(s, next, &h, &at);
    for (int i = 0; h.status == MATCH_OK && i < h.n; i++)
        if (h.items[i].value)
            cand_add(c, kw, strlen(kw), h.items[i].word);
    help_list_free(&h);
    free(next);
}

/* Keywords and the values the lab knows (values only by their full text:
 * a number's range is no candidate). */
int session_complete(struct session *s, const char *line, char ***out)
{
    struct help_list h;
    struct candidates c = {calloc(1, sizeof(char *)), 0, 1}; /* NULL-terminated, even when empty */
    size_t off;
    if (!c.v)
        abort();
    host->lock(s->lab);
    help_piece(s, line, &h, &off);
    size_t glue = glued_before(line, off);
    for (int i = 0; h.status == MATCH_OK && i < h.n; i++) {
        const struct help_item *it = &h.items[i];
        if (it->tok->kind != TOK_KEYWORD && !it->value)
            continue;
        cand_add(&c, line + off - glue, glue, it->value ? it->word : it->tok->text);
        if (!it->value && glue == 0 && line[off]) /* a type typed at least in part */
            add_glued_values(s, line, off, it->tok->text, &c);
    }
    host->unlock(s->lab);
    help_list_free(&h);
    *out = c.v;
    return c.n;
}
