/* The IP data plane's own command (`ping`); the data plane itself is the
 * lab's (ipnet.h), fed by the interface and netsim features. */
#include "feature.h"

extern const struct cmd_def ping_cmds[];

const struct feature ipnet_feature = {
    .name = "ipnet",
    .cmds = ping_cmds,
};
