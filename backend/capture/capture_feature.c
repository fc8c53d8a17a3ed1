/* capture: ethanalyzer on a data plane port (capture_cmds.c); the writer
 * is capture.c, the tap ipnet's. No table, no engine part of its own. */
#include "feature.h"
#include "capture.h"

const struct feature capture_feature = {
    .name = "capture",
    .cmds = capture_cmds,
};
