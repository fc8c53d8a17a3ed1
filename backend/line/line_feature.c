/* Terminal lines (`line console`, `line vty`, `exec-timeout`). */
#include "feature.h"
#include "line.h"

static const struct owned_table tables[] = {{"line_config", NULL}, {NULL, NULL}};

const struct feature line_feature = {
    .name = "line",
    .cmds = line_cmds,
    .render = {[SECTION_LINES] = line_render_config},
    .tables = tables,
};
