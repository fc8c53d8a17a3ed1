/* iSCSI behind `feature iscsi` (`iscsi enable`): the modules with iSCSI
 * enabled and their iscsiS/P interfaces. Configuration only: no engine. */
#include "feature.h"
#include "iscsi.h"

/* Interfaces before the modules they hang on. */
static const struct owned_table tables[] = {{"iscsi_if", NULL}, {"iscsi_module", NULL}, {NULL, NULL}};

const struct gate iscsi_gate = {"iscsi", "feature iscsi"};

const struct feature iscsi_feature = {
    .name = "iscsi",
    .cmds = iscsi_cmds,
    .iftype = &iscsi_iftype,
    .gate = &iscsi_gate,
    .declares = &iscsi_gate,
    .render = {[SECTION_GLOBAL] = iscsi_render_modules, [SECTION_INTERFACES] = iscsi_render_ifs},
    .render_all = {[SECTION_INTERFACES] = iscsi_render_all_ifs},
    .tables = tables,
    .show_interfaces = iscsi_show_all,
    .show_brief = iscsi_show_brief,
    .mode_checks = iscsi_mode_checks,
};
