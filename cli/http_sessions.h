/*
 * The browser's logins (docs/http.md): a bounded table of sessions, each
 * named by a random token that the page keeps in an HttpOnly,
 * SameSite=Strict cookie. A login proves a password on the lab's first
 * switch it opens (the throttled try) and is then good on every switch
 * where the same user has the same password, with that switch's role.
 * Thread-safe.
 */
#ifndef MDSIM_HTTP_SESSIONS_H
#define MDSIM_HTTP_SESSIONS_H
#include <stdbool.h>
#include <stdint.h>
#include "session.h"

enum {
    HTTP_SESSIONS_MAX = 32,  /* logged-in browsers; a new login pushes out the least recently used */
    HTTP_TOKEN_HEX = 32,     /* 128 random bits */
    HTTP_SWITCHES_MAX = 64,  /* as serve */
};

struct http_login {
    char user[33];
    uint64_t allowed;                   /* bit i: the user may open switch i */
    enum role role[HTTP_SWITCHES_MAX];  /* on each switch allowed */
};

/* A new session for l; token gets HTTP_TOKEN_HEX hex digits and a NUL.
 * False when no random bytes could be had. */
bool http_sessions_add(const struct http_login *l, uint64_t now_ms, char token[HTTP_TOKEN_HEX + 1]);
/* The session of token, used now; false when unknown or idle for longer
 * than idle_ms (0: no limit), then forgotten. */
bool http_sessions_find(const char *token, uint64_t now_ms, uint64_t idle_ms, struct http_login *l);
void http_sessions_remove(const char *token);
int http_sessions_count(void);
void http_sessions_reset(void); /* tests */

#endif
