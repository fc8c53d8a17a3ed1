/*
 * A regular expression typed after `| include`, `| grep` ...: POSIX
 * syntax as NX-OS takes it, matched by PCRE2 with every cost bounded
 * (pattern length, nesting, compiled size, memory, steps per line), so that
 * no pattern can take seconds or gigabytes (docs/filters.md).
 */
#ifndef MDSIM_PATTERN_H
#define MDSIM_PATTERN_H
#include <stddef.h>

struct pattern;

enum pattern_syntax {
    PATTERN_ERE, /* extended: include, exclude, begin, section, egrep */
    PATTERN_BRE, /* basic: grep (`\|`, `\(`, `\{` are the operators) */
};

enum {
    PATTERN_ICASE = 1, /* grep ignore-case */
    PATTERN_WORD = 2,  /* grep word-exp: the match is a whole word */
    PATTERN_LINE = 4,  /* grep line-exp: the match is the whole line */
};

/* Longest pattern taken, as typed. */
enum { PATTERN_MAX_CHARS = 512 };

/* The compiled pattern, or NULL with the NX-OS style message in err. */
struct pattern *pattern_compile(const char *re, enum pattern_syntax syntax, int flags, char *err,
                                size_t errlen);
/* 1 when the line (n bytes, no newline) matches, 0 when not, -1 when the
 * match ran into a limit (the pattern is too costly for this line). */
int pattern_match(struct pattern *p, const char *line, size_t n);
/* The same, and where the first match is: bytes [*start, *end) of line. */
int pattern_find(struct pattern *p, const char *line, size_t n, size_t *start, size_t *end);
void pattern_free(struct pattern *p);

#endif
