/* Feature and license status: what `show feature` and `show license
 * usage` report. No configuration of its own. */
#include "feature.h"
#include "license.h"

const struct feature license_feature = {
    .name = "license",
    .cmds = license_cmds,
};
