/* Terminal lines: `line console` and `line vty` with `exec-timeout`, the
 * idle time after which a session is logged out. */
#ifndef MDSIM_LINE_H
#define MDSIM_LINE_H
#include "strbuf.h"
#include "grammar.h"

struct lab;

enum line_kind { LINE_CONSOLE, LINE_VTY };

/* Seconds of idle time allowed on the switch's line, 0 for no limit; a
 * line with no exec-timeout configured gets `fallback` (a lab default). */
int line_idle_seconds(struct lab *lab, int sw, enum line_kind k, int fallback);

void line_render_config(struct lab *lab, int sw, strbuf *out);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature line_feature;
extern const struct cmd_def line_cmds[];
struct mode_info;
/* (config-line): `line console`, `line vty` (docs/registry.md). */
extern const struct mode_info line_mode;

#endif
