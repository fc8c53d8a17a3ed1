/*
 * A line in canonical form, so that two spellings of one configuration
 * line compare equal as configuration, not as text: the line is matched
 * through the grammar in a mode, as a session matches it, and written back
 * with every keyword in full and in lower case and every value as the
 * parser read it. `int fcip1` and `interface fcip1` both give "interface
 * fcip 1"; `use-prof 010` and `use-profile 10` give "use-profile 10".
 * `mdsim check` compares running configurations with it (docs/check.md).
 */
#ifndef MDSIM_CANON_H
#define MDSIM_CANON_H
#include <stddef.h>
#include "match.h"
#include "strbuf.h"

struct canon_error {
    enum match_status status; /* MATCH_OK when the line was read */
    size_t off;               /* where in the line it went wrong */
    long lo, hi;              /* MATCH_RANGE: the range missed (match_error_text) */
};

/* The line read in mode m, every command allowed (no feature needs to be
 * enabled): its canonical form appended to out, or false with e set. */
bool canon_line(const struct mode_info *m, const char *line, strbuf *out, struct canon_error *e);

/* A line under a line of mode `parent` in a running configuration (`  no
 * shutdown` under `interface fcip1`): read in the first of parent's
 * sub-modes whose commands take it, which goes to *m. The sub-mode is not
 * the one the parent line enters (handlers, not the grammar, choose
 * that), but both sides of a comparison are read the same way, so a line
 * still equals only its own spellings. */
bool canon_child(const struct mode_info *parent, const char *line, strbuf *out, const struct mode_info **m,
                 struct canon_error *e);

/* A line of a configuration as `show running-config` nests it: at the top
 * (parent NULL) read in config mode, else under its parent line's mode as
 * canon_child does; the mode it was read in goes to *m. */
bool canon_config(const struct mode_info *const *parent, const char *line, strbuf *out, const struct mode_info **m,
                  struct canon_error *e);

#endif
