/*
 * libFuzzer target: lines typed at the sessions of a lab.
 *
 * The input is split into lines. A line ending in `?` asks for help on
 * what precedes it (session_help), one ending in a Tab asks for the
 * completions (session_complete), any other line is run (session_exec).
 * Lines starting with "@@" are directions to the harness, not commands:
 *   @@0 .. @@9  type at switch N (modulo the switch count) from now on
 *   @@o / @@a   the session's role becomes operator / admin
 *   @@m @@e @@q a pager: at --More-- press space / Enter / q
 *   @@M         no pager (the default, as in batch runs)
 *   @@y / @@n   a person answers questions yes / no (by default
 *               nobody is asked, as in batch runs: the answer is yes)
 *   @@p         lines arrive without a prompt (SSH exec)
 * Each switch has one session, fresh for every input.
 */
#include "fuzz_lab.h"
#include "session.h"
#include "lab/lab.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SWITCHES = 16 };

struct harness {
    struct lab *lab;
    struct session sess[MAX_SWITCHES];
    bool open[MAX_SWITCHES];
    int cur;
    char more_key; /* what the pager answers: ' ', '\r' or 'q' */
    char confirm;  /* 'y' or 'n' answered at a question, 0: unattended */
};

static void out_write(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    fuzz_output(s, n);
}

static int out_more(void *ctx, int page)
{
    struct harness *h = ctx;
    return h->more_key == ' ' ? page : h->more_key == '\r' ? 1 : 0;
}

static bool out_confirm(void *ctx, const char *question)
{
    struct harness *h = ctx;
    out_write(ctx, question, strlen(question));
    return h->confirm == 'y';
}

/* Virtual time: only a real-time lab waits, and this one never is. */
static bool out_wait(void *ctx, uint64_t ns)
{
    (void)ctx;
    (void)ns;
    return true;
}

static struct session *cur_session(struct harness *h)
{
    struct session *s = &h->sess[h->cur];
    if (h->open[h->cur] && s->closed) { /* `exit` at exec: a new login */
        session_free(s);
        h->open[h->cur] = false;
    }
    if (!h->open[h->cur]) {
        struct session_io io = {out_write, NULL, out_confirm, out_wait, h};
        session_init(s, h->lab, h->cur, io);
        h->open[h->cur] = true;
    }
    s->io.more = h->more_key ? out_more : NULL;
    s->io.confirm = h->confirm ? out_confirm : NULL;
    return s;
}

static void direction(struct harness *h, const char *d)
{
    int nsw = lab_switch_count(h->lab);
    if (nsw > MAX_SWITCHES)
        nsw = MAX_SWITCHES;
    if (*d >= '0' && *d <= '9') {
        h->cur = (*d - '0') % nsw;
        return;
    }
    struct session *s = cur_session(h);
    switch (*d) {
    case 'o': s->role = ROLE_OPERATOR; break;
    case 'a': s->role = ROLE_ADMIN; break;
    case 'm': h->more_key = ' '; break;
    case 'e': h->more_key = '\r'; break;
    case 'q': h->more_key = 'q'; break;
    case 'M': h->more_key = 0; break;
    case 'y': h->confirm = 'y'; break;
    case 'n': h->confirm = 'n'; break;
    case 'p': s->no_prompt = true; break;
    }
}

static void free_completions(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Beyond crashes, two rules of docs/cli-behaviour.md are checked: a
 * command that fails says why (an error line: `% ...`, or a tool's own as
 * ping's `ping: sendto ...`) and leaves the mode and the sub-mode's
 * interface as they were. */
static void exec_checked(struct session *s, const char *line)
{
    const struct mode_info *mode = s->mode;
    struct mode_ctx ctx = s->ctx;
    if (session_exec(s, line) == 0)
        return;
    if (!s->last_error[0]) {
        fprintf(stderr, "fuzz_session: a failed command printed no error: \"%s\"\n", line);
        abort();
    }
    /* The one exception: an operator refused in a config mode (made one
     * while there, here by @@o) is sent back to exec mode. */
    bool demoted = s->role == ROLE_OPERATOR && s->mode == MODE_EXEC;
    if (!demoted && (s->mode != mode || memcmp(&s->ctx, &ctx, sizeof ctx) != 0)) {
        fprintf(stderr, "fuzz_session: a failed command changed the mode: \"%s\"\n", line);
        abort();
    }
}

/* line is NUL-terminated and may be written to. */
static void one_line(struct harness *h, char *line, size_t len)
{
    if (len >= 2 && line[0] == '@' && line[1] == '@') {
        direction(h, line + 2);
        return;
    }
    struct session *s = cur_session(h);
    if (len && line[len - 1] == '?') {
        line[len - 1] = '\0';
        session_help(s, line);
    } else if (len && line[len - 1] == '\t') {
        line[len - 1] = '\0';
        char **v;
        int n = session_complete(s, line, &v);
        for (int i = 0; i < n; i++)
            out_write(h, v[i], strlen(v[i]));
        free_completions(v, n);
    } else {
        exec_checked(s, line);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy: lines are cut in place, and a NUL inside a line becomes a
     * byte the session refuses, as replay does, instead of cutting it. */
    char *buf = malloc(size + 1);
    if (!buf)
        abort();
    for (size_t i = 0; i < size; i++)
        buf[i] = data[i] ? (char)data[i] : 0x7f;
    buf[size] = '\0';
    struct harness h = {.lab = fuzz_lab_begin()};
    char *p = buf, *end = buf + size;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        p[len] = '\0';
        one_line(&h, p, len);
        p += len + 1;
    }
    for (int i = 0; i < MAX_SWITCHES; i++)
        if (h.open[i])
            session_free(&h.sess[i]);
    fuzz_lab_end();
    free(buf);
    return 0;
}
