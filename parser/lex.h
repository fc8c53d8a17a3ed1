/* Splits a command line into words, remembering where each one starts so
 * the caret of an error lands under the word as typed. */
#ifndef MDSIM_LEX_H
#define MDSIM_LEX_H
#include <stddef.h>

struct word {
    const char *s; /* not NUL-terminated: see len */
    size_t len;
    size_t off;    /* byte offset in the line */
};

struct words {
    struct word *w;
    int n, cap;
    const char *line;
};

/* Interface names typed without a space (`g2/2`, `fcip1`) become two words
 * (`g`, `2/2`), so the grammar declares `gigabitethernet <port:slot/port>`
 * once and both spellings match it. */
void lex_line(struct words *out, const char *line, size_t len);
void lex_free(struct words *w);

#endif
