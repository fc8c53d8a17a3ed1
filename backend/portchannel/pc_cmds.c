/* Port-channel commands: `interface port-channel N` and its (config-if)#
 * (shutdown, switchport trunk mode / allowed vsan, channel mode active),
 * `channel-group N [force]` of an fcip interface, the shows
 * (pc_show.c). docs/port-channel.md has the choices where the reference
 * is silent. */
#include "session.h"
#include "feature.h"
#include "ifname.h"
#include "lab/lab.h"
#include "portchannel.h"
#include "pc_store.h"
#include "pc_show.h"
#include <stdio.h>
#include <string.h>

const struct iftype pc_iftype = {"port-channel", "port-channel", false};

static int cmd_interface(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0);
    struct pc_conf c;
    if (a->negated) {
        if (!pc_get(s->lab, s->sw, id, &c))
            return cmd_error(s, "%% Interface port-channel%d does not exist", id);
        pc_delete(s->lab, s->sw, id); /* its members leave it (schema trigger) */
        return 0;
    }
    pc_create(s->lab, s->sw, id);
    s->mode = MODE_IF;
    s->ctx.iftype = &pc_iftype;
    s->ctx.a = id;
    s->ctx.b = 0;
    s->ctx.nports = 0;
    ifname_format(s->ctx.ifname, sizeof s->ctx.ifname, &pc_iftype, id, 0);
    return 0;
}

/* The channel's switchport settings hold for every member: a change is
 * copied onto them, as the switch maps a channel's settings onto its
 * ports. */
static void put_all(struct session *s, const struct pc_conf *c)
{
    pc_put(s->lab, s->sw, c);
    int ids[PC_MEMBERS_MAX], n = pc_members(s->lab, s->sw, c->id, ids);
    for (int i = 0; i < n; i++)
        fcip_if_set_switchport(s->lab, s->sw, ids[i], c->trunk_mode, &c->allowed);
}

static void conf_of_mode(struct session *s, struct pc_conf *c) { pc_get(s->lab, s->sw, s->ctx.a, c); }

static int cmd_shutdown(struct session *s, const struct cmd_args *a)
{
    struct pc_conf c;
    conf_of_mode(s, &c);
    c.shutdown = !a->negated;
    pc_put(s->lab, s->sw, &c);
    lab_settle(s->lab);
    return 0;
}

static int cmd_trunk_mode(struct session *s, const struct cmd_args *a)
{
    struct pc_conf c;
    conf_of_mode(s, &c);
    c.trunk_mode = a->negated          ? FCIP_TRUNK_ON
                   : arg_has(a, "off")  ? FCIP_TRUNK_OFF
                   : arg_has(a, "auto") ? FCIP_TRUNK_AUTO
                                        : FCIP_TRUNK_ON;
    put_all(s, &c);
    return 0;
}

/* As an fcip interface's list (vsan_trunk_allowed_apply). */
static int cmd_trunk_allowed(struct session *s, const struct cmd_args *a)
{
    struct pc_conf c;
    conf_of_mode(s, &c);
    if (!vsan_trunk_allowed_apply(&c.allowed, a))
        return cmd_error(s, "%% Invalid range");
    put_all(s, &c);
    return 0;
}

static int cmd_channel_mode(struct session *s, const struct cmd_args *a)
{
    struct pc_conf c;
    conf_of_mode(s, &c);
    c.mode_active = !a->negated;
    pc_put(s->lab, s->sw, &c);
    return 0;
}

/* ---- channel-group of an fcip interface ---- */

/* The first setting a member does not share with its channel, NULL when
 * compatible (the administrative parameters the guide lists that an fcip
 * interface has: trunk mode and allowed VSANs). */
static const char *incompatible(const struct fcip_if_conf *ic, const struct pc_conf *c)
{
    if (ic->trunk_mode != c->trunk_mode)
        return "trunk mode";
    if (memcmp(&ic->allowed, &c->allowed, sizeof c->allowed) != 0)
        return "allowed VSANs";
    return NULL;
}

static int cmd_channel_group(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0), fcip = s->ctx.a, now = pc_channel_of(s->lab, s->sw, fcip);
    if (a->negated) {
        if (!now)
            return cmd_error(s, "%% %s is not a member of any port-channel", s->ctx.ifname);
        if (id && id != now)
            return cmd_error(s, "%% %s is not a member of port-channel %d", s->ctx.ifname, id);
        pc_member_set(s->lab, s->sw, fcip, 0);
        return 0;
    }
    struct fcip_if_conf ic;
    struct pc_conf c;
    fcip_if_get(s->lab, s->sw, fcip, &ic);
    if (!pc_get(s->lab, s->sw, id, &c)) { /* a new channel takes its first port's settings */
        pc_create(s->lab, s->sw, id);
        pc_get(s->lab, s->sw, id, &c);
        c.trunk_mode = ic.trunk_mode;
        c.allowed = ic.allowed;
        pc_put(s->lab, s->sw, &c);
    }
    if (now == id)
        return 0;
    int ids[PC_MEMBERS_MAX];
    if (pc_members(s->lab, s->sw, id, ids) == PC_MEMBERS_MAX)
        return cmd_error(s, "%% port-channel %d already has %d members", id, PC_MEMBERS_MAX);
    const char *why = incompatible(&ic, &c);
    if (why && !arg_has(a, "force"))
        return cmd_error(s, "%% %s: port not compatible [%s]", s->ctx.ifname, why);
    if (why)
        fcip_if_set_switchport(s->lab, s->sw, fcip, c.trunk_mode, &c.allowed);
    pc_member_set(s->lab, s->sw, fcip, id);
    return 0;
}

#define PC_IF(syntax, help, fn) {MODES(MODE_IF), syntax, help, fn, 0, 0, &pc_iftype}
#define TRUNK_MODE_HELP                                                                              \
    "trunk: Configure trunking parameters on an interface\nmode: Configure trunking mode\non: Trunking " \
    "on\noff: Trunking off\nauto: Autosense trunking"
#define TRUNK_HELP                                                                                       \
    "trunk: Configure trunking parameters on an interface\nallowed: Configure allowed list for interface(s)\n" \
    "vsan: Configure allowed list of VSANs\nadd: Add VSAN id(s) to the allowed list\nexcept: Allow all VSANs "  \
    "but these\nremove: Remove VSAN id(s) from the allowed list\nvsans: VSAN id range\nall: All VSANs (1-4093)"
#define GROUP_HELP                                                                                         \
    "channel-group: Add to/remove from a port-channel\nid: Port-channel number\nforce: Give the interface " \
    "the port-channel's settings"
#define PC_SHOW_HELP "port-channel: Port-channel information\n"

const struct cmd_def portchannel_cmds[] = {
    {M_CONFIG_ALL, "[no] interface port-channel <id:1-256@port-channel>",
     "port-channel: Port Channel interface\nid: Port Channel number", cmd_interface, 0, 0, 0},
    PC_IF("[no] shutdown", NULL, cmd_shutdown),
    PC_IF("switchport trunk mode {on | off | auto}", TRUNK_MODE_HELP, cmd_trunk_mode),
    PC_IF("no switchport trunk mode [on | off | auto]", TRUNK_MODE_HELP, cmd_trunk_mode),
    PC_IF("switchport trunk allowed vsan {[add | except | remove] <vsans:list:1-4093> | all}", TRUNK_HELP,
          cmd_trunk_allowed),
    PC_IF("no switchport trunk allowed vsan [<vsans:list:1-4093> | all]", TRUNK_HELP, cmd_trunk_allowed),
    PC_IF("[no] channel mode active",
          "channel: Configure port-channel parameters\nmode: Configure the channel mode\nactive: Bring up the "
          "channel with the port-channel protocol (needed by write acceleration on its members)",
          cmd_channel_mode),
    {MODES(MODE_IF), "channel-group <id:1-256@port-channel> [force]", GROUP_HELP, cmd_channel_group, 0, &fcip_gate,
     &fcip_iftype},
    {MODES(MODE_IF), "no channel-group [<id:1-256@port-channel>]", GROUP_HELP, cmd_channel_group, 0, &fcip_gate,
     &fcip_iftype},
    {MODES(MODE_EXEC), "show port-channel summary", PC_SHOW_HELP "summary: Port-channel summary", pc_show_summary,
     CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show port-channel database [interface port-channel <id:1-256@port-channel>]",
     PC_SHOW_HELP "database: Port-channel database\ninterface: Interface\nport-channel: Port Channel "
                  "interface\nid: Port Channel number",
     pc_show_database, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show interface port-channel <id:1-256@port-channel> [brief]",
     "interface: Interface status and configuration\nport-channel: Port Channel interface\nid: Port Channel "
     "number\nbrief: Brief summary",
     pc_show_interface, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show running-config interface port-channel <id:1-256@port-channel>",
     "port-channel: Port Channel interface\nid: Port Channel number", pc_show_running, CMD_PIPE, 0, 0},
    {0},
};

static void list_channels(struct lab *lab, int sw, const struct cmd_args *so_far, const char *prefix,
                          bool (*add)(void *ctx, const char *value), void *ctx)
{
    (void)so_far, (void)prefix;
    int ids[PC_ID_MAX], n = pc_ids(lab, sw, ids);
    char text[8];
    for (int i = 0; i < n; i++) {
        snprintf(text, sizeof text, "%d", ids[i]);
        if (!add(ctx, text))
            return;
    }
}

const struct value_source portchannel_values[] = {
    {"port-channel", "Existing port-channel", list_channels},
    {NULL, NULL, NULL},
};

/* Another session's `no interface port-channel` leaves this one's mode
 * about nothing. */
static bool if_ok(struct session *s)
{
    struct pc_conf c;
    if (pc_get(s->lab, s->sw, s->ctx.a, &c))
        return true;
    cmd_error(s, "%% Interface %s does not exist", s->ctx.ifname);
    return false;
}

const struct mode_check portchannel_mode_checks[] = {
    {MODE_IF, &pc_iftype, if_ok},
    {MODE_EXEC, NULL, NULL},
};
