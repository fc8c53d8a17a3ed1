/* Local users (`username ... role ...`). */
#include "feature.h"
#include "user.h"

/* admin stays, with its password: a reset switch must stay reachable */
static const struct owned_table tables[] = {{"user_account", "name = 'admin'"}, {NULL, NULL}};

const struct feature user_feature = {
    .name = "user",
    .cmds = user_cmds,
    .render = {[SECTION_GLOBAL] = user_render_config},
    .tables = tables,
};
