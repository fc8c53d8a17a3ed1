/* The running configuration, rendered from the store, and its save/replay. */
#ifndef MDSIM_RUNNING_H
#define MDSIM_RUNNING_H
#include <stdbool.h>
#include "strbuf.h"
#include "grammar.h"

struct lab;
struct session;

/* From the `version` line on: what `copy running-config startup-config`
 * saves and what `show running-config` prints below its header. */
void running_config_body(struct lab *lab, int sw, strbuf *out);
/* The same with defaults spelled out: `show running-config all`. */
void running_config_all(struct lab *lab, int sw, strbuf *out);

/* Would a reload lose changes: does the running configuration differ from
 * the startup one (from the factory one when nothing is saved)? */
bool running_config_unsaved(struct lab *lab, int sw);

/* Factory reset, then the saved startup text replayed through the parser.
 * Problems are reported into `report`; returns the number of failed lines. */
int running_config_reload(struct lab *lab, int sw, strbuf *report);
/* The saved startup text replayed over the running configuration as it
 * is (`copy startup-config running-config`): a merge, no reset. Reports
 * and returns as running_config_reload. */
int running_config_merge_startup(struct lab *lab, int sw, strbuf *report);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature config_feature;
extern const struct cmd_def config_cmds[];

#endif
