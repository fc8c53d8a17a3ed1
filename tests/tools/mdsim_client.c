/*
 * mdsim_client: drives one telnet or SSH (pty) session of `mdsim serve`,
 * or the local console of mdsim in a pseudo-terminal, from a script on
 * stdin, like a person would, and prints the transcript `mdsim replay`
 * prints for the same script: prompt, command, output. Echo and redisplay
 * are stripped, so the two can be compared byte for byte. Also the load
 * generator of the tests and the benchmark.
 *
 * usage: mdsim_client [-b ADDR] [-s] [-u USER] [-p PASS] [-q] [-e] [-x] [-d SECONDS]
 *                     [-L FILE] [-r RATE] [-t NAME,NAME...] HOST PORT < script
 *        mdsim_client -c [options] MDSIM DBFILE [MDSIM OPTIONS...] < script
 *   -b  connect from this local address (127.0.0.2: another peer on loopback)
 *   -s  SSH with a pty (libssh) instead of telnet
 *   -c  the console: `MDSIM --db DBFILE [--switch NAME] [MDSIM OPTIONS]`
 *       on a pseudo-terminal (TERM=dumb), one per switch, instead of serve
 *   -t  stdin is a captured transcript of the lab's switches NAME,... (ports
 *       PORT, PORT+1, ...; consoles --switch NAME): lines with a prompt run
 *       on the switch it names, other lines are output and skipped, as
 *       `mdsim replay` does
 *   -q  do not print the transcript      -e  exit 1 when a line starts with '%'
 *   -x  keep the pager (no hidden `terminal length 0` first)
 *   -d  run the script again and again for SECONDS
 *   -L  append each command's latency in microseconds to FILE
 *   -r  pace: at most RATE commands per second (a paced load measures
 *       latency; an unpaced one measures saturation)
 * Script lines starting with @ are for tests, not sent as they are:
 *   @send TEXT    send TEXT (C escapes: \r \t \x03 ...), wait for nothing
 *   @expect TEXT  wait until TEXT has arrived (exit 2 when it does not)
 *   @sync         send Enter, wait for a prompt (after @send games)
 *   @touch FILE / @wait FILE   create / wait for a file: order two clients
 *   @pause MS     wait MS milliseconds (a command under way before a key)
 *   @timeout S    from here on, wait up to S seconds for answers (default 15)
 * Exit: 0 ok, 1 a command failed (-e), 2 no connection, login or answer.
 */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <libssh/libssh.h>

static int wait_ms = 15000; /* how long any answer may take; @timeout sets it */
static const char *bind_addr; /* -b */

struct conn {
    bool ssh, pty; /* neither: telnet */
    int fd;        /* telnet: the socket; pty: the master side */
    pid_t pid;     /* pty: the console */
    ssh_session ses;
    ssh_channel chan;
    char *buf; /* received, telnet commands removed */
    size_t len, cap;
    char prompt[256]; /* the last prompt the server showed */
    bool gone;        /* the server ended the session (`exit`) */
    bool unread;      /* pty: the console had ended before the last line */
    int iac_state, iac_cmd; /* telnet command being parsed */
};

static void die(const char *what)
{
    fprintf(stderr, "mdsim_client: %s\n", what);
    exit(2);
}

static void put(struct conn *c, const void *p, size_t n)
{
    if (c->pty) { /* a console that has ended shows as the end of input */
        if (write(c->fd, p, n) != (ssize_t)n && errno != EIO)
            die("cannot write to the console");
        return;
    }
    if (c->ssh ? ssh_channel_write(c->chan, p, (uint32_t)n) != (int)n
               : send(c->fd, p, n, MSG_NOSIGNAL) != (ssize_t)n)
        die("connection lost while sending");
}

/* Enter: CR on a terminal (SSH pty, console), CR LF over telnet. */
static void enter(struct conn *c)
{
    put(c, c->ssh || c->pty ? "\r" : "\r\n", c->ssh || c->pty ? 1 : 2);
}

static void keep(struct conn *c, char ch)
{
    if (c->len + 2 > c->cap && !(c->buf = realloc(c->buf, c->cap = c->cap * 2 + 4096)))
        abort();
    c->buf[c->len++] = ch;
    c->buf[c->len] = '\0';
}

/* Telnet: answer the server's offers (accept ECHO and SGA, refuse the
 * rest) and keep only data bytes. */
static void telnet_filter(struct conn *c, const unsigned char *p, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned char b = p[i];
        if (c->iac_state == 0 && b == 255) {
            c->iac_state = 1;
        } else if (c->iac_state == 1) {
            c->iac_state = b >= 251 && b <= 254 ? 2 : 0;
            c->iac_cmd = b;
            if (b == 255)
                keep(c, (char)b);
        } else if (c->iac_state == 2) {
            int cmd = c->iac_cmd;
            unsigned char r[3] = {255, 0, b};
            r[1] = (unsigned char)(cmd == 251 ? (b == 1 || b == 3 ? 253 : 254) : cmd == 253 ? 252 : 0);
            if (r[1])
                put(c, r, 3);
            c->iac_state = 0;
        } else {
            keep(c, (char)b);
        }
    }
}

/* Reads what arrives within ms; false when the peer is gone. */
static bool pump(struct conn *c, int ms)
{
    unsigned char tmp[16384];
    int n;
    if (c->ssh) {
        n = ssh_channel_read_timeout(c->chan, tmp, sizeof tmp, 0, ms);
        if (n == SSH_ERROR || (n == 0 && ssh_channel_is_eof(c->chan)))
            return false;
        for (int i = 0; i < n; i++)
            keep(c, (char)tmp[i]);
        return true;
    }
    struct pollfd pf = {c->fd, POLLIN, 0};
    if (poll(&pf, 1, ms) <= 0)
        return true;
    n = (int)read(c->fd, tmp, sizeof tmp);
    if (n <= 0) /* a pty: EIO once the console has exited */
        return false;
    if (c->pty)
        for (int i = 0; i < n; i++)
            keep(c, (char)tmp[i]);
    else
        telnet_filter(c, tmp, n);
    return true;
}

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static bool ends_with(const struct conn *c, const char *s)
{
    size_t n = strlen(s);
    return c->len >= n && memcmp(c->buf + c->len - n, s, n) == 0;
}

/* A prompt ends the buffer: HOST# or HOST(mode)# after the last newline. */
static size_t prompt_at_end(const struct conn *c)
{
    if (!ends_with(c, "# "))
        return 0;
    size_t start = c->len - 2;
    while (start > 0 && c->buf[start - 1] != '\n' && c->buf[start - 1] != '\r')
        start--;
    const char *p = c->buf + start;
    if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
        return 0;
    for (const char *q = p; q < c->buf + c->len - 2; q++)
        if (*q == ' ' || *q == '\b')
            return 0;
    return c->len - start;
}

/* Waits until the buffer ends with `s` (or with a prompt when s is NULL). */
static void wait_for(struct conn *c, const char *s)
{
    long long end = now_us() + wait_ms * 1000LL;
    while (s ? !ends_with(c, s) : !prompt_at_end(c)) {
        if (now_us() > end)
            die(s ? "timed out waiting for the server" : "timed out waiting for a prompt");
        if (!pump(c, 100))
            die("connection closed by the server");
    }
}

static void tcp_connect(struct conn *c, const char *host, const char *port)
{
    struct addrinfo hints = {0}, *ai;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &ai) != 0)
        die("bad address");
    c->fd = socket(ai->ai_family, SOCK_STREAM, 0);
    if (c->fd >= 0 && bind_addr) {
        struct sockaddr_in from = {.sin_family = AF_INET};
        if (inet_pton(AF_INET, bind_addr, &from.sin_addr) != 1 ||
            bind(c->fd, (struct sockaddr *)&from, sizeof from) != 0)
            die("cannot bind the local address");
    }
    if (c->fd < 0 || connect(c->fd, ai->ai_addr, ai->ai_addrlen) != 0)
        die("cannot connect");
    int one = 1; /* a line and its Enter go out at once, not after Nagle's wait */
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    freeaddrinfo(ai);
}

static void telnet_login(struct conn *c, const char *user, const char *pass)
{
    char line[256];
    wait_for(c, "login: ");
    snprintf(line, sizeof line, "%s\r\n", user);
    put(c, line, strlen(line));
    wait_for(c, "Password: ");
    snprintf(line, sizeof line, "%s\r\n", pass);
    put(c, line, strlen(line));
    c->len = 0;
    long long end = now_us() + wait_ms * 1000LL;
    while (!prompt_at_end(c) && now_us() < end && pump(c, 100))
        if (strstr(c->buf ? c->buf : "", "Login incorrect"))
            die("login refused");
}

static void ssh_login(struct conn *c, const char *host, const char *port, const char *user, const char *pass)
{
    int port_n = atoi(port);
    long timeout = 15;
    c->ses = ssh_new();
    ssh_options_set(c->ses, SSH_OPTIONS_HOST, host);
    ssh_options_set(c->ses, SSH_OPTIONS_PORT, &port_n);
    ssh_options_set(c->ses, SSH_OPTIONS_USER, user);
    ssh_options_set(c->ses, SSH_OPTIONS_TIMEOUT, &timeout);
    if (bind_addr)
        ssh_options_set(c->ses, SSH_OPTIONS_BINDADDR, bind_addr);
    if (ssh_connect(c->ses) != SSH_OK)
        die(ssh_get_error(c->ses));
    if (ssh_userauth_password(c->ses, NULL, pass) != SSH_AUTH_SUCCESS)
        die("login refused");
    c->chan = ssh_channel_new(c->ses);
    if (ssh_channel_open_session(c->chan) != SSH_OK ||
        ssh_channel_request_pty_size(c->chan, "vt100", 80, 24) != SSH_OK ||
        ssh_channel_request_shell(c->chan) != SSH_OK)
        die("cannot open a shell");
}

/* The console: MDSIM --db DBFILE [--switch NAME] [OPTIONS] on a new
 * pseudo-terminal, its controlling terminal, with TERM=dumb: readline
 * echoes and redraws with plain text, no escape sequences. */
static void console_start(struct conn *c, const char *mdsim, char **argv, int argc, const char *sw)
{
    struct winsize ws = {.ws_row = 24, .ws_col = 4096}; /* no wrapping, no scrolling */
    char *pts, *args[64];
    int n = 0;
    c->pty = true;
    if ((c->fd = posix_openpt(O_RDWR | O_NOCTTY)) < 0 || grantpt(c->fd) != 0 ||
        unlockpt(c->fd) != 0 || !(pts = ptsname(c->fd)) || ioctl(c->fd, TIOCSWINSZ, &ws) != 0)
        die("cannot open a pseudo-terminal");
    fcntl(c->fd, F_SETFD, FD_CLOEXEC); /* the next console's hangup is its own */
    args[n++] = (char *)mdsim;
    args[n++] = "--db";
    args[n++] = argv[0];
    if (sw) {
        args[n++] = "--switch";
        args[n++] = (char *)sw;
    }
    for (int i = 1; i < argc && n < 63; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    if ((c->pid = fork()) < 0)
        die("cannot fork");
    if (c->pid == 0) {
        int t;
        if (setsid() < 0 || (t = open(pts, O_RDWR)) < 0 || ioctl(t, TIOCSCTTY, 0) != 0)
            _exit(127);
        dup2(t, 0);
        dup2(t, 1);
        dup2(t, 2);
        if (t > 2)
            close(t);
        setenv("TERM", "dumb", 1);
        execv(mdsim, args);
        _exit(127);
    }
}

/* Ends the console with Ctrl-D (end of input) unless it has ended, and
 * waits for it; exit 2 when it did not exit with status 0. */
static void console_end(struct conn *c)
{
    int st = 0;
    long long end = now_us() + wait_ms * 1000LL;
    c->len = 0;
    if (!c->gone)
        put(c, "\x04", 1);
    while (now_us() < end && pump(c, 100))
        ;
    close(c->fd); /* a hangup, if it is still there */
    while (waitpid(c->pid, &st, WNOHANG) == 0 && now_us() < end + 5000000LL)
        usleep(10000);
    if (kill(c->pid, SIGKILL) == 0)
        waitpid(c->pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "mdsim_client: the console ended with %s %d; its last output:\n%s\n",
                WIFEXITED(st) ? "status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
                c->buf ? c->buf : "");
        exit(2);
    }
}

struct opts {
    bool quiet, errors_fail, keep_pager, ssh;
    int seconds;
    int rate; /* commands per second, 0 = as fast as answered */
    FILE *lat;
    const char *user, *pass, *host;
    int port;
    bool console; /* -c: host is MDSIM; argv: DBFILE, MDSIM OPTIONS */
    char **argv;
    int argc;
    char *names[8]; /* -t: the lab's switch names, in port order */
    int nnames;
};

/* Prints what a command produced: the prompt it was typed at, then the
 * received text (its echo, the output) without CRs and without the next
 * prompt; a confirmation answered "y" shows as replay shows it, "[n] y".
 * Returns whether a line of it starts with '%'. */
static bool emit(const struct opts *o, const char *prompt, const char *text, size_t n)
{
    bool err = false;
    if (!o->quiet)
        fputs(prompt, stdout);
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '%' && (i == 0 || text[i - 1] == '\n'))
            err = true;
        if (n - i >= 4 && memcmp(text + i, "[n]y", 4) == 0) {
            if (!o->quiet)
                fputs("[n] y", stdout);
            i += 3;
        } else if (text[i] != '\r' && !o->quiet) {
            putchar(text[i]);
        }
    }
    return err;
}

/* Waits for the prompt after a command, answering "y" to a confirmation;
 * false when the server ended the session instead. */
static bool wait_answering(struct conn *c)
{
    long long end = now_us() + wait_ms * 1000LL;
    while (!prompt_at_end(c)) {
        if (ends_with(c, "[n]"))
            put(c, c->ssh || c->pty ? "y\r" : "y\r\n", c->ssh || c->pty ? 2 : 3);
        if (now_us() > end)
            die("timed out waiting for a prompt");
        if (!pump(c, 100))
            return false;
    }
    return true;
}

static void take_prompt(struct conn *c)
{
    size_t p = prompt_at_end(c);
    snprintf(c->prompt, sizeof c->prompt, "%.*s", (int)p, c->buf + c->len - p);
}

/* C escapes of @send: \r \n \t \\ \xHH. */
static size_t unescape(const char *s, char *out)
{
    size_t n = 0;
    for (; *s; s++) {
        if (*s != '\\' || !s[1]) {
            out[n++] = *s;
            continue;
        }
        s++;
        if (*s == 'x' && s[1] && s[2]) {
            char hex[3] = {s[1], s[2], 0};
            out[n++] = (char)strtol(hex, NULL, 16);
            s += 2;
        } else {
            out[n++] = *s == 'r' ? '\r' : *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
        }
    }
    return n;
}

static void expect(struct conn *c, const char *text)
{
    long long end = now_us() + wait_ms * 1000LL;
    char *hit;
    while (!(hit = c->buf ? strstr(c->buf, text) : NULL)) {
        if (now_us() > end || !pump(c, 100)) {
            fprintf(stderr, "mdsim_client: expected \"%s\", got \"%s\"\n", text, c->buf ? c->buf : "");
            exit(2);
        }
    }
    size_t used = (size_t)(hit - c->buf) + strlen(text);
    memmove(c->buf, c->buf + used, c->len - used + 1);
    c->len -= used;
}

static void wait_file(const char *path)
{
    for (int i = 0; i < wait_ms / 10 && access(path, F_OK) != 0; i++)
        usleep(10000);
    if (access(path, F_OK) != 0)
        die("timed out waiting for a file");
}

/* The @ lines; see the usage. */
static void directive(struct conn *c, const char *l)
{
    char *buf = malloc(strlen(l) + 1); /* unescaping never lengthens */
    if (!buf)
        abort();
    if (strncmp(l, "@send ", 6) == 0) {
        put(c, buf, unescape(l + 6, buf));
    } else if (strncmp(l, "@expect ", 8) == 0) {
        buf[unescape(l + 8, buf)] = '\0';
        expect(c, buf);
    } else if (strcmp(l, "@sync") == 0) {
        c->len = 0;
        enter(c);
        wait_for(c, NULL);
        take_prompt(c);
    } else if (strncmp(l, "@touch ", 7) == 0) {
        FILE *f = fopen(l + 7, "w");
        if (!f)
            die("cannot create a file");
        fclose(f);
    } else if (strncmp(l, "@wait ", 6) == 0) {
        wait_file(l + 6);
    } else if (strncmp(l, "@timeout ", 9) == 0) {
        wait_ms = atoi(l + 9) * 1000;
    } else if (strncmp(l, "@pause ", 7) == 0) {
        usleep((useconds_t)atoi(l + 7) * 1000u);
    } else {
        die("unknown @ directive");
    }
    free(buf);
}

/* A console shows its prompt once more as it ends (`exit`), then a
 * newline: a line sent at that prompt may find it gone. The terminal,
 * cooked again, may have echoed the line; the console has not. */
static bool ended_before(const struct conn *c, const char *l)
{
    size_t n = strlen(l);
    const char *b = c->buf;
    if (c->len <= 2)
        return c->len == 0 || memcmp(b, "\r\n", c->len) == 0;
    return c->len == n + 4 && ((memcmp(b, l, n) == 0 && memcmp(b + n, "\r\n\r\n", 4) == 0) ||
                               (memcmp(b, "\r\n", 2) == 0 && memcmp(b + 2, l, n) == 0 &&
                                memcmp(b + n + 2, "\r\n", 2) == 0));
}

/* Runs one script line; returns whether it printed an error. */
static bool run_line(struct conn *c, const struct opts *o, const char *l)
{
    if (l[0] == '@') {
        directive(c, l);
        return false;
    }
    size_t n = strlen(l);
    long long t0 = now_us();
    bool err;
    c->len = 0;
    if (n && l[n - 1] == '?') { /* help: strip the redisplayed line, then clear it */
        char tail[8192];
        put(c, l, n);
        snprintf(tail, sizeof tail, "%s%.*s", c->prompt, (int)(n - 1), l);
        wait_for(c, tail);
        err = emit(o, c->prompt, c->buf, c->len - strlen(tail));
        put(c, "\x15\r", 2); /* Ctrl-U, Enter: an empty line */
        c->len = 0;
        snprintf(tail, sizeof tail, "\n%s", c->prompt);
        wait_for(c, c->pty ? tail : NULL); /* readline shows a prompt for Ctrl-U too */
    } else {
        if (c->pty) { /* at once: the terminal echoes all of it or none */
            char *cr = malloc(n + 1);
            if (!cr)
                abort();
            memcpy(cr, l, n);
            cr[n] = '\r';
            put(c, cr, n + 1);
            free(cr);
        } else {
            put(c, l, n);
            enter(c);
        }
        c->gone = !wait_answering(c);
        if ((c->unread = c->gone && c->pty && ended_before(c, l)))
            return emit(o, c->prompt, "\n", 1);
        err = emit(o, c->prompt, c->buf, c->len - prompt_at_end(c));
        take_prompt(c);
    }
    if (o->lat)
        fprintf(o->lat, "%lld\n", now_us() - t0);
    long long next = t0 + (o->rate ? 1000000LL / o->rate : 0);
    if (now_us() < next)
        usleep((useconds_t)(next - now_us()));
    return err;
}

static char **read_script(int *n)
{
    char **v = NULL, *line = NULL;
    size_t cap = 0;
    ssize_t len;
    *n = 0;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (line[0] == '!' && (line[1] == ' ' || !line[1]))
            continue; /* replay skips comments */
        if (!(v = realloc(v, sizeof *v * (size_t)(*n + 1))) || !(v[(*n)++] = strdup(line)))
            abort();
    }
    free(line);
    return v;
}

static void parse(int argc, char **argv, struct opts *o)
{
    int ch;
    o->user = o->pass = "admin";
    while ((ch = getopt(argc, argv, "+b:scu:p:qexd:L:r:t:")) != -1) {
        switch (ch) {
        case 'b': bind_addr = optarg; break;
        case 's': o->ssh = true; break;
        case 'c': o->console = true; break;
        case 'u': o->user = optarg; break;
        case 'p': o->pass = optarg; break;
        case 'q': o->quiet = true; break;
        case 'e': o->errors_fail = true; break;
        case 'x': o->keep_pager = true; break;
        case 'd': o->seconds = atoi(optarg); break;
        case 'r': o->rate = atoi(optarg); break;
        case 'L': if (!(o->lat = fopen(optarg, "a"))) die("cannot open the latency file"); break;
        case 't':
            for (char *t = strtok(optarg, ","); t && o->nnames < 8; t = strtok(NULL, ","))
                o->names[o->nnames++] = t;
            break;
        default: exit(2);
        }
    }
    if (o->console ? argc - optind < 2 || o->ssh : argc - optind != 2)
        die("usage: mdsim_client [-b ADDR] [-s] [-u USER] [-p PASS] [-q] [-e] [-x] [-d SECONDS] [-L FILE] "
            "[-r RATE] [-t NAMES] HOST PORT\n"
            "       mdsim_client -c [options] MDSIM DBFILE [MDSIM OPTIONS...]");
    o->host = argv[optind];
    o->port = atoi(argv[optind + 1]);
    o->argv = argv + optind + 1;
    o->argc = argc - optind - 1;
}

static struct conn *open_conn(const struct opts *o, int sw)
{
    struct conn *c = calloc(1, sizeof *c);
    char port[16];
    if (!c)
        abort();
    c->ssh = o->ssh;
    snprintf(port, sizeof port, "%d", o->port + sw);
    if (o->console) {
        console_start(c, o->host, o->argv, o->argc, o->nnames ? o->names[sw] : NULL);
    } else if (c->ssh) {
        ssh_login(c, o->host, port, o->user, o->pass);
    } else {
        tcp_connect(c, o->host, port);
        telnet_login(c, o->user, o->pass);
    }
    wait_for(c, NULL);
    take_prompt(c);
    if (!o->keep_pager) {
        struct opts silent = *o;
        silent.quiet = true;
        silent.lat = NULL;
        run_line(c, &silent, "terminal length 0");
    }
    return c;
}

static void close_conn(struct conn *c)
{
    if (c->ssh) {
        ssh_channel_close(c->chan);
        ssh_channel_free(c->chan);
        ssh_disconnect(c->ses);
        ssh_free(c->ses);
    } else if (c->pty) {
        console_end(c);
    } else {
        close(c->fd);
    }
    free(c->buf);
    free(c);
}

/* "HOST(mode)# cmd": the host, and where the command starts; NULL when the
 * line has no prompt. */
static const char *split_prompt(const char *l, char *host, size_t n)
{
    size_t i = 0;
    while (l[i] && (isalnum((unsigned char)l[i]) || l[i] == '-' || l[i] == '_'))
        i++;
    size_t hl = i;
    if (!hl || !isalpha((unsigned char)l[0]) || hl >= n)
        return NULL;
    if (l[i] == '(') {
        while (l[i] && l[i] != ')')
            i++;
        if (l[i++] != ')')
            return NULL;
    }
    if (l[i] != '#')
        return NULL;
    memcpy(host, l, hl);
    host[hl] = '\0';
    i++;
    return l + i + (l[i] == ' ');
}

static bool prompt_host_is(const struct conn *c, const char *host)
{
    size_t n = strlen(host);
    return strncmp(c->prompt, host, n) == 0 && (c->prompt[n] == '#' || c->prompt[n] == '(');
}

/* The switch a transcript line's host names: by its current host name,
 * else by its lab name (as replay finds it); -1 when none. */
static int switch_for(struct conn **cs, const struct opts *o, const char *host)
{
    for (int i = 0; i < o->nnames; i++)
        if (cs[i] && prompt_host_is(cs[i], host))
            return i;
    for (int i = 0; i < o->nnames; i++)
        if (strcmp(o->names[i], host) == 0)
            return i;
    return -1;
}

/* Runs a line on switch sw's session *c, opened (again) as needed: replay,
 * too, starts a new session after `exit`. */
static bool run_on(struct conn **c, const struct opts *o, int sw, const char *l)
{
    for (int again = 0;; again++) {
        if (*c && (*c)->gone) {
            close_conn(*c);
            *c = NULL;
        }
        if (!*c)
            *c = open_conn(o, sw);
        bool err = run_line(*c, o, l);
        if (!(*c)->unread)
            return err;
        if (again)
            die("the console ended before reading a line");
    }
}

static bool run_transcript(const struct opts *o, char **script, int n)
{
    struct conn *cs[8] = {0};
    bool err = false;
    char host[64];
    for (int i = 0; i < n; i++) {
        const char *cmd = split_prompt(script[i], host, sizeof host);
        int sw = cmd ? switch_for(cs, o, host) : -1;
        if (sw >= 0)
            err |= run_on(&cs[sw], o, sw, cmd);
    }
    for (int i = 0; i < 8; i++)
        if (cs[i])
            close_conn(cs[i]);
    return err;
}

int main(int argc, char **argv)
{
    struct opts o = {0};
    int n;
    parse(argc, argv, &o);
    char **script = read_script(&n);
    bool err = false;
    if (o.nnames) {
        err = run_transcript(&o, script, n);
    } else {
        struct conn *c = open_conn(&o, 0);
        long long end = now_us() + o.seconds * 1000000LL;
        do
            for (int i = 0; i < n; i++)
                err |= run_on(&c, &o, 0, script[i]);
        while (o.seconds && n && now_us() < end);
        close_conn(c);
    }
    for (int i = 0; i < n; i++)
        free(script[i]);
    free(script);
    if (o.lat)
        fclose(o.lat);
    fflush(stdout);
    return err && o.errors_fail ? 1 : 0;
}
