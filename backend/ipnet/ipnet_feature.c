/* The IP data plane's own command (`ping`); the data plane itself is the
 * lab's (ipnet.h), fed by the interface and netsim features. */
#include "feature.h"
#include "ping_cmds.h"

const struct feature ipnet_feature = {
    .name = "ipnet",
    .cmds = ping_cmds,
};
