#include "replay.h"
#include "session.h"
#include "lab/lab.h"
#include "mode.h"
#include "verify_mask.h"
#include "replay_pcap.h"
#include "replay_series.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One replay run: a session per switch, created when first addressed. */
struct replay {
    struct lab *lab;
    const struct replay_opts *o;
    struct session *sess;
    bool *open;
    int cur;
    strbuf got; /* output of the last command, for --verify */
    int failures;
    FILE *out, *err;
    bool quiet;   /* a --follow-prompts move runs: its output is not the transcript's */
    bool hinted;  /* this file's prompt/mode mismatch was reported */
    char **enter; /* [sw * MODE_MAX + mode_index(m)]: the last line that entered sub-mode m */
    strbuf held;  /* transcript of lines not committed yet */
    uint64_t held_since; /* monotonic ns when `held` began */
    int saved_to;        /* lines before this one (of `file`) are on disk */
    const char *file;
    int line;            /* the line running, 0-based */
    bool lost;           /* the store refused a commit: the replay stops */
};

/* Group commit (docs/durability.md): a replay's own lines share one
 * transaction for speed, and what they print is held until it commits, so
 * nothing the client has seen is lost in a crash. It commits at least
 * every GROUP_COMMIT_NS, before any wait and before an error is printed;
 * another session's command commits it too (lab_lock). */
#define GROUP_COMMIT_NS (20 * 1000000ull)

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void say(struct replay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct replay *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&r->held, fmt, ap);
    va_end(ap);
}

/* Commits the batch, then shows what it held. False when the store
 * refused: the lines since the last commit are undone, and said so. */
static bool checkpoint(struct replay *r)
{
    lab_lock(r->lab);
    bool ok = lab_batch_commit(r->lab);
    char why[160];
    snprintf(why, sizeof why, "%s", lab_batch_error(r->lab));
    lab_unlock(r->lab);
    fwrite(r->held.data ? r->held.data : "", 1, r->held.len, r->out);
    fflush(r->out);
    sb_clear(&r->held);
    r->held_since = mono_ns();
    if (!ok && !r->lost) {
        fprintf(r->err, "%s:%d: %% %s (the changes of lines %d-%d are undone); replay stopped\n", r->file,
                r->line + 1, why, r->saved_to + 1, r->line + 1);
        r->lost = true;
        r->failures++;
    }
    r->saved_to = r->line + 1;
    return ok;
}

/* A line's error reaches stderr after the transcript before it. */
static void say_error(struct replay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_error(struct replay *r, const char *fmt, ...)
{
    checkpoint(r);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(r->err, fmt, ap);
    va_end(ap);
}

static void out_write(void *ctx, const char *s, size_t n)
{
    struct replay *r = ctx;
    if (r->quiet)
        return;
    sb_add(&r->held, s, n);
    sb_add(&r->got, s, n);
}

static bool stopping(const struct replay *r) { return r->o->stop && atomic_load(r->o->stop); }

/* A command that lasts (`sleep`, `ping` on real time) waits with the
 * batch committed and its transcript shown, in slices so that the owner
 * stopping ends it. */
static bool replay_wait(void *ctx, uint64_t ns)
{
    struct replay *r = ctx;
    checkpoint(r);
    while (ns && !stopping(r)) {
        uint64_t slice = ns < 100000000u ? ns : 100000000u;
        struct timespec ts = {0, (long)slice};
        nanosleep(&ts, NULL);
        ns -= slice;
    }
    return !stopping(r);
}

static struct session *session_for(struct replay *r, int sw)
{
    if (!r->open[sw] || r->sess[sw].closed) {
        if (r->open[sw])
            session_free(&r->sess[sw]);
        session_init(&r->sess[sw], r->lab, sw, (struct session_io){.write = out_write, .wait = replay_wait, .ctx = r});
        r->sess[sw].cwd = r->o->cwd;
        r->open[sw] = true;
    }
    return &r->sess[sw];
}

/* Other sessions of the lab may rename switches meanwhile: look up locked. */
static int find_switch(struct replay *r, const char *host)
{
    lab_lock(r->lab);
    int sw = lab_switch_find(r->lab, host);
    lab_unlock(r->lab);
    return sw;
}

static bool is_comment(const char *l) { return l[0] == '!' && (l[1] == ' ' || l[1] == '\0'); }

/* "MDS1(config-if)# cmd" or "MDS1#cmd": the host name and where the
 * command starts, or NULL when the line does not start with a prompt. */
static const char *parse_prompt(const char *l, char *host, size_t n)
{
    size_t i = 0;
    if (strncmp(l, "root@", 5) == 0) { /* a lab host's shell: "root@H1:~# cmd" (docs/hosts.md) */
        size_t hl = strspn(l + 5, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
        if (hl == 0 || hl >= n || strncmp(l + 5 + hl, ":~#", 3) != 0)
            return NULL;
        memcpy(host, l + 5, hl);
        host[hl] = '\0';
        i = 5 + hl + 3;
        return l + i + (l[i] == ' ');
    }
    if (!isalpha((unsigned char)l[0]))
        return NULL;
    while (isalnum((unsigned char)l[i]) || l[i] == '-' || l[i] == '_')
        i++;
    size_t hl = i;
    if (l[i] == '(') {
        while (l[i] && l[i] != ')' && (islower((unsigned char)l[i]) || l[i] == '-' || l[i] == '('))
            i++;
        if (l[i++] != ')')
            return NULL;
    }
    if (l[i] != '#' || hl >= n)
        return NULL;
    memcpy(host, l, hl);
    host[hl] = '\0';
    i++;
    return l + i + (l[i] == ' ');
}

/* The mode of a lab host's shell (root@...), which a feature declares. */
static const struct mode_info *host_shell(void)
{
    for (int m = 0; m < mode_count(); m++)
        if (mode_at(m)->shell == SHELL_HOST)
            return mode_at(m);
    return NULL;
}

/* The mode a prompt names ("MDS1(config-if)# x" -> MODE_IF), or NULL when
 * mdsim has no such mode; its suffix text in name. */
static const struct mode_info *prompt_mode(const char *line, const char *cmd, char *name, size_t n)
{
    if (strncmp(line, "root@", 5) == 0) {
        snprintf(name, n, "host");
        return host_shell();
    }
    const char *open = memchr(line, '(', (size_t)(cmd - line));
    const char *close = open ? memchr(open, ')', (size_t)(cmd - open)) : NULL;
    if (!close) {
        snprintf(name, n, "exec");
        return MODE_EXEC;
    }
    snprintf(name, n, "%.*s", (int)(close - open - 1), open + 1);
    for (int m = 0; m < mode_count(); m++) {
        const char *p = mode_at(m)->prompt;
        if (mode_at(m) != MODE_FILTER && mode_at(m) != MODE_LAB && strlen(p) == (size_t)(close - open + 1) &&
            strncmp(p, open, strlen(p)) == 0)
            return mode_at(m);
    }
    return NULL;
}

static bool descends(const struct mode_info *m, const struct mode_info *from)
{
    for (int depth = 0; depth < MODE_MAX; depth++) {
        if (m == from)
            return true;
        if (m == MODE_EXEC)
            return false;
        m = m->parent;
    }
    return false;
}

/* The next line that moves the session from c toward t, or NULL (why set)
 * when the way in is not known. The way into a mode from its parent is
 * its fixed line, or, for a sub-mode about something (an interface, an N
 * port), the line that last entered it on that switch (mode_info.way_in). */
static const char *next_move(struct replay *r, const struct mode_info *c, const struct mode_info *t, const char **why)
{
    if (!descends(t, c)) /* climb: `end` leaves configuration at once */
        return c->is_config && !descends(t, MODE_CONFIG) ? "end" : "exit";
    const struct mode_info *child = t;
    while (child->parent != c)
        child = child->parent;
    if (child->way_in)
        return child->way_in;
    if (child->about) {
        *why = child->about;
        return r->enter[r->cur * MODE_MAX + mode_index(child)];
    }
    *why = child->name;
    return NULL;
}

static const char *node_kind(const struct mode_info *m)
{
    return m->shell == SHELL_HOST ? "host" : m->shell == SHELL_SMCLI ? "storage array" : "switch";
}

/* Moves the session to the mode the line's prompt names; false (said on
 * stderr) when that mode cannot be reached: the line is then skipped. */
static bool follow_prompt(struct replay *r, struct session *s, const char *file, int ln, const char *line,
                          const char *cmd)
{
    char name[64];
    const struct mode_info *t = prompt_mode(line, cmd, name, sizeof name);
    if (!t) {
        say_error(r, "%s:%d: cannot reach mode %s: mdsim has no such mode; line skipped\n", file, ln, name);
        return false;
    }
    bool t_node = t->shell != SHELL_NXOS, s_node = s->mode->shell != SHELL_NXOS;
    if ((t_node || s_node) && t != s->mode) { /* a switch's prompt on a host, or the reverse */
        char who[64];
        lab_lock(r->lab);
        snprintf(who, sizeof who, "%s", lab_hostname(r->lab, r->cur));
        lab_unlock(r->lab);
        say_error(r, "%s:%d: the prompt is a %s's, but %s is a %s; line skipped\n", file, ln,
                  node_kind(t), who, node_kind(s->mode));
        return false;
    }
    for (int step = 0; s->mode != t; step++) {
        const char *why = NULL;
        const struct mode_info *was = s->mode;
        const char *move = step < 2 * MODE_MAX ? next_move(r, was, t, &why) : NULL;
        if (!move) {
            char host[64];
            lab_lock(r->lab);
            snprintf(host, sizeof host, "%s", lab_hostname(r->lab, r->cur));
            lab_unlock(r->lab);
            say_error(r, "%s:%d: cannot reach mode %s: no %s known on %s (the session is in %s mode); line skipped\n",
                    file, ln, name, why ? why : "way", host, was->name);
            return false;
        }
        r->quiet = true;
        int rc = session_exec(s, move);
        r->quiet = false;
        if (rc != 0 || s->mode == was || s->closed) {
            say_error(r, "%s:%d: cannot reach mode %s: `%s` in %s mode: %s; line skipped\n", file, ln, name, move,
                    was->name, rc ? s->last_error : "the mode did not change");
            return false;
        }
    }
    return true;
}

/* With --strict-prompts: a prompt naming another mode than the session's,
 * reported once per file. */
static void check_prompt_mode(struct replay *r, struct session *s, const char *file, int ln, const char *line,
                              const char *cmd)
{
    char name[64];
    if (r->hinted || prompt_mode(line, cmd, name, sizeof name) == s->mode)
        return;
    r->hinted = true;
    say_error(r,
            "%s:%d: the prompt says %s mode but the session is in %s mode (reported once per file); "
            "without --strict-prompts replay runs each line in its prompt's mode\n",
            file, ln, name, s->mode->name);
}

static void remember_entry(struct replay *r, struct session *s, const struct mode_info *was, const char *cmd)
{
    if (s->closed || s->mode == was || s->mode->parent != was)
        return;
    char **e = &r->enter[r->cur * MODE_MAX + mode_index(s->mode)];
    free(*e);
    *e = strdup(cmd);
}

struct file_lines {
    char **v;
    int n;
};

static bool read_lines(struct replay *r, const char *path, struct file_lines *fl)
{
    FILE *f = r->o->open ? r->o->open(r->o->open_ctx, path) : strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f)
        return false;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int capn = 0;
    fl->v = NULL;
    fl->n = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        for (ssize_t i = 0; i < len; i++) /* a NUL would cut the line short: */
            if (line[i] == '\0')         /* keep it, as a byte the session refuses */
                line[i] = 0x7f;
        if (fl->n == capn) {
            capn = capn ? capn * 2 : 256;
            fl->v = realloc(fl->v, sizeof *fl->v * (size_t)capn);
            if (!fl->v)
                abort();
        }
        fl->v[fl->n++] = strdup(line);
    }
    free(line);
    if (f != stdin)
        fclose(f);
    return true;
}

static void free_lines(struct file_lines *fl)
{
    for (int i = 0; i < fl->n; i++)
        free(fl->v[i]);
    free(fl->v);
}

static bool has_prompts(struct replay *r, const struct file_lines *fl)
{
    char host[64];
    for (int i = 0; i < fl->n; i++)
        if (!is_comment(fl->v[i]) && parse_prompt(fl->v[i], host, sizeof host) &&
            find_switch(r, host) >= 0)
            return true;
    return false;
}

/* --verify compares one command's output, line by line, with masked
 * copies (cli/verify_mask.c) so that times and uptimes do not count. */
struct vlines {
    const char **text; /* the line as shown */
    size_t *len;
    char **masked;
    int *ln; /* the transcript's line number (expected side) */
    int n, cap;
};

static void vl_add(struct vlines *v, const char *text, size_t len, int ln)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 32;
        v->text = realloc(v->text, sizeof *v->text * (size_t)v->cap);
        v->len = realloc(v->len, sizeof *v->len * (size_t)v->cap);
        v->masked = realloc(v->masked, sizeof *v->masked * (size_t)v->cap);
        v->ln = realloc(v->ln, sizeof *v->ln * (size_t)v->cap);
        if (!v->text || !v->len || !v->masked || !v->ln)
            abort();
    }
    v->text[v->n] = text;
    v->len[v->n] = len;
    v->masked[v->n] = verify_mask(text, len);
    v->ln[v->n++] = ln;
}

static void vl_free(struct vlines *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->masked[i]);
    free(v->text);
    free(v->len);
    free(v->masked);
    free(v->ln);
}

/* The longest common subsequence of e[lo..] and g[lo..] for every pair of
 * suffixes, (ne+1) x (ng+1), or NULL when too big to be worth it (the
 * lines are then paired in order). */
#define VERIFY_TABLE_MAX (1 << 20) /* cells: 4 MB */
static int *lcs_table(const struct vlines *e, const struct vlines *g, int lo, int ne, int ng)
{
    if ((long long)(ne + 1) * (ng + 1) > VERIFY_TABLE_MAX)
        return NULL;
    int w = ng + 1, *t = calloc((size_t)(ne + 1) * (size_t)w, sizeof *t);
    if (!t)
        return NULL;
    for (int i = ne - 1; i >= 0; i--)
        for (int j = ng - 1; j >= 0; j--)
            t[i * w + j] = strcmp(e->masked[lo + i], g->masked[lo + j]) == 0 ? t[(i + 1) * w + j + 1] + 1
                           : t[(i + 1) * w + j] > t[i * w + j + 1] ? t[(i + 1) * w + j] : t[i * w + j + 1];
    return t;
}

/* How alike two lines look: the length of their common start. */
static int alike(const char *a, const char *b)
{
    int n = 0;
    while (a[n] && a[n] == b[n])
        n++;
    return n;
}

enum vstep { V_SAME, V_DIFFERS, V_MISSING, V_EXTRA };

/* The next step of the walk through e[i..ne) and g[j..ng), t the table of
 * lcs_table (rows and columns from lo). Of the steps that keep the most
 * lines matched, the one pairing the most alike lines: a line only
 * missing or only extra is said so, rather than paired with its
 * neighbour. */
static enum vstep next_step(const struct vlines *e, const struct vlines *g, const int *t, int lo, int i, int ne,
                            int j, int ng)
{
    if (i < ne && j < ng && strcmp(e->masked[i], g->masked[j]) == 0)
        return V_SAME;
    if (i == ne || j == ng)
        return i == ne ? V_EXTRA : V_MISSING;
    if (!t)
        return V_DIFFERS;
    int w = ng - lo + 1, best = t[(i - lo) * w + j - lo];
    enum vstep step = V_DIFFERS;
    int score = t[(i + 1 - lo) * w + j + 1 - lo] == best ? alike(e->masked[i], g->masked[j]) : -1;
    if (t[(i + 1 - lo) * w + j - lo] == best && i + 1 < ne && alike(e->masked[i + 1], g->masked[j]) > score) {
        step = V_MISSING;
        score = alike(e->masked[i + 1], g->masked[j]);
    }
    if (t[(i - lo) * w + j + 1 - lo] == best && j + 1 < ng && alike(e->masked[i], g->masked[j + 1]) > score)
        step = V_EXTRA;
    if (score < 0 && step == V_DIFFERS) /* pairing would lose a match */
        step = t[(i + 1 - lo) * w + j - lo] == best ? V_MISSING : V_EXTRA;
    return step;
}

/* One message per line that differs, is missing or is extra, in the order
 * of the transcript; end is the line an extra line at the end is said at. */
static void diff_lines(strbuf *msg, const char *file, const struct vlines *e, const struct vlines *g, int end)
{
    int lo = 0, ne = e->n, ng = g->n;
    while (lo < ne && lo < ng && strcmp(e->masked[lo], g->masked[lo]) == 0)
        lo++;
    while (ne > lo && ng > lo && strcmp(e->masked[ne - 1], g->masked[ng - 1]) == 0)
        ne--, ng--;
    int *t = lcs_table(e, g, lo, ne - lo, ng - lo);
    for (int i = lo, j = lo; i < ne || j < ng;) {
        switch (next_step(e, g, t, lo, i, ne, j, ng)) {
        case V_SAME: i++, j++; break;
        case V_DIFFERS:
            sb_printf(msg, "%s:%d: output differs: expected \"%s\", got \"%.*s\"\n", file, e->ln[i], e->text[i],
                      (int)g->len[j], g->text[j]);
            i++, j++;
            break;
        case V_MISSING:
            sb_printf(msg, "%s:%d: output missing: expected \"%s\"\n", file, e->ln[i], e->text[i]);
            i++;
            break;
        case V_EXTRA:
            sb_printf(msg, "%s:%d: unexpected output \"%.*s\"\n", file, i < e->n ? e->ln[i] : end,
                      (int)g->len[j], g->text[j]);
            j++;
            break;
        }
    }
    free(t);
}

/* --verify: the transcript's lines after a command must be its output. */
static void verify(struct replay *r, const char *file, const struct file_lines *fl, int cmd_line, int next)
{
    struct vlines e = {0}, g = {0};
    for (int ln = cmd_line + 1; ln < next; ln++)
        if (!is_comment(fl->v[ln]))
            vl_add(&e, fl->v[ln], strlen(fl->v[ln]), ln + 1);
    for (const char *p = sb_str(&r->got); *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        vl_add(&g, p, n, 0);
        p += n + (nl ? 1 : 0);
    }
    strbuf msg;
    sb_init(&msg);
    diff_lines(&msg, file, &e, &g, next);
    if (msg.len) { /* one say_error: one commit for all of them */
        say_error(r, "%s", sb_str(&msg));
        r->failures++;
    }
    sb_free(&msg);
    vl_free(&e);
    vl_free(&g);
}

static int next_command(struct replay *r, const struct file_lines *fl, int from, bool transcript)
{
    char host[64];
    for (int i = from; i < fl->n; i++) {
        const char *l = fl->v[i];
        if (is_comment(l) || (!transcript && l[0] == '!')) /* `!Time: ...` of a pasted config */
            continue;
        if (!transcript || (parse_prompt(l, host, sizeof host) && find_switch(r, host) >= 0))
            return i;
    }
    return fl->n;
}

/* --pace: the lab clock moves as between a person's commands (a captured
 * session's lines were seconds apart: tunnels came up, traffic ran). On
 * real time that is a wait, without the lab held. */
static void pace(struct replay *r)
{
    if (r->o->pace_s <= 0)
        return;
    lab_lock(r->lab);
    uint64_t now = lab_now(r->lab), t = now + (uint64_t)r->o->pace_s * 1000000000u;
    if (t > LAB_TIME_MAX_NS)
        t = LAB_TIME_MAX_NS > now ? LAB_TIME_MAX_NS : now;
    uint64_t wall = lab_wall_until(r->lab, t);
    if (!lab_realtime(r->lab))
        lab_advance_to(r->lab, t);
    lab_unlock(r->lab);
    if (wall)
        replay_wait(r, wall);
}

static bool run_one(struct replay *r, const char *file, const struct file_lines *fl, int i, bool transcript)
{
    char host[64], prompt[128];
    const char *cmd = fl->v[i];
    if (transcript) {
        cmd = parse_prompt(cmd, host, sizeof host);
        r->cur = find_switch(r, host);
    }
    struct session *s = session_for(r, r->cur);
    pace(r);
    if (transcript && r->o->follow_prompts && !follow_prompt(r, s, file, i + 1, fl->v[i], cmd)) {
        say(r, "%s\n", fl->v[i]); /* as given: the transcript keeps its shape */
        sb_clear(&r->got);
        r->failures++;
        return false;
    }
    if (transcript && !r->o->follow_prompts)
        check_prompt_mode(r, s, file, i + 1, fl->v[i], cmd);
    const struct mode_info *was = s->mode;
    lab_lock(r->lab);
    session_prompt(s, prompt, sizeof prompt);
    lab_unlock(r->lab);
    say(r, "%s%s\n", prompt, cmd);
    size_t shown = (size_t)(cmd - fl->v[i]), plen = strlen(prompt);
    while (shown && fl->v[i][shown - 1] == ' ')
        shown--;
    while (plen && prompt[plen - 1] == ' ')
        plen--;
    if (r->o->verify && transcript && (shown != plen || strncmp(fl->v[i], prompt, plen) != 0)) {
        say_error(r, "%s:%d: prompt differs: expected \"%.*s\", got \"%.*s\"\n", file, i + 1,
                (int)shown, fl->v[i], (int)plen, prompt);
        r->failures++;
    }
    sb_clear(&r->got);
    size_t len = strlen(cmd);
    if (len && cmd[len - 1] == '?') { /* a captured `?`: the help it showed */
        char *upto = strndup(cmd, len - 1);
        session_help(s, upto);
        free(upto);
        return true;
    }
    int rc = session_exec(s, cmd);
    remember_entry(r, s, was, cmd);
    if (rc != 0 && !r->o->verify) { /* verify: the transcript shows the error */
        say_error(r, "%s:%d: %s\n", file, i + 1, s->last_error);
        r->failures++;
    }
    return rc == 0;
}

static int replay_file(struct replay *r, const char *file)
{
    struct file_lines fl;
    if (!read_lines(r, file, &fl)) {
        say_error(r, "mdsim: cannot read %s\n", file);
        return -1;
    }
    bool transcript = has_prompts(r, &fl);
    r->hinted = false;
    r->file = file;
    r->saved_to = 0;
    int i = next_command(r, &fl, 0, transcript);
    while (i < fl.n && !r->lost && !stopping(r)) {
        r->line = i;
        bool ok = run_one(r, file, &fl, i, transcript);
        if (mono_ns() - r->held_since >= GROUP_COMMIT_NS)
            checkpoint(r);
        /* after the command: a `switchname` changes the prompts that follow */
        int next = next_command(r, &fl, i + 1, transcript);
        if (r->o->verify)
            verify(r, file, &fl, i, next);
        if (!ok && r->o->stop_on_error)
            break;
        i = next;
    }
    checkpoint(r);
    free_lines(&fl);
    return 0;
}

/* --check runs on a private copy of the lab, taken at its start, so its
 * undo never takes other sessions' changes with it and it never holds
 * them up (docs/durability.md). */
static struct lab *lab_for(struct lab *lab, const struct replay_opts *o)
{
    if (!o->check)
        return lab;
    char err[256];
    lab_lock(lab);
    struct lab *copy = lab_copy(lab, err, sizeof err);
    lab_unlock(lab);
    if (!copy)
        fprintf(o->err ? o->err : stderr, "mdsim: cannot copy the lab for --check: %s\n", err);
    return copy;
}

/* What watches a replay (--series, --pcap): started before its first line,
 * stopped after its last. */
struct observers {
    struct replay_series *series;
    struct replay_pcap *pcap;
};

/* 0, or the exit code when one cannot start (2: a path it cannot write),
 * with nothing left started. */
static int observers_start(struct lab *lab, const struct replay_opts *o, struct observers *ob)
{
    FILE *err = o->err ? o->err : stderr;
    *ob = (struct observers){0};
    if (o->series && !(ob->series = replay_series_start(lab, o->series, o->plots, err)))
        return 2;
    if (o->pcap && !(ob->pcap = replay_pcap_start(lab, o->pcap, err))) {
        replay_series_discard(ob->series);
        return 1;
    }
    return 0;
}

/* How many of them failed to finish their files. */
static int observers_stop(struct observers *ob, FILE *err)
{
    return (replay_series_finish(ob->series, err) != 0) + (replay_pcap_stop(ob->pcap, err) != 0);
}

int replay_files(struct lab *shared, char **files, int n, const struct replay_opts *o)
{
    struct lab *lab = lab_for(shared, o);
    if (!lab)
        return 1;
    struct observers ob;
    int rc = observers_start(lab, o, &ob);
    if (rc != 0) {
        if (lab != shared)
            lab_close(lab);
        return rc;
    }
    lab_lock(lab);
    int nsw = lab_node_count(lab); /* a session for each switch and host */
    lab_unlock(lab);
    struct replay r = {.lab = lab, .o = o, .sess = calloc((size_t)nsw, sizeof(struct session)),
                       .open = calloc((size_t)nsw, sizeof(bool)), .cur = o->start_switch,
                       .out = o->out ? o->out : stdout, .err = o->err ? o->err : stderr};
    r.enter = calloc((size_t)nsw * MODE_MAX, sizeof *r.enter);
    if (!r.sess || !r.open || !r.enter)
        abort();
    sb_init(&r.got);
    sb_init(&r.held);
    r.held_since = mono_ns();
    lab_lock(lab);
    lab_batch_begin(lab, false);
    lab_unlock(lab);
    int bad = 0;
    for (int i = 0; i < n && !(o->stop_on_error && r.failures) && !r.lost; i++)
        bad |= replay_file(&r, files[i]) != 0;
    lab_lock(lab);
    if (!lab_batch_end(lab)) { /* only a commit another session forced can fail here */
        fprintf(r.err, "mdsim: %% %s; the replay's last changes are undone\n", lab_batch_error(lab));
        r.failures++;
    }
    lab_unlock(lab);
    for (int i = 0; i < nsw; i++)
        if (r.open[i])
            session_free(&r.sess[i]);
    for (int i = 0; i < nsw * MODE_MAX; i++)
        free(r.enter[i]);
    free(r.enter);
    free(r.sess);
    free(r.open);
    sb_free(&r.got);
    sb_free(&r.held);
    fflush(r.out);
    r.failures += observers_stop(&ob, r.err);
    if (lab != shared)
        lab_close(lab);
    return bad ? 2 : r.failures ? 1 : 0;
}
