#include "login_log.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

/* The login log's windows (login_log.h): one of LOGIN_LOG_WINDOW_MS at a
 * time, opened by the first line after a quiet spell: per address, the
 * first lines of each kind are written and the rest counted; when the window is over, each address
 * with lines held back gets one summary line, and the counts start anew.
 * Addresses beyond the table's LOGIN_LOG_PEERS share one count, and no
 * more than LOGIN_LOG_LINES_TOTAL lines are written in a window in all:
 * an attack from many addresses is bounded as well as one from a few. */

/* Lines of a kind written per address and window: a connection is two
 * (50 sessions a minute are logged one by one), a wrong password one. */
static const unsigned log_allowed[LOGIN_LOG_KINDS] = {60, 60, 10, 10};
static const char *const log_kind_name[LOGIN_LOG_KINDS] = {"connections", "closed connections",
                                                           "failed logins", "refused logins or connections"};

struct log_peer {
    char peer[64];
    unsigned shown[LOGIN_LOG_KINDS];
    unsigned long held[LOGIN_LOG_KINDS]; /* not written */
};

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_out;
static struct log_peer log_peers[LOGIN_LOG_PEERS];
static struct log_peer log_others; /* addresses beyond the table */
static int log_npeers;
static unsigned log_lines;         /* written in this window */
static unsigned long log_held;     /* not written in this window, all addresses */
static bool log_open;
static uint64_t log_start_ms;

void login_log_to(FILE *f)
{
    pthread_mutex_lock(&log_mu);
    log_out = f;
    pthread_mutex_unlock(&log_mu);
}

static FILE *log_stream(void) { return log_out ? log_out : stderr; }

static void log_summary(const struct log_peer *p, const char *who)
{
    char line[256];
    size_t k = 0;
    for (int i = LOGIN_LOG_KINDS - 1; i >= 0; i--) /* the refusals first: the attack */
        if (p->held[i] && k < sizeof line)
            k += (size_t)snprintf(line + k, sizeof line - k, "%s%lu more %s", k ? ", " : "", p->held[i],
                                  log_kind_name[i]);
    if (k)
        fprintf(log_stream(), "mdsim serve: %s in the last minute from %s\n", line, who);
}

/* Called locked: a new window. */
static void log_clear(void)
{
    memset(log_peers, 0, sizeof log_peers);
    memset(&log_others, 0, sizeof log_others);
    log_npeers = 0;
    log_lines = 0;
    log_held = 0;
    log_open = false;
}

/* Called locked: ends the window once it is over, with its summaries. */
static void log_roll(uint64_t now_ms)
{
    if (!log_open || now_ms < log_start_ms + LOGIN_LOG_WINDOW_MS)
        return;
    for (int i = 0; log_held && i < log_npeers; i++)
        log_summary(&log_peers[i], log_peers[i].peer);
    if (log_held)
        log_summary(&log_others, "other addresses");
    fflush(log_stream());
    log_clear();
}

static struct log_peer *log_peer(const char *peer)
{
    for (int i = 0; i < log_npeers; i++)
        if (strcmp(log_peers[i].peer, peer) == 0)
            return &log_peers[i];
    if (log_npeers == LOGIN_LOG_PEERS)
        return &log_others;
    struct log_peer *p = &log_peers[log_npeers++];
    snprintf(p->peer, sizeof p->peer, "%s", peer);
    return p;
}

void login_log(enum login_log_kind kind, const char *peer, uint64_t now_ms, const char *fmt, ...)
{
    pthread_mutex_lock(&log_mu);
    log_roll(now_ms);
    if (!log_open) {
        log_open = true;
        log_start_ms = now_ms;
    }
    struct log_peer *p = log_peer(peer);
    if (p != &log_others && p->shown[kind] < log_allowed[kind] && log_lines < LOGIN_LOG_LINES_TOTAL) {
        p->shown[kind]++;
        log_lines++;
        va_list ap;
        va_start(ap, fmt);
        fputs("mdsim serve: ", log_stream());
        vfprintf(log_stream(), fmt, ap);
        fputc('\n', log_stream());
        va_end(ap);
    } else {
        p->held[kind]++;
        log_held++;
    }
    pthread_mutex_unlock(&log_mu);
}

long login_log_tick(uint64_t now_ms)
{
    pthread_mutex_lock(&log_mu);
    log_roll(now_ms);
    long left = log_open ? (long)(log_start_ms + LOGIN_LOG_WINDOW_MS - now_ms) : -1;
    pthread_mutex_unlock(&log_mu);
    return left;
}

void login_log_reset(void)
{
    pthread_mutex_lock(&log_mu);
    log_clear();
    pthread_mutex_unlock(&log_mu);
}
