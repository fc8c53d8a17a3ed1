/* Terminal lines (`line console`, `line vty`, `exec-timeout`). */
#include "feature.h"
#include "line.h"

static const struct owned_table tables[] = {{"line_config", NULL}, {NULL, NULL}};

const struct mode_info line_mode = {
    .name = "config-line",
    .prompt = "(config-line)",
    .parent = &mode_config,
    .is_config = true,
    .about = "line",
};
static const struct mode_info *const modes[] = {&line_mode, NULL};

const struct feature line_feature = {
    .name = "line",
    .modes = modes,
    .cmds = line_cmds,
    .render = {[SECTION_LINES] = line_render_config},
    .tables = tables,
};
