/*
 * The session service: what every terminal transport (telnet, SSH, the
 * attached console, the browser's console) does around a session, so
 * that they differ only in how bytes move. The login (one throttled
 * password try, the time to log in, the answers a user reads), the
 * session's registration for `show users`, its history, its idle limit
 * (`exec-timeout`) and `terminal monitor`. The line discipline itself
 * (echo, editing, `?`, Tab, `--More--`, Ctrl-C) is cli/telnet.c's.
 */
#ifndef MDSIM_TERM_SESSION_H
#define MDSIM_TERM_SESSION_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "session.h"
#include "lab/sessions.h"

struct lab;
struct login_ticket;

struct term_opts {
    struct lab *lab;
    int sw;
    const char *kind;  /* "telnet", "ssh", "http" or "attach", for `show users` */
    const char *from;  /* peer address */
    bool telnet;       /* IAC sequences in, 0xFF doubled out */
    bool interactive;  /* echo, editing, pager; else a batch transcript */
    bool crlf;         /* a terminal at the other end: lines end in CR LF */
    int rows, cols;    /* window size when known, else 0 */
    int idle_timeout;  /* seconds without input before logging out, 0 = none,
                        * unless the switch has `line vty` `exec-timeout` */
    const atomic_bool *stop; /* the server is shutting down */
    struct login_ticket *ticket; /* the connection's place among those not logged in yet */
    bool console;      /* an attached console (docs/lab-owner.md): no banner,
                        * `line console` exec-timeout, the lab's history, no
                        * account to check (host files may be copied) */
    const char *cwd;   /* the session's session.cwd */
};

enum { TSESS_HIST_MAX = 64 };

struct term_session {
    struct session s;
    const struct term_opts *o;
    struct labsess reg;
    bool registered;
    char *hist[TSESS_HIST_MAX]; /* oldest first */
    int nhist;
    int idle_limit;    /* seconds, 0 = none: `line vty` `exec-timeout`, else the server's */
    bool monitor;      /* `terminal monitor` is on (read after each command) */
    uint64_t log_seen; /* the last log message shown or passed over */
};

/* o must outlive ts (the transport keeps it). */
void tsess_init(struct term_session *ts, const struct term_opts *o, struct session_io io);
/* Ends the registration if any; frees the history and the session. */
void tsess_free(struct term_session *ts);

enum tsess_login { TSESS_LOGIN_OK, TSESS_LOGIN_INCORRECT, TSESS_LOGIN_REFUSED, TSESS_LOGIN_STOPPED };

/* When a login that starts now must be done (LOGIN_SECONDS). */
uint64_t tsess_login_deadline_ms(void);
/* One password try for a connection of o, through the login throttle
 * (cli/login_throttle.c): waits its turn, and after a failure its delay. */
enum tsess_login tsess_login(const struct term_opts *o, const char *user, const char *password, enum role *role,
                             uint64_t deadline_ms);
/* What the user reads after a failed try ("Login incorrect", ...). */
const char *tsess_login_message(enum tsess_login r);

/* Logged in: the session registers (`show users`), an attached console
 * gets the lab's history, and the idle limit is read. */
void tsess_start(struct term_session *ts, const char *user, enum role role);
/* One command line; 0 ok, else the session's failure code. */
int tsess_run(struct term_session *ts, const char *line);
/* A line entered at the prompt goes into the history (the lab's too, for
 * a console). */
void tsess_remember(struct term_session *ts, const char *line);
/* The session leaves `show users`; a second call does nothing. */
void tsess_end(struct term_session *ts);

#endif
