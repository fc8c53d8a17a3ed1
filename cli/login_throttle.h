/*
 * Who may try to log in to `serve`, and when: the time to log in, the
 * connections waiting to log in (per peer address and in all; when all
 * places are taken, the address holding the most gives one up), the delay
 * of failed logins (per address, per user name and address, and a ceiling
 * per user name that leaves addresses with no failures alone), and the log
 * lines of all this, rate-limited per address. The same for telnet and
 * SSH. docs/login-throttle.md has the numbers and why.
 */
#ifndef MDSIM_LOGIN_THROTTLE_H
#define MDSIM_LOGIN_THROTTLE_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "session.h"
#include "login_log.h"

enum {
    LOGIN_SECONDS = 30,           /* from connect to logged in, telnet and SSH */
    LOGIN_PREAUTH_PER_PEER = 64,  /* connections not logged in yet, per address */
    LOGIN_PREAUTH_TOTAL = 128,    /* and in all, out of the server's 256 */
    LOGIN_PEER_FREE_FAILS = 5,    /* failures from an address before it is slowed */
    LOGIN_USER_FREE_FAILS = 10,   /* failures on a name, all addresses, before its ceiling */
    LOGIN_DELAY_BASE_MS = 1000,   /* the first delay; it doubles with each failure */
    LOGIN_DELAY_MAX_MS = 16000,
    LOGIN_FORGET_SECONDS = 900,   /* a counter is forgotten this long after its last failure */
    LOGIN_SLOTS = 1024,           /* counters kept; when full the least failed goes */
};

/* A connection's place among those waiting to log in. The owner sets
 * evict (and ctx) before taking it: called, under the throttle's lock,
 * when the place is taken away for a newcomer; it must only wake the
 * connection (shutdown(2)), which then finds login_ticket_evicted(). */
struct login_ticket {
    char peer[64];
    bool held;          /* guarded by the throttle's lock */
    uint64_t seq;       /* order of taking: the lowest is the oldest */
    atomic_bool evicted;
    void (*evict)(void *ctx);
    void *ctx;
};

/* At accept: false when the peer has too many connections waiting to log
 * in (refuse this one). When the server has too many, the oldest waiting
 * connection of the address that holds the most is evicted for this one. */
bool login_ticket_take(struct login_ticket *t, const char *peer);
/* At login, and when the connection ends; a second call does nothing. */
void login_ticket_drop(struct login_ticket *t);
/* The place was taken away: the connection should end. NULL: false. */
bool login_ticket_evicted(const struct login_ticket *t);

/* Before a password is checked: the milliseconds to wait first, or -1
 * when that wait would end after deadline_ms (refuse unchecked). The
 * attempt takes its turn, so that parallel connections are spaced too;
 * *counted says which counters already count it as failed. */
long login_admit(const char *peer, int sw, const char *user, uint64_t now_ms, uint64_t deadline_ms,
                 unsigned *counted);
/* After the check: a failure counts against the address, the name from
 * that address and the name, and returns how long to wait before
 * answering; a success clears the address's and the name's from it. */
unsigned login_record(const char *peer, int sw, const char *user, bool ok, unsigned counted, uint64_t now_ms);
/* Forgets everything (tests); the log's allowances too. */
void login_throttle_reset(void);

struct term_opts;
/* One throttled password check for a connection of o (its peer, switch
 * and ticket): waits its turn, checks, logs a failure, waits before
 * answering it; gives up (false) at deadline_ms, when the server stops or
 * when the connection was evicted. *refused tells that the password was
 * not even checked. */
bool login_attempt(const struct term_opts *o, const char *user, const char *password, enum role *role,
                   uint64_t deadline_ms, bool *refused);

#endif
