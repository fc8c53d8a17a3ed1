/* bootflash: its commands. Its table belongs to the lab (storage, not
 * configuration: lab_owned_tables), so the feature owns none. */
#include "feature.h"
#include "bootflash.h"

const struct feature bootflash_feature = {
    .name = "bootflash",
    .cmds = bootflash_cmds,
};
