/* The SAN Extension Tuner: `san-ext-tuner enable` is the gate of the tuner
 * and of the IP Network Simulator (netsim sits behind it). */
#include "feature.h"

extern const struct cmd_def sanext_cmds[];

const struct feature sanext_feature = {
    .name = "sanext",
    .cmds = sanext_cmds,
    .gate = GATE_SANEXT,
    .gate_name = "san-ext-tuner",
    .gate_line = "san-ext-tuner enable",
};
