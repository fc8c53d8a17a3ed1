#include "strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(strbuf *b) { b->data = NULL; b->len = b->cap = 0; }
void sb_free(strbuf *b) { free(b->data); sb_init(b); }
void sb_clear(strbuf *b) { b->len = 0; if (b->data) b->data[0] = '\0'; }
void sb_truncate(strbuf *b, size_t len)
{
    if (len < b->len) {
        b->len = len;
        b->data[len] = '\0';
    }
}

static void sb_reserve(strbuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
        abort(); /* out of memory: nothing sensible left to do */
    b->data = p;
    b->cap = cap;
}

void sb_add(strbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void sb_puts(strbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

void sb_vprintf(strbuf *b, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0)
        return;
    sb_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void sb_swap(strbuf *a, strbuf *b)
{
    strbuf t = *a;
    *a = *b;
    *b = t;
}

const char *sb_str(strbuf *b) { return b->data ? b->data : ""; }
