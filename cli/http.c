/*
 * The browser's side of `mdsim serve --http` (docs/http.md), on Debian's
 * civetweb: the page and its assets (embedded at build time), a login
 * that goes through the session service and the login throttle as
 * telnet's does, the topology as JSON, a console per switch over a
 * WebSocket running the served terminal's line discipline (cli/telnet.c)
 * as telnet does, and a live WebSocket that pushes the topology when it
 * changes and the time series' new samples.
 *
 * Every input is bounded: civetweb's request size and time, our body,
 * WebSocket message and queue sizes, the numbers of consoles, live
 * sockets and logins. Nothing a user sends runs under the lab lock; the
 * lab is read under it and the text goes out after.
 */
#include "http.h"
#include "http_model.h"
#include "http_sessions.h"
#include "telnet.h"
#include "login_throttle.h"
#include "wall.h"
#include "lab/lab.h"
#include "user/user.h"
#include "http_assets.h"
#include <civetweb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    BODY_MAX = 1024,        /* a login form */
    WS_FRAME_MAX = 4096,    /* one message of keys from the page */
    WS_QUEUE = 16384,       /* keys waiting for the console's thread */
    WS_QUEUE_WAIT_MS = 5000,/* a peer typing faster than that is dropped */
    CONSOLES_MAX = 32,      /* consoles open in all */
    LIVE_MAX = 16,          /* live sockets (topology and plots) */
    LIVE_PERIOD_MS = 500,
    SERIES_ROWS_FIRST = 300,/* the samples a new plot starts with */
};

struct live;

struct http_server {
    struct http_opts o;
    struct mg_context *ctx;
    int port;
    atomic_bool stopping;
    pthread_mutex_t mu; /* the counts and the live list */
    int nconsoles;
    struct live *lives;
    int nlives;
    pthread_t pusher;
    bool pusher_on;
};

static uint64_t now_ms(void) { return wall_ns() / 1000000u; }

/* ---- replies ---- */

static const char sec_headers[] = "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
                                  "X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n"
                                  "Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                  "img-src 'self' data:; frame-ancestors 'none'\r\n";

static int reply(struct mg_connection *c, int code, const char *type, const char *extra, const void *body, size_t n)
{
    mg_printf(c, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s%sConnection: close\r\n\r\n", code,
              mg_get_response_code_text(c, code), type, n, sec_headers, extra ? extra : "");
    mg_write(c, body, n);
    return code;
}

static int reply_json(struct mg_connection *c, int code, const char *extra, const char *json)
{
    return reply(c, code, "application/json", extra, json, strlen(json));
}

static int reply_error(struct mg_connection *c, int code, const char *msg)
{
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "{\"error\": ");
    http_json_str(&b, msg);
    sb_puts(&b, "}");
    reply_json(c, code, NULL, sb_str(&b));
    sb_free(&b);
    return code;
}

/* ---- who is asking ---- */

static bool request_login(const struct mg_connection *c, const struct http_server *sv, struct http_login *l)
{
    char token[HTTP_TOKEN_HEX + 2];
    const char *cookie = mg_get_header(c, "Cookie");
    if (!cookie || mg_get_cookie(cookie, "mdsim_session", token, sizeof token) != HTTP_TOKEN_HEX)
        return false;
    uint64_t idle = sv->o.idle_timeout > 0 ? (uint64_t)sv->o.idle_timeout * 1000u : 0;
    return http_sessions_find(token, now_ms(), idle, l);
}

/* A WebSocket from another site's page would carry no cookie
 * (SameSite=Strict); one with an Origin must name this server too. */
static bool same_origin(const struct mg_connection *c)
{
    const char *origin = mg_get_header(c, "Origin"), *host = mg_get_header(c, "Host");
    if (!origin)
        return true;
    if (!host || strncmp(origin, "http://", 7) != 0)
        return false;
    return strcmp(origin + 7, host) == 0;
}

/* ---- login ---- */

static void login_json(struct http_server *sv, const struct http_login *l, strbuf *b)
{
    sb_puts(b, "{\"user\": ");
    http_json_str(b, l->user);
    sb_puts(b, ", \"switches\": [");
    lab_lock(sv->o.lab);
    for (int i = 0, n = 0; i < lab_switch_count(sv->o.lab) && i < HTTP_SWITCHES_MAX; i++) {
        if (!(l->allowed >> i & 1))
            continue;
        sb_printf(b, "%s{\"index\": %d, \"name\": ", n++ ? ", " : "", i);
        http_json_str(b, lab_switch_name(sv->o.lab, i));
        sb_printf(b, ", \"role\": \"%s\"}", l->role[i] == ROLE_ADMIN ? "network-admin" : "network-operator");
    }
    lab_unlock(sv->o.lab);
    sb_puts(b, "]}");
}

/* The throttled try on the first switch; the others take the same
 * password where their user has it. */
static enum tsess_login check_login(struct http_server *sv, const char *peer, const char *user, const char *pass,
                                    struct http_login *l)
{
    struct login_ticket ticket = {0};
    if (!login_ticket_take(&ticket, peer))
        return TSESS_LOGIN_REFUSED;
    struct term_opts o = {.lab = sv->o.lab, .sw = 0, .kind = "http", .from = peer, .stop = &sv->stopping,
                          .ticket = &ticket};
    enum role role;
    enum tsess_login r = tsess_login(&o, user, pass, &role, tsess_login_deadline_ms());
    login_ticket_drop(&ticket);
    if (r != TSESS_LOGIN_OK)
        return r;
    memset(l, 0, sizeof *l);
    snprintf(l->user, sizeof l->user, "%s", user);
    l->allowed = 1;
    l->role[0] = role;
    lab_lock(sv->o.lab);
    int n = lab_switch_count(sv->o.lab);
    lab_unlock(sv->o.lab);
    for (int i = 1; i < n && i < HTTP_SWITCHES_MAX; i++)
        if (user_login(sv->o.lab, i, user, pass, &role)) {
            l->allowed |= 1ull << i;
            l->role[i] = role;
        }
    return TSESS_LOGIN_OK;
}

static int api_login(struct mg_connection *c, struct http_server *sv)
{
    const struct mg_request_info *ri = mg_get_request_info(c);
    if (ri->content_length < 0 || ri->content_length > BODY_MAX)
        return reply_error(c, 413, "% A login form is at most 1024 bytes");
    char body[BODY_MAX + 1], user[USER_NAME_MAX + 1], pass[USER_PASSWORD_MAX + 1];
    int n = 0, got;
    while (n < ri->content_length && (got = mg_read(c, body + n, (size_t)(ri->content_length - n))) > 0)
        n += got;
    body[n] = '\0';
    if (mg_get_var(body, (size_t)n, "user", user, sizeof user) < 0 ||
        mg_get_var(body, (size_t)n, "password", pass, sizeof pass) < 0)
        return reply_error(c, 400, "% Invalid login form");
    struct http_login l;
    enum tsess_login r = check_login(sv, ri->remote_addr, user, pass, &l);
    memset(pass, 0, sizeof pass);
    memset(body, 0, sizeof body);
    if (r != TSESS_LOGIN_OK)
        return reply_error(c, r == TSESS_LOGIN_INCORRECT ? 403 : 429, tsess_login_message(r));
    char token[HTTP_TOKEN_HEX + 1], cookie[128];
    if (!http_sessions_add(&l, now_ms(), token))
        return reply_error(c, 500, "% No random bytes for a session");
    snprintf(cookie, sizeof cookie, "Set-Cookie: mdsim_session=%s; Path=/; HttpOnly; SameSite=Strict\r\n", token);
    strbuf b;
    sb_init(&b);
    login_json(sv, &l, &b);
    reply_json(c, 200, cookie, sb_str(&b));
    sb_free(&b);
    return 200;
}

static int api_logout(struct mg_connection *c)
{
    char token[HTTP_TOKEN_HEX + 2];
    const char *cookie = mg_get_header(c, "Cookie");
    if (cookie && mg_get_cookie(cookie, "mdsim_session", token, sizeof token) == HTTP_TOKEN_HEX)
        http_sessions_remove(token);
    return reply_json(c, 200, "Set-Cookie: mdsim_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0\r\n", "{}");
}

/* ---- the page ---- */

static int asset(struct mg_connection *c, const char *path)
{
    for (const struct http_asset *a = http_assets; a->path; a++)
        if (strcmp(a->path, path) == 0)
            return reply(c, 200, a->type, NULL, a->data, a->len);
    return reply_error(c, 404, "% No such page");
}

static int api_get(struct mg_connection *c, struct http_server *sv, const char *uri)
{
    struct http_login l;
    if (!request_login(c, sv, &l))
        return reply_error(c, 401, "% Log in first");
    strbuf b;
    sb_init(&b);
    if (strcmp(uri, "/api/session") == 0) {
        login_json(sv, &l, &b);
    } else if (strcmp(uri, "/api/topology") == 0) {
        lab_lock(sv->o.lab);
        lab_tick(sv->o.lab);
        http_topology_json(sv->o.lab, &b);
        lab_unlock(sv->o.lab);
    } else {
        sb_free(&b);
        return reply_error(c, 404, "% No such page");
    }
    reply_json(c, 200, NULL, sb_str(&b));
    sb_free(&b);
    return 200;
}

static int on_request(struct mg_connection *c, void *ud)
{
    struct http_server *sv = ud;
    const struct mg_request_info *ri = mg_get_request_info(c);
    const char *uri = ri->local_uri ? ri->local_uri : "";
    bool get = strcmp(ri->request_method, "GET") == 0, post = strcmp(ri->request_method, "POST") == 0;
    if (post && strcmp(uri, "/api/login") == 0)
        return api_login(c, sv);
    if (post && strcmp(uri, "/api/logout") == 0)
        return api_logout(c);
    if (!get)
        return reply_error(c, 405, "% Only GET here");
    if (strcmp(uri, "/") == 0)
        return asset(c, "/index.html");
    if (strncmp(uri, "/api/", 5) == 0)
        return api_get(c, sv, uri);
    return asset(c, uri);
}

/* ---- a console over a WebSocket ----
 * The page sends keys as binary messages and "size ROWS COLS" as text;
 * the terminal's bytes go back as binary messages. A thread of its own
 * runs the served terminal (term_shell) reading the queue the WebSocket's
 * thread fills. */

struct console {
    struct http_server *sv;
    struct mg_connection *conn;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned char in[WS_QUEUE];
    size_t in_len;
    atomic_bool gone; /* the page went away (or never got a console) */
    bool ended;       /* the terminal ended (exit, idle limit) */
    bool started;     /* its thread runs: joined at the close */
    int rows, cols;
    bool resized;
    struct term *t;
    struct term_opts o;
    char from[64];
    struct http_login l;
    int sw;
    pthread_t th;
};

static int console_read(void *ctx, unsigned char *buf, size_t n, int timeout_ms)
{
    struct console *k = ctx;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&k->mu);
    while (!k->in_len && !k->gone && !k->resized)
        if (pthread_cond_timedwait(&k->cv, &k->mu, &until) != 0)
            break;
    if (k->resized) { /* on this thread: the terminal is its alone */
        term_set_window(k->t, k->rows, k->cols);
        k->resized = false;
    }
    int got = k->gone ? -1 : 0;
    if (k->in_len) {
        got = (int)(k->in_len < n ? k->in_len : n);
        memcpy(buf, k->in, (size_t)got);
        memmove(k->in, k->in + got, k->in_len - (size_t)got);
        k->in_len -= (size_t)got;
        pthread_cond_broadcast(&k->cv); /* room for a waiting writer */
    }
    pthread_mutex_unlock(&k->mu);
    return got;
}

static int console_write(void *ctx, const void *buf, size_t n)
{
    struct console *k = ctx;
    if (k->gone)
        return -1;
    return mg_websocket_write(k->conn, MG_WEBSOCKET_OPCODE_BINARY, buf, n) > 0 ? 0 : -1;
}

static void *console_main(void *arg)
{
    struct console *k = arg;
    struct term_transport tr = {console_read, console_write, k};
    k->t = term_new(&tr, &k->o);
    term_shell(k->t, k->l.user, k->l.role[k->sw]);
    term_free(k->t);
    pthread_mutex_lock(&k->mu);
    k->ended = true;
    bool gone = k->gone;
    pthread_mutex_unlock(&k->mu);
    if (!gone) /* `exit` or the idle limit: the page hears the end */
        mg_websocket_write(k->conn, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xe8", 2);
    return NULL;
}

/* The switch of "?sw=N", allowed to this login; -1 when not. */
static int console_switch(const struct mg_connection *c, const struct http_server *sv, const struct http_login *l)
{
    const struct mg_request_info *ri = mg_get_request_info(c);
    char v[8];
    if (!ri->query_string || mg_get_var(ri->query_string, strlen(ri->query_string), "sw", v, sizeof v) <= 0)
        return -1;
    char *end;
    long sw = strtol(v, &end, 10);
    if (*end || sw < 0 || sw >= HTTP_SWITCHES_MAX || !(l->allowed >> sw & 1))
        return -1;
    lab_lock(sv->o.lab);
    bool exists = sw < lab_switch_count(sv->o.lab);
    lab_unlock(sv->o.lab);
    return exists ? (int)sw : -1;
}

/* Before the handshake: a logged-in page of this server asking for a
 * switch it may open, with a place left. Nonzero refuses. */
static int console_connect(const struct mg_connection *c, void *ud)
{
    struct http_server *sv = ud;
    struct http_login l;
    if (!same_origin(c) || !request_login(c, sv, &l) || console_switch(c, sv, &l) < 0)
        return 1;
    pthread_mutex_lock(&sv->mu);
    bool full = sv->nconsoles >= CONSOLES_MAX;
    pthread_mutex_unlock(&sv->mu);
    return full;
}

static int window_arg(const struct mg_request_info *ri, const char *name, int dflt)
{
    char v[8];
    if (!ri->query_string || mg_get_var(ri->query_string, strlen(ri->query_string), name, v, sizeof v) <= 0)
        return dflt;
    int n = atoi(v);
    return n > 0 && n < 512 ? n : dflt;
}

static void console_ready(struct mg_connection *c, void *ud)
{
    struct http_server *sv = ud;
    struct console *k = calloc(1, sizeof *k);
    if (!k)
        abort();
    k->sv = sv;
    k->conn = c;
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    const struct mg_request_info *ri = mg_get_request_info(c);
    snprintf(k->from, sizeof k->from, "%s", ri->remote_addr);
    k->gone = k->ended = true; /* until its thread runs: the page's keys are refused */
    mg_set_user_connection_data(c, k);
    bool ok = request_login(c, sv, &k->l) && (k->sw = console_switch(c, sv, &k->l)) >= 0;
    pthread_mutex_lock(&sv->mu);
    ok = ok && sv->nconsoles < CONSOLES_MAX; /* checked before the handshake, but others came meanwhile */
    sv->nconsoles += ok;
    pthread_mutex_unlock(&sv->mu);
    if (!ok) { /* 1008, policy violation: the page says closed */
        mg_websocket_write(c, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xf0", 2);
        return;
    }
    k->o = (struct term_opts){.lab = sv->o.lab, .sw = k->sw, .kind = "http", .from = k->from, .interactive = true,
                              .crlf = true, .rows = window_arg(ri, "rows", 24), .cols = window_arg(ri, "cols", 80),
                              .idle_timeout = sv->o.idle_timeout, .stop = sv->o.stop};
    k->gone = k->ended = false;
    k->started = pthread_create(&k->th, NULL, console_main, k) == 0;
    if (!k->started) {
        k->gone = k->ended = true;
        pthread_mutex_lock(&sv->mu);
        sv->nconsoles--;
        pthread_mutex_unlock(&sv->mu);
    }
}

/* Keys into the queue, waiting a little for room (a paste); a message
 * too big, a fragmented one or a queue that stays full ends the console.
 * Returns 0 to close the WebSocket. */
static int console_keys(struct console *k, const char *data, size_t n)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += WS_QUEUE_WAIT_MS / 1000;
    pthread_mutex_lock(&k->mu);
    while (k->in_len + n > sizeof k->in && !k->gone && !k->ended)
        if (pthread_cond_timedwait(&k->cv, &k->mu, &until) != 0)
            break;
    bool ok = k->in_len + n <= sizeof k->in && !k->ended;
    if (ok) {
        memcpy(k->in + k->in_len, data, n);
        k->in_len += n;
        pthread_cond_broadcast(&k->cv);
    }
    pthread_mutex_unlock(&k->mu);
    return ok;
}

static int console_data(struct mg_connection *c, int bits, char *data, size_t n, void *ud)
{
    (void)ud;
    struct console *k = mg_get_user_connection_data(c);
    int op = bits & 0xf;
    if (!k || k->ended || op == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE)
        return 0;
    if (op == MG_WEBSOCKET_OPCODE_PING || op == MG_WEBSOCKET_OPCODE_PONG)
        return 1;
    if (!(bits & 0x80) || op == MG_WEBSOCKET_OPCODE_CONTINUATION || n > WS_FRAME_MAX)
        return 0;
    if (op == MG_WEBSOCKET_OPCODE_BINARY)
        return console_keys(k, data, n);
    char msg[32];
    int rows, cols;
    if (op != MG_WEBSOCKET_OPCODE_TEXT || n >= sizeof msg)
        return 0;
    memcpy(msg, data, n);
    msg[n] = '\0';
    if (sscanf(msg, "size %d %d", &rows, &cols) == 2 && rows > 0 && rows < 512 && cols > 0 && cols < 512) {
        pthread_mutex_lock(&k->mu);
        k->rows = rows, k->cols = cols, k->resized = true;
        pthread_cond_broadcast(&k->cv);
        pthread_mutex_unlock(&k->mu);
    }
    return 1;
}

static void console_close(const struct mg_connection *c, void *ud)
{
    struct http_server *sv = ud;
    struct console *k = mg_get_user_connection_data(c);
    if (!k)
        return;
    pthread_mutex_lock(&k->mu);
    k->gone = true;
    pthread_cond_broadcast(&k->cv);
    pthread_mutex_unlock(&k->mu);
    if (k->started) { /* its thread may be in a command: it ends at its next read */
        pthread_join(k->th, NULL);
        pthread_mutex_lock(&sv->mu);
        sv->nconsoles--;
        pthread_mutex_unlock(&sv->mu);
    }
    pthread_mutex_destroy(&k->mu);
    pthread_cond_destroy(&k->cv);
    free(k);
}

/* ---- the live socket: topology and series pushed ---- */

struct live {
    struct mg_connection *conn;
    uint64_t next;      /* the next series sample it wants */
    bool sent_topology; /* the current one */
    struct live *next_live;
};

static int live_connect(const struct mg_connection *c, void *ud)
{
    struct http_server *sv = ud;
    struct http_login l;
    if (!same_origin(c) || !request_login(c, sv, &l))
        return 1;
    pthread_mutex_lock(&sv->mu);
    bool full = sv->nlives >= LIVE_MAX;
    pthread_mutex_unlock(&sv->mu);
    return full;
}

static void live_ready(struct mg_connection *c, void *ud)
{
    struct http_server *sv = ud;
    struct live *v = calloc(1, sizeof *v);
    if (!v)
        abort();
    v->conn = c;
    mg_set_user_connection_data(c, v);
    pthread_mutex_lock(&sv->mu);
    v->next_live = sv->lives;
    sv->lives = v;
    sv->nlives++;
    pthread_mutex_unlock(&sv->mu);
}

/* The page says nothing on this socket but pings; anything else big ends it. */
static int live_data(struct mg_connection *c, int bits, char *data, size_t n, void *ud)
{
    (void)c, (void)data, (void)ud;
    int op = bits & 0xf;
    return op != MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE && n <= 64;
}

static void live_close(const struct mg_connection *c, void *ud)
{
    struct http_server *sv = ud;
    struct live *v = mg_get_user_connection_data(c);
    if (!v)
        return;
    pthread_mutex_lock(&sv->mu);
    for (struct live **p = &sv->lives; *p; p = &(*p)->next_live)
        if (*p == v) {
            *p = v->next_live;
            sv->nlives--;
            break;
        }
    pthread_mutex_unlock(&sv->mu);
    free(v);
}

/* One round: the lab brought to now and read under its lock, the
 * messages sent after it. The list's lock is held meanwhile so that no
 * socket goes away under a send. */
static void push_round(struct http_server *sv, strbuf *last_topo)
{
    strbuf topo, *msgs;
    sb_init(&topo);
    pthread_mutex_lock(&sv->mu);
    int n = sv->nlives;
    if (!n) {
        pthread_mutex_unlock(&sv->mu);
        return;
    }
    msgs = calloc((size_t)n, sizeof *msgs);
    if (!msgs)
        abort();
    lab_lock(sv->o.lab);
    lab_tick(sv->o.lab);
    sb_puts(&topo, "{\"topology\": ");
    http_topology_json(sv->o.lab, &topo);
    sb_puts(&topo, "}");
    bool changed = last_topo->len != topo.len || memcmp(sb_str(last_topo), sb_str(&topo), topo.len) != 0;
    int i = 0;
    for (struct live *v = sv->lives; v; v = v->next_live, i++) {
        sb_init(&msgs[i]);
        sb_puts(&msgs[i], "{\"series\": ");
        /* a new page starts with the last minutes (v->next is 0) */
        if (http_series_json(sv->o.lab, &v->next, SERIES_ROWS_FIRST, &msgs[i]))
            sb_puts(&msgs[i], "}");
        else
            sb_truncate(&msgs[i], 0);
    }
    lab_unlock(sv->o.lab);
    i = 0;
    for (struct live *v = sv->lives; v; v = v->next_live, i++) {
        if (changed || !v->sent_topology)
            mg_websocket_write(v->conn, MG_WEBSOCKET_OPCODE_TEXT, sb_str(&topo), topo.len);
        v->sent_topology = true;
        if (msgs[i].len)
            mg_websocket_write(v->conn, MG_WEBSOCKET_OPCODE_TEXT, sb_str(&msgs[i]), msgs[i].len);
        sb_free(&msgs[i]);
    }
    pthread_mutex_unlock(&sv->mu);
    free(msgs);
    if (changed)
        sb_swap(last_topo, &topo);
    sb_free(&topo);
}

static void *pusher_main(void *arg)
{
    struct http_server *sv = arg;
    strbuf last;
    sb_init(&last);
    while (!atomic_load(&sv->stopping) && !(sv->o.stop && atomic_load(sv->o.stop))) {
        push_round(sv, &last);
        wall_sleep((uint64_t)LIVE_PERIOD_MS * 1000000u);
    }
    sb_free(&last);
    return NULL;
}

/* ---- life cycle ---- */

/* civetweb's own messages (a bad request, a socket error) are not ours
 * to print on serve's terminal. */
static int quiet_log(const struct mg_connection *c, const char *msg)
{
    (void)c, (void)msg;
    return 1;
}

static void server_free(struct http_server *sv);

static struct http_server *server_new(const struct http_opts *o, char *err, size_t n)
{
    mg_init_library(MG_FEATURES_WEBSOCKET | MG_FEATURES_IPV6);
    if (!mg_check_feature(MG_FEATURES_WEBSOCKET)) {
        snprintf(err, n, "this civetweb has no WebSocket support");
        return NULL;
    }
    struct http_server *sv = calloc(1, sizeof *sv);
    if (!sv)
        abort();
    sv->o = *o;
    pthread_mutex_init(&sv->mu, NULL);
    char listen[96];
    snprintf(listen, sizeof listen, strchr(o->bind, ':') ? "[%s]:%d" : "%s:%d", o->bind, o->port);
    /* Bounds: docs/http.md. */
    const char *opts[] = {"listening_ports", listen, "num_threads", "64", "max_request_size", "8192",
                          "request_timeout_ms", "10000", "websocket_timeout_ms", "30000",
                          "enable_websocket_ping_pong", "yes", "enable_keep_alive", "no",
                          "listen_backlog", "64", "connection_queue", "64",
                          /* echo and prompt go out as written, as telnet's (40 ms a key otherwise) */
                          "tcp_nodelay", "1", NULL};
    struct mg_callbacks cb = {0};
    cb.log_message = quiet_log;
    sv->ctx = mg_start(&cb, sv, opts);
    if (!sv->ctx) {
        snprintf(err, n, "cannot listen on %s for HTTP", listen);
        server_free(sv);
        return NULL;
    }
    struct mg_server_port ports[2];
    sv->port = mg_get_server_ports(sv->ctx, 2, ports) > 0 ? ports[0].port : o->port;
    mg_set_request_handler(sv->ctx, "/", on_request, sv);
    mg_set_websocket_handler(sv->ctx, "/ws/console", console_connect, console_ready, console_data, console_close, sv);
    mg_set_websocket_handler(sv->ctx, "/ws/live", live_connect, live_ready, live_data, live_close, sv);
    sv->pusher_on = pthread_create(&sv->pusher, NULL, pusher_main, sv) == 0;
    return sv;
}

static int server_port(const struct http_server *sv) { return sv->port; }

static void server_free(struct http_server *sv)
{
    if (!sv)
        return;
    atomic_store(&sv->stopping, true);
    if (sv->pusher_on)
        pthread_join(sv->pusher, NULL);
    if (sv->ctx)
        mg_stop(sv->ctx); /* closes the sockets; each console's close waits for its thread */
    pthread_mutex_destroy(&sv->mu);
    free(sv);
    mg_exit_library();
}

const struct http_module mdsim_http_module = {.server_new = server_new, .port = server_port,
                                              .server_free = server_free};
