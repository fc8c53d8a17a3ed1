/* fcdomain: the domain ID each VSAN asks for (configuration), `fcdomain
 * restart` (the fabric built again), `show fcdomain` and `show running-
 * config fcdomain`. The running domains are the fabric engine's
 * (backend/fabric); the choices are in docs/fcdomain.md. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "fabric/fabric.h"
#include "system/system.h"
#include "vsan/vsan.h"
#include "fcdomain.h"
#include "fabric/fabric_feature.h"
#include <stdio.h>
#include <string.h>

#define CONFIGURED_FABRIC_NAME "20:01:00:05:30:00:28:df" /* an MDS's default */

static struct fabric *fabric_of(struct session *s)
{
    lab_reconcile(s->lab);
    return fabric_of_lab(s->lab);
}

/* The VSANs of the list, all on the switch, or an error naming the first
 * that is not (and nothing done). */
static int vsans_present(struct session *s, const struct cmd_args *a, struct vsan_set *v)
{
    vsan_set_parse(v, arg_str(a, "vsans"));
    for (int id = 1; id <= VSAN_MAX_USER; id++)
        if (vsan_set_has(v, id) && (id == VSAN_EVFP || !vsan_exists(s->lab, s->sw, id)))
            return cmd_error(s, "%% vsan %d is not configured", id);
    return 0;
}

/* The `no` form goes back to the default (any domain, preferred) whatever
 * domain and type it names. */
static int cmd_domain(struct session *s, const struct cmd_args *a)
{
    struct vsan_set v;
    if (vsans_present(s, a, &v) != 0)
        return -1;
    for (int id = 1; id <= VSAN_MAX_USER; id++) {
        if (!vsan_set_has(&v, id))
            continue;
        struct fcdomain_conf c = {id, (int)arg_num(a, "id", 1), arg_has(a, "static")};
        if (a->negated)
            fcdomain_clear(s->lab, s->sw, id);
        else
            fcdomain_set(s->lab, s->sw, &c);
    }
    return 0;
}

/* Changes the engine only: the running domains are not configuration. */
static int cmd_restart(struct session *s, const struct cmd_args *a)
{
    struct vsan_set v;
    if (vsans_present(s, a, &v) != 0)
        return -1;
    fabric_restart(fabric_of(s), s->sw, &v, arg_has(a, "disruptive"));
    return 0;
}

/* The NX-OS layout [G: recalled, no capture in the reference]; the values
 * mdsim does not model (priority, persistence...) at their defaults. */
static int show_fcdomain(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fabric_of(s);
    int vsan = (int)arg_num(a, "vid", 1);
    if (!fabric_has_vsan(fab, s->sw, vsan))
        return cmd_error(s, "%% vsan %d is not configured", vsan);
    int principal = fabric_principal(fab, s->sw, vsan), dom = fabric_domain(fab, s->sw, vsan);
    char local[32], fabric_name[32];
    fabric_switch_wwn(fab, s->sw, local, sizeof local);
    fabric_switch_wwn(fab, principal, fabric_name, sizeof fabric_name);
    struct fcdomain_conf c = {vsan, 0, false};
    fcdomain_get(s->lab, s->sw, vsan, &c);
    cmd_printf(s, "The local switch is %s.\n\n",
               principal == s->sw ? "the Principal Switch" : "a Subordinated Switch");
    cmd_printf(s, "Local switch run time information:\n        State: Stable\n"
                  "        Local switch WWN:    %s\n        Running fabric name: %s\n"
                  "        Running priority: 128\n        Current domain ID: 0x%02x(%d)\n\n",
               local, fabric_name, dom, dom);
    cmd_printf(s, "Local switch configuration information:\n        State: Enabled\n"
                  "        FCID persistence: Enabled\n        Auto-reconfiguration: Disabled\n"
                  "        Contiguous-allocation: Disabled\n        Configured fabric name: %s\n"
                  "        Configured priority: 128\n        Configured domain ID: 0x%02x(%d) (%s)\n\n",
               CONFIGURED_FABRIC_NAME, c.domain, c.domain, c.is_static ? "static" : "preferred");
    cmd_printf(s, "Principal switch run time information:\n        Running priority: 128\n");
    return 0;
}

/* mds-cli-14-fcip.md §14.2-B: one row per domain, local and principal tagged. */
static int show_domains(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fabric_of(s);
    int vsan = (int)arg_num(a, "vid", 1), sws[256];
    if (!fabric_has_vsan(fab, s->sw, vsan))
        return cmd_error(s, "%% vsan %d is not configured", vsan);
    int n = fabric_reachable(fab, s->sw, vsan, sws, 256), principal = fabric_principal(fab, s->sw, vsan);
    cmd_printf(s, "\nNumber of domains: %d\nDomain ID              WWN\n---------    -----------------------\n", n);
    for (int i = 0; i < n; i++) {
        char wwn[32], id[16];
        int dom = fabric_domain(fab, sws[i], vsan);
        fabric_switch_wwn(fab, sws[i], wwn, sizeof wwn);
        snprintf(id, sizeof id, "0x%02x(%d)", dom, dom);
        cmd_printf(s, "%-13s%s%s%s\n", id, wwn, sws[i] == s->sw ? " [Local]" : "",
                   sws[i] == principal ? " [Principal]" : "");
    }
    return 0;
}

static int show_running(struct session *s, const struct cmd_args *a)
{
    (void)a;
    char t[64];
    system_ctime(s->lab, s->sw, t, sizeof t);
    cmd_printf(s, "!Command: show running-config fcdomain\n!Time: %s\n\nversion %s\n", t, SYSTEM_RELEASE);
    fcdomain_render(s->lab, s->sw, &s->out);
    return 0;
}

#define DOMAIN_HELP                                                                                                \
    "fcdomain: Configure fcdomain parameters\ndomain: Configure the domain ID of the switch\nid: Domain ID\n"      \
    "static: The switch isolates rather than take another domain\n"                                                \
    "preferred: The switch takes another domain when this one is taken\nvsan: VSANs of the domain\n"               \
    "vsans: VSAN ids (1-10,20)"
#define RESTART_HELP                                                                                               \
    "fcdomain: Configure fcdomain parameters\nrestart: Build the VSAN's fabric again\n"                            \
    "disruptive: Reconfigure the fabric: the configured domain takes effect\nvsan: VSANs to restart\n"             \
    "vsans: VSAN ids (1-10,20)"

const struct cmd_def fcdomain_cmds[] = {
    {MODES(MODE_CONFIG), "[no] fcdomain domain <id:1-239> {static | preferred} vsan <vsans:list:1-4093>", DOMAIN_HELP,
     cmd_domain, 0, 0, 0},
    {MODES(MODE_CONFIG), "fcdomain restart [disruptive] vsan <vsans:list:1-4093>", RESTART_HELP, cmd_restart, 0, 0, 0},
    {MODES(MODE_EXEC), "show fcdomain vsan <vid:1-4093>",
     "fcdomain: Display fcdomain information\nvsan: VSAN of the domain\nvid: VSAN id", show_fcdomain, CMD_PIPE, 0,
     0},
    {MODES(MODE_EXEC), "show fcdomain domain-list vsan <vid:1-4093>",
     "fcdomain: Display fcdomain information\ndomain-list: Display the list of domain IDs\nvsan: VSAN of the "
     "domains\nvid: VSAN id",
     show_domains, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show running-config fcdomain", "fcdomain: Show fcdomain configuration", show_running, CMD_PIPE,
     0, 0},
    {0},
};
