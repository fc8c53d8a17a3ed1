/* Feature and license status: `show feature` (the gates of the registry)
 * and `show license usage`. No configuration of its own. */
#ifndef MDSIM_LICENSE_H
#define MDSIM_LICENSE_H
#include "grammar.h"

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature license_feature;
extern const struct cmd_def license_cmds[];

#endif
