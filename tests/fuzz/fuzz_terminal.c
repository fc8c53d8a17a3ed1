/*
 * libFuzzer target: the bytes a telnet or SSH client sends to a served
 * terminal (cli/telnet.c): telnet negotiation and NAWS, escape sequences,
 * line editing, history, `?`, Tab, --More--, questions, the login prompts.
 * The terminal is driven through its transport, from memory: no socket.
 *
 * The first byte of the input chooses the connection, the rest is what
 * the client sends; when it is all read the client has hung up.
 *   bits 0-2  0: telnet, login first, as `mdsim serve` does (one value
 *                in eight: a login with a new password costs a crypt)
 *             1-3: telnet, already logged in
 *             4: SSH shell with a pty     5: SSH shell without (ssh -T)
 *             6: SSH exec request         7: SSH exec with a pty (ssh -t)
 *   bit 3     logged in as an operator instead of admin (kinds 1-7)
 *   bits 4-5  the client's bytes arrive 1024, 1, 2 or 7 at a time
 *   bits 6-7  window size known at the start: none, 24x80, 1x24, 511x511
 * An exec request is the rest of the input up to its first NUL.
 */
#include "fuzz_lab.h"
#include "telnet.h"
#include "login_throttle.h"
#include "user/user.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wire {
    const uint8_t *p;
    size_t left, chunk;
};

static int wire_read(void *ctx, unsigned char *buf, size_t n, int timeout_ms)
{
    struct wire *w = ctx;
    (void)timeout_ms;
    if (!w->left)
        return -1;
    if (n > w->chunk)
        n = w->chunk;
    if (n > w->left)
        n = w->left;
    memcpy(buf, w->p, n);
    w->p += n;
    w->left -= n;
    return (int)n;
}

static int wire_write(void *ctx, const void *buf, size_t n)
{
    (void)ctx;
    fuzz_output(buf, n);
    return 0;
}

enum { K_LOGIN = 0, K_SSH_PTY = 4, K_SSH_BATCH = 5, K_EXEC = 6, K_EXEC_PTY = 7 };

static void run(struct term *t, int kind, enum role role, const uint8_t *data, size_t size)
{
    char user[USER_NAME_MAX + 1] = "admin";
    if (kind == K_LOGIN) {
        if (term_login(t, user, sizeof user, &role))
            term_shell(t, user, role);
    } else if (kind >= K_EXEC) {
        char *line = strndup((const char *)data, size);
        if (!line)
            abort();
        term_exec(t, user, role, line);
        free(line);
    } else {
        term_shell(t, user, role);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t chunks[] = {1024, 1, 2, 7};
    static const int windows[][2] = {{0, 0}, {24, 80}, {1, 24}, {511, 511}};
    if (size == 0)
        return 0;
    unsigned flags = data[0];
    int kind = flags & 7;
    bool ssh = kind >= K_SSH_PTY;
    struct wire w = {data + 1, size - 1, chunks[flags >> 4 & 3]};
    struct term_transport tr = {wire_read, wire_write, &w};
    atomic_bool stop = false;
    struct term_opts o = { /* as cli/serve.c and cli/ssh.c set them */
        .lab = fuzz_lab_begin(),
        .sw = 0,
        .kind = ssh ? "ssh" : "telnet",
        .from = "192.0.2.1",
        .telnet = !ssh,
        .interactive = kind < K_SSH_BATCH,
        .crlf = kind != K_SSH_BATCH && kind != K_EXEC,
        .rows = windows[flags >> 6][0],
        .cols = windows[flags >> 6][1],
        .stop = &stop,
    };
    /* The throttle counts failed logins across connections: forgotten, so
     * that each input starts from the same state. */
    login_throttle_reset();
    struct login_ticket ticket = {0};
    if (kind == K_LOGIN && login_ticket_take(&ticket, o.from)) /* as cli/serve.c at accept */
        o.ticket = &ticket;
    struct term *t = term_new(&tr, &o);
    run(t, kind, kind && (flags & 8) ? ROLE_OPERATOR : ROLE_ADMIN, data + 1, size - 1);
    term_free(t);
    login_ticket_drop(&ticket);
    fuzz_lab_end();
    return 0;
}
