/* `[no] san-ext-tuner enable` in config mode: the gate of the tuner and of
 * the IP Network Simulator (`ips netsim ...`). Turning it off forgets their
 * state on the switch (the registry knows their tables). */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"

static int cmd_enable(struct session *s, const struct cmd_args *a)
{
    lab_set_feature(s->lab, s->sw, GATE_SANEXT, !a->negated);
    return 0;
}

const struct cmd_def sanext_cmds[] = {
    {M(MODE_CONFIG), "[no] san-ext-tuner enable",
     "san-ext-tuner: SAN extension tuner\nenable: Enable/disable the SAN extension tuner and IP network simulator",
     cmd_enable, 0, 0, 0},
    {0},
};
