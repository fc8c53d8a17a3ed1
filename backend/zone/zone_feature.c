/* Zoning, the default zone policy only: always on (no gate); its rows are
 * configuration, forgotten by reload like the rest. The fabric enforces
 * it (fabric_set_zone_permit), reconciled by the fabric's feature. */
#include "feature.h"
#include "zone.h"

extern const struct cmd_def zone_cmds[];

static const struct owned_table tables[] = {{"zone_default_permit", NULL}, {NULL, NULL}};

const struct feature zone_feature = {
    .name = "zone",
    .cmds = zone_cmds,
    .render = {[SECTION_GLOBAL] = zone_render},
    .tables = tables,
};
