/*
 * The lab daemon. The main thread listens on every port and accepts; each
 * connection gets a detached thread (telnet or SSH) that drives a session.
 * Commands serialise on the lab lock inside session_exec, so threads need
 * nothing more. SIGINT/SIGTERM are blocked everywhere but in the main
 * thread's ppoll: on one, the listeners close, every connection is woken
 * by shutdown(2), and the lab closes once the last thread is gone; each
 * command commits on its own, so the file is consistent at any point.
 */
#define _GNU_SOURCE /* accept4, ppoll */
#include "serve.h"
#include "ssh.h"
#include "http.h"
#include "telnet.h"
#include "login_throttle.h"
#include "session.h"
#include "lab/lab.h"
#include "lab/sessions.h"
#include "series/series.h"
#include "user/user.h"
#include "wall.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

enum { MAX_CONNS = 256, MAX_LISTEN = 64, DRAIN_SECONDS = 10, SEND_TIMEOUT_S = 30 };

struct conn {
    struct server *srv;
    int fd, wake_fd; /* wake_fd: a dup for shutdown(2), owned by the list */
    int sw;
    bool ssh;
    char from[64];
    struct login_ticket ticket; /* held until the login */
    struct term_opts opts;      /* the switch's, with this connection's ticket */
    pthread_t th;
    bool running; /* th is set: the thread is past its start */
    struct conn *next;
};

struct listener {
    int fd, sw, port;
    bool ssh;
};

struct server {
    struct lab *lab;
    const struct ssh_module *sshm;
    struct ssh_server *ssh;
    const struct http_module *httpm;
    struct http_server *http; /* --http */
    struct term_opts topts[MAX_LISTEN]; /* per switch */
    atomic_bool stop;
    pthread_mutex_t mu; /* guards conns and nconns */
    pthread_cond_t idle;
    struct conn *conns;
    int nconns;
    struct listener ls[2 * MAX_LISTEN];
    int nls;
};

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }
/* SIGUSR1 only interrupts a sleeping system call (see drain). */
static void on_wake(int sig) { (void)sig; }

/* ---- the lab lock file: one server per lab ----
 * flock(2) on the lab file itself: no extra file, released by the kernel
 * if the process dies, and independent of SQLite's fcntl locks on Linux.
 * The descriptor stays open until after SQLite is closed, as closing any
 * descriptor of the file would drop SQLite's POSIX locks. */
static int lock_lab(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "mdsim: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        fprintf(stderr, "mdsim: %s is already served by another `mdsim serve`; stop it first\n", path);
        close(fd);
        return -1;
    }
    return fd;
}

/* ---- addresses and listeners ---- */

static bool is_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
    if (sa->sa_family == AF_INET6)
        return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr);
    return false;
}

static struct addrinfo *resolve(const char *addr)
{
    struct addrinfo hints = {0}, *ai = NULL;
    hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(addr, "0", &hints, &ai);
    if (rc != 0) {
        fprintf(stderr, "mdsim: --bind %s: %s (give a numeric address)\n", addr, gai_strerror(rc));
        return NULL;
    }
    return ai;
}

static int listen_on(const struct addrinfo *ai, int port)
{
    struct sockaddr_storage ss;
    memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
    if (ss.ss_family == AF_INET)
        ((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
    else
        ((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)port);
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&ss, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
        fprintf(stderr, "mdsim: cannot listen on port %d: %s\n", port, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

static int bound_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
        return 0;
    return ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
                                         : ((struct sockaddr_in6 *)&ss)->sin6_port);
}

/* Port BASE + switch index (the lab's hosts after its switches), or with
 * a base of 0 any free port the system picks, so that labs served side by
 * side never collide. */
static bool open_listeners(struct server *sv, const struct addrinfo *ai, const struct serve_opts *o)
{
    int n = lab_node_count(sv->lab);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            int base = k ? o->ssh_base : o->telnet_base, port = base ? base + i : 0;
            int fd = port < 65536 ? listen_on(ai, port) : -1;
            if (fd < 0)
                return false;
            sv->ls[sv->nls++] = (struct listener){fd, i, bound_port(fd), k == 1};
        }
    return true;
}

static void print_ports(struct server *sv, const char *addr)
{
    printf("%-10s %-10s %-22s %s\n", "Switch", "Hostname", "telnet", "ssh");
    for (int i = 0; i + 1 < sv->nls; i += 2) { /* telnet then SSH, per switch */
        char t[64], s[64];
        int sw = sv->ls[i].sw;
        snprintf(t, sizeof t, "%s:%d", addr, sv->ls[i].port);
        snprintf(s, sizeof s, "%s:%d", addr, sv->ls[i + 1].port);
        printf("%-10s %-10s %-22s %s\n", lab_switch_name(sv->lab, sw), lab_hostname(sv->lab, sw), t, s);
    }
    fflush(stdout);
}

/* ---- connections ---- */

static void conn_unlist(struct conn *c)
{
    struct server *sv = c->srv;
    pthread_mutex_lock(&sv->mu);
    for (struct conn **p = &sv->conns; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    close(c->wake_fd);
    if (--sv->nconns == 0)
        pthread_cond_broadcast(&sv->idle);
    pthread_mutex_unlock(&sv->mu);
}

static uint64_t now_ms(void) { return wall_ns() / 1000000u; }

static void *conn_main(void *arg)
{
    struct conn *c = arg;
    struct server *sv = c->srv;
    pthread_mutex_lock(&sv->mu);
    c->th = pthread_self();
    c->running = true;
    pthread_mutex_unlock(&sv->mu);
    char name[40]; /* a rolled-back command rewrites the names: read them locked */
    lab_lock(sv->lab);
    snprintf(name, sizeof name, "%s", lab_switch_name(sv->lab, c->sw));
    lab_unlock(sv->lab);
    login_log(LOGIN_LOG_CONNECTED, c->from, now_ms(), "%s connection to %s from %s", c->ssh ? "ssh" : "telnet",
              name, c->from);
    if (c->ssh)
        sv->sshm->serve(sv->ssh, c->fd, c->from, &c->opts);
    else
        telnet_serve(c->fd, c->from, &c->opts);
    login_ticket_drop(&c->ticket);
    login_log(LOGIN_LOG_CLOSED, c->from, now_ms(), "%s connection from %s closed", c->ssh ? "ssh" : "telnet",
              c->from);
    conn_unlist(c);
    free(c);
    return NULL;
}

static void peer_name(const struct sockaddr_storage *ss, socklen_t len, char *buf, size_t n)
{
    if (getnameinfo((const struct sockaddr *)ss, len, buf, (socklen_t)n, NULL, 0, NI_NUMERICHOST) != 0)
        snprintf(buf, n, "?");
}

/* A peer that stops reading must not hold a thread for ever in send();
 * and echo, output and prompt go out as written, not after Nagle's wait
 * for the peer's delayed ACK (40 ms a command otherwise). */
static void set_socket_options(int fd)
{
    struct timeval tv = {SEND_TIMEOUT_S, 0};
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* The throttle took this connection's place for a newcomer, under its
 * lock: wake the thread (it reads EOF) and let it end as usual. The
 * ticket was held, so the thread has not unlisted c nor closed wake_fd. */
static void conn_evict(void *ctx)
{
    struct conn *c = ctx;
    shutdown(c->wake_fd, SHUT_RDWR);
}

/* A peer with too many connections not logged in yet gets a line and
 * is closed; it must not take the places of everybody else. */
static bool refuse_waiting(struct conn *c)
{
    c->ticket.evict = conn_evict;
    c->ticket.ctx = c;
    if (login_ticket_take(&c->ticket, c->from))
        return false;
    static const char msg[] = "% Too many connections waiting to log in; try again later\r\n";
    (void)send(c->fd, msg, sizeof msg - 1, MSG_NOSIGNAL | MSG_DONTWAIT); /* a peer gone: no matter */
    login_log(LOGIN_LOG_REFUSED, c->from, now_ms(), "refusing a connection from %s: too many waiting to log in",
              c->from);
    return true;
}

static void conn_discard(struct conn *c)
{
    login_ticket_drop(&c->ticket); /* before wake_fd goes: an eviction may use it till then */
    if (c->wake_fd >= 0)
        close(c->wake_fd);
    close(c->fd);
    free(c);
}

static void accept_one(struct server *sv, const struct listener *l)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    int fd = accept4(l->fd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
    if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE) /* the listener stays readable: do not spin */
            usleep(100000);
        return;
    }
    struct conn *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    /* wake_fd first: the ticket may be evicted through it once taken */
    *c = (struct conn){.srv = sv, .fd = fd, .wake_fd = dup(fd), .sw = l->sw, .ssh = l->ssh};
    int dup_errno = errno;
    peer_name(&ss, len, c->from, sizeof c->from);
    if (c->wake_fd < 0)
        login_log(LOGIN_LOG_REFUSED, c->from, now_ms(), "refusing a connection from %s: %s", c->from,
                  strerror(dup_errno));
    if (c->wake_fd < 0 || refuse_waiting(c)) {
        conn_discard(c);
        return;
    }
    c->opts = sv->topts[l->sw];
    c->opts.ticket = &c->ticket;
    set_socket_options(fd);
    pthread_mutex_lock(&sv->mu);
    bool full = sv->nconns >= MAX_CONNS;
    if (!full) {
        c->next = sv->conns;
        sv->conns = c;
        sv->nconns++;
    }
    pthread_mutex_unlock(&sv->mu);
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (full || pthread_create(&th, &attr, conn_main, c) != 0) {
        login_log(LOGIN_LOG_REFUSED, c->from, now_ms(), "refusing a connection from %s: too many sessions",
                  c->from);
        if (!full) {
            login_ticket_drop(&c->ticket);
            conn_unlist(c); /* closes wake_fd */
            c->wake_fd = -1;
        }
        conn_discard(c);
    }
    pthread_attr_destroy(&attr);
}

/* ---- run and stop ---- */

/* How long the accept loop may sleep: until the log's summaries are due
 * (login_log_tick), or, while connections may write a first line that
 * opens a window, at most one window; else until a connection comes. */
static const struct timespec *accept_timeout(struct server *sv, struct timespec *ts)
{
    long ms = login_log_tick(now_ms());
    if (ms < 0) {
        pthread_mutex_lock(&sv->mu);
        ms = sv->nconns > 0 ? LOGIN_LOG_WINDOW_MS : -1;
        pthread_mutex_unlock(&sv->mu);
    }
    if (ms < 0)
        return NULL;
    *ts = (struct timespec){ms / 1000, ms % 1000 * 1000000};
    return ts;
}

static void accept_loop(struct server *sv, const sigset_t *unblocked)
{
    struct pollfd p[2 * MAX_LISTEN];
    for (int i = 0; i < sv->nls; i++)
        p[i] = (struct pollfd){sv->ls[i].fd, POLLIN, 0};
    while (!got_signal) {
        struct timespec ts;
        int n = ppoll(p, (nfds_t)sv->nls, accept_timeout(sv, &ts), unblocked);
        for (int i = 0; n > 0 && i < sv->nls; i++)
            if (p[i].revents & POLLIN)
                accept_one(sv, &sv->ls[i]);
    }
}

/* Wakes every connection and waits, bounded, for their threads to end;
 * returns how many are still running. shutdown(2) wakes a thread reading
 * its peer; SIGUSR1 wakes one waiting in a command (`sleep`, `ping` on
 * real time), which then sees the stop flag. */
/* Called with sv->mu held. */
static void wake_all(struct server *sv)
{
    for (struct conn *c = sv->conns; c; c = c->next) {
        shutdown(c->wake_fd, SHUT_RDWR);
        if (c->running) /* listed means alive: a thread unlists itself last */
            pthread_kill(c->th, SIGUSR1);
    }
}

static int drain(struct server *sv)
{
    atomic_store(&sv->stop, true);
    for (int i = 0; i < sv->nls; i++)
        close(sv->ls[i].fd);
    pthread_mutex_lock(&sv->mu);
    /* again and again: a thread may go to sleep just after a wake-up */
    for (int tick = 0; sv->nconns > 0 && tick < DRAIN_SECONDS * 5; tick++) {
        wake_all(sv);
        struct timespec end;
        clock_gettime(CLOCK_REALTIME, &end);
        end.tv_nsec += 200000000;
        if (end.tv_nsec >= 1000000000) {
            end.tv_sec++;
            end.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&sv->idle, &sv->mu, &end);
    }
    int left = sv->nconns;
    pthread_mutex_unlock(&sv->mu);
    if (left)
        fprintf(stderr, "mdsim serve: %d sessions did not end in time\n", left);
    return left;
}

static bool refuse_default_admin(struct server *sv, const struct addrinfo *ai, const char *addr)
{
    if (is_loopback(ai->ai_addr) || !user_default_admin_left(sv->lab))
        return false;
    fprintf(stderr,
            "mdsim: refusing to serve on %s while user admin still has the default password;\n"
            "       set one on every switch first (configure, username admin password NEW)\n",
            addr);
    return true;
}

static void init_term_opts(struct server *sv, const struct serve_opts *o)
{
    for (int i = 0; i < lab_node_count(sv->lab); i++)
        sv->topts[i] = (struct term_opts){.lab = sv->lab, .sw = i, .idle_timeout = o->idle_timeout,
                                          .stop = &sv->stop};
}

/* The browser's page, from its module, on the same address (--http). */
static bool start_http(struct server *sv, const struct serve_opts *o)
{
    char err[256] = "";
    if (o->http_port < 0)
        return true;
    struct http_opts ho = {.lab = sv->lab, .bind = o->bind, .port = o->http_port, .idle_timeout = o->idle_timeout,
                           .stop = &sv->stop};
    sv->httpm = http_module_load(err, sizeof err);
    if (!sv->httpm || !(sv->http = sv->httpm->server_new(&ho, err, sizeof err))) {
        fprintf(stderr, "mdsim: %s\n", err);
        return false;
    }
    return true;
}

/* Returns the exit code; *stuck is set when sessions outlived the stop. */
static int serve_lab(struct server *sv, const struct serve_opts *o, const struct addrinfo *ai, bool *stuck)
{
    char err[256] = "";
    if (refuse_default_admin(sv, ai, o->bind))
        return 1;
    if (lab_node_count(sv->lab) > MAX_LISTEN) {
        fprintf(stderr, "mdsim: a lab of more than %d switches and hosts cannot be served\n", MAX_LISTEN);
        return 1;
    }
    session_grammar(); /* now, not in the first client's time */
    sv->sshm = ssh_module_load(err, sizeof err);
    if (!sv->sshm || !(sv->ssh = sv->sshm->server_new(sv->lab, err, sizeof err))) {
        fprintf(stderr, "mdsim: %s\n", err);
        return 1;
    }
    init_term_opts(sv, o);
    if (!open_listeners(sv, ai, o) || !start_http(sv, o))
        return 1;
    lab_lock(sv->lab);
    bool recording = series_lab_start(sv->lab); /* a served lab keeps its series (docs/series.md) */
    lab_unlock(sv->lab);
    if (!recording)
        fprintf(stderr, "mdsim: no memory for the lab's time series; serving without them\n");
    lab_set_realtime(sv->lab, o->speed);
    print_ports(sv, o->bind);
    if (sv->http) {
        printf(strchr(o->bind, ':') ? "http://[%s]:%d/\n" : "http://%s:%d/\n", o->bind, sv->httpm->port(sv->http));
        fflush(stdout);
    }
    sigset_t block, unblocked;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &unblocked); /* threads inherit the block */
    sigdelset(&unblocked, SIGINT);
    sigdelset(&unblocked, SIGTERM);
    if (o->speed > 0)
        fprintf(stderr, "mdsim serve: ready (clock x%g)\n", o->speed);
    else
        fprintf(stderr, "mdsim serve: ready (virtual time)\n");
    accept_loop(sv, &unblocked);
    fprintf(stderr, "mdsim serve: signal %d, stopping\n", (int)got_signal);
    *stuck = drain(sv) > 0;
    return *stuck ? 1 : 0;
}

int serve_run(struct lab *lab, const char *db_path, const struct serve_opts *o)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = on_wake; /* no SA_RESTART: the sleep returns EINTR */
    sigaction(SIGUSR1, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    int lockfd = lock_lab(db_path);
    if (lockfd < 0)
        return 1;
    struct addrinfo *ai = resolve(o->bind);
    if (!ai) {
        close(lockfd);
        return 2;
    }
    struct server *sv = calloc(1, sizeof *sv);
    if (!sv)
        abort();
    sv->lab = lab;
    pthread_mutex_init(&sv->mu, NULL);
    pthread_cond_init(&sv->idle, NULL);
    bool stuck = false;
    int rc = serve_lab(sv, o, ai, &stuck);
    if (stuck) /* threads still hold the lab: every command committed, just go */
        _exit(rc);
    for (int i = 0; i < sv->nls && !atomic_load(&sv->stop); i++)
        close(sv->ls[i].fd);
    if (sv->http) /* its consoles end: the stop flag is set */
        sv->httpm->server_free(sv->http);
    if (sv->ssh)
        sv->sshm->server_free(sv->ssh);
    pthread_cond_destroy(&sv->idle);
    pthread_mutex_destroy(&sv->mu);
    free(sv);
    freeaddrinfo(ai);
    /* the caller closes the lab; the lock goes with the process */
    (void)lockfd;
    return rc;
}
