/*
 * The served terminal. libcli (1.10.7) is not used for the line
 * discipline: its cli_loop owns `?` and Tab and answers them from its own
 * command tree, has no pager, and its idle callback does not run while a
 * user types. The grammar must answer `?`, Tab and errors, so this file
 * does the small part libcli would have done: telnet negotiation, echo,
 * editing keys and history. Everything else is the session's.
 */
#include "telnet.h"
#include "lab/lab.h"
#include "lab/sessions.h"
#include "user/user.h"
#include "logging/syslog.h"
#include "wall.h"
#include "login_throttle.h"
#include <poll.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    LINE_CAP = 8192, /* longer input is cut here; the session then refuses it */
    SLICE_MS = 200, /* how often a waiting thread looks at the stop flag */
    CONFIRM_SECONDS = 30, /* a question not answered by then is a no */
    ACCOUNT_CHECK_SECONDS = 2, /* a session waiting for a line looks at its account this often */
    ESC_SEQ_MAX = 16,     /* parameter bytes in an escape sequence; no key has more */
    ESC_NUM_MAX = 99999,  /* a parameter stops growing here: no key number is bigger */
    KEY_UP = 0x100, KEY_DOWN, KEY_LEFT, KEY_RIGHT, KEY_HOME, KEY_END, KEY_DEL,
    KEY_GONE = -1,
    KEY_LATE = -2, /* the deadline of a question passed */
};

/* Telnet commands and options (RFC 854, 857, 858, 1073). */
enum {
    T_SE = 240, T_NOP = 241, T_BRK = 243, T_IP = 244, T_AYT = 246, T_SB = 250,
    T_WILL = 251, T_WONT = 252, T_DO = 253, T_DONT = 254, T_IAC = 255,
    O_ECHO = 1, O_SGA = 3, O_NAWS = 31,
};

struct term {
    struct term_transport tr;
    struct term_opts o;
    struct term_session ss; /* the session service: login, registration, history, idle limit */
    bool gone;
    bool eof;                /* the peer sends no more, but output still goes */
    char out[4096];          /* output not sent yet: see flush_out */
    size_t out_len;
    unsigned char in[1024];
    size_t in_len, in_pos;
    bool after_cr;           /* swallow the LF or NUL telnet sends after CR */
    unsigned char replied[256]; /* options answered once, so peers cannot loop us */
    char line[LINE_CAP + 1];
    size_t len, cur;
    bool from_ctrl_z; /* the line is Ctrl-Z's `end`: not for the history */
    int hpos;                /* the history line shown, ss.nhist for the line typed */
    time_t last_input;
    time_t deadline; /* while answering a question, else 0 */
    time_t account_checked; /* while waiting for a line, else 0: its user may be deleted meanwhile */
    bool at_line;     /* waiting for a line at a prompt: log messages may be shown */
};

/* ---- output ---- */

/* Output waits in t->out until the terminal is about to wait for input
 * (or the buffer fills): the echo of a typed line, the command's output
 * and the prompt then leave in one write, one SSH packet, not one per
 * key. A client such as paramiko spends most of a command's time on
 * packets. */
static void flush_out(struct term *t)
{
    if (!t->gone && t->out_len && t->tr.write(t->tr.ctx, t->out, t->out_len) < 0)
        t->gone = true;
    t->out_len = 0;
}

static void raw_write(struct term *t, const void *p, size_t n)
{
    if (t->gone || !n)
        return;
    if (n > sizeof t->out - t->out_len)
        flush_out(t);
    if (n > sizeof t->out) {
        if (!t->gone && t->tr.write(t->tr.ctx, p, n) < 0)
            t->gone = true;
        return;
    }
    memcpy(t->out + t->out_len, p, n);
    t->out_len += n;
}

/* Session text to the wire: "\n" becomes CR LF, and telnet doubles 0xFF. */
static void term_out(struct term *t, const char *s, size_t n)
{
    char buf[512];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k > sizeof buf - 4) {
            raw_write(t, buf, k);
            k = 0;
        }
        if (s[i] == '\n' && t->o.crlf)
            buf[k++] = '\r';
        else if ((unsigned char)s[i] == T_IAC && t->o.telnet)
            buf[k++] = (char)T_IAC;
        buf[k++] = s[i];
    }
    raw_write(t, buf, k);
}

static void term_puts(struct term *t, const char *s) { term_out(t, s, strlen(s)); }

/* The host name may be changing in another session: read it locked. */
static void put_prompt(struct term *t)
{
    char p[128];
    lab_lock(t->o.lab);
    session_prompt(&t->ss.s, p, sizeof p);
    lab_unlock(t->o.lab);
    term_puts(t, p);
}

/* ---- log messages (docs/logging.md) ---- */

static void redisplay(struct term *t);

/* Messages of its switch the terminal shows while it waits at a prompt:
 * the console those within `logging console`, a session with `terminal
 * monitor` those within `logging monitor`. Each goes on a line of its
 * own, then the prompt and what was typed so far again, as NX-OS does.
 * Read off the log's ring without the lab lock; one atomic load when
 * nothing is new. */
static void show_log(struct term *t)
{
    char buf[4096];
    if (!t->o.interactive || (!t->o.console && !t->ss.monitor) ||
        !syslog_ring_take(t->o.lab, t->o.sw, t->o.console, t->ss.monitor, &t->ss.log_seen, buf, sizeof buf))
        return;
    raw_write(t, t->line + t->cur, t->len - t->cur); /* off the end of the line typed so far */
    term_puts(t, "\n");
    term_puts(t, buf);
    redisplay(t);
}

/* ---- input: bytes, telnet commands, keys ---- */

static bool stopping(const struct term *t) { return t->o.stop && atomic_load(t->o.stop); }

/* We end the session: what it was told last goes out first. */
static void hang_up(struct term *t)
{
    flush_out(t);
    t->gone = true;
}

/* The next byte off the wire, waiting in slices so that shutdown and the
 * idle timeout are noticed while a user thinks. */
static int raw_getc(struct term *t)
{
    while (t->in_pos == t->in_len) {
        flush_out(t);
        if (t->gone || t->eof || stopping(t))
            return KEY_GONE;
        if (t->deadline && time(NULL) >= t->deadline)
            return KEY_LATE;
        if (t->ss.idle_limit && time(NULL) - t->last_input >= t->ss.idle_limit) {
            term_puts(t, "\nIdle timeout, logging out.\n");
            hang_up(t);
            return KEY_GONE;
        }
        if (t->account_checked && time(NULL) - t->account_checked >= ACCOUNT_CHECK_SECONDS) {
            t->account_checked = time(NULL);
            if (!session_account_ok(&t->ss.s)) {
                hang_up(t);
                return KEY_GONE;
            }
        }
        if (t->at_line)
            show_log(t);
        int n = t->tr.read(t->tr.ctx, t->in, sizeof t->in, SLICE_MS);
        if (n == TERM_EOF)
            t->eof = true;
        else if (n < 0)
            t->gone = true;
        if (n > 0) {
            t->in_len = (size_t)n;
            t->in_pos = 0;
            t->last_input = time(NULL);
        }
    }
    return t->in[t->in_pos++];
}

static void tn_send(struct term *t, int cmd, int opt)
{
    unsigned char m[3] = {T_IAC, (unsigned char)cmd, (unsigned char)opt};
    raw_write(t, m, 3);
}

/* We offered WILL ECHO, WILL SGA and DO NAWS; anything else the peer asks
 * for or offers is declined, once per option. */
static void tn_negotiate(struct term *t, int cmd, int opt)
{
    bool ours = (cmd == T_DO && (opt == O_ECHO || opt == O_SGA)) || (cmd == T_WILL && opt == O_NAWS);
    if (ours || cmd == T_WONT || cmd == T_DONT || t->replied[opt])
        return;
    t->replied[opt] = 1;
    tn_send(t, cmd == T_DO ? T_WONT : T_DONT, opt);
}

/* IAC SB ... IAC SE: only NAWS (window size) is used. Bounded, so a peer
 * that never sends SE costs nothing but its own session. */
static void tn_subneg(struct term *t)
{
    unsigned char sb[16];
    size_t n = 0;
    for (int guard = 0; guard < 1024; guard++) {
        int c = raw_getc(t);
        if (c < 0)
            return;
        if (c == T_IAC) {
            c = raw_getc(t);
            if (c == T_SE || c < 0)
                break;
        }
        if (n < sizeof sb)
            sb[n++] = (unsigned char)c;
    }
    if (n == 5 && sb[0] == O_NAWS)
        term_set_window(t, sb[3] << 8 | sb[4], sb[1] << 8 | sb[2]);
}

/* A data byte, with telnet commands handled on the way. */
static int data_getc(struct term *t)
{
    for (;;) {
        int c = raw_getc(t);
        if (c != T_IAC || !t->o.telnet)
            return c;
        int cmd = raw_getc(t);
        if (cmd == T_IAC || cmd < 0) /* < 0: gone, or a deadline passed */
            return cmd;
        if (cmd >= T_WILL && cmd <= T_DONT) {
            int opt = raw_getc(t);
            if (opt < 0)
                return opt;
            tn_negotiate(t, cmd, opt);
        } else if (cmd == T_SB) {
            tn_subneg(t);
        } else if (cmd == T_IP || cmd == T_BRK) {
            return 3; /* interrupt: as Ctrl-C */
        } else if (cmd == T_AYT) {
            term_puts(t, "\n[yes]\n");
        }
    }
}

/* ESC [ A and friends; unknown sequences are swallowed whole. The bytes
 * come from the peer, before login too: a parameter saturates instead of
 * overflowing, and a sequence longer than any key is given up. */
static int escape_key(struct term *t)
{
    int c = data_getc(t);
    if (c != '[' && c != 'O')
        return c < 0 ? c : 0;
    int num = 0, len = 0; /* num: the first parameter */
    bool first = true;
    while ((c = data_getc(t)) >= 0x20 && c <= 0x3f) { /* parameter bytes, up to the final one */
        if (++len > ESC_SEQ_MAX)
            return 0;
        if (c == ';')
            first = false; /* modifiers (ESC [ 1 ; 5 C): the key is enough */
        else if (first && c >= '0' && c <= '9' && num <= ESC_NUM_MAX)
            num = num * 10 + (c - '0');
    }
    switch (c) {
    case 'A': return KEY_UP;
    case 'B': return KEY_DOWN;
    case 'C': return KEY_RIGHT;
    case 'D': return KEY_LEFT;
    case 'H': return KEY_HOME;
    case 'F': return KEY_END;
    case '~': return num == 3 ? KEY_DEL : num == 1 ? KEY_HOME : num == 4 ? KEY_END : 0;
    default: return c < 0 ? c : 0;
    }
}

/* A key: CR, CR LF, CR NUL and LF all give one '\r'. */
static int term_key(struct term *t)
{
    for (;;) {
        int c = data_getc(t);
        bool swallow = t->after_cr && (c == '\n' || c == 0);
        t->after_cr = c == '\r';
        if (swallow)
            continue;
        if (c == '\n')
            return '\r';
        if (c == 27)
            return escape_key(t);
        return c;
    }
}

/* ---- session callbacks ---- */

static void io_write(void *ctx, const char *s, size_t n) { term_out(ctx, s, n); }

/* Keys typed before `--More--` showed are the next line's, not the
 * pager's (a `s` of `show` would stop it): kept aside meanwhile, then put
 * back before whatever followed the pager's key. */
static int io_more(void *ctx, int page)
{
    struct term *t = ctx;
    unsigned char ahead[sizeof t->in];
    size_t n = t->in_len - t->in_pos;
    memcpy(ahead, t->in + t->in_pos, n);
    t->in_len = t->in_pos = 0;
    term_puts(t, "--More--");
    bool at_line = t->at_line; /* `?`'s help may page: no log line under --More-- */
    t->at_line = false;
    int c = term_key(t);
    t->at_line = at_line;
    size_t rest = t->in_len - t->in_pos;
    if (rest > sizeof t->in - n)
        rest = sizeof t->in - n;
    memmove(t->in + n, t->in + t->in_pos, rest);
    memcpy(t->in, ahead, n);
    t->in_pos = 0;
    t->in_len = n + rest;
    term_puts(t, "\r        \r");
    if (c == ' ')
        return page;
    return c == '\r' ? 1 : 0;
}

/* Ctrl-C, or telnet's Interrupt Process or Break, among bytes just read. */
static bool has_interrupt(const struct term *t, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] == 3 || (t->o.telnet && p[i] == T_IAC && i + 1 < n && (p[i + 1] == T_IP || p[i + 1] == T_BRK)))
            return true;
    return false;
}

/* A command that lasts (`ping`, `sleep`). What the user types meanwhile is
 * kept for the next line, as a terminal would, except that an interrupt
 * ends the command and drops it. The end of the input is no interrupt
 * (`ssh -n host ping ...`): the command runs on. */
static bool io_wait(void *ctx, uint64_t ns)
{
    struct term *t = ctx;
    uint64_t end = wall_ns() + ns;
    if (has_interrupt(t, t->in + t->in_pos, t->in_len - t->in_pos)) { /* typed ahead */
        t->in_len = t->in_pos = 0;
        return false;
    }
    for (;;) {
        uint64_t now = wall_ns();
        flush_out(t);
        if (t->gone || stopping(t))
            return false;
        if (now >= end)
            return true;
        uint64_t ms = (end - now + 999999) / 1000000;
        memmove(t->in, t->in + t->in_pos, t->in_len - t->in_pos);
        t->in_len -= t->in_pos;
        t->in_pos = 0;
        /* a full buffer: what the peer types on is read only for its Ctrl-C */
        unsigned char spill[64];
        size_t room = sizeof t->in - t->in_len;
        unsigned char *to = room ? t->in + t->in_len : spill;
        int n = t->tr.read(t->tr.ctx, to, room ? room : sizeof spill, ms < SLICE_MS ? (int)ms : SLICE_MS);
        if (n == TERM_EOF) {
            t->eof = true;
            continue;
        }
        if (n < 0) {
            t->gone = true;
            return false;
        }
        if (n > 0 && has_interrupt(t, to, (size_t)n)) {
            t->in_len = t->in_pos = 0;
            return false;
        }
        if (room)
            t->in_len += (size_t)n;
        if (n > 0)
            t->last_input = time(NULL);
    }
}

/* A yes/no answer typed as a short line (the lab is not held meanwhile);
 * no answer within CONFIRM_SECONDS is a no. */
static bool io_confirm(void *ctx, const char *q)
{
    struct term *t = ctx;
    char ans[8];
    size_t n = 0;
    (void)q;
    t->deadline = time(NULL) + CONFIRM_SECONDS;
    for (;;) {
        int c = term_key(t);
        if (c == KEY_GONE || c == KEY_LATE || c == 3) {
            t->deadline = 0;
            term_puts(t, "\n");
            return false;
        }
        if (c == '\r')
            break;
        if (c >= ' ' && c < 127 && n < sizeof ans - 1) {
            ans[n++] = (char)c;
            raw_write(t, &ans[n - 1], 1);
        }
    }
    t->deadline = 0;
    term_puts(t, "\n");
    return n > 0 && (ans[0] == 'y' || ans[0] == 'Y');
}

/* ---- life cycle ---- */

struct term *term_new(const struct term_transport *tr, const struct term_opts *o)
{
    struct term *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    t->tr = *tr;
    t->o = *o;
    t->last_input = time(NULL);
    tsess_init(&t->ss, &t->o, (struct session_io){.write = io_write, .wait = io_wait, .ctx = t});
    if (o->interactive) {
        t->ss.s.io.more = io_more;
        t->ss.s.io.confirm = io_confirm;
        t->ss.s.interactive = true;
    }
    term_set_window(t, o->rows, o->cols);
    return t;
}

void term_set_window(struct term *t, int rows, int cols)
{
    if (rows > 0 && rows <= 511)
        t->ss.s.term_length = rows;
    if (cols >= 24 && cols <= 511)
        t->ss.s.term_width = cols;
}

void term_free(struct term *t)
{
    if (!t)
        return;
    flush_out(t);
    tsess_free(&t->ss);
    free(t);
}

int term_exec(struct term *t, const char *user, enum role role, const char *line)
{
    tsess_start(&t->ss, user, role);
    t->ss.s.io.more = NULL; /* nobody to press space: the whole output */
    t->ss.s.no_prompt = true;
    return tsess_run(&t->ss, line);
}

/* ---- login ---- */

/* A line typed at the login prompts, echoed or not; false when the peer
 * left, gave up (Ctrl-C, Ctrl-D) or the time to log in ran out. */
static bool read_field(struct term *t, char *buf, size_t n, bool echo)
{
    size_t k = 0;
    for (;;) {
        int c = term_key(t);
        if (c == KEY_LATE)
            term_puts(t, "\n% Login timed out\n");
        if (c < 0 || c == 3 || c == 4)
            return false;
        if (c == '\r')
            break;
        if ((c == 127 || c == 8) && k > 0) {
            k--;
            if (echo)
                term_puts(t, "\b \b");
        } else if (c >= ' ' && c < 127 && k < n - 1) {
            buf[k++] = (char)c;
            if (echo)
                raw_write(t, &buf[k - 1], 1);
        }
    }
    buf[k] = '\0';
    term_puts(t, "\n");
    return true;
}

/* "login:" and "Password:" prompts, up to three tries. */
static bool login_tries(struct term *t, char *user, size_t n, enum role *role)
{
    char pass[USER_PASSWORD_MAX + 1], prompt[64];
    uint64_t deadline_ms = tsess_login_deadline_ms();
    lab_lock(t->o.lab);
    snprintf(prompt, sizeof prompt, "%s login: ", lab_hostname(t->o.lab, t->o.sw));
    lab_unlock(t->o.lab);
    term_puts(t, "\nUser Access Verification\n");
    for (int tries = 0; tries < 3; tries++) {
        term_puts(t, prompt);
        if (!read_field(t, user, n, true))
            return false;
        term_puts(t, "Password: ");
        if (!read_field(t, pass, sizeof pass, false))
            return false;
        enum tsess_login r = tsess_login(&t->o, user, pass, role, deadline_ms);
        memset(pass, 0, sizeof pass);
        if (r == TSESS_LOGIN_OK)
            return true;
        if (r == TSESS_LOGIN_STOPPED || stopping(t))
            return false;
        term_puts(t, tsess_login_message(r));
        term_puts(t, "\n");
    }
    return false;
}

/* The login, within LOGIN_SECONDS. */
bool term_login(struct term *t, char *user, size_t n, enum role *role)
{
    t->deadline = time(NULL) + LOGIN_SECONDS; /* raw_getc gives KEY_LATE after it */
    bool ok = login_tries(t, user, n, role);
    t->deadline = 0;
    return ok;
}

/* ---- line editing ----
 * Redrawing uses only backspace and reprinting, which every terminal
 * understands; no cursor-addressing escapes. */

static void back(struct term *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        raw_write(t, "\b", 1);
}

/* Shows line[from..len] and pads over `erase` old characters, then puts
 * the cursor back at cur. */
static void redraw_tail(struct term *t, size_t from, size_t erase)
{
    raw_write(t, t->line + from, t->len - from);
    for (size_t i = 0; i < erase; i++)
        raw_write(t, " ", 1);
    back(t, t->len - from + erase - (t->cur - from));
}

static void insert_text(struct term *t, const char *s, size_t n)
{
    if (n > LINE_CAP - t->len)
        n = LINE_CAP - t->len;
    memmove(t->line + t->cur + n, t->line + t->cur, t->len - t->cur);
    memcpy(t->line + t->cur, s, n);
    t->len += n;
    t->cur += n;
    t->line[t->len] = '\0';
    if (t->o.interactive) {
        raw_write(t, t->line + t->cur - n, n);
        redraw_tail(t, t->cur, 0);
    }
}

/* Deletes n characters before the cursor. */
static void delete_back(struct term *t, size_t n)
{
    if (n > t->cur)
        n = t->cur;
    memmove(t->line + t->cur - n, t->line + t->cur, t->len - t->cur);
    back(t, n);
    t->cur -= n;
    t->len -= n;
    t->line[t->len] = '\0';
    redraw_tail(t, t->cur, n);
}

static void move_to(struct term *t, size_t pos)
{
    if (pos < t->cur)
        back(t, t->cur - pos);
    else
        raw_write(t, t->line + t->cur, pos - t->cur);
    t->cur = pos;
}

static void replace_line(struct term *t, const char *s)
{
    size_t old = t->len;
    move_to(t, 0);
    snprintf(t->line, sizeof t->line, "%s", s);
    t->len = t->cur = strlen(t->line);
    raw_write(t, t->line, t->len);
    t->cur = t->len;
    if (old > t->len) {
        for (size_t i = t->len; i < old; i++)
            raw_write(t, " ", 1);
        back(t, old - t->len);
    }
}

static void history_step(struct term *t, int dir)
{
    int to = t->hpos + dir;
    if (to < 0 || to > t->ss.nhist)
        return;
    t->hpos = to;
    replace_line(t, to == t->ss.nhist ? "" : t->ss.hist[to]);
}

static void redisplay(struct term *t)
{
    put_prompt(t);
    raw_write(t, t->line, t->len);
    back(t, t->len - t->cur);
}

/* `?`: the session's help for the line so far, then the line again. */
static void key_help(struct term *t)
{
    term_puts(t, "?\n");
    char *upto = strndup(t->line, t->len);
    if (!upto)
        abort();
    session_help(&t->ss.s, upto);
    free(upto);
    redisplay(t);
}

static size_t common_prefix(char **v, int n)
{
    size_t k = strlen(v[0]);
    for (int i = 1; i < n; i++) {
        size_t j = 0;
        while (j < k && v[i][j] == v[0][j])
            j++;
        k = j;
    }
    return k;
}

static void list_candidates(struct term *t, char **v, int n)
{
    term_puts(t, "\n");
    for (int i = 0; i < n; i++) {
        char cell[64];
        snprintf(cell, sizeof cell, "%-20s", v[i]);
        term_puts(t, cell);
        if (i % 4 == 3 || i == n - 1)
            term_puts(t, "\n");
    }
    redisplay(t);
}

/* Tab: complete the word at the cursor from the session's candidates. */
static void key_tab(struct term *t)
{
    char **v;
    char *upto = strndup(t->line, t->cur);
    if (!upto)
        abort();
    int n = session_complete(&t->ss.s, upto, &v);
    /* The word as the session reads it: a `|` starting a word starts a
     * filter (`|last`). Misread, a candidate shorter than the typed word
     * sent the heap beyond it to the terminal. */
    size_t ws = t->cur;
    while (ws > 0 && t->line[ws - 1] != ' ' && !(t->line[ws - 1] == '|' && (ws == 1 || t->line[ws - 2] == ' ')))
        ws--;
    size_t typed = t->cur - ws;
    size_t k = n ? common_prefix(v, n) : 0;
    if (n == 1 && strlen(v[0]) >= typed) {
        insert_text(t, v[0] + typed, strlen(v[0]) - typed);
        insert_text(t, " ", 1);
    } else if (n > 1 && k > typed) {
        insert_text(t, v[0] + typed, k - typed);
    } else if (n > 1) {
        list_candidates(t, v, n);
    }
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
    free(upto);
}

/* Ctrl-Z: back to exec mode, as `end` would; at exec, a fresh prompt. */
static bool key_ctrl_z(struct term *t)
{
    if (t->ss.s.mode == MODE_EXEC) {
        t->len = t->cur = 0;
        term_puts(t, "\n");
        put_prompt(t);
        return false;
    }
    replace_line(t, "end");
    t->from_ctrl_z = true;
    return true;
}

static bool key_enter(struct term *t) { (void)t; return true; }

/* Ctrl-C: the line is dropped, a fresh prompt. */
static bool key_ctrl_c(struct term *t)
{
    t->len = t->cur = 0;
    term_puts(t, "\n");
    put_prompt(t);
    return false;
}

static bool key_question(struct term *t) { key_help(t); return false; }
static bool key_complete(struct term *t) { key_tab(t); return false; }
static bool key_backspace(struct term *t) { delete_back(t, 1); return false; }
static bool key_home(struct term *t) { move_to(t, 0); return false; }
static bool key_end(struct term *t) { move_to(t, t->len); return false; }
static bool key_prev(struct term *t) { history_step(t, -1); return false; }
static bool key_next(struct term *t) { history_step(t, 1); return false; }
static bool key_kill_line(struct term *t) { delete_back(t, t->cur); return false; }
static bool key_redraw(struct term *t) { term_puts(t, "\n"); redisplay(t); return false; }

static bool key_left(struct term *t)
{
    if (t->cur)
        move_to(t, t->cur - 1);
    return false;
}

static bool key_right(struct term *t)
{
    if (t->cur < t->len)
        move_to(t, t->cur + 1);
    return false;
}

static bool key_delete(struct term *t)
{
    if (t->cur < t->len) {
        move_to(t, t->cur + 1);
        delete_back(t, 1);
    }
    return false;
}

static bool key_kill_end(struct term *t)
{
    size_t old = t->len;
    t->len = t->cur;
    t->line[t->len] = '\0';
    redraw_tail(t, t->cur, old - t->cur);
    return false;
}

static bool key_kill_word(struct term *t)
{
    size_t p = t->cur;
    while (p && t->line[p - 1] == ' ')
        p--;
    while (p && t->line[p - 1] != ' ')
        p--;
    delete_back(t, t->cur - p);
    return false;
}

/* The editing keys, as IOS and NX-OS bind them; each handler returns
 * true when the line is complete. */
static const struct {
    int key;
    bool (*fn)(struct term *t);
} keys[] = {
    {'\r', key_enter},        {3, key_ctrl_c},           {26, key_ctrl_z},
    {'?', key_question},      {'\t', key_complete},      {127, key_backspace},
    {8, key_backspace},       {1, key_home},             {KEY_HOME, key_home},
    {5, key_end},             {KEY_END, key_end},        {2, key_left},
    {KEY_LEFT, key_left},     {6, key_right},            {KEY_RIGHT, key_right},
    {16, key_prev},           {KEY_UP, key_prev},        {14, key_next},
    {KEY_DOWN, key_next},     {4, key_delete},           {KEY_DEL, key_delete},
    {21, key_kill_line},      {11, key_kill_end},        {23, key_kill_word},
    {12, key_redraw},
};

/* Applies one key; true when the line is complete. */
static bool edit_key(struct term *t, int c)
{
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].key == c)
            return keys[i].fn(t);
    if (c >= ' ' && c < 256 && c != 127) {
        char ch = (char)c;
        insert_text(t, &ch, 1);
    }
    return false;
}

/* Reads one edited line into t->line; false when the peer is gone. */
static bool read_line(struct term *t)
{
    t->len = t->cur = 0;
    t->line[0] = '\0';
    t->hpos = t->ss.nhist;
    t->from_ctrl_z = false;
    for (;;) {
        int c = term_key(t);
        if (c == KEY_GONE)
            return false;
        if (c == 4 && t->o.console && t->len == 0) { /* Ctrl-D on an empty line: end of input */
            term_puts(t, "\n");
            return false;
        }
        if (edit_key(t, c))
            break;
    }
    t->line[t->len] = '\0';
    term_puts(t, "\n");
    return true;
}

/* ---- the two ways to run a shell ---- */

/* A line, while the user's account is watched and the log is shown. */
static bool read_watched_line(struct term *t)
{
    t->account_checked = time(NULL);
    t->at_line = true;
    bool ok = read_line(t);
    t->account_checked = 0;
    t->at_line = false;
    return ok;
}

static void shell_interactive(struct term *t)
{
    put_prompt(t);
    while (!t->ss.s.closed && read_watched_line(t)) {
        if (!t->from_ctrl_z)
            tsess_remember(&t->ss, t->line);
        tsess_run(&t->ss, t->line);
        if (!t->ss.s.closed)
            put_prompt(t);
    }
}

/* A plain line for the batch mode: no echo, no editing; an over-long line
 * is kept cut so that the session refuses it. */
static bool read_plain(struct term *t)
{
    t->len = 0;
    for (;;) {
        int c = data_getc(t);
        if (c == KEY_GONE)
            return t->len > 0;
        if (c == '\n')
            break;
        if (c != '\r' && t->len < LINE_CAP) /* a NUL is kept, as a byte the session refuses */
            t->line[t->len++] = c ? (char)c : 0x7f;
    }
    t->line[t->len] = '\0';
    return true;
}

/* No terminal at the other end (ssh -T < script): the transcript that
 * `mdsim replay` prints for the same lines, so the two can be compared. */
static int shell_batch(struct term *t)
{
    int failed = 0;
    while (!t->ss.s.closed && read_plain(t)) {
        if (t->line[0] == '!' && (t->line[1] == ' ' || !t->line[1]))
            continue; /* a comment, as replay skips it */
        put_prompt(t);
        term_out(t, t->line, t->len);
        term_puts(t, "\n");
        if (t->len && t->line[t->len - 1] == '?') {
            t->line[t->len - 1] = '\0';
            session_help(&t->ss.s, t->line);
        } else if (tsess_run(&t->ss, t->line) != 0) {
            failed = 1;
        }
    }
    return failed;
}

/* What NX-OS prints after a login, telnet or SSH alike (the years as
 * `show version` of 5.2(8) gives them). */
static const char banner[] = "Cisco Nexus Operating System (NX-OS) Software\n"
                             "TAC support: http://www.cisco.com/tac\n"
                             "Copyright (c) 2002-2013, Cisco Systems, Inc. All rights reserved.\n";

int term_shell(struct term *t, const char *user, enum role role)
{
    int rc = 0;
    tsess_start(&t->ss, user, role);
    if (!t->o.console && t->o.interactive)
        term_puts(t, banner);
    if (t->o.interactive)
        shell_interactive(t);
    else
        rc = shell_batch(t);
    tsess_end(&t->ss);
    return rc;
}

/* ---- telnet transport ---- */

struct tn_sock {
    int fd;
};

static int sock_read(void *ctx, unsigned char *buf, size_t n, int timeout_ms)
{
    struct tn_sock *k = ctx;
    struct pollfd p = {k->fd, POLLIN, 0};
    int r = poll(&p, 1, timeout_ms);
    if (r <= 0)
        return 0; /* EINTR counts as "nothing yet" */
    ssize_t got = read(k->fd, buf, n);
    return got > 0 ? (int)got : -1;
}

static int sock_write(void *ctx, const void *buf, size_t n)
{
    struct tn_sock *k = ctx;
    const char *p = buf;
    while (n) {
        ssize_t w = send(k->fd, p, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

void telnet_serve(int fd, const char *from, const struct term_opts *o)
{
    struct tn_sock k = {fd};
    struct term_transport tr = {sock_read, sock_write, &k};
    struct term_opts opts = *o;
    opts.kind = "telnet";
    opts.telnet = true;
    opts.interactive = true;
    opts.crlf = true;
    opts.from = from;
    struct term *t = term_new(&tr, &opts);
    char user[USER_NAME_MAX + 1];
    enum role role;
    tn_send(t, T_WILL, O_ECHO);
    tn_send(t, T_WILL, O_SGA);
    tn_send(t, T_DO, O_NAWS);
    if (term_login(t, user, sizeof user, &role))
        term_shell(t, user, role);
    term_free(t);
    close(fd);
}
