/* Showing, saving and reloading the configuration. The startup
 * configuration belongs to the lab (a reload keeps it). */
#include "feature.h"
#include "running.h"

const struct feature config_feature = {
    .name = "config",
    .cmds = config_cmds,
};
