/* A check file's steps on a copy of one student's lab. */
#include "check_run.h"
#include "lab/lab.h"
#include "pattern.h"
#include "runconf.h"
#include "session.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct run {
    const struct check_file *cf;
    const char *student;
    struct lab *lab; /* the copy; NULL when the lab could not be read */
    char lab_err[512];
    int nsw;
    struct session *sess; /* per switch of the lab, opened when first used */
    bool *open;
    struct runconf **conf; /* per switch, read when first asked */
    strbuf out;            /* the last command's output */
    strbuf item, why;
    check_sink sink;
    void *ctx;
};

static const char *next_line(const char *l)
{
    l += strcspn(l, "\n");
    return *l ? l + 1 : l;
}

static void capture(void *ctx, const char *s, size_t n)
{
    struct run *r = ctx;
    sb_add(&r->out, s, n);
}

static void result(struct run *r, const struct check_step *s, int line, bool pass)
{
    struct check_result res = {r->student, s->sw, line, sb_str(&r->item), pass, pass ? "" : sb_str(&r->why)};
    r->sink(r->ctx, &res);
}

/* A check file names a switch as the lab file does, in any case: the
 * name a student may have given it (`switchname`) comes second. */
static int find_switch(struct lab *lab, const char *name)
{
    int n = lab_switch_count(lab);
    for (int i = 0; i < n; i++)
        if (strcasecmp(lab_switch_name(lab, i), name) == 0)
            return i;
    for (int i = 0; i < n; i++)
        if (strcasecmp(lab_hostname(lab, i), name) == 0)
            return i;
    return -1;
}

/* The lab's index of the step's switch, or -1 with why said. */
static int switch_of(struct run *r, const struct check_step *s)
{
    sb_clear(&r->why);
    if (!r->lab) {
        sb_puts(&r->why, r->lab_err);
        return -1;
    }
    lab_lock(r->lab);
    int sw = find_switch(r->lab, s->sw);
    lab_unlock(r->lab);
    if (sw < 0)
        sb_printf(&r->why, "no switch %s in this lab", s->sw);
    return sw;
}

/* Runs a command on the switch as a replay would, its output in r->out. */
static int exec(struct run *r, int sw, const char *cmd)
{
    if (!r->open[sw]) {
        session_init(&r->sess[sw], r->lab, sw, (struct session_io){.write = capture, .ctx = r});
        r->open[sw] = true;
    }
    sb_clear(&r->out);
    return session_exec(&r->sess[sw], cmd);
}

/* ---- steps ---- */

static void run_wait(struct run *r, const struct check_step *s)
{
    if (!r->lab)
        return;
    lab_lock(r->lab);
    lab_advance_to(r->lab, lab_now(r->lab) + (uint64_t)s->seconds * 1000000000u);
    lab_unlock(r->lab);
}

static const struct runconf *conf_of(struct run *r, int sw)
{
    if (!r->conf[sw]) {
        exec(r, sw, "show running-config");
        r->conf[sw] = runconf_read(sb_str(&r->out));
    }
    return r->conf[sw];
}

static void run_config(struct run *r, const struct check_step *s)
{
    sb_clear(&r->item);
    sb_printf(&r->item, "config %s: %s", s->lacks ? "lacks" : "has", s->text);
    int sw = switch_of(r, s);
    if (sw < 0)
        return result(r, s, s->line, false);
    int found = runconf_find(conf_of(r, sw), s->keys, s->nkeys);
    if (s->lacks)
        sb_puts(&r->why, "in running-config");
    else if (found == 0)
        sb_puts(&r->why, "not in running-config");
    else
        sb_printf(&r->why, "not in running-config under %s", s->lines[found - 1]);
    result(r, s, s->line, s->lacks ? found < s->nkeys : found == s->nkeys);
}

/* What a show's output must hold, one function per kind of line. */
static bool out_contains(const struct check_expect *x, const char *out, strbuf *why)
{
    if (strstr(out, x->text))
        return true;
    sb_printf(why, "output lacks \"%s\"", x->text);
    return false;
}

static bool out_lacks(const struct check_expect *x, const char *out, strbuf *why)
{
    const char *at = strstr(out, x->text);
    if (!at)
        return true;
    while (at > out && at[-1] != '\n')
        at--;
    at += strspn(at, " ");
    sb_printf(why, "output has \"%s\": %.*s", x->text, (int)strcspn(at, "\n"), at);
    return false;
}

/* The first line the pattern matches: true with its span, or false with
 * why said. */
static bool find_line(const struct check_expect *x, const char *out, const char **line, size_t *from, size_t *to,
                      strbuf *why)
{
    for (const char *l = out; *l; l = next_line(l)) {
        int rc = pattern_find(x->re, l, strcspn(l, "\n"), from, to);
        if (rc < 0)
            sb_puts(why, "the pattern is too costly for a line of the output");
        if (rc != 0) {
            *line = l;
            return rc > 0;
        }
    }
    sb_puts(why, "no line of the output matches");
    return false;
}

static bool out_matches(const struct check_expect *x, const char *out, strbuf *why)
{
    const char *line;
    size_t from, to;
    return find_line(x, out, &line, &from, &to, why);
}

/* The first number in what the pattern matched, on the first line it
 * matches: `[0-9]+ Active TCP` reads 2 in `2 Active TCP connections`. */
static bool out_counter(const struct check_expect *x, const char *out, strbuf *why)
{
    const char *line;
    size_t from, to;
    if (!find_line(x, out, &line, &from, &to, why))
        return false;
    size_t len = strcspn(line, "\n"), lead = strspn(line, " ");
    size_t at = from + strcspn(line + from, "0123456789");
    if (at >= to) {
        sb_printf(why, "no number in what the pattern matched: %.*s", (int)(len - lead), line + lead);
        return false;
    }
    size_t n = strspn(line + at, "0123456789");
    if (line[at + n] == '.' && at + n + 1 < to && strspn(line + at + n + 1, "0123456789") > 0)
        n += 1 + strspn(line + at + n + 1, "0123456789");
    char num[40];
    snprintf(num, sizeof num, "%.*s", (int)(n < 39 ? n : 39), line + at);
    double v = strtod(num, NULL);
    if (v >= x->lo && v <= x->hi)
        return true;
    sb_printf(why, "%s is outside %s: %.*s", num, x->range, (int)(len - lead), line + lead);
    return false;
}

static bool (*const holds[])(const struct check_expect *x, const char *out, strbuf *why) = {
    [EXPECT_CONTAINS] = out_contains,
    [EXPECT_LACKS] = out_lacks,
    [EXPECT_MATCHES] = out_matches,
    [EXPECT_COUNTER] = out_counter,
};

static void run_show(struct run *r, const struct check_step *s)
{
    int sw = switch_of(r, s);
    int rc = sw < 0 ? 1 : exec(r, sw, s->text);
    if (sw >= 0 && rc != 0)
        sb_printf(&r->why, "the command failed: %s", r->sess[sw].last_error);
    for (int i = 0; i < s->nex; i++) {
        const struct check_expect *x = &s->ex[i];
        sb_clear(&r->item);
        sb_printf(&r->item, "%s: %s %s%s\"%s\"", s->text, check_expect_words[x->kind], x->range ? x->range : "",
                  x->range ? " " : "", x->text);
        if (rc == 0)
            sb_clear(&r->why);
        result(r, s, x->line, rc == 0 && holds[x->kind](x, sb_str(&r->out), &r->why));
    }
}

/* A ping or an fcping gets a reply when its summary counts one. */
static void run_ping(struct run *r, const struct check_step *s)
{
    static const char *const summaries[] = {"%d packets transmitted, %d packets received",
                                            "%d frames sent, %d frames received"};
    sb_clear(&r->item);
    sb_puts(&r->item, s->text);
    int sw = switch_of(r, s);
    if (sw < 0)
        return result(r, s, s->line, false);
    if (exec(r, sw, s->text) != 0) {
        sb_printf(&r->why, "the command failed: %s", r->sess[sw].last_error);
        return result(r, s, s->line, false);
    }
    int sent = 0, got = 0;
    for (const char *l = sb_str(&r->out); *l; l = next_line(l))
        for (size_t k = 0; k < sizeof summaries / sizeof summaries[0]; k++) {
            int a, b;
            if (sscanf(l, summaries[k], &a, &b) == 2)
                sent = a, got = b;
        }
    sb_printf(&r->why, "no reply (%d sent, %d received)", sent, got);
    result(r, s, s->line, got > 0);
}

static void (*const steps[])(struct run *r, const struct check_step *s) = {
    [STEP_WAIT] = run_wait,
    [STEP_CONFIG] = run_config,
    [STEP_SHOW] = run_show,
    [STEP_PING] = run_ping,
};

void check_run(const struct check_file *cf, const char *student, const char *path, check_sink sink, void *ctx)
{
    struct run r = {.cf = cf, .student = student, .sink = sink, .ctx = ctx};
    r.lab = lab_snapshot(path, r.lab_err, sizeof r.lab_err);
    if (r.lab) {
        lab_lock(r.lab);
        r.nsw = lab_switch_count(r.lab);
        lab_unlock(r.lab);
    }
    r.sess = calloc((size_t)r.nsw + 1, sizeof *r.sess);
    r.open = calloc((size_t)r.nsw + 1, sizeof *r.open);
    r.conf = calloc((size_t)r.nsw + 1, sizeof *r.conf);
    if (!r.sess || !r.open || !r.conf)
        abort();
    sb_init(&r.out);
    sb_init(&r.item);
    sb_init(&r.why);
    for (int i = 0; i < cf->nsteps; i++)
        steps[cf->steps[i].kind](&r, &cf->steps[i]);
    for (int i = 0; i < r.nsw; i++) {
        if (r.open[i])
            session_free(&r.sess[i]);
        runconf_free(r.conf[i]);
    }
    free(r.sess);
    free(r.open);
    free(r.conf);
    sb_free(&r.out);
    sb_free(&r.item);
    sb_free(&r.why);
    lab_close(r.lab);
}
