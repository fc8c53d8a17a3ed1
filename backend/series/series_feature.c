/* series: the CLI of the lab's time series (series_cmds.c). The
 * recording is the lab's (lab_set_observer), no table, no engine part. */
#include "feature.h"
#include "series.h"

const struct feature series_feature = {
    .name = "series",
    .cmds = series_cmds,
};
