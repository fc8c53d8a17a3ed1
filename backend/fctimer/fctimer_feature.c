/* fctimer: always on (no gate); its row is configuration, forgotten by
 * reload like the rest. The fcip reconcile reads the timers for the ELP. */
#include "feature.h"
#include "fctimer.h"

static const struct owned_table tables[] = {{"fctimer", NULL}, {NULL, NULL}};

const struct feature fctimer_feature = {
    .name = "fctimer",
    .cmds = fctimer_cmds,
    .render = {[SECTION_GLOBAL] = fctimer_render},
    .tables = tables,
};
