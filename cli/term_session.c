/* The session service (term_session.h): one implementation of what telnet,
 * SSH, the attached console and the browser's console do around a
 * session, so that a user meets the same login, history and limits
 * whichever way they come in. */
#include "term_session.h"
#include "login_throttle.h"
#include "wall.h"
#include "lab/lab.h"
#include "line/line.h"
#include "logging/syslog.h"
#include "user/user.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tsess_init(struct term_session *ts, const struct term_opts *o, struct session_io io)
{
    memset(ts, 0, sizeof *ts);
    ts->o = o;
    ts->idle_limit = o->idle_timeout;
    session_init(&ts->s, o->lab, o->sw, io);
}

void tsess_end(struct term_session *ts)
{
    if (!ts->registered)
        return;
    lab_lock(ts->o->lab);
    syslog_session_end(ts->o->lab, &ts->s);
    labsess_remove(ts->o->lab, &ts->reg);
    lab_unlock(ts->o->lab);
    ts->registered = false;
}

void tsess_free(struct term_session *ts)
{
    tsess_end(ts);
    for (int i = 0; i < ts->nhist; i++)
        free(ts->hist[i]);
    ts->nhist = 0;
    session_free(&ts->s);
}

/* ---- login ---- */

uint64_t tsess_login_deadline_ms(void) { return wall_ns() / 1000000u + LOGIN_SECONDS * 1000u; }

enum tsess_login tsess_login(const struct term_opts *o, const char *user, const char *password, enum role *role,
                             uint64_t deadline_ms)
{
    bool refused;
    if (login_attempt(o, user, password, role, deadline_ms, &refused))
        return TSESS_LOGIN_OK;
    if ((o->stop && atomic_load(o->stop)) || login_ticket_evicted(o->ticket))
        return TSESS_LOGIN_STOPPED;
    return refused ? TSESS_LOGIN_REFUSED : TSESS_LOGIN_INCORRECT;
}

const char *tsess_login_message(enum tsess_login r)
{
    switch (r) {
    case TSESS_LOGIN_OK: return "";
    case TSESS_LOGIN_REFUSED: return "% Too many failed logins, try again later";
    case TSESS_LOGIN_STOPPED: return "% The server is stopping";
    default: return "Login incorrect";
    }
}

/* ---- history ---- */

static void history_add(struct term_session *ts, const char *line)
{
    if (!*line || (ts->nhist && strcmp(ts->hist[ts->nhist - 1], line) == 0))
        return;
    if (ts->nhist == TSESS_HIST_MAX) {
        free(ts->hist[0]);
        memmove(ts->hist, ts->hist + 1, sizeof ts->hist[0] * (TSESS_HIST_MAX - 1));
        ts->nhist--;
    }
    if (!(ts->hist[ts->nhist++] = strdup(line)))
        abort();
}

/* A console keeps the lab's history, as the local console does. */
static void history_load(struct term_session *ts)
{
    char **lines;
    lab_lock(ts->o->lab);
    int n = lab_history_recent(ts->o->lab, TSESS_HIST_MAX, &lines);
    lab_unlock(ts->o->lab);
    for (int i = 0; i < n; i++) {
        history_add(ts, lines[i]);
        free(lines[i]);
    }
    free(lines);
}

void tsess_remember(struct term_session *ts, const char *line)
{
    history_add(ts, line);
    if (ts->o->console && line[0]) {
        lab_lock(ts->o->lab);
        lab_history_add(ts->o->lab, line);
        lab_unlock(ts->o->lab);
    }
}

/* ---- registration and commands ---- */

/* The switch's `exec-timeout` may change in any session: read at login and
 * after every command; so is `terminal monitor`, on this session. */
static void refresh_idle_limit(struct term_session *ts)
{
    const struct term_opts *o = ts->o;
    lab_lock(o->lab);
    ts->idle_limit = line_idle_seconds(o->lab, o->sw, o->console ? LINE_CONSOLE : LINE_VTY, o->idle_timeout);
    bool monitor = syslog_monitor_on(o->lab, &ts->s);
    if (monitor && !ts->monitor) /* what is logged from now on, not since the login */
        ts->log_seen = syslog_ring_tail(o->lab);
    ts->monitor = monitor;
    lab_unlock(o->lab);
    ts->s.idle_timeout = ts->idle_limit; /* for `show terminal` */
}

void tsess_start(struct term_session *ts, const char *user, enum role role)
{
    const struct term_opts *o = ts->o;
    snprintf(ts->s.user, sizeof ts->s.user, "%s", user);
    ts->s.role = role;
    ts->s.check_account = o->console ? NULL : user_check_session; /* a console runs as its Unix user */
    ts->s.cwd = o->cwd;
    memset(&ts->reg, 0, sizeof ts->reg);
    ts->reg.s = &ts->s;
    ts->reg.sw = o->sw;
    snprintf(ts->reg.user, sizeof ts->reg.user, "%s", user);
    snprintf(ts->reg.from, sizeof ts->reg.from, "%s", o->from ? o->from : "");
    snprintf(ts->reg.kind, sizeof ts->reg.kind, "%s", o->kind ? o->kind : "");
    lab_lock(o->lab);
    lab_tick(o->lab); /* the login time on the lab clock as of now */
    labsess_add(o->lab, &ts->reg);
    ts->log_seen = syslog_ring_tail(o->lab); /* what is logged from now on */
    lab_unlock(o->lab);
    ts->registered = true;
    refresh_idle_limit(ts);
    if (o->console)
        history_load(ts);
}

int tsess_run(struct term_session *ts, const char *line)
{
    lab_lock(ts->o->lab);
    labsess_touch(ts->o->lab, &ts->reg);
    lab_unlock(ts->o->lab);
    int rc = session_exec(&ts->s, line);
    refresh_idle_limit(ts);
    return rc;
}
