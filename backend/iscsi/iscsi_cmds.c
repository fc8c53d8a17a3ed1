/* iSCSI commands: the gate (`feature iscsi`, `iscsi enable`), `iscsi
 * enable module N`, `interface iscsi S/P` and its (config-if)#, and the
 * interfaces' shows. */
#include "session.h"
#include "feature.h"
#include "ifname.h"
#include "lab/lab.h"
#include "iscsi.h"
#include <stdio.h>
#include <string.h>

static int cmd_gate(struct session *s, const struct cmd_args *a)
{
    lab_set_feature(s->lab, s->sw, &iscsi_gate, !a->negated);
    return 0;
}

static int cmd_module(struct session *s, const struct cmd_args *a)
{
    int slot = (int)arg_num(a, "slot", 0);
    if (a->negated) {
        if (!iscsi_module_enabled(s->lab, s->sw, slot))
            return cmd_error(s, "%% iSCSI is not enabled on module %d", slot);
        iscsi_module_set(s->lab, s->sw, slot, false);
        return 0;
    }
    if (!lab_module(s->lab, s->sw, slot))
        return cmd_error(s, "%% Module %d is not present", slot);
    if (iscsi_module_ports(s->lab, s->sw, slot) == 0)
        return cmd_error(s, "%% Module %d is not an IPS module", slot);
    iscsi_module_set(s->lab, s->sw, slot, true);
    return 0;
}

const struct iftype iscsi_iftype = {"iscsi", "iscsi", true};

static int cmd_interface(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!iscsi_if_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    s->mode = MODE_IF;
    s->ctx.iftype = &iscsi_iftype;
    s->ctx.a = p->slot;
    s->ctx.b = p->port;
    s->ctx.nports = 0; /* not the port list of an earlier `interface g2/1-3` */
    ifname_format(s->ctx.ifname, sizeof s->ctx.ifname, &iscsi_iftype, p->slot, p->port);
    return 0;
}

/* The interface may have gone meanwhile (another session's `no iscsi
 * enable module`): the setting then has nothing to apply to, and the
 * mode's check refuses it before its handler runs. */
static bool if_ok(struct session *s)
{
    if (iscsi_if_exists(s->lab, s->sw, s->ctx.a, s->ctx.b))
        return true;
    cmd_error(s, "%% Interface %s does not exist", s->ctx.ifname);
    return false;
}

const struct mode_check iscsi_mode_checks[] = {
    {MODE_IF, &iscsi_iftype, if_ok},
    {MODE_EXEC, NULL, NULL},
};

static int cmd_shutdown(struct session *s, const struct cmd_args *a)
{
    struct iscsi_if_conf c;
    iscsi_if_get(s->lab, s->sw, s->ctx.a, s->ctx.b, &c);
    c.shutdown = !a->negated;
    iscsi_if_put(s->lab, s->sw, s->ctx.a, s->ctx.b, &c);
    return 0;
}

static int cmd_description(struct session *s, const struct cmd_args *a)
{
    struct iscsi_if_conf c;
    const char *text = a->negated ? "" : arg_str(a, "text");
    if (strlen(text) > 254)
        return cmd_error(s, "%% String exceeded max length of (254)");
    iscsi_if_get(s->lab, s->sw, s->ctx.a, s->ctx.b, &c);
    snprintf(c.description, sizeof c.description, "%s", text);
    iscsi_if_put(s->lab, s->sw, s->ctx.a, s->ctx.b, &c);
    return 0;
}

static const char *const gate_help = "feature: Command to enable/disable features\niscsi: Enable/Disable iSCSI";
static const char *const enable_help = "iscsi: Configure iSCSI\nenable: Enable/Disable iSCSI";

#define ISCSI_IF(syntax, help, fn) {MODES(MODE_IF), syntax, help, fn, 0, &iscsi_gate, &iscsi_iftype}

const struct cmd_def iscsi_cmds[] = {
    {MODES(MODE_CONFIG), "[no] feature iscsi", gate_help, cmd_gate, 0, 0, 0},
    {MODES(MODE_CONFIG), "[no] iscsi enable", enable_help, cmd_gate, 0, 0, 0},
    {MODES(MODE_CONFIG), "[no] iscsi enable module <slot:1-13>",
     "iscsi: Configure iSCSI\nenable: Enable/Disable iSCSI\nmodule: Enable iSCSI interfaces on a module\n"
     "slot: Slot of an IPS module",
     cmd_module, 0, &iscsi_gate, 0},
    {M_CONFIG_ALL, "interface iscsi <port:slot/port>", "iscsi: iSCSI interface\nport: Slot/port", cmd_interface,
     0, &iscsi_gate, 0},
    ISCSI_IF("[no] shutdown", NULL, cmd_shutdown),
    ISCSI_IF("switchport description <text:line>", "text: Description (up to 254 characters)", cmd_description),
    ISCSI_IF("no switchport description [<text:line>]", "text: Description", cmd_description),
    {MODES(MODE_EXEC), "show interface iscsi <port:slot/port>", "iscsi: iSCSI interface\nport: Slot/port",
     iscsi_show_interface, CMD_PIPE, &iscsi_gate, 0},
    {0},
};
