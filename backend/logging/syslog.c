/*
 * The system log's moving parts (docs/logging.md). syslog_emit is called
 * under the lab lock from anywhere: a command's handler inside a savepoint
 * that may yet be rolled back, an engine callback on the clock thread, a
 * replay inside its batch. So it writes nothing to the store: it puts the
 * message in a queue in memory, which logging_flush writes once no
 * command's savepoint is open (lab_unlock runs it). A message of a command
 * that fails is therefore still logged, as on a switch, and emitting
 * costs no SQL write. Messages for the terminals go to a small ring with
 * its own mutex, which terminals read without the lab lock.
 */
#include "logging.h"
#include "feature.h"
#include "lab/lab.h"
#include "lab/sessions.h"
#include "session.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    QUEUE_MAX = LOG_KEEP_MAX, /* older ones would leave the logfile anyway */
    RING_SIZE = 128,          /* lines a terminal can fall behind by */
    DEST_CONSOLE = 1,
    DEST_MONITOR = 2,
};

struct ring_entry {
    int sw;
    unsigned dest;
    char *line; /* "...: text\n" */
};

struct logging_state {
    struct log_msg *queue; /* to the store: a circle of QUEUE_MAX, oldest at first */
    int first, queued;
    pthread_mutex_t ring_lock;
    struct ring_entry ring[RING_SIZE]; /* message number k at k % RING_SIZE */
    _Atomic uint64_t ring_last;        /* the newest message's number; 0: none yet */
    const struct session **monitors;   /* sessions with `terminal monitor` (lab lock) */
    int nmonitors, monitors_cap;
};

/* The engine state is made when a lab opens, before any session: the
 * session layer learns then where to report a configuration session's
 * end (it includes nothing from backend/). */
void *logging_engine_new(struct lab *lab)
{
    (void)lab;
    session_on_config_exit(logging_config_exit);
    struct logging_state *st = calloc(1, sizeof *st);
    if (!st)
        abort();
    pthread_mutex_init(&st->ring_lock, NULL);
    return st;
}

void logging_engine_free(void *state)
{
    struct logging_state *st = state;
    if (!st)
        return;
    for (int i = 0; i < RING_SIZE; i++)
        free(st->ring[i].line);
    pthread_mutex_destroy(&st->ring_lock);
    free(st->queue);
    free(st->monitors);
    free(st);
}

static struct logging_state *state_of(struct lab *lab)
{
    return lab_feature_state(lab, &logging_feature);
}

/* ---- the queue to the store ---- */

/* Made on the first message: an idle lab's log costs no memory. */
static void queue_push(struct logging_state *st, const struct log_msg *m)
{
    if (!st->queue && !(st->queue = malloc(sizeof *st->queue * QUEUE_MAX)))
        abort();
    if (st->queued == QUEUE_MAX) { /* the oldest would be trimmed from the logfile anyway */
        st->first = (st->first + 1) % QUEUE_MAX;
        st->queued--;
    }
    st->queue[(st->first + st->queued++) % QUEUE_MAX] = *m;
}

static struct log_msg *queued_at(struct logging_state *st, int i) { return &st->queue[(st->first + i) % QUEUE_MAX]; }

/* A store that refuses the writes (a full disk) loses these messages and
 * nothing else: no command fails for it, and the next one starts afresh
 * (lab_txn_begin clears the store error). */
void logging_flush(struct lab *lab, void *state)
{
    struct logging_state *st = state;
    if (!st->queued)
        return;
    bool in_batch = logging_store_begin(lab), ok = true;
    for (int i = 0; i < st->queued && ok; i++)
        ok = logging_store_append(lab, queued_at(st, i), in_batch);
    logging_store_end(lab, in_batch, ok);
    st->queued = st->first = 0;
}

void logging_flush_queue(struct lab *lab)
{
    struct logging_state *st = state_of(lab);
    if (st)
        logging_flush(lab, st);
}

void logging_forget_queued(struct lab *lab, int sw)
{
    struct logging_state *st = state_of(lab);
    int n = 0;
    for (int i = 0; st && i < st->queued; i++)
        if (queued_at(st, i)->sw != sw)
            *queued_at(st, n++) = *queued_at(st, i);
    if (st)
        st->queued = n;
}

/* ---- the ring to the terminals ---- */

static void ring_push(struct logging_state *st, const struct log_msg *m, unsigned dest)
{
    char line[LOG_LINE_MAX];
    logging_format_line(line, sizeof line - 1, m);
    strcat(line, "\n");
    char *copy = strdup(line);
    if (!copy)
        abort();
    pthread_mutex_lock(&st->ring_lock);
    uint64_t k = atomic_load(&st->ring_last) + 1;
    struct ring_entry *e = &st->ring[k % RING_SIZE];
    free(e->line);
    *e = (struct ring_entry){m->sw, dest, copy};
    atomic_store(&st->ring_last, k);
    pthread_mutex_unlock(&st->ring_lock);
}

uint64_t syslog_ring_tail(struct lab *lab)
{
    struct logging_state *st = state_of(lab);
    return st ? atomic_load(&st->ring_last) : 0;
}

size_t syslog_ring_take(struct lab *lab, int sw, bool console, bool monitor, uint64_t *seen, char *buf,
                        size_t cap)
{
    struct logging_state *st = state_of(lab);
    size_t len = 0;
    buf[0] = '\0';
    if (!st || atomic_load(&st->ring_last) == *seen)
        return 0;
    unsigned want = console ? DEST_CONSOLE : monitor ? DEST_MONITOR : 0;
    pthread_mutex_lock(&st->ring_lock);
    uint64_t last = atomic_load(&st->ring_last), k = *seen + 1;
    if (last < *seen) /* a new engine (a fuzz input's): from its next message on */
        k = last + 1;
    else if (last - *seen > RING_SIZE) /* fell behind: the ring's oldest are gone */
        k = last - RING_SIZE + 1;
    for (; k <= last; k++) {
        const struct ring_entry *e = &st->ring[k % RING_SIZE];
        size_t n = strlen(e->line);
        if (e->sw != sw || !(e->dest & want))
            continue;
        if (len + n >= cap)
            break;
        memcpy(buf + len, e->line, n + 1);
        len += n;
    }
    *seen = k - 1;
    pthread_mutex_unlock(&st->ring_lock);
    return len;
}

/* ---- terminal monitor ---- */

static int monitor_index(const struct logging_state *st, const struct session *s)
{
    for (int i = 0; i < st->nmonitors; i++)
        if (st->monitors[i] == s)
            return i;
    return -1;
}

/* Only a session with a terminal of its own (in `show users`) can be
 * shown anything; it says when it ends (syslog_session_end), so no entry
 * outlives its session. A replay's `terminal monitor` is a no-op. */
void logging_monitor_set(struct lab *lab, const struct session *s, bool on)
{
    struct logging_state *st = state_of(lab);
    int i = st ? monitor_index(st, s) : -1;
    if (!st || (on && (i >= 0 || !labsess_of(lab, s))))
        return;
    if (!on) {
        if (i >= 0)
            st->monitors[i] = st->monitors[--st->nmonitors];
        return;
    }
    if (st->nmonitors == st->monitors_cap) {
        st->monitors_cap = st->monitors_cap ? st->monitors_cap * 2 : 4;
        if (!(st->monitors = realloc(st->monitors, sizeof *st->monitors * (size_t)st->monitors_cap)))
            abort();
    }
    st->monitors[st->nmonitors++] = s;
}

bool syslog_monitor_on(struct lab *lab, const struct session *s)
{
    struct logging_state *st = state_of(lab);
    return st && monitor_index(st, s) >= 0;
}

void syslog_session_end(struct lab *lab, const struct session *s) { logging_monitor_set(lab, s, false); }

/* ---- emit ---- */

/* Stored and shown text stays one line: a control character (from an
 * interface description, say) would reach every terminal that monitors.
 * A text cut short loses its last character if that was cut in two. */
static void clean_copy(char *to, size_t n, const char *from)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)from; *p && k + 1 < n; p++)
        to[k++] = *p < 0x20 || *p == 0x7f ? ' ' : (char)*p;
    size_t start = k;
    while (start > 0 && ((unsigned char)to[start - 1] & 0xc0) == 0x80)
        start--;
    if (start > 0) {
        unsigned char lead = (unsigned char)to[start - 1];
        size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if (k - (start - 1) < need)
            k = start - 1;
    }
    to[k] = '\0';
}

/* The words of the "%FAC-S-MNEMONIC" tag: never empty, no spaces. */
static void clean_word(char *to, size_t n, const char *from)
{
    clean_copy(to, n, from && *from ? from : "?");
    for (char *p = to; *p; p++)
        if (*p == ' ')
            *p = '_';
}

static int keep_of(long size)
{
    long keep = size / LOG_BYTES_PER_MSG;
    return keep < LOG_KEEP_MAX ? (int)keep : LOG_KEEP_MAX;
}

void syslog_emit(struct lab *lab, int sw, const char *facility, enum syslog_sev sev, const char *mnemonic,
                 int vsan, const char *fmt, ...)
{
    struct logging_state *st = state_of(lab);
    if (!st || sw < 0 || sw >= lab_switch_count(lab) || (int)sev < SEV_EMERG || sev > SEV_DEBUG)
        return;
    struct logging_settings set;
    logging_settings_get(lab, sw, &set);
    unsigned dest = ((int)sev <= set.console ? DEST_CONSOLE : 0) | ((int)sev <= set.monitor ? DEST_MONITOR : 0);
    bool to_file = (int)sev <= set.logfile;
    if (!dest && !to_file)
        return;
    struct log_msg m = {.sw = sw, .sev = (int)sev, .vsan = vsan > 0 && vsan <= 4094 ? vsan : 0};
    m.keep = keep_of(set.size);
    m.lab_ns = lab_now(lab);
    m.time_s = lab_time(lab, sw, NULL);
    clean_word(m.facility, sizeof m.facility, facility);
    clean_word(m.mnemonic, sizeof m.mnemonic, mnemonic);
    snprintf(m.hostname, sizeof m.hostname, "%s", lab_hostname(lab, sw));
    char text[LOG_TEXT_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    clean_copy(m.text, sizeof m.text, text);
    if (to_file)
        queue_push(st, &m);
    if (dest)
        ring_push(st, &m, dest);
}
