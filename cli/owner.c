/*
 * The lab's owner serves the mdsim processes attached to it. An accept
 * thread takes connections on the lab's socket; each gets a thread that
 * greets it, reads its request and runs the job in this process's lab,
 * streaming the output back. Every command still runs under the lab lock
 * inside session_exec, so attached sessions interleave with the owner's
 * own job command by command, as served sessions do.
 */
#define _GNU_SOURCE /* accept4, SO_PEERCRED, fopencookie, sigtimedwait */
#include "owner.h"
#include "ownwire.h"
#include "labcmd.h"
#include "lab_capture.h"
#include "replay.h"
#include "telnet.h"
#include "session.h"
#include "lab/lab.h"
#include "lab/ownership.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

/* The limits of docs/lab-owner.md. A client's place is held while it
 * sends its request and input, so that part is bounded in time, and a
 * client that stalls in it gives its place up to a newer one when all are
 * taken: stalling costs the staller, not those who come after. */
enum {
    MAX_CLIENTS = 32,
    MAX_FILES = 1024,
    INPUT_MAX = 64 << 20,    /* bytes of replay input per client */
    REQUEST_MS = 10000,      /* a client says what it wants within this */
    INPUT_GAP_MS = 60000,    /* replay input: the longest pause between frames */
    INPUT_TOTAL_MS = 600000, /* and all of it within this (a slow pipe into `replay -`) */
    STALL_MS = 1000,         /* a client still sending after this may lose its place */
    RECV_TIMEOUT_S = 10,     /* a frame that has started must end within this */
    SEND_TIMEOUT_S = 30,     /* a client that stops reading is dropped */
    DRAIN_SECONDS = 10,
};

struct client {
    int fd;
    struct client *next;
    long long since_ms; /* connected (monotonic clock) */
    bool running;       /* its job started: its place is its own (own.mu) */
    bool evicted;       /* its place went to a newer client (own.mu) */
};

static struct {
    struct lab *lab;
    char what[32]; /* this process's own job, told to those who attach */
    char sock[sizeof ((struct sockaddr_un *)0)->sun_path];
    int lfd, wake[2];
    pthread_t accept_th;
    bool listening, accepting;
    pthread_mutex_t mu; /* guards clients and n */
    pthread_cond_t left;
    struct client *clients;
    int n;
    int evicted; /* clients in the list whose place went to another */
    atomic_bool stop;
    /* A background owner (owner_daemon) closes the lab as its last client
     * ends, before telling it so: once that mdsim has exited, the lab file
     * is closed and the next mdsim owns it. */
    bool daemon, had_client, closing, closed;
    int idle; /* daemon: clients whose job is over, waiting for `closed` */
} own = {.lfd = -1, .mu = PTHREAD_MUTEX_INITIALIZER, .left = PTHREAD_COND_INITIALIZER};

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- a client's place ---- */

/* The client's request and input are in: from now on its place is its
 * own. False when it was given to a newer client meanwhile. */
static bool client_starts(struct client *c)
{
    pthread_mutex_lock(&own.mu);
    bool ok = !c->evicted;
    c->running = ok;
    pthread_mutex_unlock(&own.mu);
    return ok;
}

static bool client_evicted(struct client *c)
{
    pthread_mutex_lock(&own.mu);
    bool e = c->evicted;
    pthread_mutex_unlock(&own.mu);
    return e;
}

/* Every place is taken and a new client comes: the one that has been
 * sending its request and input the longest gives its place up, once it
 * has been at it STALL_MS (a fast upload that merely came first keeps
 * its own). Its reads end (SHUT_RD), and its thread tells it why. Called
 * with own.mu. */
static bool evict_stalled(void)
{
    struct client *old = NULL;
    for (struct client *c = own.clients; c; c = c->next) /* newest first: <= takes the older of a tie */
        if (!c->running && !c->evicted && (!old || c->since_ms <= old->since_ms))
            old = c;
    if (!old || mono_ms() - old->since_ms < STALL_MS)
        return false;
    old->evicted = true;
    own.evicted++;
    shutdown(old->fd, SHUT_RD);
    return true;
}

/* ---- what a client did wrong, on its stderr ---- */

static int dropped(const struct client *c, FILE *err)
{
    fprintf(err,
            "mdsim: dropped by the lab's owner: this mdsim was still sending its request and input after %lld s"
            " when all %d places were taken, and its place went to a newer mdsim\n",
            (mono_ms() - c->since_ms) / 1000, MAX_CLIENTS);
    return 1;
}

/* A frame that is not what the client should send now (`wanted`), or a
 * broken one. Returns the exit code: 1 for time and room, 2 for a frame
 * no mdsim sends. */
static int bad_frame(struct client *c, FILE *err, int type, size_t n, const char *wanted)
{
    if (client_evicted(c))
        return dropped(c, err);
    switch (type) {
    case WIRE_GONE: /* nobody left to tell */
        return 1;
    case WIRE_CUT:
        fprintf(err, "mdsim: protocol error: a frame cut short: begun, not finished within %d s\n", RECV_TIMEOUT_S);
        return 1;
    case WIRE_TOO_BIG:
        fprintf(err, "mdsim: protocol error: a frame of %zu bytes, over the %s limit\n", n, WIRE_MAX_TEXT);
        return 2;
    case WIRE_NO_TYPE:
        fprintf(err, "mdsim: protocol error: %s\n", wire_fail_text(type));
        return 2;
    }
    if (type > ' ' && type < 127)
        fprintf(err, "mdsim: protocol error: frame type '%c' where %s was expected\n", type, wanted);
    else
        fprintf(err, "mdsim: protocol error: frame type 0x%02x where %s was expected\n", type, wanted);
    return 2;
}

/* ---- a job's request ---- */

struct request {
    char job[32], sw[64], cwd[4096];
    char series[4096], plots[4096]; /* lab-export: absolute paths */
    char capture[LABCAP_PATH_MAX], ports[2800], format[8]; /* lab-capture-start; capture also replay --pcap */
    bool bad_capture; /* a value that did not fit: refused, never truncated */
    bool check, verify, stop_on_error, follow_prompts;
    int pace_s;
    bool tty; /* the client's stdout is a terminal: line buffered, as there */
    int rows, cols;
    long pid;
};

/* A number the client sent, or 0 when it is none or beyond hi: atoi's
 * overflow is undefined. */
static long bounded(const char *v, long hi)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    return end != v && errno == 0 && x >= 0 && x <= hi ? x : 0;
}

/* "key=value" lines; unknown keys are ignored, values are bounded. */
static void parse_request(char *text, struct request *rq)
{
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *v = strchr(l, '=');
        if (!v)
            continue;
        *v++ = '\0';
        if (strcmp(l, "job") == 0)
            snprintf(rq->job, sizeof rq->job, "%s", v);
        else if (strcmp(l, "switch") == 0)
            snprintf(rq->sw, sizeof rq->sw, "%s", v);
        else if (strcmp(l, "cwd") == 0 && v[0] == '/')
            snprintf(rq->cwd, sizeof rq->cwd, "%s", v);
        else if (strcmp(l, "series") == 0 && v[0] == '/')
            snprintf(rq->series, sizeof rq->series, "%s", v);
        else if (strcmp(l, "plots") == 0 && v[0] == '/')
            snprintf(rq->plots, sizeof rq->plots, "%s", v);
        else if (strcmp(l, "capture") == 0)
            rq->bad_capture |= (size_t)snprintf(rq->capture, sizeof rq->capture, "%s", v) >= sizeof rq->capture;
        else if (strcmp(l, "ports") == 0)
            rq->bad_capture |= (size_t)snprintf(rq->ports, sizeof rq->ports, "%s", v) >= sizeof rq->ports;
        else if (strcmp(l, "format") == 0)
            rq->bad_capture |= (size_t)snprintf(rq->format, sizeof rq->format, "%s", v) >= sizeof rq->format;
        else if (strcmp(l, "check") == 0)
            rq->check = *v == '1';
        else if (strcmp(l, "verify") == 0)
            rq->verify = *v == '1';
        else if (strcmp(l, "stop-on-error") == 0)
            rq->stop_on_error = *v == '1';
        else if (strcmp(l, "follow-prompts") == 0)
            rq->follow_prompts = *v == '1';
        else if (strcmp(l, "pace") == 0)
            rq->pace_s = (int)bounded(v, REPLAY_PACE_MAX_S);
        else if (strcmp(l, "tty") == 0)
            rq->tty = *v == '1';
        else if (strcmp(l, "rows") == 0)
            rq->rows = (int)bounded(v, 65535);
        else if (strcmp(l, "cols") == 0)
            rq->cols = (int)bounded(v, 65535);
        else if (strcmp(l, "pid") == 0)
            rq->pid = bounded(v, 0x7fffffff);
    }
}

/* ---- output streams back to the client ---- */

struct sink {
    int fd, type;
    bool *dead; /* shared by a client's two streams */
};

/* A client gone, or not reading for SEND_TIMEOUT_S: the job runs on to
 * its end, unheard, rather than hold the lab's batch open for it. */
static ssize_t sink_write(void *ctx, const char *buf, size_t n)
{
    struct sink *k = ctx;
    if (!*k->dead && wire_send(k->fd, k->type, buf, n) != 0)
        *k->dead = true;
    return (ssize_t)n;
}

static FILE *sink_open(struct sink *k)
{
    FILE *f = fopencookie(k, "w", (cookie_io_functions_t){.write = sink_write});
    if (!f)
        abort();
    return f;
}

/* ---- jobs ---- */

struct replay_input {
    char *name[MAX_FILES], *data[MAX_FILES];
    size_t len[MAX_FILES];
    bool bad[MAX_FILES];
    int n, next;
};

static FILE *input_open(void *ctx, const char *name)
{
    struct replay_input *in = ctx;
    (void)name; /* replay opens the files in the order given */
    if (in->next >= in->n)
        return NULL;
    int k = in->next++;
    if (in->bad[k])
        return NULL;
    return in->len[k] ? fmemopen(in->data[k], in->len[k], "r") : fopen("/dev/null", "r");
}

/* An F frame: "+NAME", or "!NAME" for a file the client could not read.
 * 0, or the exit code after saying what was wrong. */
static int add_file(struct replay_input *in, const char *buf, size_t n, FILE *err)
{
    if (n == 0 || (buf[0] != '+' && buf[0] != '!')) {
        fprintf(err, "mdsim: protocol error: a replay file frame must start with + or !\n");
        return 2;
    }
    if (n == 1 || buf[1] == '\0') {
        fprintf(err, "mdsim: protocol error: a replay file with no name\n");
        return 2;
    }
    if (in->n == MAX_FILES) {
        fprintf(err, "mdsim: replay input over %d files: too much for one run\n", MAX_FILES);
        return 2;
    }
    int k = in->n++;
    in->bad[k] = buf[0] == '!';
    if (!(in->name[k] = strdup(buf + 1)))
        abort();
    return 0;
}

/* A D frame: the last file's next bytes. */
static int add_data(struct replay_input *in, const char *buf, size_t n, size_t *total, FILE *err)
{
    if (in->n == 0) {
        fprintf(err, "mdsim: protocol error: replay data before any file\n");
        return 2;
    }
    if (*total + n > INPUT_MAX) {
        fprintf(err, "mdsim: replay input over %d MiB: too much for one run\n", INPUT_MAX >> 20);
        return 2;
    }
    int k = in->n - 1;
    if (!(in->data[k] = realloc(in->data[k], in->len[k] + n + 1)))
        abort();
    memcpy(in->data[k] + in->len[k], buf, n);
    in->len[k] += n;
    *total += n;
    return 0;
}

/* F, D... per file, then G, with no pause over INPUT_GAP_MS and all
 * within INPUT_TOTAL_MS. 0, or the exit code after saying what was wrong. */
static int read_files(struct client *c, char *buf, struct replay_input *in, FILE *err)
{
    size_t total = 0, n;
    long long end = mono_ms() + INPUT_TOTAL_MS;
    int rc = 0;
    while (rc == 0) {
        long long left = end - mono_ms();
        int wait = left < INPUT_GAP_MS ? (int)(left > 0 ? left : 0) : INPUT_GAP_MS;
        int type = wire_recv(c->fd, buf, &n, wait);
        if (type == W_FILE) {
            rc = add_file(in, buf, n, err);
        } else if (type == W_DATA) {
            rc = add_data(in, buf, n, &total, err);
        } else if (type == W_GO && in->n > 0) {
            return 0;
        } else if (type == W_GO) {
            fprintf(err, "mdsim: protocol error: no replay file before the end of the input\n");
            rc = 2;
        } else if (type == WIRE_TIMEOUT && wait == INPUT_GAP_MS) {
            fprintf(err, "mdsim: no replay input for %d s: the lab's owner gave up on it\n", INPUT_GAP_MS / 1000);
            rc = 1;
        } else if (type == WIRE_TIMEOUT) {
            fprintf(err, "mdsim: replay input not all sent within %d s: the lab's owner gave up on it\n",
                    INPUT_TOTAL_MS / 1000);
            rc = 1;
        } else {
            rc = bad_frame(c, err, type, n, "replay input (F, D or G)");
        }
    }
    return rc;
}

static int job_replay(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err)
{
    struct replay_input *in = calloc(1, sizeof *in);
    if (!in)
        abort();
    int rc = read_files(c, buf, in, err);
    struct stat st;
    if (rc == 0 && (rq->bad_capture || (rq->capture[0] && rq->capture[0] != '/'))) {
        fprintf(err, "mdsim: --pcap: not an absolute path, or too long for the lab's owner\n");
        rc = 2;
    } else if (rc == 0 && rq->capture[0] && stat(rq->capture, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* the owner writes under the lab lock: a pipe's slow reader would hold everyone up */
        fprintf(err, "mdsim: --pcap: %s is not a regular file: attached, the lab's owner writes it"
                     " (to follow a live lab: `mdsim lab capture start -`)\n", rq->capture);
        rc = 1;
    } else if (rc == 0 && rq->series[0] && stat(rq->series, &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(err, "mdsim: --series: %s is not a regular file: attached, the lab's owner writes it\n", rq->series);
        rc = 1;
    } else if (rc == 0 && !client_starts(c)) {
        rc = dropped(c, err);
    } else if (rc == 0) {
        struct replay_opts ro = {.check = rq->check, .verify = rq->verify, .stop_on_error = rq->stop_on_error,
                                 .follow_prompts = rq->follow_prompts, .pace_s = rq->pace_s, .start_switch = sw,
                                 .pcap = rq->capture[0] == '/' ? rq->capture : NULL,
                                 .series = rq->series[0] ? rq->series : NULL, .plots = rq->plots[0] ? rq->plots : NULL,
                                 .out = out, .err = err, .open = input_open, .open_ctx = in, .cwd = rq->cwd[0] ? rq->cwd : NULL,
                                 .stop = &own.stop};
        rc = replay_files(own.lab, in->name, in->n, &ro);
    }
    for (int i = 0; i < in->n; i++) {
        free(in->name[i]);
        free(in->data[i]);
    }
    free(in);
    return rc;
}

/* An attached console: the served terminal's line discipline, fed with
 * the keys of the client's raw terminal. */
struct keys {
    int fd;
    struct term *t;
    char *buf;
    size_t len, pos;
    bool eof;
    FILE *err;
};

/* W_WINDOW's "ROWS COLS"; term_set_window keeps what is sensible. */
static void keys_window(struct keys *k)
{
    char *cols = strchr(k->buf, ' ');
    if (cols)
        term_set_window(k->t, (int)bounded(k->buf, 65535), (int)bounded(cols + 1, 65535));
}

static int keys_read(void *ctx, unsigned char *p, size_t n, int timeout_ms)
{
    struct keys *k = ctx;
    while (k->pos == k->len) {
        if (k->eof)
            return -1;
        size_t got;
        int type = wire_recv(k->fd, k->buf, &got, timeout_ms);
        if (type == WIRE_TIMEOUT)
            return 0;
        if (type < 0) { /* not TERM_EOF: the stream is lost */
            if (type != WIRE_GONE)
                fprintf(k->err, "\r\nmdsim: protocol error: %s\r\n", wire_fail_text(type));
            return -1;
        }
        if (type == W_INPUT) {
            k->len = got;
            k->pos = 0;
        } else if (type == W_WINDOW) {
            keys_window(k);
            return 0;
        } else if (type == W_EOF) {
            k->eof = true;
        }
    }
    size_t m = k->len - k->pos < n ? k->len - k->pos : n;
    memcpy(p, k->buf + k->pos, m);
    k->pos += m;
    return (int)m;
}

static int keys_write(void *ctx, const void *p, size_t n)
{
    struct keys *k = ctx;
    return wire_send(k->fd, W_OUT, p, n);
}

/* A console's keys come when its user types them: it may be idle for as
 * long as `exec-timeout` allows, so none of the upload's limits apply. */
static int job_console(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err)
{
    (void)out;
    char from[32];
    snprintf(from, sizeof from, "pid %ld", rq->pid);
    struct keys k = {.fd = c->fd, .buf = buf, .err = err};
    struct term_transport tr = {keys_read, keys_write, &k};
    struct term_opts o = {.lab = own.lab, .sw = sw, .kind = "console", .from = from, .interactive = true,
                          .crlf = true, .rows = rq->rows, .cols = rq->cols, .stop = &own.stop,
                          .console = true, .cwd = rq->cwd[0] ? rq->cwd : NULL};
    k.t = term_new(&tr, &o);
    term_shell(k.t, "admin", ROLE_ADMIN);
    term_free(k.t);
    return 0;
}

static int job_lab(const char *what, FILE *out, FILE *err)
{
    int rc = labcmd_run(own.lab, what, out, err);
    return rc < 0 ? 2 : rc;
}

static int job_lab_list(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err)
{
    (void)c, (void)rq, (void)sw, (void)buf;
    return job_lab("list", out, err);
}

static int job_lab_show(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err)
{
    (void)c, (void)rq, (void)sw, (void)buf;
    return job_lab("show", out, err);
}

/* `--switch NAME`: that switch only (resolved by serve_client). */
static int job_lab_reset(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err)
{
    (void)c, (void)buf;
    int rc = labcmd_reset(own.lab, rq->sw[0] ? sw : -1, out, err);
    return rc < 0 ? 2 : rc;
}

/* The client sent absolute paths; this process runs as its user (SO_PEERCRED). */
static int job_lab_export(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err)
{
    (void)c, (void)sw, (void)buf;
    if (!rq->series[0]) {
        fprintf(err, "mdsim: lab export needs --series FILE\n");
        return -1;
    }
    return labcmd_export(own.lab, rq->series, rq->plots[0] ? rq->plots : NULL, out, err);
}

static int job_capture_start(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err)
{
    (void)sw, (void)buf;
    if (rq->bad_capture) {
        fprintf(err, "mdsim: lab capture: a path, port list or format too long\n");
        return 2;
    }
    struct labcap_req lr = {rq->capture, rq->ports, rq->format};
    return labcap_start(own.lab, &lr, c->fd, &own.stop, out, err);
}

static int job_capture_stop(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err)
{
    (void)c, (void)rq, (void)sw, (void)buf;
    return labcap_stop(own.lab, out, err);
}

static const struct {
    const char *name;
    int (*run)(struct client *c, const struct request *rq, int sw, char *buf, FILE *out, FILE *err);
    bool uploads; /* reads input before it runs, and says when it starts */
} jobs[] = {
    {"console", job_console, false},   {"replay", job_replay, true},      {"lab-list", job_lab_list, false},
    {"lab-show", job_lab_show, false}, {"lab-reset", job_lab_reset, false},
    {"lab-export", job_lab_export, false}, {"lab-capture-start", job_capture_start, false},
    {"lab-capture-stop", job_capture_stop, false},
};

/* The first frame: 0, or the exit code after saying what was wrong. */
static int read_request(struct client *c, char *buf, struct request *rq, FILE *err)
{
    size_t n;
    int type = wire_recv(c->fd, buf, &n, REQUEST_MS);
    if (type == W_REQUEST) {
        parse_request(buf, rq);
        return 0;
    }
    if (type != WIRE_TIMEOUT)
        return bad_frame(c, err, type, n, "a request (Q)");
    fprintf(err, "mdsim: no request within %d s: the lab's owner gave up on this mdsim\n", REQUEST_MS / 1000);
    return 1;
}

/* Its exit code, or -1 for "2 usage". */
static int run_job(struct client *c, const struct request *rq, char *buf, FILE *out, FILE *err)
{
    int sw = 0;
    if (rq->sw[0]) {
        lab_lock(own.lab);
        sw = lab_switch_find(own.lab, rq->sw);
        lab_unlock(own.lab);
    }
    if (sw < 0) {
        fprintf(err, "mdsim: no such switch in the lab\n");
        return -1;
    }
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
        if (strcmp(jobs[i].name, rq->job) != 0)
            continue;
        if (!jobs[i].uploads && !client_starts(c))
            return dropped(c, err);
        return jobs[i].run(c, rq, sw, buf, out, err);
    }
    fprintf(err, "mdsim: the lab's owner does not know the job '%s' (another mdsim version?)\n", rq->job);
    return -1;
}

/* Reads the request, runs the job, sends its exit code. */
static void serve_client(struct client *c, char *buf)
{
    struct request rq = {0};
    bool dead = false;
    struct sink so = {c->fd, W_OUT, &dead}, se = {c->fd, W_ERR, &dead};
    FILE *out = sink_open(&so), *err = sink_open(&se);
    setvbuf(err, NULL, _IONBF, 0);
    int rc = read_request(c, buf, &rq, err);
    if (rc == 0) {
        if (rq.tty)
            setvbuf(out, NULL, _IOLBF, 0);
        rc = run_job(c, &rq, buf, out, err);
    }
    fclose(out);
    fclose(err);
    pthread_mutex_lock(&own.mu);
    if (own.daemon) { /* the owner closes the lab once every job is over */
        own.idle++;
        pthread_cond_broadcast(&own.left);
        while (!own.closed && own.idle == own.n)
            pthread_cond_wait(&own.left, &own.mu);
        own.idle--;
    }
    pthread_mutex_unlock(&own.mu);
    char x[16];
    snprintf(x, sizeof x, "%d", rc);
    wire_send_str(c->fd, W_EXIT, rc < 0 ? "2 usage" : x);
}

static void *client_main(void *arg)
{
    struct client *c = arg;
    char hello[64];
    char *buf = malloc(WIRE_MAX + 1);
    if (!buf)
        abort();
    snprintf(hello, sizeof hello, "mdsim-owner %d %ld %s", WIRE_VERSION, (long)getpid(), own.what);
    if (wire_send_str(c->fd, W_HELLO, hello) == 0)
        serve_client(c, buf);
    free(buf);
    pthread_mutex_lock(&own.mu);
    for (struct client **p = &own.clients; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    close(c->fd); /* under the mutex: finish (or an eviction) may be shutting it down */
    own.n--;
    own.evicted -= c->evicted;
    pthread_cond_broadcast(&own.left);
    pthread_mutex_unlock(&own.mu);
    free(c);
    return NULL;
}

/* ---- accepting ---- */

static bool same_user(int fd)
{
    struct ucred cr;
    socklen_t len = sizeof cr;
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0 && cr.uid == geteuid();
}

static void refuse(int fd, const char *why)
{
    char hello[64];
    snprintf(hello, sizeof hello, "mdsim-owner %d %ld %s", WIRE_VERSION, (long)getpid(), own.what);
    wire_send_str(fd, W_HELLO, hello);
    wire_send_str(fd, W_ERR, why);
    wire_send_str(fd, W_EXIT, "1");
    close(fd);
}

static void accept_one(void)
{
    int fd = accept4(own.lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE) /* the listener stays readable: do not spin */
            usleep(100000);
        return;
    }
    if (!same_user(fd)) { /* the directory is 0700 already: belt and braces */
        close(fd);
        return;
    }
    struct timeval rt = {RECV_TIMEOUT_S, 0}, st = {SEND_TIMEOUT_S, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &rt, sizeof rt);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &st, sizeof st);
    struct client *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->fd = fd;
    c->since_ms = mono_ms();
    pthread_mutex_lock(&own.mu);
    if (own.closing) { /* the lab is closing: it retries, and owns it next */
        pthread_mutex_unlock(&own.mu);
        close(fd);
        free(c);
        return;
    }
    bool full = own.n - own.evicted >= MAX_CLIENTS && !evict_stalled();
    own.had_client = true;
    if (!full) {
        c->next = own.clients;
        own.clients = c;
        own.n++;
        pthread_cond_broadcast(&own.left); /* a daemon's idle clients: not the last any more */
    }
    pthread_mutex_unlock(&own.mu);
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (full) {
        free(c);
        refuse(fd, "mdsim: too many processes attached to this lab\n");
    } else if (pthread_create(&th, &attr, client_main, c) != 0) {
        pthread_mutex_lock(&own.mu);
        own.clients = c->next;
        own.n--;
        pthread_mutex_unlock(&own.mu);
        free(c);
        refuse(fd, "mdsim: the lab's owner cannot start a thread\n");
    }
    pthread_attr_destroy(&attr);
}

static void *accept_main(void *arg)
{
    (void)arg;
    struct pollfd p[2] = {{own.lfd, POLLIN, 0}, {own.wake[0], POLLIN, 0}};
    for (;;) {
        if (poll(p, 2, -1) < 0)
            continue;
        if (p[1].revents)
            return NULL;
        if (p[0].revents & POLLIN)
            accept_one();
    }
}

/* Signals belong to the main thread (the console's Ctrl-C, serve's
 * SIGTERM): the owner's threads, and the threads they start, block them. */
static void block_signals(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    pthread_sigmask(SIG_BLOCK, &all, old);
}

int owner_start(struct lab *lab, const struct labown *o, const char *what, char *err, size_t errlen)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    own.lab = lab;
    snprintf(own.what, sizeof own.what, "%s", what);
    snprintf(own.sock, sizeof own.sock, "%s", o->sock);
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", o->sock);
    unlink(o->sock); /* a dead owner's: we hold the lock */
    own.lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    mode_t um = umask(077);
    int rc = own.lfd < 0 ? -1 : bind(own.lfd, (struct sockaddr *)&sa, sizeof sa);
    umask(um);
    if (rc != 0 || chmod(o->sock, 0600) != 0 || listen(own.lfd, 64) != 0 || pipe2(own.wake, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot listen on %s: %s", o->sock, strerror(errno));
        if (own.lfd >= 0)
            close(own.lfd);
        return -1;
    }
    own.listening = true;
    signal(SIGPIPE, SIG_IGN);
    lab_share(lab);
    sigset_t old;
    block_signals(&old);
    own.accepting = pthread_create(&own.accept_th, NULL, accept_main, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!own.accepting) {
        snprintf(err, errlen, "cannot start a thread");
        return -1;
    }
    return 0;
}

static void stop_accepting(void)
{
    if (!own.accepting)
        return;
    (void)!write(own.wake[1], "x", 1);
    pthread_join(own.accept_th, NULL);
    own.accepting = false;
}

/* Ends the attached sessions: their connections shut, the stop flag set
 * for terminals; waits (bounded) for their threads. Called with own.mu. */
static void end_clients(void)
{
    atomic_store(&own.stop, true);
    for (int tick = 0; own.n > 0 && tick < DRAIN_SECONDS * 5; tick++) {
        for (struct client *c = own.clients; c; c = c->next)
            shutdown(c->fd, SHUT_RDWR);
        struct timespec end;
        clock_gettime(CLOCK_REALTIME, &end);
        end.tv_nsec += 200000000;
        if (end.tv_nsec >= 1000000000) {
            end.tv_sec++;
            end.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&own.left, &own.mu, &end);
    }
}

/* Waits for the attached sessions to leave; a SIGINT or SIGTERM means
 * "now". Called with own.mu; returns whether a signal came. */
static bool wait_clients(void)
{
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    struct timespec slice = {0, 200000000};
    while (own.n > 0) {
        pthread_mutex_unlock(&own.mu);
        int sig = sigtimedwait(&sigs, NULL, &slice);
        pthread_mutex_lock(&own.mu);
        if (sig > 0)
            return true;
    }
    return false;
}

bool owner_finish(bool now)
{
    if (!own.listening)
        return true;
    sigset_t sigs, old;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, &old);
    pthread_mutex_lock(&own.mu);
    if (!now && own.n > 0 && isatty(STDERR_FILENO)) { /* a script's stderr stays a replay's */
        fprintf(stderr, "mdsim: %d other mdsim process%s still use%s this lab; serving %s until %s leave%s"
                        " (Ctrl-C ends %s)\n", own.n, own.n == 1 ? "" : "es", own.n == 1 ? "s" : "",
                own.n == 1 ? "it" : "them", own.n == 1 ? "it" : "they", own.n == 1 ? "s" : "",
                own.n == 1 ? "it" : "them");
    }
    for (;;) {
        if (!now)
            now = wait_clients();
        if (!own.accepting)
            break;
        pthread_mutex_unlock(&own.mu); /* no new client after this */
        stop_accepting();
        pthread_mutex_lock(&own.mu);
    }
    if (own.n > 0)
        end_clients();
    int left = own.n;
    pthread_mutex_unlock(&own.mu);
    close(own.lfd);
    unlink(own.sock);
    own.listening = false;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (left)
        fprintf(stderr, "mdsim: %d attached session%s did not end in time\n", left, left == 1 ? "" : "s");
    return left == 0;
}

/* ---- the background owner of consoles ---- */

static bool signalled(void)
{
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    struct timespec zero = {0, 0};
    return sigtimedwait(&sigs, NULL, &zero) > 0;
}

static void deadline_in(struct timespec *t, long ms)
{
    clock_gettime(CLOCK_REALTIME, t);
    t->tv_sec += ms / 1000;
    t->tv_nsec += ms % 1000 * 1000000;
    if (t->tv_nsec >= 1000000000) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000;
    }
}

static bool passed(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

/* Until every attached job is over (and at least one came): with own.mu
 * held, sets `closing` so that nobody new gets in. False when jobs still
 * ran 10 s after a SIGTERM. */
static bool wait_all_idle(void)
{
    struct timespec first, give_up = {0, 0};
    deadline_in(&first, REQUEST_MS);
    while (!(own.had_client ? own.idle == own.n : passed(&first))) {
        if (give_up.tv_sec && passed(&give_up))
            return false;
        if (!give_up.tv_sec && signalled()) { /* end the sessions, then close */
            atomic_store(&own.stop, true);
            for (struct client *c = own.clients; c; c = c->next)
                shutdown(c->fd, SHUT_RDWR);
            deadline_in(&give_up, DRAIN_SECONDS * 1000);
        }
        struct timespec slice;
        deadline_in(&slice, 100);
        pthread_cond_timedwait(&own.left, &own.mu, &slice);
    }
    own.closing = true;
    return true;
}

bool owner_daemon(struct lab *lab, struct labown *o)
{
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    pthread_mutex_lock(&own.mu);
    own.daemon = true;
    bool ok = wait_all_idle();
    pthread_mutex_unlock(&own.mu);
    if (!ok)
        return false;
    stop_accepting();
    close(own.lfd);
    unlink(own.sock);
    own.listening = false;
    lab_close(lab);
    labown_release(o);
    pthread_mutex_lock(&own.mu);
    own.closed = true;
    pthread_cond_broadcast(&own.left);
    struct timespec end;
    deadline_in(&end, 5000);
    while (own.n > 0 && !passed(&end)) /* each sends its exit code */
        pthread_cond_timedwait(&own.left, &own.mu, &end);
    pthread_mutex_unlock(&own.mu);
    return true;
}

static void *compile_grammar(void *arg)
{
    (void)arg;
    session_grammar();
    return NULL;
}

/* The grammar compiles on the other core while the lab opens and the
 * console attaches (3-4 ms each on the 2-core VM); the first session's
 * session_grammar() waits for it if need be. */
static void warm_grammar(void)
{
    pthread_t th;
    if (pthread_create(&th, NULL, compile_grammar, NULL) == 0)
        pthread_detach(th);
}

/* Forks the background owner of a console's lab, in a session of its
 * own, its output to /dev/null. It opens the lab and says on a pipe
 * whether it could. The lock's open file is shared with it: ours closes,
 * its stays. */
int owner_spawn(struct labown *o, double speed, char *err, size_t errlen)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot start the lab's owner: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    /* One fork: the owner is this console's child until the console exits
     * and init adopts it (a second fork to orphan it at once cost 1.7 ms of
     * page-table copying). If it ends first it stays a zombie only until
     * the console exits. */
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        setsid();
        sigset_t sigs; /* for owner_daemon's sigtimedwait, in every thread it starts */
        sigemptyset(&sigs);
        sigaddset(&sigs, SIGINT);
        sigaddset(&sigs, SIGTERM);
        sigaddset(&sigs, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &sigs, NULL);
        warm_grammar();
        (void)!chdir("/"); /* hold no directory busy: its paths are absolute, and
                            * each session resolves host paths in its client's */
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        char msg[512] = "";
        struct lab *lab = lab_open(o->real, msg, sizeof msg);
        if (lab) {
            lab_set_realtime(lab, speed);
            if (owner_start(lab, o, "console", msg, sizeof msg) != 0) {
                lab_close(lab);
                lab = NULL;
            }
        }
        (void)!write(p[1], lab ? "ok" : msg, lab ? 2 : strlen(msg));
        close(p[1]);
        if (!lab)
            _exit(1);
        _exit(owner_daemon(lab, o) ? 0 : 1);
    }
    close(p[1]);
    close(o->fd);
    o->fd = -1;
    char msg[512] = "";
    ssize_t n = pid > 0 ? read(p[0], msg, sizeof msg - 1) : -1;
    close(p[0]);
    msg[n > 0 ? n : 0] = '\0';
    if (strcmp(msg, "ok") == 0)
        return 0;
    snprintf(err, errlen, "%s", msg[0] ? msg : "cannot start the lab's owner");
    return -1;
}
