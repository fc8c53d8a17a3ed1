/*
 * A served terminal: the NX-OS line discipline between a byte stream and
 * a session (echo, line editing, history, `?`, Tab, `--More--`, Ctrl-C,
 * Ctrl-Z, idle timeout), shared by telnet, SSH, the console and the
 * browser, around the session service (term_session.h); and the telnet
 * transport itself (IAC negotiation). docs/telnet-ssh.md says why this is
 * ours and not libcli's.
 */
#ifndef MDSIM_TELNET_H
#define MDSIM_TELNET_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "term_session.h"

enum { TERM_EOF = -2 };

/* How a terminal moves bytes: a socket (telnet) or an SSH channel. */
struct term_transport {
    /* Up to n bytes: > 0 read, 0 none within timeout_ms, TERM_EOF the peer
     * sends no more but still listens (returned after waiting timeout_ms),
     * other < 0 peer gone. */
    int (*read)(void *ctx, unsigned char *buf, size_t n, int timeout_ms);
    /* All n bytes, or < 0 when the peer is gone. */
    int (*write)(void *ctx, const void *buf, size_t n);
    void *ctx;
};


struct term;

struct term *term_new(const struct term_transport *tr, const struct term_opts *o);
void term_free(struct term *t);
void term_set_window(struct term *t, int rows, int cols);

/* "login:" and "Password:" prompts, up to three tries within LOGIN_SECONDS
 * (telnet_serve; tests/fuzz/fuzz_terminal.c drives it without a socket). */
bool term_login(struct term *t, char *user, size_t n, enum role *role);
/* Runs the CLI until `exit`, end of input, idle timeout or shutdown;
 * without a terminal (a batch), 1 when a line failed, as replay; else 0. */
int term_shell(struct term *t, const char *user, enum role role);
/* One command without a prompt (an SSH exec request); 0 ok, 1 failed. */
int term_exec(struct term *t, const char *user, enum role role, const char *line);

/* Serves one accepted telnet connection to its end; closes fd. */
void telnet_serve(int fd, const char *from, const struct term_opts *o);

#endif
