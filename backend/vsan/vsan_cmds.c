/* `vsan database` and its (config-vsan-db)#: VSANs, their names and the
 * port VSAN of interfaces; `show vsan` and `show vsan membership`. Only
 * fcip interfaces have a port VSAN on this switch model. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "vsan.h"
#include "vsan_store.h"
#include "fcip/fcip.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmd_database(struct session *s, const struct cmd_args *a)
{
    (void)a;
    s->mode = &vsan_db_mode;
    return 0;
}

static int cmd_vsan(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "vid", 0);
    const char *name = arg_str(a, "vname");
    char old[33];
    if (name && strlen(name) > 32)
        return cmd_error(s, "%% String exceeded max length of (32)");
    int holder = name ? vsan_named(s->lab, s->sw, name) : 0;
    if (holder && holder != id)
        return cmd_error(s, "%% VSAN name %s is already in use", name);
    bool row = vsan_row(s->lab, s->sw, id, old);
    if (name || !row)
        vsan_row_set(s->lab, s->sw, id, name);
    return 0;
}

static int cmd_no_vsan(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "vid", 0);
    char name[33];
    if (arg_has(a, "name")) { /* back to the default name */
        if (vsan_row(s->lab, s->sw, id, name))
            vsan_row_set(s->lab, s->sw, id, NULL);
        return 0;
    }
    if (id == 1)
        return cmd_error(s, "%% Default VSAN 1 cannot be deleted");
    if (!vsan_row(s->lab, s->sw, id, name))
        return cmd_error(s, "%% vsan not present");
    if (!cmd_confirm(s, "Do you want to continue? (y/n)  [n]"))
        return 0;
    vsan_row_delete(s->lab, s->sw, id);
    return 0;
}

static int cmd_member(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "vid", 0), fcip = (int)arg_num(a, "id", 0);
    char ifname[32];
    struct fcip_if_conf c;
    snprintf(ifname, sizeof ifname, "fcip%d", fcip);
    if (!fcip_if_get(s->lab, s->sw, fcip, &c))
        return cmd_error(s, "%% Interface %s does not exist", ifname);
    if (a->negated) {
        if (vsan_port_vsan(s->lab, s->sw, ifname) != id)
            return cmd_error(s, "%% Interface %s is not a member of vsan %d", ifname, id);
        vsan_member_set(s->lab, s->sw, ifname, 1);
        return 0;
    }
    if (id == VSAN_EVFP || !vsan_exists(s->lab, s->sw, id))
        return cmd_error(s, "%% vsan not present");
    vsan_member_set(s->lab, s->sw, ifname, id);
    return 0;
}

/* How the VSAN's port-channels spread its frames (docs/port-channel.md). */
static int cmd_loadbalancing(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "vid", 0);
    if (!vsan_exists(s->lab, s->sw, id))
        return cmd_error(s, "%% vsan not present");
    vsan_lb_set(s->lab, s->sw, id, !a->negated && arg_has(a, "src-dst-id"));
    return 0;
}

/* ---- membership lists ---- */

struct member {
    int fcip, vsan;
};
struct members {
    struct member *m;
    int n;
    struct lab *lab;
    int sw;
};

static void collect(void *ctx, const struct fcip_if_conf *c)
{
    struct members *ms = ctx;
    char ifname[32];
    snprintf(ifname, sizeof ifname, "fcip%d", c->id);
    ms->m[ms->n++] = (struct member){c->id, vsan_port_vsan(ms->lab, ms->sw, ifname)};
}

static int by_vsan(const void *x, const void *y)
{
    const struct member *a = x, *b = y;
    return a->vsan != b->vsan ? a->vsan - b->vsan : a->fcip - b->fcip;
}

/* The fcip interfaces of the switch with their port VSANs, by VSAN. */
static void members_get(struct lab *lab, int sw, struct members *ms, struct member buf[255])
{
    *ms = (struct members){buf, 0, lab, sw};
    fcip_ifs_each(lab, sw, collect, ms);
    qsort(buf, (size_t)ms->n, sizeof *buf, by_vsan);
}

/* Running-config: the VSANs first (global section) ... */
void vsan_render_vsans(struct lab *lab, int sw, strbuf *out)
{
    int ids[VSAN_MAX_USER], n = vsan_ids(lab, sw, ids, VSAN_MAX_USER);
    char name[33], dflt[33];
    if (n)
        sb_printf(out, "vsan database\n");
    for (int i = 0; i < n; i++) {
        vsan_row(lab, sw, ids[i], name);
        snprintf(dflt, sizeof dflt, "VSAN%04d", ids[i]);
        if (strcmp(name, dflt) != 0)
            sb_printf(out, "  vsan %d name %s\n", ids[i], name);
        else
            sb_printf(out, "  vsan %d\n", ids[i]);
        if (vsan_lb_src_dst_id(lab, sw, ids[i]))
            sb_printf(out, "  vsan %d loadbalancing src-dst-id\n", ids[i]);
    }
}

/* ... the memberships after the interfaces they name. */
void vsan_render_members(struct lab *lab, int sw, strbuf *out)
{
    struct member buf[255];
    struct members ms;
    members_get(lab, sw, &ms, buf);
    bool head = false;
    for (int i = 0; i < ms.n; i++) {
        if (ms.m[i].vsan == 1)
            continue;
        if (!head)
            sb_printf(out, "\nvsan database\n");
        head = true;
        sb_printf(out, "  vsan %d interface fcip%d\n", ms.m[i].vsan, ms.m[i].fcip);
    }
}

static void show_one(struct session *s, int id)
{
    char name[33];
    if (id == VSAN_EVFP || id == VSAN_ISOLATED) {
        cmd_printf(s, "vsan %d:%s\n\n", id, id == VSAN_EVFP ? "evfp_isolated_vsan" : "isolated_vsan");
        return;
    }
    vsan_row(s->lab, s->sw, id, name);
    cmd_printf(s,
               "vsan %d information\n"
               "         name:%s  state:active\n"
               "         interoperability mode:default\n"
               "         loadbalancing:%s\n"
               "         operational state:down\n\n",
               id, name, vsan_lb_src_dst_id(s->lab, s->sw, id) ? "src-id/dst-id" : "src-id/dst-id/oxid");
}

static int show_vsan(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "vid", 0);
    if (id) {
        if (!vsan_exists(s->lab, s->sw, id))
            return cmd_error(s, "%% vsan not present");
        show_one(s, id);
        return 0;
    }
    int ids[VSAN_MAX_USER], n = vsan_ids(s->lab, s->sw, ids, VSAN_MAX_USER);
    if (n == 0 || ids[0] != 1)
        show_one(s, 1);
    for (int i = 0; i < n; i++)
        show_one(s, ids[i]);
    show_one(s, VSAN_EVFP);
    show_one(s, VSAN_ISOLATED);
    return 0;
}

/* One VSAN's members, four to a line in 18 columns. */
static void show_members_of(struct session *s, int vsan, const char *label, const struct members *ms)
{
    cmd_printf(s, "vsan %d%s interfaces:\n", vsan, label);
    int k = 0;
    for (int i = 0; i < ms->n; i++)
        if (ms->m[i].vsan == vsan) {
            char ifname[32];
            snprintf(ifname, sizeof ifname, "fcip%d", ms->m[i].fcip);
            cmd_printf(s, "%s%-18s", k % 4 == 0 ? "    " : "", ifname);
            if (++k % 4 == 0)
                cmd_printf(s, "\n");
        }
    if (k == 0 || k % 4 != 0)
        cmd_printf(s, "\n");
}

static int show_membership_if(struct session *s, const struct cmd_args *a)
{
    struct fcip_if_conf c;
    int id = (int)arg_num(a, "id", 0);
    if (!fcip_if_get(s->lab, s->sw, id, &c))
        return cmd_error(s, "%% Interface fcip%d does not exist", id);
    strbuf list;
    sb_init(&list);
    vsan_set_format(&c.allowed, &list);
    char ifname[32];
    snprintf(ifname, sizeof ifname, "fcip%d", id);
    cmd_printf(s, "%s\n        vsan:%d\n        allowed list:%s\n", ifname, vsan_port_vsan(s->lab, s->sw, ifname),
               sb_str(&list));
    sb_free(&list);
    return 0;
}

static int show_membership(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct member buf[255];
    struct members ms;
    members_get(s->lab, s->sw, &ms, buf);
    int ids[VSAN_MAX_USER], n = vsan_ids(s->lab, s->sw, ids, VSAN_MAX_USER);
    if (n == 0 || ids[0] != 1)
        show_members_of(s, 1, "", &ms);
    for (int i = 0; i < n; i++)
        show_members_of(s, ids[i], "", &ms);
    show_members_of(s, VSAN_EVFP, "(evfp_isolated_vsan)", &ms);
    show_members_of(s, VSAN_ISOLATED, "(isolated_vsan)", &ms);
    return 0;
}

#define VSAN_HELP "vsan: Configure VSAN parameters\nvid: VSAN id"
#define LB_HELP                                                                                        \
    VSAN_HELP "\nloadbalancing: Configure the load balancing scheme\nsrc-dst-id: Source and destination " \
              "ID\nsrc-dst-ox-id: Source, destination and exchange ID (the default)"
#define MEMBER_HELP VSAN_HELP "\ninterface: Add interfaces to the VSAN\nfcip: FCIP interface\nid: Enter the interface id"

const struct cmd_def vsan_cmds[] = {
    {M_CONFIG_ALL, "vsan database", "vsan: Enter the VSAN database\ndatabase: Configure VSAN database",
     cmd_database, 0, 0, 0},
    {MODES(&vsan_db_mode), "vsan <vid:1-4093> [name <vname:word>]", VSAN_HELP "\nname: Assign a name to the VSAN\nvname: VSAN name (up to 32 characters)",
     cmd_vsan, 0, 0, 0},
    {MODES(&vsan_db_mode), "no vsan <vid:1-4093> [name [<vname:word>]]", VSAN_HELP "\nname: Assign a name to the VSAN\nvname: VSAN name",
     cmd_no_vsan, 0, 0, 0},
    {MODES(&vsan_db_mode), "vsan <vid:1-4093> loadbalancing {src-dst-id | src-dst-ox-id}", LB_HELP, cmd_loadbalancing, 0,
     0, 0},
    {MODES(&vsan_db_mode), "no vsan <vid:1-4093> loadbalancing [src-dst-id | src-dst-ox-id]", LB_HELP,
     cmd_loadbalancing, 0, 0, 0},
    {MODES(&vsan_db_mode), "[no] vsan <vid:1-4094> interface fcip <id:1-255@fcip-if>", MEMBER_HELP, cmd_member, 0, &fcip_gate, 0},
    {MODES(MODE_EXEC), "show vsan [<vid:1-4094>]", "vsan: Display VSAN information\nvid: VSAN id", show_vsan,
     CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show vsan membership", "vsan: Display VSAN information\nmembership: Show VSAN membership",
     show_membership, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show vsan membership interface fcip <id:1-255@fcip-if>",
     "vsan: Display VSAN information\nmembership: Show VSAN membership\nfcip: FCIP interface\nid: Enter the "
     "interface id",
     show_membership_if, CMD_PIPE, &fcip_gate, 0},
    {0},
};
