/*
 * Login limits of `serve`. A delay per connection slows nobody who opens
 * a hundred of them, so failures are counted across connections, per
 * address, per user name from an address, and per user name, in one
 * bounded table: each counter keeps the earliest time its next attempt
 * may be checked, and an attempt takes its turn (pushes that time on), so
 * parallel connections are spaced as one would be. The name's own counter
 * is a ceiling for addresses that are failing already: an attacker
 * guessing admin from elsewhere does not slow admin's owner at a clean
 * address. Connections waiting to log in are bounded too, and cost their
 * owner: when all places are taken, the address holding the most loses
 * its oldest. The log lines of all this are rate-limited per address
 * (login_log.c). Process-wide, under one mutex; a restart forgets it
 * all. docs/login-throttle.md says why these numbers.
 */
#include "login_throttle.h"
#include "telnet.h"
#include "user/user.h"
#include "wall.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* ---- connections waiting to log in ---- */

/* The tickets out, in no order; at most LOGIN_PREAUTH_TOTAL. */
static struct login_ticket *holders[LOGIN_PREAUTH_TOTAL];
static int nholders;
static uint64_t ticket_seq;

static int holders_of(const char *peer)
{
    int n = 0;
    for (int i = 0; i < nholders; i++)
        n += strcmp(holders[i]->peer, peer) == 0;
    return n;
}

static void holder_remove(int i)
{
    holders[i]->held = false;
    holders[i] = holders[--nholders];
}

/* The place to give up when all are taken: the oldest ticket of the
 * address holding the most (of those, the one waiting longest), so that
 * whoever opens idle connections by the dozen loses its own. 128 x 128
 * comparisons at most, at accept, only when all places are taken. */
static int holder_victim(void)
{
    int victim = 0, most = 0;
    for (int i = 0; i < nholders; i++) {
        int n = holders_of(holders[i]->peer);
        if (n > most || (n == most && holders[i]->seq < holders[victim]->seq)) {
            victim = i;
            most = n;
        }
    }
    return victim;
}

/* Called locked; the victim's address goes to out, for the log. */
static void evict_one(char *out, size_t n)
{
    int i = holder_victim();
    struct login_ticket *v = holders[i];
    snprintf(out, n, "%s", v->peer);
    holder_remove(i);
    atomic_store(&v->evicted, true);
    if (v->evict)
        v->evict(v->ctx);
}

bool login_ticket_take(struct login_ticket *t, const char *peer)
{
    char victim[sizeof t->peer] = "";
    snprintf(t->peer, sizeof t->peer, "%s", peer);
    atomic_store(&t->evicted, false);
    pthread_mutex_lock(&mu);
    bool ok = holders_of(t->peer) < LOGIN_PREAUTH_PER_PEER;
    if (ok && nholders >= LOGIN_PREAUTH_TOTAL)
        evict_one(victim, sizeof victim);
    if (ok) {
        t->held = true;
        t->seq = ++ticket_seq;
        holders[nholders++] = t;
    } else {
        t->held = false;
    }
    pthread_mutex_unlock(&mu);
    if (victim[0])
        login_log(LOGIN_LOG_REFUSED, victim, wall_ns() / 1000000u,
                  "closing a connection from %s waiting to log in: all places taken when %s came", victim,
                  t->peer);
    return ok;
}

void login_ticket_drop(struct login_ticket *t)
{
    if (!t)
        return;
    /* locked even to look: an eviction may be clearing held right now */
    pthread_mutex_lock(&mu);
    for (int i = 0; t->held && i < nholders; i++)
        if (holders[i] == t)
            holder_remove(i);
    t->held = false;
    pthread_mutex_unlock(&mu);
}

bool login_ticket_evicted(const struct login_ticket *t) { return t && atomic_load(&t->evicted); }

/* ---- failure counters ---- */

enum { K_PEER, K_PAIR, K_USER, K_N }; /* an address; a name from it; a name */

struct counter {
    unsigned char kind;
    int sw;
    char user[USER_NAME_MAX + 1];
    char peer[64];
    unsigned fails;     /* 0: the slot is free */
    uint64_t next_ms;   /* no attempt on this key is checked before */
    uint64_t last_ms;   /* the last failure */
};

/* What an attempt is counted against; user "" for an address's own. */
struct key {
    int kind, sw;
    const char *user, *peer;
};

static struct counter counters[LOGIN_SLOTS];

static bool same_key(const struct counter *c, const struct key *k)
{
    if (!c->fails || c->kind != k->kind)
        return false;
    if (k->kind != K_USER && strcmp(c->peer, k->peer) != 0)
        return false;
    return k->kind == K_PEER || (c->sw == k->sw && strcmp(c->user, k->user) == 0);
}

static bool expired(const struct counter *c, uint64_t now_ms)
{
    /* last_ms may be ahead of now: an attempt counted at its turn */
    return c->fails && now_ms > c->last_ms && now_ms - c->last_ms >= (uint64_t)LOGIN_FORGET_SECONDS * 1000;
}

static struct counter *find(const struct key *k, uint64_t now_ms)
{
    for (int i = 0; i < LOGIN_SLOTS; i++)
        if (same_key(&counters[i], k)) {
            if (expired(&counters[i], now_ms))
                counters[i].fails = 0;
            return counters[i].fails ? &counters[i] : NULL;
        }
    return NULL;
}

/* A slot for a new counter: a free or expired one, else the least failed
 * (the oldest among equals), so that a flood of made-up names does not
 * push out the counter of a name under attack; never one of keep. */
static struct counter *make(const struct key *k, uint64_t now_ms, struct counter *const keep[K_N])
{
    struct counter *victim = NULL;
    for (int i = 0; i < LOGIN_SLOTS; i++) {
        struct counter *c = &counters[i];
        if (c == keep[0] || c == keep[1] || c == keep[2])
            continue; /* the attempt's other counters, just made maybe */
        if (!c->fails || expired(c, now_ms)) {
            victim = c;
            break;
        }
        if (!victim || c->fails < victim->fails || (c->fails == victim->fails && c->last_ms < victim->last_ms))
            victim = c;
    }
    *victim = (struct counter){.kind = (unsigned char)k->kind, .sw = k->sw};
    snprintf(victim->user, sizeof victim->user, "%s", k->user);
    snprintf(victim->peer, sizeof victim->peer, "%s", k->peer);
    return victim;
}

/* Failures a counter lets through before its delays start: an address
 * may mistype a few names; a name from one address gets none; the name
 * everywhere gets a few before its ceiling. */
static const unsigned free_fails[K_N] = {LOGIN_PEER_FREE_FAILS, 0, LOGIN_USER_FREE_FAILS};

/* The wait a counter imposes after its failures. */
static uint64_t delay_ms(const struct counter *c)
{
    unsigned allowed = free_fails[c->kind];
    if (c->fails <= allowed)
        return 0;
    unsigned k = c->fails - allowed - 1;
    if (k >= 16)
        return LOGIN_DELAY_MAX_MS;
    uint64_t d = (uint64_t)LOGIN_DELAY_BASE_MS << k;
    return d < LOGIN_DELAY_MAX_MS ? d : LOGIN_DELAY_MAX_MS;
}

/* Overlong names share one counter: they cannot be users anyway. */
static const char *user_key(const char *user) { return strlen(user) <= USER_NAME_MAX ? user : "?"; }

static void keys_of(struct key k[K_N], const char *peer, int sw, const char *user)
{
    const char *u = user_key(user);
    k[K_PEER] = (struct key){K_PEER, 0, "", peer};
    k[K_PAIR] = (struct key){K_PAIR, sw, u, peer};
    k[K_USER] = (struct key){K_USER, sw, u, ""};
}

/* An address with no failure on this name and not slowed itself is not
 * held to the name's ceiling: whoever attacks the name elsewhere, its
 * owner at a clean address gets a chance. */
static bool is_fresh(struct counter *const c[K_N])
{
    return !c[K_PAIR] && !(c[K_PEER] && delay_ms(c[K_PEER]));
}

static void count_failure(struct counter *c, uint64_t now_ms)
{
    c->fails++;
    c->last_ms = now_ms;
    if (c->next_ms < now_ms + delay_ms(c))
        c->next_ms = now_ms + delay_ms(c);
}

static void find_all(struct counter *c[K_N], const struct key k[K_N], uint64_t now_ms)
{
    for (int i = 0; i < K_N; i++)
        c[i] = find(&k[i], now_ms);
}

long login_admit(const char *peer, int sw, const char *user, uint64_t now_ms, uint64_t deadline_ms,
                 unsigned *counted)
{
    struct key k[K_N];
    struct counter *c[K_N];
    keys_of(k, peer, sw, user);
    pthread_mutex_lock(&mu);
    find_all(c, k, now_ms);
    if (is_fresh(c))
        c[K_USER] = NULL; /* its failure still counts there, in login_record */
    uint64_t turn = now_ms;
    for (int i = 0; i < K_N; i++)
        if (c[i] && c[i]->next_ms > turn)
            turn = c[i]->next_ms;
    long wait = turn > deadline_ms ? -1 : (long)(turn - now_ms);
    *counted = 0;
    /* On a key that is failing already, the attempt counts as one more
     * failure from its turn on (a success clears it): the next attempt,
     * maybe on another connection, comes after the doubled delay. */
    for (int i = 0; wait >= 0 && i < K_N; i++)
        if (c[i] && delay_ms(c[i])) {
            count_failure(c[i], turn);
            *counted |= 1u << i;
        }
    pthread_mutex_unlock(&mu);
    return wait;
}

/* A failure: every counter has it; the answer waits for the delays that
 * apply to this address (the name's ceiling not, for a fresh one). */
static uint64_t record_failure(struct counter *c[K_N], const struct key k[K_N], unsigned counted,
                               uint64_t now_ms)
{
    bool fresh = is_fresh(c);
    uint64_t d = 0;
    for (int i = 0; i < K_N; i++) {
        if (!c[i])
            c[i] = make(&k[i], now_ms, c);
        if (!(counted & 1u << i))
            count_failure(c[i], now_ms);
        if ((i != K_USER || !fresh) && delay_ms(c[i]) > d)
            d = delay_ms(c[i]);
    }
    return d;
}

unsigned login_record(const char *peer, int sw, const char *user, bool ok, unsigned counted, uint64_t now_ms)
{
    struct key k[K_N];
    struct counter *c[K_N];
    uint64_t d = 0;
    keys_of(k, peer, sw, user);
    pthread_mutex_lock(&mu);
    find_all(c, k, now_ms);
    if (!ok) {
        d = record_failure(c, k, counted, now_ms);
    } else {
        /* the address too: a classroom behind one NAT address must not
         * stay slowed by a few typos. Not the name's ceiling: that one
         * counts every address, and an attack goes on after the owner
         * logged in. */
        for (int i = 0; i < K_N; i++)
            if (c[i] && i != K_USER)
                c[i]->fails = 0;
        if (c[K_USER] && (counted & 1u << K_USER))
            c[K_USER]->fails--; /* counted at its turn, but it was no failure */
    }
    pthread_mutex_unlock(&mu);
    return (unsigned)d;
}

/* ---- one attempt ---- */

static uint64_t now_ms(void) { return wall_ns() / 1000000u; }

/* The server stops, or this connection lost its place: stop waiting. */
static bool stopping(const struct term_opts *o)
{
    return (o->stop && atomic_load(o->stop)) || login_ticket_evicted(o->ticket);
}

/* Sleeps until the monotonic time `until`, in slices so a stop is seen. */
static void sleep_until(const struct term_opts *o, uint64_t until)
{
    for (uint64_t t = now_ms(); t < until && !stopping(o); t = now_ms())
        wall_sleep((until - t < 100 ? until - t : 100) * 1000000u);
}

/* A user name from the wire, fit for one log line. */
static void printable(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        out[k++] = *s >= ' ' && *s < 127 ? *s : '?';
    out[k] = '\0';
}

bool login_attempt(const struct term_opts *o, const char *user, const char *password, enum role *role,
                   uint64_t deadline_ms, bool *refused)
{
    char shown[USER_NAME_MAX + 8];
    printable(user, shown, sizeof shown);
    unsigned counted;
    long wait = login_admit(o->from, o->sw, user, now_ms(), deadline_ms, &counted);
    *refused = wait < 0;
    if (wait < 0) {
        login_log(LOGIN_LOG_REFUSED, o->from, now_ms(), "%s login as '%s' from %s refused: too many failures",
                  o->kind, shown, o->from);
        return false;
    }
    sleep_until(o, now_ms() + (uint64_t)wait);
    if (stopping(o))
        return false; /* counted or not, no matter: the server ends, or this connection */
    bool ok = user_login(o->lab, o->sw, user, password, role);
    unsigned delay = login_record(o->from, o->sw, user, ok, counted, now_ms());
    if (ok) {
        login_ticket_drop(o->ticket);
        return true;
    }
    login_log(LOGIN_LOG_FAILED, o->from, now_ms(), "failed %s login as '%s' from %s", o->kind, shown, o->from);
    uint64_t until = now_ms() + delay;
    sleep_until(o, until < deadline_ms ? until : deadline_ms);
    return false;
}

void login_throttle_reset(void)
{
    pthread_mutex_lock(&mu);
    memset(counters, 0, sizeof counters);
    for (int i = 0; i < nholders; i++)
        holders[i]->held = false;
    nholders = 0;
    pthread_mutex_unlock(&mu);
    login_log_reset();
}
