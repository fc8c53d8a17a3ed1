/* The browser's login table (http_sessions.h). */
#include "http_sessions.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

struct slot {
    bool used;
    char token[HTTP_TOKEN_HEX + 1];
    struct http_login l;
    uint64_t last_ms;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct slot slots[HTTP_SESSIONS_MAX];

/* No early exit on the first difference: the time taken tells nothing. */
static bool same_token(const char *a, const char *b)
{
    unsigned diff = 0;
    for (int i = 0; i < HTTP_TOKEN_HEX; i++)
        diff |= (unsigned char)a[i] ^ (unsigned char)b[i];
    return diff == 0;
}

static bool token_ok(const char *t)
{
    if (!t)
        return false;
    for (int i = 0; i < HTTP_TOKEN_HEX; i++)
        if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f')))
            return false;
    return t[HTTP_TOKEN_HEX] == '\0';
}

static bool new_token(char *out)
{
    unsigned char r[HTTP_TOKEN_HEX / 2];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
        return false;
    for (size_t i = 0; i < sizeof r; i++)
        snprintf(out + 2 * i, 3, "%02x", r[i]);
    return true;
}

/* A free slot, else the least recently used one. */
static struct slot *slot_for_new(void)
{
    struct slot *lru = &slots[0];
    for (int i = 0; i < HTTP_SESSIONS_MAX; i++) {
        if (!slots[i].used)
            return &slots[i];
        if (slots[i].last_ms < lru->last_ms)
            lru = &slots[i];
    }
    return lru;
}

bool http_sessions_add(const struct http_login *l, uint64_t now_ms, char token[HTTP_TOKEN_HEX + 1])
{
    if (!new_token(token))
        return false;
    pthread_mutex_lock(&mu);
    struct slot *s = slot_for_new();
    *s = (struct slot){.used = true, .l = *l, .last_ms = now_ms};
    memcpy(s->token, token, HTTP_TOKEN_HEX + 1);
    pthread_mutex_unlock(&mu);
    return true;
}

static struct slot *find(const char *token)
{
    for (int i = 0; i < HTTP_SESSIONS_MAX; i++)
        if (slots[i].used && same_token(slots[i].token, token))
            return &slots[i];
    return NULL;
}

bool http_sessions_find(const char *token, uint64_t now_ms, uint64_t idle_ms, struct http_login *l)
{
    if (!token_ok(token))
        return false;
    pthread_mutex_lock(&mu);
    struct slot *s = find(token);
    if (s && idle_ms && now_ms - s->last_ms > idle_ms) {
        memset(s, 0, sizeof *s);
        s = NULL;
    }
    if (s) {
        s->last_ms = now_ms;
        *l = s->l;
    }
    pthread_mutex_unlock(&mu);
    return s != NULL;
}

void http_sessions_remove(const char *token)
{
    if (!token_ok(token))
        return;
    pthread_mutex_lock(&mu);
    struct slot *s = find(token);
    if (s)
        memset(s, 0, sizeof *s);
    pthread_mutex_unlock(&mu);
}

int http_sessions_count(void)
{
    int n = 0;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < HTTP_SESSIONS_MAX; i++)
        n += slots[i].used;
    pthread_mutex_unlock(&mu);
    return n;
}

void http_sessions_reset(void)
{
    pthread_mutex_lock(&mu);
    memset(slots, 0, sizeof slots);
    pthread_mutex_unlock(&mu);
}
