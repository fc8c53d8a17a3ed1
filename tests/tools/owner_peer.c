/*
 * owner_peer: a misbehaving mdsim attached to a lab's owner, for the tests
 * of the owner's socket (docs/lab-owner.md): it speaks the frames itself
 * (type byte, 4-byte big-endian length, payload) so that it can stall
 * between them, break them off, or send what no mdsim sends.
 *
 * usage: owner_peer [-n N] [-w] SOCKET STEP...
 *   Opens N connections (default 1) to SOCKET; on each, waits for the
 *   owner's hello, then does the steps:
 *     T:TEXT      a frame of type T (one character) with TEXT as payload
 *                 (\n is a newline): Q:job=replay\n  F:+a.txt  D:show  G:
 *     hdr:B:LEN   only a frame header: type byte B (decimal), length LEN
 *     bytes:TEXT  TEXT as it is, no framing
 *   Prints "ready" once every connection got its hello and sent its steps,
 *   then plays what the owner sends until every connection is closed (or,
 *   with -w, stdin reaches its end: the test's signal to let go), and prints it,
 *   a line per frame: "I R TEXT" (stderr bytes), "I X CODE", "I O BYTES"
 *   (stdout bytes, count only), "I closed" (the owner hung up); I is the
 *   connection's number from 0. Exit 2 when a connection or hello failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

enum { MAX_CONNS = 64, FRAME_MAX = 65536, HELLO_MS = 15000 };

static void die(const char *what)
{
    fprintf(stderr, "owner_peer: %s\n", what);
    exit(2);
}

static void send_all(int fd, const void *p, size_t n)
{
    const char *b = p;
    while (n) {
        ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* the owner hung up: what it said is read later */
        b += w;
        n -= (size_t)w;
    }
}

static void send_header(int fd, int type, uint32_t len)
{
    unsigned char h[5] = {(unsigned char)type, (unsigned char)(len >> 24), (unsigned char)(len >> 16),
                          (unsigned char)(len >> 8), (unsigned char)len};
    send_all(fd, h, sizeof h);
}

/* "\n" in a step's text is a newline. */
static size_t unescape(const char *s, char *out)
{
    size_t n = 0;
    for (; *s; s++)
        if (s[0] == '\\' && s[1] == 'n') {
            out[n++] = '\n';
            s++;
        } else {
            out[n++] = *s;
        }
    return n;
}

static void step(int fd, const char *s)
{
    static char text[FRAME_MAX];
    unsigned type, len;
    if (strncmp(s, "hdr:", 4) == 0 && sscanf(s + 4, "%u:%u", &type, &len) == 2 && type < 256) {
        send_header(fd, (int)type, len);
    } else if (strncmp(s, "bytes:", 6) == 0) {
        send_all(fd, text, unescape(s + 6, text));
    } else if (s[0] && s[1] == ':' && strlen(s + 2) < sizeof text) {
        size_t n = unescape(s + 2, text);
        send_header(fd, (unsigned char)s[0], (uint32_t)n);
        send_all(fd, text, n);
    } else {
        die("a step is T:TEXT, hdr:B:LEN or bytes:TEXT");
    }
}

static int recv_all(int fd, void *p, size_t n)
{
    char *b = p;
    while (n) {
        ssize_t r = recv(fd, b, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

/* One frame: its type, or -1 when the owner hung up. */
static int recv_frame(int fd, char *buf, size_t *n)
{
    unsigned char h[5];
    if (recv_all(fd, h, sizeof h) != 0)
        return -1;
    uint32_t len = (uint32_t)h[1] << 24 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 8 | h[4];
    if (len > FRAME_MAX || recv_all(fd, buf, len) != 0)
        return -1;
    buf[len] = '\0';
    *n = len;
    return h[0];
}

static int connect_to(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path)
        die("socket path too long");
    strcpy(sa.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
        die("cannot connect");
    return fd;
}

static void greeted(int fd, char *buf)
{
    struct pollfd p = {fd, POLLIN, 0};
    size_t n;
    if (poll(&p, 1, HELLO_MS) != 1 || recv_frame(fd, buf, &n) != 'H')
        die("no hello from the owner");
}

/* Prints a frame from connection i; false once that connection is over. */
static int play(int i, int fd, char *buf)
{
    size_t n;
    int type = recv_frame(fd, buf, &n);
    if (type < 0) {
        printf("%d closed\n", i);
        return 0;
    }
    if (type == 'O')
        printf("%d O %zu\n", i, n);
    else
        printf("%d %c %s%s", i, type, buf, n && buf[n - 1] == '\n' ? "" : "\n");
    fflush(stdout);
    return 1;
}

int main(int argc, char **argv)
{
    int nconn = 1, opt;
    bool watch_stdin = false;
    while ((opt = getopt(argc, argv, "n:w")) != -1)
        if (opt == 'n')
            nconn = atoi(optarg);
        else if (opt == 'w')
            watch_stdin = true;
    if (optind + 1 >= argc || nconn < 1 || nconn > MAX_CONNS)
        die("usage: owner_peer [-n N] [-w] SOCKET STEP...");
    static char buf[FRAME_MAX + 1];
    int fd[MAX_CONNS];
    for (int i = 0; i < nconn; i++) {
        fd[i] = connect_to(argv[optind]);
        greeted(fd[i], buf);
        for (int k = optind + 1; k < argc; k++)
            step(fd[i], argv[k]);
    }
    printf("ready\n");
    fflush(stdout);
    struct pollfd p[MAX_CONNS + 1];
    int open = nconn;
    for (int i = 0; i < nconn; i++)
        p[i] = (struct pollfd){fd[i], POLLIN, 0};
    p[nconn] = (struct pollfd){watch_stdin ? STDIN_FILENO : -1, POLLIN, 0};
    while (open > 0) {
        if (poll(p, (nfds_t)nconn + 1, -1) < 0) {
            if (errno == EINTR)
                continue;
            die("poll");
        }
        for (int i = 0; i < nconn; i++)
            if (p[i].revents && !play(i, p[i].fd, buf)) {
                close(p[i].fd);
                p[i].fd = -1;
                open--;
            }
        if (p[nconn].revents && read(STDIN_FILENO, buf, 1) <= 0)
            break;
    }
    return 0;
}
