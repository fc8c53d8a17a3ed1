/*
 * conn_flood: plays an attacker against `mdsim serve`'s login limits, from
 * one local address (127.0.0.N is another peer on loopback).
 *
 * usage: conn_flood [-b ADDR] [-n N] -H HOST PORT
 *        conn_flood [-b ADDR] [-n N] [-P PARALLEL] [-s TEXT] [-w SECONDS] HOST PORT
 *   -H  hold: open N connections that never log in, one after another, each
 *       waited for until the server greets it (accepted: telnet's IAC or an
 *       SSH banner) or turns it away; print "accepted A refused R", then keep
 *       them open until SIGTERM or SIGINT and print "closed K": how many the
 *       server closed meanwhile.
 *   otherwise a burst: N connections, PARALLEL (default 8) at a time, each
 *       sends TEXT (C escapes \r \n \\) and is read until the server closes
 *       it or for SECONDS (default 40); prints "done N".
 *   -b  connect from this local address   -n  connections (default 1, at most 4096)
 * Exit: 0, or 2 when the server cannot be reached at all.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { FLOOD_MAX = 4096, FLOOD_TEXT_MAX = 4096 };

static const char *flood_from;
static struct sockaddr_in flood_to;
static volatile sig_atomic_t flood_stop;

static void flood_on_signal(int sig) { (void)sig, flood_stop = 1; }

static uint64_t flood_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A connected socket, or -1. Connecting gives up after 10 s (a full
 * backlog drops SYNs). */
static int flood_connect(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct timeval tv = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (flood_from) {
        struct sockaddr_in me = {.sin_family = AF_INET};
        if (inet_pton(AF_INET, flood_from, &me.sin_addr) != 1 || bind(fd, (struct sockaddr *)&me, sizeof me)) {
            close(fd);
            return -1;
        }
    }
    if (connect(fd, (struct sockaddr *)&flood_to, sizeof flood_to) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The first bytes of a fresh connection, waited for up to 10 s: true
 * when the server greets it (telnet negotiation or an SSH banner). */
static bool flood_greeted(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    char buf[64];
    if (poll(&p, 1, 10000) != 1)
        return false;
    ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    return n > 0 && ((unsigned char)buf[0] == 255 || (n >= 4 && memcmp(buf, "SSH-", 4) == 0));
}

/* Reads what the server sends; false once it has closed the connection. */
static bool flood_drain(int fd)
{
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    return n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR));
}

static int flood_hold(int n)
{
    static int fds[FLOOD_MAX];
    int held = 0, refused = 0, closed = 0;
    for (int i = 0; i < n; i++) {
        int fd = flood_connect();
        if (fd >= 0 && flood_greeted(fd))
            fds[held++] = fd;
        else {
            refused++;
            if (fd >= 0)
                close(fd);
        }
    }
    printf("accepted %d refused %d\n", held, refused);
    fflush(stdout);
    static struct pollfd p[FLOOD_MAX];
    for (int i = 0; i < held; i++)
        p[i] = (struct pollfd){fds[i], POLLIN, 0};
    for (bool last = false; !last;) {
        last = flood_stop; /* one more look after the signal: what came before it counts */
        if (poll(p, (nfds_t)held, last ? 0 : 200) <= 0)
            continue;
        for (int i = 0; i < held; i++)
            if (p[i].fd >= 0 && p[i].revents && !flood_drain(p[i].fd)) {
                close(p[i].fd);
                p[i].fd = -1; /* poll skips it from now on */
                closed++;
            }
    }
    printf("closed %d\n", closed);
    return 0;
}

/* C escapes of -s: \r \n \\ (enough for login lines). */
static size_t flood_unescape(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++) {
        if (*s != '\\' || !s[1]) {
            out[k++] = *s;
            continue;
        }
        s++;
        out[k++] = *s == 'r' ? '\r' : *s == 'n' ? '\n' : *s;
    }
    return k;
}

static int flood_burst(int n, int parallel, const char *text, int wait_s)
{
    static char msg[FLOOD_TEXT_MAX];
    size_t len = flood_unescape(text, msg, sizeof msg);
    static struct pollfd p[FLOOD_MAX];
    static uint64_t until[FLOOD_MAX];
    int opened = 0, live = 0, reached = 0;
    for (int i = 0; i < parallel; i++)
        p[i] = (struct pollfd){-1, 0, 0}; /* poll skips it */
    while ((opened < n || live > 0) && !flood_stop) {
        for (int i = 0; i < parallel && opened < n; i++) {
            if (p[i].fd >= 0)
                continue;
            int fd = flood_connect();
            opened++;
            if (fd < 0)
                continue;
            reached++;
            if (len)
                (void)send(fd, msg, len, MSG_NOSIGNAL);
            p[i] = (struct pollfd){fd, POLLIN, 0};
            until[i] = flood_now_ms() + (uint64_t)wait_s * 1000u;
            live++;
        }
        poll(p, (nfds_t)parallel, 200);
        for (int i = 0; i < parallel; i++) {
            if (p[i].fd < 0)
                continue;
            if ((p[i].revents && !flood_drain(p[i].fd)) || flood_now_ms() > until[i]) {
                close(p[i].fd);
                p[i] = (struct pollfd){-1, 0, 0};
                live--;
            }
        }
    }
    printf("done %d\n", opened);
    return reached ? 0 : 2;
}

static int flood_usage(void)
{
    fprintf(stderr, "usage: conn_flood [-b ADDR] [-n N] [-H | -P PARALLEL -s TEXT -w SECONDS] HOST PORT\n");
    return 2;
}

int main(int argc, char **argv)
{
    int n = 1, parallel = 8, wait_s = 40, opt;
    bool hold = false;
    const char *text = "";
    while ((opt = getopt(argc, argv, "b:n:HP:s:w:")) != -1) {
        if (opt == 'b')
            flood_from = optarg;
        else if (opt == 'n')
            n = atoi(optarg);
        else if (opt == 'H')
            hold = true;
        else if (opt == 'P')
            parallel = atoi(optarg);
        else if (opt == 's')
            text = optarg;
        else if (opt == 'w')
            wait_s = atoi(optarg);
        else
            return flood_usage();
    }
    if (argc - optind != 2 || n < 1 || n > FLOOD_MAX || parallel < 1 || parallel > FLOOD_MAX)
        return flood_usage();
    flood_to.sin_family = AF_INET;
    flood_to.sin_port = htons((uint16_t)atoi(argv[optind + 1]));
    if (inet_pton(AF_INET, argv[optind], &flood_to.sin_addr) != 1)
        return flood_usage();
    struct sigaction sa = {0};
    sa.sa_handler = flood_on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return hold ? flood_hold(n) : flood_burst(n, parallel, text, wait_s);
}
