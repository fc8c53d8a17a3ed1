/* Terminal columns taken by UTF-8 text, so that a caret lands under the
 * character it blames whatever was typed before it. */
#ifndef MDSIM_TEXTWIDTH_H
#define MDSIM_TEXTWIDTH_H
#include <stddef.h>

/* Columns of the first n bytes of s (valid UTF-8 expected; a byte that is
 * not counts one column). Wide (CJK, emoji) characters take two columns,
 * combining marks none. */
size_t text_columns(const char *s, size_t n);

#endif
