/* The SAN Extension Tuner feature: `[no] san-ext-tuner enable` in config
 * mode. It gates the IP Network Simulator (`ips netsim ...`) and the tuner
 * itself; disabling it forgets their state on the switch. Its
 * running-config line is `san-ext-tuner enable` (lab.c's feature table). */
#include "session.h"
#include "commands.h"
#include "lab/lab.h"
#include "lab/feature.h"
#include "netsim/netsim.h"

static int cmd_enable(struct session *s, const struct cmd_args *a)
{
    if (a->negated)
        netsim_forget(s->lab, s->sw);
    lab_set_feature(s->lab, s->sw, FEAT_SANEXT, !a->negated);
    return 0;
}

const struct cmd_def sanext_cmds[] = {
    {M(MODE_CONFIG), "[no] san-ext-tuner enable",
     "san-ext-tuner: SAN extension tuner\nenable: Enable/disable the SAN extension tuner and IP network simulator",
     cmd_enable, 0, 0, 0},
    {0},
};
