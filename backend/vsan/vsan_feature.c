/* VSANs: always on (no gate). VSAN 1 exists on every switch; the vsan
 * database and port memberships are configuration, forgotten by reload
 * like the rest. Memberships of fcip interfaces go with the interface (a
 * trigger of the schema), whoever deletes it. */
#include "feature.h"
#include "vsan.h"

static const struct owned_table tables[] = {{"vsan_member", NULL}, {"vsan", NULL}, {NULL, NULL}};

const struct mode_info vsan_db_mode = {
    .name = "config-vsan-db",
    .prompt = "(config-vsan-db)",
    .parent = &mode_config,
    .is_config = true,
    .way_in = "vsan database",
};
static const struct mode_info *const modes[] = {&vsan_db_mode, NULL};

const struct feature vsan_feature = {
    .name = "vsan",
    .modes = modes,
    .cmds = vsan_cmds,
    .render = {[SECTION_GLOBAL] = vsan_render_vsans, [SECTION_INTERFACES] = vsan_render_members},
    .tables = tables,
};
