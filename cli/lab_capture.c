/*
 * `lab capture` in the lab's owner (lab_capture.h). The tap runs inside
 * the engine under the lab lock, so nothing it does may wait for a
 * client: a file is written as replay --pcap writes it (flushed per
 * packet, so a kill leaves whole packets), and a stream goes into a
 * bounded queue that the client's job thread drains onto the socket;
 * when the reader is LABCAP_BACKLOG behind, packets are left out whole
 * and counted (capture_set_room).
 */
#define _GNU_SOURCE /* fopencookie */
#include "lab_capture.h"
#include "ownwire.h"
#include "capture/capture.h"
#include "interface/ge.h"
#include "lab/lab.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
    FILE_BUF = 256 << 10, /* over any packet: a flush never cuts one */
    STREAM_MS = 100,      /* the longest a streamed packet waits in the owner */
};

struct ocap {
    struct lab *lab;
    struct capture *cap;
    FILE *f;
    char path[LABCAP_PATH_MAX]; /* "-": a stream */
    char *fbuf;                 /* the file's stdio buffer (FILE_BUF) */
    const char **names;
    int *ids;
    unsigned long frames, dropped; /* when it stopped */
    pthread_mutex_t mu;            /* a stream's queue */
    pthread_cond_t cv;
    char *q;
    size_t qlen, qcap;
    bool ended; /* stopped: the queue is all there will be */
    struct ocap *next;
};

/* The captures `lab capture` made, so that stop knows the slot's holder
 * as its own (ethanalyzer's and replay --pcap's are not). */
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct ocap *reg;

static void reg_add(struct ocap *oc)
{
    pthread_mutex_lock(&reg_mu);
    oc->next = reg;
    reg = oc;
    pthread_mutex_unlock(&reg_mu);
}

static void reg_del(struct ocap *oc)
{
    pthread_mutex_lock(&reg_mu);
    for (struct ocap **p = &reg; *p; p = &(*p)->next)
        if (*p == oc) {
            *p = oc->next;
            break;
        }
    pthread_mutex_unlock(&reg_mu);
}

/* The slot's holder when it is ours; the lab lock is held. */
static struct ocap *mine(struct lab *lab)
{
    void *obs = lab_observer(lab, LAB_OBS_CAPTURE);
    pthread_mutex_lock(&reg_mu);
    struct ocap *oc = reg;
    while (oc && oc != obs)
        oc = oc->next;
    pthread_mutex_unlock(&reg_mu);
    return oc;
}

static bool is_stream(const struct ocap *oc) { return strcmp(oc->path, "-") == 0; }

/* ---- a stream's queue ---- */

static ssize_t queue_write(void *ctx, const char *p, size_t n)
{
    struct ocap *oc = ctx;
    pthread_mutex_lock(&oc->mu);
    if (oc->qlen + n > oc->qcap) {
        size_t cap = oc->qcap ? oc->qcap : 65536;
        while (cap < oc->qlen + n)
            cap *= 2;
        char *q = realloc(oc->q, cap);
        if (!q) {
            pthread_mutex_unlock(&oc->mu);
            return -1;
        }
        oc->q = q;
        oc->qcap = cap;
    }
    memcpy(oc->q + oc->qlen, p, n);
    oc->qlen += n;
    if (oc->qlen >= WIRE_MAX) /* a frame's worth: else the sender looks every STREAM_MS */
        pthread_cond_signal(&oc->cv);
    pthread_mutex_unlock(&oc->mu);
    return (ssize_t)n;
}

static bool queue_room(void *ctx, size_t n)
{
    struct ocap *oc = ctx;
    pthread_mutex_lock(&oc->mu);
    bool ok = oc->qlen + n <= LABCAP_BACKLOG;
    pthread_mutex_unlock(&oc->mu);
    return ok;
}

/* ---- the request ---- */

/* "SW:S/P" into the lab's switch index, slot and port; the lab lock is held. */
static bool parse_port(struct lab *lab, const char *spec, size_t len, int out[3], FILE *err)
{
    char name[64];
    const char *colon = memchr(spec, ':', len);
    int slot, port, used = 0;
    size_t nl = colon ? (size_t)(colon - spec) : 0;
    if (!colon || nl == 0 || nl >= sizeof name) {
        fprintf(err, "mdsim: lab capture: --port %.*s: not SWITCH:SLOT/PORT\n", (int)(len > 80 ? 80 : len), spec);
        return false;
    }
    memcpy(name, spec, nl);
    name[nl] = '\0';
    char num[24];
    size_t rest = len - nl - 1;
    if (rest == 0 || rest >= sizeof num) {
        fprintf(err, "mdsim: lab capture: --port %.*s: not SWITCH:SLOT/PORT\n", (int)(len > 80 ? 80 : len), spec);
        return false;
    }
    memcpy(num, colon + 1, rest);
    num[rest] = '\0';
    if (strspn(num, "0123456789/") != rest || sscanf(num, "%2d/%2d%n", &slot, &port, &used) != 2 ||
        (size_t)used != rest) {
        fprintf(err, "mdsim: lab capture: --port %s:%s: not SWITCH:SLOT/PORT\n", name, num);
        return false;
    }
    if ((out[0] = lab_switch_find(lab, name)) < 0) {
        fprintf(err, "mdsim: lab capture: --port %s:%s: no such switch in the lab\n", name, num);
        return false;
    }
    if (!ge_exists(lab, out[0], slot, port)) {
        fprintf(err, "mdsim: lab capture: --port %s:%s: %s has no GigabitEthernet%d/%d\n", name, num, name, slot, port);
        return false;
    }
    out[1] = slot;
    out[2] = port;
    return true;
}

/* The ports, checked before anything starts: their count, or -1. */
static int parse_ports(struct lab *lab, const char *list, int ports[][3], FILE *err)
{
    int n = 0;
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (n == LABCAP_PORTS_MAX) {
            fprintf(err, "mdsim: lab capture: more than %d --port\n", LABCAP_PORTS_MAX);
            return -1;
        }
        if (!parse_port(lab, p, len, ports[n++], err))
            return -1;
        p += len + (end != NULL);
    }
    return n;
}

static int format_of(const char *format, const char *path, enum capture_format *fmt, FILE *err)
{
    size_t n = strlen(path);
    if (!format[0])
        *fmt = n >= 5 && strcmp(path + n - 5, ".pcap") == 0 ? CAPTURE_PCAP : CAPTURE_PCAPNG;
    else if (strcmp(format, "pcap") == 0 || strcmp(format, "pcapng") == 0)
        *fmt = format[4] ? CAPTURE_PCAPNG : CAPTURE_PCAP;
    else {
        fprintf(err, "mdsim: lab capture: --format %.16s: pcap or pcapng\n", format);
        return -1;
    }
    return 0;
}

/* A regular file only: the owner must never wait on a FIFO's reader (a
 * stream to follow is `-`); O_NONBLOCK so that opening one does not. */
static FILE *open_file(const char *path, char *buf, FILE *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
    struct stat st;
    if (fd < 0 && errno == ENXIO) { /* a FIFO nobody reads */
        fprintf(err, "mdsim: lab capture: %s is not a regular file (to follow a capture, stream it: `-`)\n", path);
        return NULL;
    }
    if (fd < 0) {
        fprintf(err, "mdsim: lab capture: cannot write %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(err, "mdsim: lab capture: %s is not a regular file (to follow a capture, stream it: `-`)\n", path);
        close(fd);
        return NULL;
    }
    FILE *f = ftruncate(fd, 0) == 0 && fcntl(fd, F_SETFL, 0) == 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        fprintf(err, "mdsim: lab capture: cannot write %s: %s\n", path, strerror(errno));
        close(fd);
        return NULL;
    }
    setvbuf(f, buf, _IOFBF, FILE_BUF); /* glibc takes a size only with a buffer */
    return f;
}

/* ---- start and stop ---- */

static void ocap_free(struct ocap *oc)
{
    if (oc->f)
        fclose(oc->f);
    free(oc->names);
    free(oc->ids);
    free(oc->q);
    free(oc->fbuf);
    pthread_mutex_destroy(&oc->mu);
    pthread_cond_destroy(&oc->cv);
    free(oc);
}

/* Ends the capture and frees the slot (the lab lock held, or the lab
 * closing); false when a write failed. A stream's queue keeps the last bytes. */
static bool finish(struct ocap *oc)
{
    lab_set_observer(oc->lab, LAB_OBS_CAPTURE, NULL, NULL);
    oc->frames = capture_frames(oc->cap);
    oc->dropped = capture_dropped(oc->cap);
    bool ok = capture_stop(oc->cap);
    oc->cap = NULL;
    reg_del(oc);
    return ok;
}

/* The lab closes under a file capture (its owner ends): written out. */
static void close_at_exit(void *p)
{
    struct ocap *oc = p;
    finish(oc);
    ocap_free(oc);
}

static struct ocap *ocap_new(struct lab *lab, const char *path)
{
    struct ocap *oc = calloc(1, sizeof *oc);
    int n = lab_switch_count(lab);
    if (!oc || !(oc->names = calloc((size_t)n + 1, sizeof *oc->names)) || !(oc->ids = calloc((size_t)n + 1, sizeof *oc->ids)))
        abort();
    oc->lab = lab;
    snprintf(oc->path, sizeof oc->path, "%s", path);
    pthread_mutex_init(&oc->mu, NULL);
    pthread_cond_init(&oc->cv, NULL);
    for (int i = 0; i < n; i++) {
        oc->names[i] = lab_switch_name(lab, i);
        oc->ids[i] = lab_switch_id(lab, i);
    }
    return oc;
}

/* The capture on the lab, into oc->f; the lab lock is held. */
static void tap(struct ocap *oc, enum capture_format fmt, int ports[][3], int nports)
{
    struct capture_switches sw = {lab_switch_count(oc->lab), oc->names, oc->ids};
    if (!(oc->cap = capture_start(lab_ipnet(oc->lab), oc->f, fmt, &sw)))
        abort();
    for (int i = 0; i < nports; i++)
        if (!capture_add_port(oc->cap, ports[i][0], ports[i][1], ports[i][2]))
            abort();
    if (is_stream(oc))
        capture_set_room(oc->cap, queue_room, oc);
    else
        capture_flush_each(oc->cap);
    reg_add(oc);
    lab_set_observer(oc->lab, LAB_OBS_CAPTURE, oc, is_stream(oc) ? NULL : close_at_exit);
}

static const char *lost(unsigned long dropped, char *buf, size_t n)
{
    if (dropped)
        snprintf(buf, n, "; %lu not captured: the reader fell behind", dropped);
    else
        buf[0] = '\0';
    return buf;
}

/* The client left, or sent the end of its input (its Ctrl-C). */
static bool client_left(int fd, char *buf)
{
    struct pollfd p = {fd, POLLIN, 0};
    size_t n;
    if (poll(&p, 1, 0) <= 0)
        return false;
    int type = wire_recv(fd, buf, &n, 0);
    return type < 0 || type == W_EOF;
}

/* Until the capture stops: the queue onto the socket. */
static int stream(struct ocap *oc, int fd, atomic_bool *stop, FILE *err)
{
    char *buf = malloc(WIRE_MAX + 1);
    if (!buf)
        abort();
    bool gone = false, end = false;
    while (!end) {
        pthread_mutex_lock(&oc->mu);
        if (oc->qlen < WIRE_MAX && !oc->ended) {
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            t.tv_nsec += STREAM_MS * 1000000L;
            t.tv_sec += t.tv_nsec / 1000000000;
            t.tv_nsec %= 1000000000;
            pthread_cond_timedwait(&oc->cv, &oc->mu, &t);
        }
        char *q = oc->q;
        size_t n = oc->qlen;
        oc->q = NULL;
        oc->qlen = oc->qcap = 0;
        end = oc->ended;
        pthread_mutex_unlock(&oc->mu);
        if (n && !gone)
            gone = wire_send(fd, W_OUT, q, n) != 0;
        free(q);
        if (!end && (gone || atomic_load(stop) || client_left(fd, buf))) {
            lab_lock(oc->lab);
            if (mine(oc->lab) == oc)
                finish(oc);
            pthread_mutex_lock(&oc->mu);
            oc->ended = true; /* the next turn sends what finish flushed */
            pthread_mutex_unlock(&oc->mu);
            lab_unlock(oc->lab);
        }
    }
    lab_lock(oc->lab); /* a `lab capture stop` that ended us is done with oc */
    lab_unlock(oc->lab);
    char more[96];
    fprintf(err, "mdsim: lab capture: %lu packets captured%s\n", oc->frames, lost(oc->dropped, more, sizeof more));
    free(buf);
    ocap_free(oc);
    return gone ? 1 : 0;
}

int labcap_start(struct lab *lab, const struct labcap_req *rq, int fd, atomic_bool *stop, FILE *out, FILE *err)
{
    static int ports[LABCAP_PORTS_MAX][3]; /* under the lab lock */
    enum capture_format fmt;
    if (!(rq->path[0] == '/' || strcmp(rq->path, "-") == 0)) {
        fprintf(err, "mdsim: lab capture start needs FILE (an absolute path) or -\n");
        return 2;
    }
    if (format_of(rq->format, rq->path, &fmt, err) != 0)
        return 2;
    lab_lock(lab);
    int nports = parse_ports(lab, rq->ports, ports, err);
    if (nports < 0) {
        lab_unlock(lab);
        return 1;
    }
    if (lab_observer(lab, LAB_OBS_CAPTURE)) {
        lab_unlock(lab);
        fprintf(err, "mdsim: lab capture: a capture is already running in this lab (`lab capture`, `replay --pcap`"
                     " or ethanalyzer: one at a time); `mdsim lab capture stop` ends one `lab capture` started\n");
        return 1;
    }
    struct ocap *oc = ocap_new(lab, rq->path);
    bool streamed = is_stream(oc);
    if (!streamed && !(oc->fbuf = malloc(FILE_BUF)))
        abort();
    oc->f = streamed ? fopencookie(oc, "w", (cookie_io_functions_t){.write = queue_write})
                     : open_file(rq->path, oc->fbuf, err);
    if (!oc->f) {
        lab_unlock(lab);
        ocap_free(oc);
        return 1;
    }
    if (streamed)
        setvbuf(oc->f, NULL, _IONBF, 0); /* each write into the queue: the room it checked is the room there is */
    tap(oc, fmt, ports, nports);
    lab_unlock(lab);
    if (streamed) {
        fprintf(err, "mdsim: lab capture: streaming (%s); Ctrl-C or `mdsim lab capture stop` ends it\n",
                fmt == CAPTURE_PCAP ? "pcap" : "pcapng");
        return stream(oc, fd, stop, err);
    }
    fprintf(out, "capturing into %s (%s); `mdsim lab capture stop` ends it\n", rq->path,
            fmt == CAPTURE_PCAP ? "pcap" : "pcapng");
    return 0;
}

int labcap_stop(struct lab *lab, FILE *out, FILE *err)
{
    lab_lock(lab);
    struct ocap *oc = mine(lab);
    if (!oc) {
        bool other = lab_observer(lab, LAB_OBS_CAPTURE) != NULL;
        lab_unlock(lab);
        fprintf(err, "mdsim: lab capture stop: %s\n",
                other ? "the capture running is ethanalyzer's or a replay's (--pcap), not `lab capture`'s:"
                        " it ends with them"
                      : "no capture is running in this lab");
        return 1;
    }
    bool ok = finish(oc);
    char more[96];
    lost(oc->dropped, more, sizeof more);
    if (is_stream(oc)) {
        fprintf(out, "%lu packets captured, streamed%s\n", oc->frames, more);
        pthread_mutex_lock(&oc->mu); /* the stream's thread frees oc after it takes the lab lock */
        oc->ended = true;
        pthread_cond_signal(&oc->cv);
        pthread_mutex_unlock(&oc->mu);
        lab_unlock(lab);
        return 0;
    }
    ok = fclose(oc->f) == 0 && ok;
    oc->f = NULL;
    if (ok)
        fprintf(out, "%lu packets captured into %s\n", oc->frames, oc->path);
    else
        fprintf(err, "mdsim: lab capture: cannot write %s: %s\n", oc->path, strerror(errno));
    ocap_free(oc);
    lab_unlock(lab);
    return ok ? 0 : 1;
}
