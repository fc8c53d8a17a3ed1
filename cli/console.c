/*
 * The local console. It only turns keys into lines and prints what the
 * session returns: `?` and Tab ask the session, Ctrl-Z sends `end`, Ctrl-C
 * drops the line. readline's callback interface keeps signals out of its
 * internals: the handler only sets a flag.
 */
#include "console.h"
#include "session.h"
#include "lab/lab.h"
#include "lab/sessions.h"
#include "wall.h"
#include "line/line.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

static struct session *cur;
static struct labsess reg; /* the console in `show users` */
static volatile sig_atomic_t interrupted;
static bool installed; /* the readline handler, removed as the session ends */

static void con_write(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    fwrite(s, 1, n, stdout);
}

/* Keys typed while a command was printing: they belong to the next line,
 * not to the --More-- that follows (as on telnet and SSH). Fed to
 * readline once the command is over; beyond the buffer they are lost. */
static char ahead[4096];
static size_t nahead;

static void save_type_ahead(void)
{
    struct pollfd p = {STDIN_FILENO, POLLIN, 0};
    char buf[256];
    ssize_t n;
    while (poll(&p, 1, 0) == 1 && (p.revents & POLLIN) && (n = read(STDIN_FILENO, buf, sizeof buf)) > 0) {
        size_t k = (size_t)n < sizeof ahead - nahead ? (size_t)n : sizeof ahead - nahead;
        memcpy(ahead + nahead, buf, k);
        nahead += k;
    }
}

static void feed_type_ahead(void)
{
    while (nahead && !cur->closed) {
        char c = ahead[0];
        memmove(ahead, ahead + 1, --nahead);
        rl_stuff_char(c);
        rl_callback_read_char(); /* takes the stuffed key, not stdin */
    }
}

/* Waits for one key typed after --More-- showed. */
static int read_key(void)
{
    struct termios old, raw;
    unsigned char c = 0;
    tcgetattr(STDIN_FILENO, &old);
    raw = old;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    save_type_ahead();
    fputs("--More--", stdout);
    fflush(stdout);
    if (read(STDIN_FILENO, &c, 1) != 1)
        c = 'q';
    tcsetattr(STDIN_FILENO, TCSANOW, &old);
    return c;
}

static int con_more(void *ctx, int page)
{
    (void)ctx;
    int c = read_key();
    fputs("\r        \r", stdout);
    if (c == ' ')
        return page;
    if (c == '\r' || c == '\n')
        return 1;
    return 0;
}

static bool con_confirm(void *ctx, const char *q)
{
    (void)ctx;
    (void)q;
    fflush(stdout);
    char buf[16];
    if (!fgets(buf, sizeof buf, stdin))
        return false;
    return buf[0] == 'y' || buf[0] == 'Y';
}

/* A command that lasts (`ping`, `sleep`). The terminal is cooked while a
 * command runs, so Ctrl-C arrives as SIGINT and ends it. */
static bool con_wait(void *ctx, uint64_t ns)
{
    (void)ctx;
    fflush(stdout);
    uint64_t end = wall_ns() + ns;
    /* in slices: a signal just before the sleep would not cut it short */
    while (!interrupted) {
        uint64_t now = wall_ns();
        if (now >= end)
            return true;
        wall_sleep(end - now < 100000000u ? end - now : 100000000u);
    }
    interrupted = 0;
    fputs("\n", stdout); /* past the ^C the terminal echoed */
    return false;
}

static void set_prompt(void)
{
    char prompt[128];
    session_prompt(cur, prompt, sizeof prompt);
    rl_set_prompt(prompt);
}

/* Removing the handler from inside it keeps readline from drawing the
 * prompt once more after `exit`. */
static void stop_reading(void)
{
    rl_callback_handler_remove();
    installed = false;
}

/* `line console` `exec-timeout` in seconds, 0 = none: read at start and
 * after each command (a served session's change applies from the next one),
 * not at every key. */
static int idle_secs;

static void refresh_idle_limit(void)
{
    lab_lock(cur->lab);
    idle_secs = line_idle_seconds(cur->lab, cur->sw, LINE_CONSOLE, 0);
    lab_unlock(cur->lab);
    cur->idle_timeout = idle_secs; /* for `show terminal` */
}

static bool from_ctrl_z; /* the line is Ctrl-Z's `end`: not for the history */

static void on_line(char *line)
{
    if (!line) { /* end of input: the cursor is still after the prompt */
        cur->closed = true;
        fputs("\n", stdout);
        stop_reading();
        return;
    }
    if (*line && !from_ctrl_z) {
        add_history(line);
        lab_history_add(cur->lab, line);
    }
    from_ctrl_z = false;
    lab_lock(cur->lab);
    labsess_touch(cur->lab, &reg);
    lab_unlock(cur->lab);
    session_exec(cur, line);
    refresh_idle_limit();
    free(line);
    if (cur->closed)
        stop_reading();
    else
        set_prompt();
}
static int key_help(int count, int key)
{
    (void)count;
    (void)key;
    fputs("?\n", stdout);
    session_help(cur, rl_line_buffer);
    rl_on_new_line();
    rl_redisplay();
    return 0;
}

/* Ctrl-Z: back to exec mode, as `end` would; at exec, a fresh prompt
 * (as on telnet and SSH). */
static int key_ctrl_z(int count, int key)
{
    (void)count;
    (void)key;
    if (cur->mode == MODE_EXEC) {
        rl_replace_line("", 0);
        fputs("\n", stdout);
        rl_on_new_line();
        rl_redisplay();
        return 0;
    }
    from_ctrl_z = true;
    rl_replace_line("end", 0);
    rl_point = rl_end;
    rl_redisplay();
    return rl_newline(1, '\n');
}

static char *complete_gen(const char *text, int state)
{
    static char **cands;
    static int i, n;
    (void)text;
    if (state == 0) {
        for (int j = 0; cands && j < n; j++)
            free(cands[j]);
        free(cands);
        char *upto = strndup(rl_line_buffer, (size_t)rl_point);
        n = session_complete(cur, upto, &cands);
        free(upto);
        i = 0;
    }
    return i < n ? strdup(cands[i++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)start;
    (void)end;
    rl_attempted_completion_over = 1;
    return rl_completion_matches(text, complete_gen);
}

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static volatile sig_atomic_t resized;

static void on_sigwinch(int sig)
{
    (void)sig;
    resized = 1;
}

/* `terminal length` and `width` follow the window, at start and when it
 * changes, as telnet (NAWS) and SSH (window-change) sessions do. */
static void follow_window(void)
{
    struct winsize ws;
    resized = 0;
    if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) != 0)
        return;
    if (ws.ws_row > 0 && ws.ws_row <= 511)
        cur->term_length = ws.ws_row;
    if (ws.ws_col >= 24 && ws.ws_col <= 511)
        cur->term_width = ws.ws_col;
}

/* Ctrl-Z must reach readline as a key, not stop the process. */
static void disable_susp(struct termios *saved)
{
    struct termios t;
    tcgetattr(STDIN_FILENO, saved);
    t = *saved;
    t.c_cc[VSUSP] = _POSIX_VDISABLE;
    tcsetattr(STDIN_FILENO, TCSANOW, &t);
}

static void load_history(struct lab *lab)
{
    char **lines;
    int n = lab_history_recent(lab, 500, &lines);
    for (int i = 0; i < n; i++) {
        add_history(lines[i]);
        free(lines[i]);
    }
    free(lines);
}

int console_run(struct lab *lab, int sw, double speed)
{
    struct session s;
    struct termios saved;
    session_init(&s, lab, sw, (struct session_io){con_write, con_more, con_confirm, con_wait, NULL});
    s.interactive = true;
    cur = &s;
    lab_set_realtime(lab, speed);
    reg = (struct labsess){.s = &s, .sw = sw, .user = "admin", .kind = "console"};
    lab_lock(lab);
    labsess_add(lab, &reg);
    lab_unlock(lab);
    refresh_idle_limit();
    load_history(lab);
    disable_susp(&saved);
    signal(SIGINT, on_sigint);
    signal(SIGWINCH, on_sigwinch);
    follow_window();
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_bind_key('?', key_help);
    rl_bind_key(26, key_ctrl_z);
    rl_attempted_completion_function = complete;
    char prompt[128];
    session_prompt(&s, prompt, sizeof prompt);
    rl_callback_handler_install(prompt, on_line);
    installed = true;
    while (!s.closed) {
        struct pollfd p = {STDIN_FILENO, POLLIN, 0};
        int r = poll(&p, 1, idle_secs ? idle_secs * 1000 : -1);
        if (r < 0 && errno != EINTR)
            break;
        if (resized) {
            follow_window();
            rl_resize_terminal();
        }
        if (r == 0) { /* `line console` `exec-timeout` passed without a key */
            fputs("\nIdle timeout, logging out.\n", stdout);
            stop_reading();
            break;
        }
        if (interrupted) { /* Ctrl-C: forget the line, fresh prompt */
            interrupted = 0;
            rl_free_line_state();
            rl_callback_sigcleanup();
            rl_replace_line("", 0);
            fputs("\n", stdout);
            rl_on_new_line();
            rl_redisplay();
            continue;
        }
        if (r > 0 && p.revents)
            rl_callback_read_char();
        feed_type_ahead();
    }
    if (installed) /* poll failed */
        stop_reading();
    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    lab_lock(lab);
    labsess_remove(lab, &reg);
    lab_unlock(lab);
    session_free(&s);
    return 0;
}
