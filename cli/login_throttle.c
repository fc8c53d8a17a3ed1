/*
 * Login limits of `serve`. A delay per connection slows nobody who opens
 * a hundred of them, so failures are counted per peer address and per
 * user name, across connections, in one bounded table: each counter keeps
 * the earliest time its next attempt may be checked, and an attempt takes
 * its turn (pushes that time on), so parallel connections are spaced as
 * one would be. Process-wide, under one mutex; a restart forgets it all.
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

/* At most LOGIN_PREAUTH_TOTAL tickets are out, so as many peers. */
static struct {
    char peer[64];
    int n;
} waiting[LOGIN_PREAUTH_TOTAL];
static int waiting_total;

static int waiting_find(const char *peer)
{
    int free_slot = -1;
    for (int i = 0; i < LOGIN_PREAUTH_TOTAL; i++) {
        if (waiting[i].n && strcmp(waiting[i].peer, peer) == 0)
            return i;
        if (!waiting[i].n && free_slot < 0)
            free_slot = i;
    }
    return free_slot;
}

bool login_ticket_take(struct login_ticket *t, const char *peer)
{
    snprintf(t->peer, sizeof t->peer, "%s", peer);
    pthread_mutex_lock(&mu);
    int i = waiting_total < LOGIN_PREAUTH_TOTAL ? waiting_find(t->peer) : -1;
    t->held = i >= 0 && waiting[i].n < LOGIN_PREAUTH_PER_PEER;
    if (t->held) {
        if (!waiting[i].n)
            snprintf(waiting[i].peer, sizeof waiting[i].peer, "%s", t->peer);
        waiting[i].n++;
        waiting_total++;
    }
    pthread_mutex_unlock(&mu);
    return t->held;
}

void login_ticket_drop(struct login_ticket *t)
{
    if (!t || !t->held)
        return;
    pthread_mutex_lock(&mu);
    int i = waiting_find(t->peer);
    if (i >= 0 && waiting[i].n) {
        waiting[i].n--;
        waiting_total--;
    }
    pthread_mutex_unlock(&mu);
    t->held = false;
}

/* ---- failure counters ---- */

struct counter {
    bool peer;          /* an address, else a user name on switch sw */
    int sw;
    char key[64];
    unsigned fails;     /* 0: the slot is free */
    uint64_t next_ms;   /* no attempt on this key is checked before */
    uint64_t last_ms;   /* the last failure */
};

static struct counter counters[LOGIN_SLOTS];

static bool same_key(const struct counter *c, bool peer, int sw, const char *key)
{
    return c->fails && c->peer == peer && (peer || c->sw == sw) && strcmp(c->key, key) == 0;
}

static bool expired(const struct counter *c, uint64_t now_ms)
{
    /* last_ms may be ahead of now: an attempt counted at its turn */
    return c->fails && now_ms > c->last_ms && now_ms - c->last_ms >= (uint64_t)LOGIN_FORGET_SECONDS * 1000;
}

static struct counter *find(bool peer, int sw, const char *key, uint64_t now_ms)
{
    for (int i = 0; i < LOGIN_SLOTS; i++)
        if (same_key(&counters[i], peer, sw, key)) {
            if (expired(&counters[i], now_ms))
                counters[i].fails = 0;
            return counters[i].fails ? &counters[i] : NULL;
        }
    return NULL;
}

/* A slot for a new counter: a free or expired one, else the least failed
 * (the oldest among equals), so that a flood of made-up names does not
 * push out the counter of a name under attack. */
static struct counter *make(bool peer, int sw, const char *key, uint64_t now_ms)
{
    struct counter *victim = &counters[0];
    for (int i = 0; i < LOGIN_SLOTS; i++) {
        struct counter *c = &counters[i];
        if (!c->fails || expired(c, now_ms)) {
            victim = c;
            break;
        }
        if (c->fails < victim->fails || (c->fails == victim->fails && c->last_ms < victim->last_ms))
            victim = c;
    }
    *victim = (struct counter){.peer = peer, .sw = sw};
    snprintf(victim->key, sizeof victim->key, "%s", key);
    return victim;
}

/* The wait a counter imposes after its failures. */
static uint64_t delay_ms(const struct counter *c)
{
    unsigned free_fails = c->peer ? LOGIN_PEER_FREE_FAILS : 0;
    if (c->fails <= free_fails)
        return 0;
    unsigned k = c->fails - free_fails - 1;
    if (k >= 16)
        return LOGIN_DELAY_MAX_MS;
    uint64_t d = (uint64_t)LOGIN_DELAY_BASE_MS << k;
    return d < LOGIN_DELAY_MAX_MS ? d : LOGIN_DELAY_MAX_MS;
}

/* Overlong names share one counter: they cannot be users anyway. */
static const char *user_key(const char *user) { return strlen(user) <= USER_NAME_MAX ? user : "?"; }

static void count_failure(struct counter *c, uint64_t now_ms)
{
    c->fails++;
    c->last_ms = now_ms;
    if (c->next_ms < now_ms + delay_ms(c))
        c->next_ms = now_ms + delay_ms(c);
}

long login_admit(const char *peer, int sw, const char *user, uint64_t now_ms, uint64_t deadline_ms,
                 unsigned *counted)
{
    pthread_mutex_lock(&mu);
    struct counter *c[2] = {find(true, 0, peer, now_ms), find(false, sw, user_key(user), now_ms)};
    uint64_t turn = now_ms;
    for (int i = 0; i < 2; i++)
        if (c[i] && c[i]->next_ms > turn)
            turn = c[i]->next_ms;
    long wait = turn > deadline_ms ? -1 : (long)(turn - now_ms);
    *counted = 0;
    /* On a key that is failing already, the attempt counts as one more
     * failure from its turn on (a success clears it): the next attempt,
     * maybe on another connection, comes after the doubled delay. */
    for (int i = 0; wait >= 0 && i < 2; i++)
        if (c[i] && delay_ms(c[i])) {
            count_failure(c[i], turn);
            *counted |= 1u << i;
        }
    pthread_mutex_unlock(&mu);
    return wait;
}

unsigned login_record(const char *peer, int sw, const char *user, bool ok, unsigned counted, uint64_t now_ms)
{
    uint64_t d = 0;
    pthread_mutex_lock(&mu);
    struct counter *c[2] = {find(true, 0, peer, now_ms), find(false, sw, user_key(user), now_ms)};
    for (int i = 0; i < 2; i++) {
        if (ok) {
            /* the address too: a classroom behind one NAT address must not
             * stay slowed by a few typos; each name keeps its own counter */
            if (c[i])
                c[i]->fails = 0;
            continue;
        }
        if (!c[i])
            c[i] = i == 0 ? make(true, 0, peer, now_ms) : make(false, sw, user_key(user), now_ms);
        if (!(counted & 1u << i))
            count_failure(c[i], now_ms);
        if (delay_ms(c[i]) > d)
            d = delay_ms(c[i]);
    }
    pthread_mutex_unlock(&mu);
    return (unsigned)d;
}

void login_throttle_reset(void)
{
    pthread_mutex_lock(&mu);
    memset(counters, 0, sizeof counters);
    memset(waiting, 0, sizeof waiting);
    waiting_total = 0;
    pthread_mutex_unlock(&mu);
}

/* ---- one attempt ---- */

static uint64_t now_ms(void) { return wall_ns() / 1000000u; }

static bool stopping(const struct term_opts *o) { return o->stop && atomic_load(o->stop); }

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
        fprintf(stderr, "mdsim serve: %s login as '%s' from %s refused: too many failures\n", o->kind, shown,
                o->from);
        return false;
    }
    sleep_until(o, now_ms() + (uint64_t)wait);
    if (stopping(o))
        return false; /* counted or not, no matter: the server ends */
    bool ok = user_login(o->lab, o->sw, user, password, role);
    unsigned delay = login_record(o->from, o->sw, user, ok, counted, now_ms());
    if (ok) {
        login_ticket_drop(o->ticket);
        return true;
    }
    fprintf(stderr, "mdsim serve: failed %s login as '%s' from %s\n", o->kind, shown, o->from);
    uint64_t until = now_ms() + delay;
    sleep_until(o, until < deadline_ms ? until : deadline_ms);
    return false;
}
