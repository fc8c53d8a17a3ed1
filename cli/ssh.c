/*
 * SSH with libssh's callback server API. A connection is: key exchange
 * limited to modern algorithms, password auth checked against the
 * switch's users (failures counted and delayed), one session channel,
 * then either a shell (with a pty: the interactive terminal; without: the
 * batch transcript) or one exec command. The host key is an Ed25519 key
 * kept in the lab file (lab_meta), so state stays in the lab.
 */
#include "ssh.h"
#include "login_throttle.h"
#include "wall.h"
#include "lab/lab.h"
#include "user/user.h"
#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/server.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What OpenSSH 9 offers first, nothing SHA-1 or CBC. */
static const char kex_algos[] = "curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256,"
                                "ecdh-sha2-nistp384,ecdh-sha2-nistp521,diffie-hellman-group16-sha512,"
                                "diffie-hellman-group18-sha512,diffie-hellman-group14-sha256";
static const char ciphers[] = "chacha20-poly1305@openssh.com,aes256-gcm@openssh.com,"
                              "aes128-gcm@openssh.com,aes256-ctr,aes192-ctr,aes128-ctr";
static const char macs[] = "hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,"
                           "hmac-sha2-256,hmac-sha2-512";

struct ssh_server {
    ssh_bind bind;
    pthread_mutex_t lock; /* ssh_bind_accept_fd copies from the bind: one at a time */
};

enum { AUTH_TRIES = 3 };

static const char key_sql_get[] = "SELECT value FROM lab_meta WHERE key = 'ssh_host_key_ed25519'";
static const char key_sql_put[] = "INSERT OR REPLACE INTO lab_meta VALUES ('ssh_host_key_ed25519', ?)";

static ssh_key load_or_make_key(struct lab *lab, char *err, size_t n)
{
    ssh_key key = NULL;
    sqlite3_stmt *st = lab_stmt(lab, key_sql_get);
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (ssh_pki_import_privkey_base64((const char *)sqlite3_column_text(st, 0), NULL, NULL, NULL,
                                          &key) != SSH_OK)
            snprintf(err, n, "the lab's SSH host key is unreadable");
        return key;
    }
    char *b64 = NULL;
    if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key) != SSH_OK ||
        ssh_pki_export_privkey_base64(key, NULL, NULL, NULL, &b64) != SSH_OK) {
        snprintf(err, n, "cannot generate an SSH host key");
        ssh_key_free(key);
        return NULL;
    }
    st = lab_stmt(lab, key_sql_put);
    sqlite3_bind_text(st, 1, b64, -1, SQLITE_TRANSIENT);
    lab_step_done(lab, st);
    ssh_string_free_char(b64);
    return key;
}

static bool bind_set(ssh_bind b, enum ssh_bind_options_e opt, const void *v)
{
    return ssh_bind_options_set(b, opt, v) == SSH_OK;
}

static void server_free(struct ssh_server *srv);

static struct ssh_server *server_new(struct lab *lab, char *err, size_t n)
{
    ssh_init();
    lab_lock(lab);
    ssh_key key = load_or_make_key(lab, err, n);
    lab_unlock(lab);
    if (!key) {
        ssh_finalize();
        return NULL;
    }
    struct ssh_server *srv = calloc(1, sizeof *srv);
    if (!srv)
        abort();
    srv->bind = ssh_bind_new();
    pthread_mutex_init(&srv->lock, NULL);
    bool no = false;
    /* the bind owns the key from here on */
    bool ok = bind_set(srv->bind, SSH_BIND_OPTIONS_PROCESS_CONFIG, &no) &&
              bind_set(srv->bind, SSH_BIND_OPTIONS_IMPORT_KEY, key) &&
              bind_set(srv->bind, SSH_BIND_OPTIONS_HOSTKEY_ALGORITHMS, "ssh-ed25519") &&
              bind_set(srv->bind, SSH_BIND_OPTIONS_KEY_EXCHANGE, kex_algos) &&
              bind_set(srv->bind, SSH_BIND_OPTIONS_CIPHERS_C_S, ciphers) &&
              bind_set(srv->bind, SSH_BIND_OPTIONS_CIPHERS_S_C, ciphers) &&
              bind_set(srv->bind, SSH_BIND_OPTIONS_HMAC_C_S, macs) &&
              bind_set(srv->bind, SSH_BIND_OPTIONS_HMAC_S_C, macs);
    if (!ok) {
        snprintf(err, n, "cannot set up SSH: %s", ssh_get_error(srv->bind));
        server_free(srv);
        return NULL;
    }
    return srv;
}

static void server_free(struct ssh_server *srv)
{
    if (!srv)
        return;
    ssh_bind_free(srv->bind);
    pthread_mutex_destroy(&srv->lock);
    free(srv);
    ssh_finalize();
}

/* ---- one connection ---- */

struct ssh_conn {
    ssh_session ses;
    ssh_channel chan;
    const struct term_opts *o; /* &opts */
    struct term_opts opts;     /* the switch's, with kind and peer set */
    const char *from;
    char user[USER_NAME_MAX + 1];
    enum role role;
    bool authed, pty, shell;
    int fails;
    uint64_t deadline_ms; /* LOGIN_SECONDS after the connection came */
    int rows, cols;
    char *command; /* an exec request */
    struct term *term;
    struct ssh_server_callbacks_struct scb;
    struct ssh_channel_callbacks_struct ccb;
};

/* The server stops, or the connection lost its place among those waiting
 * to log in (login_ticket_take gave it to a newcomer): stop waiting. */
static bool stopping(const struct ssh_conn *c)
{
    return (c->o->stop && atomic_load(c->o->stop)) || login_ticket_evicted(c->o->ticket);
}

static int on_auth_password(ssh_session ses, const char *user, const char *pass, void *ud)
{
    struct ssh_conn *c = ud;
    if (tsess_login(c->o, user, pass, &c->role, c->deadline_ms) == TSESS_LOGIN_OK) {
        snprintf(c->user, sizeof c->user, "%s", user);
        c->authed = true;
        return SSH_AUTH_SUCCESS;
    }
    if (++c->fails >= AUTH_TRIES || stopping(c))
        ssh_disconnect(ses);
    return SSH_AUTH_DENIED;
}

static int on_pty(ssh_session ses, ssh_channel ch, const char *term, int w, int h, int pw, int ph, void *ud)
{
    struct ssh_conn *c = ud;
    (void)ses, (void)ch, (void)term, (void)pw, (void)ph;
    c->pty = true;
    c->rows = h;
    c->cols = w;
    return 0;
}

static int on_window(ssh_session ses, ssh_channel ch, int w, int h, int pw, int ph, void *ud)
{
    struct ssh_conn *c = ud;
    (void)ses, (void)ch, (void)pw, (void)ph;
    if (c->term)
        term_set_window(c->term, h, w);
    return 0;
}

static int on_shell(ssh_session ses, ssh_channel ch, void *ud)
{
    struct ssh_conn *c = ud;
    (void)ses, (void)ch;
    if (c->shell || c->command)
        return -1;
    c->shell = true;
    return 0;
}

static int on_exec(ssh_session ses, ssh_channel ch, const char *command, void *ud)
{
    struct ssh_conn *c = ud;
    (void)ses, (void)ch;
    if (c->shell || c->command || !(c->command = strdup(command)))
        return -1;
    return 0;
}

static int on_env(ssh_session ses, ssh_channel ch, const char *name, const char *value, void *ud)
{
    (void)ses, (void)ch, (void)name, (void)value, (void)ud;
    return 0; /* accepted and ignored: LANG and friends mean nothing here */
}

/* One session channel per connection; others are refused. */
static ssh_channel on_channel_open(ssh_session ses, void *ud)
{
    struct ssh_conn *c = ud;
    if (c->chan || !c->authed)
        return NULL;
    c->chan = ssh_channel_new(ses);
    memset(&c->ccb, 0, sizeof c->ccb);
    c->ccb.userdata = c;
    c->ccb.channel_pty_request_function = on_pty;
    c->ccb.channel_pty_window_change_function = on_window;
    c->ccb.channel_shell_request_function = on_shell;
    c->ccb.channel_exec_request_function = on_exec;
    c->ccb.channel_env_request_function = on_env;
    ssh_callbacks_init(&c->ccb);
    ssh_set_channel_callbacks(c->chan, &c->ccb);
    return c->chan;
}

/* Key exchange, auth, channel and its requests, until a shell or exec
 * request arrives; bounded in time so a silent peer goes away. */
static bool setup(struct ssh_conn *c)
{
    if (ssh_handle_key_exchange(c->ses) != SSH_OK)
        return false;
    ssh_event ev = ssh_event_new();
    ssh_event_add_session(ev, c->ses);
    while (!c->shell && !c->command && wall_ns() / 1000000u < c->deadline_ms && !stopping(c)) {
        if (ssh_event_dopoll(ev, 200) == SSH_ERROR || !ssh_is_connected(c->ses))
            break;
    }
    ssh_event_remove_session(ev, c->ses);
    ssh_event_free(ev);
    return c->chan && (c->shell || c->command);
}

/* After the client's EOF (`ssh -n`, `ssh host cmd </dev/null`) the channel
 * may stay open for our output: wait out the slice while libssh handles
 * what comes (a close, a disconnect), so a command that lasts runs on and
 * still notices the client going away. */
static int wait_after_eof(struct ssh_conn *c, int timeout_ms)
{
    ssh_event ev = ssh_event_new();
    ssh_event_add_session(ev, c->ses);
    int rc = ssh_event_dopoll(ev, timeout_ms);
    ssh_event_remove_session(ev, c->ses);
    ssh_event_free(ev);
    bool open = rc != SSH_ERROR && ssh_is_connected(c->ses) && ssh_channel_is_open(c->chan);
    return open ? TERM_EOF : -1;
}

static int chan_read(void *ctx, unsigned char *buf, size_t n, int timeout_ms)
{
    struct ssh_conn *c = ctx;
    if (ssh_channel_is_eof(c->chan) && ssh_channel_is_open(c->chan))
        return wait_after_eof(c, timeout_ms);
    int r = ssh_channel_read_timeout(c->chan, buf, (uint32_t)n, 0, timeout_ms);
    if (r == SSH_ERROR || (r == 0 && !ssh_channel_is_open(c->chan)))
        return -1;
    if (r == 0 && ssh_channel_is_eof(c->chan))
        return TERM_EOF;
    return r;
}

static int chan_write(void *ctx, const void *buf, size_t n)
{
    struct ssh_conn *c = ctx;
    return ssh_channel_write(c->chan, buf, (uint32_t)n) == (int)n ? 0 : -1;
}

/* Lets the client answer our channel close and hang up first, so that it
 * ends quietly instead of reporting "closed by remote host". */
static void linger(struct ssh_conn *c)
{
    ssh_event ev = ssh_event_new();
    ssh_event_add_session(ev, c->ses);
    for (int i = 0; i < 10 && ssh_is_connected(c->ses) && !stopping(c); i++)
        if (ssh_event_dopoll(ev, 100) == SSH_ERROR)
            break;
    ssh_event_remove_session(ev, c->ses);
    ssh_event_free(ev);
}

static void run_channel(struct ssh_conn *c)
{
    struct term_transport tr = {chan_read, chan_write, c};
    struct term_opts o = *c->o;
    o.kind = "ssh";
    o.telnet = false;
    o.interactive = c->shell && c->pty;
    o.crlf = c->pty; /* `ssh -t host cmd` too: the client's tty is raw */
    o.from = c->from;
    o.rows = c->rows;
    o.cols = c->cols;
    c->term = term_new(&tr, &o);
    int rc = 0;
    if (c->shell)
        rc = term_shell(c->term, c->user, c->role);
    else
        rc = term_exec(c->term, c->user, c->role, c->command);
    term_free(c->term);
    c->term = NULL;
    ssh_channel_request_send_exit_status(c->chan, rc);
    ssh_channel_send_eof(c->chan);
    ssh_channel_close(c->chan);
    linger(c);
}

static void serve(struct ssh_server *srv, int fd, const char *from, const struct term_opts *o)
{
    struct ssh_conn *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->opts = *o;
    c->opts.kind = "ssh";
    c->opts.from = from;
    c->o = &c->opts;
    c->from = from;
    c->ses = ssh_new();
    c->deadline_ms = tsess_login_deadline_ms();
    long timeout = LOGIN_SECONDS;
    ssh_options_set(c->ses, SSH_OPTIONS_TIMEOUT, &timeout);
    c->scb.userdata = c;
    c->scb.auth_password_function = on_auth_password;
    c->scb.channel_open_request_session_function = on_channel_open;
    ssh_callbacks_init(&c->scb);
    pthread_mutex_lock(&srv->lock);
    int rc = ssh_bind_accept_fd(srv->bind, c->ses, fd);
    pthread_mutex_unlock(&srv->lock);
    bool owned = ssh_get_fd(c->ses) == fd; /* from here ssh_free closes it */
    if (rc == SSH_OK) {
        ssh_set_server_callbacks(c->ses, &c->scb);
        ssh_set_auth_methods(c->ses, SSH_AUTH_METHOD_PASSWORD);
        if (setup(c))
            run_channel(c);
    }
    if (c->chan) /* before the disconnect, which frees what is left of it */
        ssh_channel_free(c->chan);
    ssh_disconnect(c->ses);
    ssh_free(c->ses);
    free(c->command);
    free(c);
    if (!owned)
        close(fd);
}

const struct ssh_module mdsim_ssh_module = {.server_new = server_new, .server_free = server_free, .serve = serve};
