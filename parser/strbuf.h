/* Growable byte buffer: command output is built here before filters and pager. */
#ifndef MDSIM_STRBUF_H
#define MDSIM_STRBUF_H
#include <stddef.h>
#include <stdarg.h>

typedef struct strbuf {
    char *data;
    size_t len, cap;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_clear(strbuf *b);
/* Drops what follows the first len bytes. */
void sb_truncate(strbuf *b, size_t len);
void sb_add(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
/* Exchanges the contents of a and b (pointers only, nothing copied). */
void sb_swap(strbuf *a, strbuf *b);
const char *sb_str(strbuf *b);

#endif
