/*
 * A switch's running configuration read as configuration, not as text
 * (docs/check.md): each line of `show running-config` in canonical form
 * (parser/canon.h), under the line it is indented below, so that a check
 * finds `use-profile 1` in the section of `interface fcip1` however either
 * side spells it.
 */
#ifndef MDSIM_RUNCONF_H
#define MDSIM_RUNCONF_H

struct runconf;

/* From the output of `show running-config` (its `!` lines skipped). */
struct runconf *runconf_read(const char *text);
void runconf_free(struct runconf *rc);

/* How much of a path of canonical lines, outermost first, the
 * configuration holds: n when all of it (`interface fcip 1` with
 * `use-profile 1` under it), 1 when only the first line, and so on. */
int runconf_find(const struct runconf *rc, char *const *keys, int n);

#endif
