/* Port-channels of FCIP links: always on (the channel is an interface of
 * the switch, its members need `feature fcip`). Its engine part lives in
 * the fcip engine (backend/fcip/pchan.c), where the member links are; the
 * fcip reconcile reads the memberships. docs/port-channel.md. */
#include "feature.h"
#include "portchannel.h"
#include "pc_render.h"
#include "pc_show.h"

/* Members before the channels they name. */
static const struct owned_table tables[] = {{"port_channel_member", NULL}, {"port_channel", NULL}, {NULL, NULL}};

const struct feature portchannel_feature = {
    .name = "portchannel",
    .cmds = portchannel_cmds,
    .iftype = &pc_iftype,
    .render = {[SECTION_INTERFACES] = pc_render},
    .tables = tables,
    .show_interfaces = pc_show_interfaces,
    .show_brief = pc_show_brief,
    .values = portchannel_values,
    .mode_checks = portchannel_mode_checks,
};
