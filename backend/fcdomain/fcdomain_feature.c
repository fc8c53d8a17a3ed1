/* fcdomain: always on (no gate); its rows are configuration, forgotten by
 * reload like the rest. Listed after the vsan feature, so its lines follow
 * the vsan database in the running configuration (mds-cli.md §2.7). The
 * fabric's reconcile hands the configuration to the engine. */
#include "feature.h"
#include "fcdomain.h"

static const struct owned_table tables[] = {{"fcdomain_domain", NULL}, {NULL, NULL}};

const struct feature fcdomain_feature = {
    .name = "fcdomain",
    .cmds = fcdomain_cmds,
    .render = {[SECTION_GLOBAL] = fcdomain_render},
    .tables = tables,
};
