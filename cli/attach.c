/*
 * An mdsim whose lab is owned by another process: it sends its job there
 * and plays the owner's answer back. A console puts the terminal in raw
 * mode and forwards keys; the owner runs the terminal's line discipline
 * (cli/telnet.c), so `?`, Tab, the pager, Ctrl-C and Ctrl-Z behave as on
 * the local console. A replay sends the files it read itself (paths are
 * the client's) and prints what the owner streams back.
 */
#define _GNU_SOURCE
#include "attach.h"
#include "ownwire.h"
#include "lab/ownership.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum {
    ANSWER_MS = 5000,    /* an owner that does not greet within this is stuck */
    SOCKET_MS = 30000,   /* an owner starting or closing (no socket) may take this long */
    RETRY_MS = 50,
    RECV_TIMEOUT_S = 30, /* a frame that has started must end within this */
    INPUT_MAX = 64 << 20,
};

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Connects and waits for the owner's greeting: 1 greeted, 0 nobody there
 * (or the owner closed at once: it is stopping), -1 no answer in time. */
static int greet(const struct labown *o, struct attach_owner *ow)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", o->sock);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof sa) != 0) {
        if (s >= 0)
            close(s);
        return 0;
    }
    struct timeval tv = {RECV_TIMEOUT_S, 0};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char *buf = malloc(WIRE_MAX + 1);
    size_t n;
    if (!buf)
        abort();
    int type = wire_recv(s, buf, &n, ANSWER_MS), version = 0;
    long p = 0;
    ow->what[0] = '\0';
    bool ok = type == W_HELLO && sscanf(buf, "mdsim-owner %d %ld %31s", &version, &p, ow->what) >= 2;
    free(buf);
    if (type == 0) {
        close(s);
        return -1;
    }
    if (!ok || version != WIRE_VERSION) {
        close(s);
        return 0;
    }
    ow->fd = s;
    ow->pid = (pid_t)p;
    return 1;
}

int attach_or_own(struct labown *o, struct attach_owner *ow, char *err, size_t errlen)
{
    long long deadline = mono_ms() + SOCKET_MS;
    for (;;) {
        int r = labown_try_lock(o, err, errlen);
        if (r != 0)
            return r;
        r = greet(o, ow);
        if (r > 0)
            return 0;
        if (r < 0 || mono_ms() >= deadline) {
            snprintf(err, errlen,
                     "%s is owned by mdsim process %ld, which does not answer; "
                     "if it is stuck, stop it (kill %ld) and try again",
                     o->real, (long)labown_holder(o), (long)labown_holder(o));
            return -1;
        }
        usleep(RETRY_MS * 1000); /* an owner starting up or going away */
    }
}

/* ---- the request ---- */

static int send_request(int fd, const struct attach_job *j, int rows, int cols)
{
    char req[22000], cwd[4096];
    if (!getcwd(cwd, sizeof cwd) || strchr(cwd, '\n'))
        cwd[0] = '\0';
    snprintf(req, sizeof req,
             "job=%s\nswitch=%s\ncheck=%d\nverify=%d\nstop-on-error=%d\nfollow-prompts=%d\npace=%d\ntty=%d\nrows=%d\n"
             "cols=%d\npid=%ld\ncwd=%s\nseries=%s\nplots=%s\ncapture=%s\nports=%s\nformat=%s\n",
             j->job, j->sw ? j->sw : "", j->check, j->verify, j->stop_on_error, j->follow_prompts, j->pace_s,
             isatty(STDOUT_FILENO), rows, cols, (long)getpid(), cwd, j->series ? j->series : "",
             j->plots ? j->plots : "", j->capture ? j->capture : "", j->ports ? j->ports : "",
             j->format ? j->format : "");
    return wire_send_str(fd, W_REQUEST, req);
}

/* Each file as this process reads it: paths resolve here, `-` is our stdin. */
static int send_files(int fd, const struct attach_job *j)
{
    size_t total = 0;
    char *buf = malloc(WIRE_MAX);
    if (!buf)
        abort();
    int rc = 0;
    for (int i = 0; i < j->nfiles && rc == 0; i++) {
        const char *name = j->files[i];
        FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "r");
        char head[4200];
        snprintf(head, sizeof head, "%c%s", f ? '+' : '!', name);
        if (wire_send_str(fd, W_FILE, head) != 0)
            rc = -1;
        size_t n;
        while (rc == 0 && f && (n = fread(buf, 1, WIRE_MAX, f)) > 0) {
            if ((total += n) > INPUT_MAX) {
                fprintf(stderr, "mdsim: replay input over %d MiB: too much to send to the lab's owner\n",
                        INPUT_MAX >> 20);
                rc = 2;
            } else if (wire_send(fd, W_DATA, buf, n) != 0) {
                rc = -1;
            }
        }
        if (f && f != stdin)
            fclose(f);
    }
    free(buf);
    if (rc == 0 && wire_send(fd, W_GO, "", 0) != 0)
        rc = -1;
    return rc;
}

/* ---- the answer ---- */

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* Plays one frame from the owner; returns the exit code once it comes
 * (-2: exit 2 and print the usage), -1 while it has not. */
static int play(int type, const char *buf, size_t n)
{
    if (type == W_OUT)
        write_all(STDOUT_FILENO, buf, n);
    else if (type == W_ERR)
        write_all(STDERR_FILENO, buf, n);
    else if (type == W_EXIT)
        return strstr(buf, "usage") ? -2 : atoi(buf);
    return -1;
}

/* The owner closed (or, wire_recv's other errors, broke a frame). */
static int owner_gone(pid_t pid, int why)
{
    if (why == WIRE_GONE)
        fprintf(stderr, "\nmdsim: the lab's owner (mdsim process %ld) went away\n", (long)pid);
    else
        fprintf(stderr, "\nmdsim: protocol error from the lab's owner (mdsim process %ld): %s\n", (long)pid,
                wire_fail_text(why));
    return 1;
}

static int run_batch(int fd, pid_t pid)
{
    char *buf = malloc(WIRE_MAX + 1);
    if (!buf)
        abort();
    int rc = -1;
    while (rc == -1) {
        size_t n;
        int type = wire_recv(fd, buf, &n, -1);
        if (type < 0) {
            rc = owner_gone(pid, type);
            break;
        }
        rc = play(type, buf, n);
    }
    free(buf);
    return rc;
}

/* ---- the console ---- */

static volatile sig_atomic_t resized, quit;
static void on_winch(int sig) { (void)sig; resized = 1; }
static void on_quit(int sig) { quit = sig; }

static void window_size(int *rows, int *cols)
{
    struct winsize ws;
    *rows = *cols = 0;
    if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0) {
        *rows = ws.ws_row;
        *cols = ws.ws_col;
    }
}

static void send_window(int fd)
{
    int rows, cols;
    char w[32];
    window_size(&rows, &cols);
    snprintf(w, sizeof w, "%d %d", rows, cols);
    wire_send_str(fd, W_WINDOW, w);
}

/* Keys up, output down, until the owner says the session is over. */
static int run_console(int fd, pid_t pid)
{
    struct termios saved, raw;
    bool tty = tcgetattr(STDIN_FILENO, &saved) == 0;
    if (tty) {
        raw = saved;
        cfmakeraw(&raw); /* Ctrl-C and Ctrl-Z are keys for the owner's line discipline */
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_winch;
    sigaction(SIGWINCH, &sa, NULL);
    sa.sa_handler = on_quit; /* the terminal is restored before we go */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    char *buf = malloc(WIRE_MAX + 1);
    if (!buf)
        abort();
    int rc = -1;
    bool in_open = true;
    while (rc == -1 && !quit) {
        if (resized) {
            resized = 0;
            send_window(fd);
        }
        struct pollfd p[2] = {{fd, POLLIN, 0}, {in_open ? STDIN_FILENO : -1, POLLIN, 0}};
        if (poll(p, 2, -1) < 0)
            continue;
        if (p[1].revents) {
            ssize_t n = read(STDIN_FILENO, buf, 4096);
            if (n > 0)
                wire_send(fd, W_INPUT, buf, (size_t)n);
            else if (n == 0 || errno != EINTR) {
                wire_send(fd, W_EOF, "", 0);
                in_open = false;
            }
        }
        if (p[0].revents) {
            size_t n;
            int type = wire_recv(fd, buf, &n, 0);
            if (type < 0) {
                if (tty)
                    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
                rc = owner_gone(pid, type);
            } else {
                rc = play(type, buf, n);
            }
        }
    }
    if (tty)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    free(buf);
    if (quit) { /* die of it, as before the terminal was ours */
        signal(quit, SIG_DFL);
        raise(quit);
    }
    return rc;
}

/* A streamed capture (`lab capture start -`): Ctrl-C (or SIGTERM) ends
 * our side of the socket, which the owner takes as "stop"; it sends the
 * last packets and the exit code, which we still read. Once only: a
 * second one ends us at once (stdout may be a pipe nobody reads). */
static volatile sig_atomic_t stream_fd = -1;
static void on_stream_stop(int sig)
{
    (void)sig;
    if (stream_fd >= 0)
        shutdown(stream_fd, SHUT_WR);
}

static void stop_stream_on_signals(int fd)
{
    struct sigaction sa = {0};
    stream_fd = fd;
    sa.sa_handler = on_stream_stop;
    sa.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int attach_run(const struct attach_owner *ow, const struct attach_job *j)
{
    int fd = ow->fd;
    pid_t pid = ow->pid;
    int rows = 0, cols = 0, rc;
    bool console = strcmp(j->job, "console") == 0;
    if (console)
        window_size(&rows, &cols);
    if (strcmp(j->job, "lab-capture-start") == 0 && j->capture && strcmp(j->capture, "-") == 0)
        stop_stream_on_signals(fd);
    if (send_request(fd, j, rows, cols) != 0) {
        rc = run_batch(fd, pid); /* refused (too many): what the owner said is still to read */
    } else if (console) {
        rc = run_console(fd, pid);
    } else if (strcmp(j->job, "replay") == 0 && (rc = send_files(fd, j)) > 0) {
        /* too much input: nothing was run */
    } else { /* a refused send: the owner may have said why before closing */
        rc = run_batch(fd, pid);
    }
    close(fd);
    return rc;
}
