/* The management port mgmt0: its commands, its store table and its
 * running-config block. */
#include "feature.h"
#include "mgmt.h"

static const struct owned_table tables[] = {{"mgmt_port", NULL}, {NULL, NULL}};

/* MDS prints mgmt0 among the global settings, before `switchname` and the
 * port blocks (mds-cli.md §2.7 [C]); Nexus prints it after its ports. */
static void render(struct lab *lab, int sw, strbuf *out)
{
    mgmt_render_config(lab, sw, out, false);
}

const struct feature mgmt_feature = {
    .name = "mgmt",
    .cmds = mgmt_cmds,
    .iftype = &mgmt_iftype,
    .render = {[SECTION_GLOBAL] = render},
    .tables = tables,
    .show_interfaces = mgmt_show_all,
    .show_brief = mgmt_show_brief,
};
