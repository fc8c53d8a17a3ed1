/* replay --verify: the fields a switch varies by itself (times, dates,
 * uptimes), masked so that two runs' lines compare equal (docs/replay.md). */
#ifndef MDSIM_VERIFY_MASK_H
#define MDSIM_VERIFY_MASK_H
#include <stddef.h>

/* The n bytes of line with every varying field replaced by "*", as a new
 * NUL-terminated string the caller frees. */
char *verify_mask(const char *line, size_t n);

#endif
