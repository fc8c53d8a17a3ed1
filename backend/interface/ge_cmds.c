/* Gigabit Ethernet commands: entering the port, its settings, its shows. */
#include "session.h"
#include "feature.h"
#include "ifname.h"
#include "lab/lab.h"
#include "ge.h"
#include "if_addr.h"
#include "netsim/netsim.h"
#include <stdio.h>
#include <string.h>

/* Writes one column of the current port's row, creating the row first,
 * and drops the row again when the port is back to all defaults. */
static void ge_update(struct session *s, const char *set_sql, void (*bind)(sqlite3_stmt *, const void *),
                      const void *val)
{
    static const char *const ins = "INSERT OR IGNORE INTO ge_port(switch_id, slot, port) VALUES (?, ?, ?)";
    static const char *const tidy =
        "DELETE FROM ge_port WHERE switch_id = ?1 AND slot = ?2 AND port = ?3 AND ip_addr IS NULL"
        " AND mtu = 1500 AND description IS NULL AND shutdown = 1";
    const char *steps[] = {ins, set_sql, tidy};
    for (int i = 0; i < 3; i++) {
        sqlite3_stmt *st = lab_stmt(s->lab, steps[i]);
        sqlite3_bind_int(st, 1, lab_switch_id(s->lab, s->sw));
        sqlite3_bind_int(st, 2, s->ctx.a);
        sqlite3_bind_int(st, 3, s->ctx.b);
        if (i == 1 && bind)
            bind(st, val);
        lab_step_done(s->lab, st);
    }
}

static void bind_int(sqlite3_stmt *st, const void *v) { sqlite3_bind_int64(st, 4, *(const long long *)v); }
static void bind_ip(sqlite3_stmt *st, const void *v)
{
    const long long *ip = v;
    sqlite3_bind_int64(st, 4, ip[0]);
    sqlite3_bind_int64(st, 5, ip[1]);
}
static void bind_text(sqlite3_stmt *st, const void *v) { sqlite3_bind_text(st, 4, v, -1, SQLITE_TRANSIENT); }

const struct iftype ge_iftype = {"gigabitethernet", "GigabitEthernet", true};

static int cmd_interface(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    s->mode = MODE_IF;
    s->ctx.iftype = &ge_iftype;
    s->ctx.a = p->slot;
    s->ctx.b = p->port;
    s->ctx.nports = 0;
    ifname_format(s->ctx.ifname, sizeof s->ctx.ifname, &ge_iftype, p->slot, p->port);
    return 0;
}

/* `interface gigabitethernet 2/1-3, gigabitethernet 2/5`: the commands
 * that follow apply to every port; the prompt stays (config-if)#, as on
 * MDS. */
static int enter_list(struct session *s, const char *text)
{
    const struct iftype *t = &ge_iftype;
    int ports[MODE_CTX_PORTS][2];
    char err[64], name[32];
    int n = ifname_parse_list(t, text, ports, MODE_CTX_PORTS, err, sizeof err);
    if (n < 0)
        return cmd_error(s, "%s", err);
    for (int i = 0; i < n; i++)
        if (!ge_exists(s->lab, s->sw, ports[i][0], ports[i][1])) {
            ifname_format(name, sizeof name, t, ports[i][0], ports[i][1]);
            return cmd_error(s, "%% %s: Invalid interface format", name);
        }
    s->mode = MODE_IF;
    s->ctx.iftype = t;
    s->ctx.a = ports[0][0];
    s->ctx.b = ports[0][1];
    s->ctx.nports = n;
    memcpy(s->ctx.ports, ports, sizeof ports);
    ifname_format(s->ctx.ifname, sizeof s->ctx.ifname, t, s->ctx.a, s->ctx.b);
    return 0;
}

static int cmd_interface_list(struct session *s, const struct cmd_args *a)
{
    return enter_list(s, arg_str(a, "ports"));
}

/* `2/6 , g2/8`, `2/1 - 3`: the first port matched on its own. */
static int cmd_interface_list_after(struct session *s, const struct cmd_args *a)
{
    char text[4200];
    const struct cmd_arg *first = arg_get(a, "port");
    const struct cmd_arg *more = arg_get(a, "more");
    if (more->str[0] != ',' && more->str[0] != '-') { /* `int g2/2 foo`: not a list */
        cmd_printf(s, "%*s^\n", a->offset + more->off + 1, "");
        return cmd_error(s, "%% Invalid command at '^' marker.");
    }
    snprintf(text, sizeof text, "%s %s", first->str, more->str);
    return enter_list(s, text);
}

/* The simulator owns a port of an `ips netsim enable` pair: it bridges
 * frames through it whatever the port's address and admin state, so
 * those are refused rather than silently without effect. */
static bool netsim_owned(struct session *s)
{
    if (!netsim_paired(s->lab, s->sw, s->ctx.a, s->ctx.b, NULL, NULL))
        return false;
    cmd_error(s, "%% Interface %s is in network simulator mode (no ips netsim enable first)", s->ctx.ifname);
    return true;
}

static int cmd_ip_address(struct session *s, const struct cmd_args *a)
{
    static const char *const set = "UPDATE ge_port SET ip_addr = ?4, ip_mask = ?5"
                                   " WHERE switch_id = ?1 AND slot = ?2 AND port = ?3";
    static const char *const clear = "UPDATE ge_port SET ip_addr = NULL, ip_mask = NULL"
                                     " WHERE switch_id = ?1 AND slot = ?2 AND port = ?3";
    const struct cmd_arg *ip = arg_get(a, "addr"), *mask = arg_get(a, "netmask");
    if (a->negated) {
        struct ge_conf c;
        ge_get(s->lab, s->sw, s->ctx.a, s->ctx.b, &c);
        if (ip && (!c.has_ip || c.ip != ip->ip || c.mask != mask->ip))
            return cmd_error(s, "%% Address not configured on this interface");
        ge_update(s, clear, NULL, NULL);
        return 0;
    }
    if (if_addr_check(s, ip->ip, mask->ip) != 0 || netsim_owned(s))
        return -1;
    long long v[2] = {ip->ip, mask->ip};
    ge_update(s, set, bind_ip, v);
    return 0;
}

static int cmd_mtu(struct session *s, const struct cmd_args *a)
{
    static const char *const set = "UPDATE ge_port SET mtu = ?4 WHERE switch_id = ?1 AND slot = ?2 AND port = ?3";
    long long mtu = a->negated ? 1500 : arg_num(a, "bytes", 1500);
    ge_update(s, set, bind_int, &mtu);
    return 0;
}

static int cmd_description(struct session *s, const struct cmd_args *a)
{
    static const char *const set =
        "UPDATE ge_port SET description = ?4 WHERE switch_id = ?1 AND slot = ?2 AND port = ?3";
    static const char *const clear =
        "UPDATE ge_port SET description = NULL WHERE switch_id = ?1 AND slot = ?2 AND port = ?3";
    if (a->negated) {
        ge_update(s, clear, NULL, NULL);
        return 0;
    }
    const char *text = arg_str(a, "text");
    if (strlen(text) > 254)
        return cmd_error(s, "%% String exceeded max length of (254)");
    ge_update(s, set, bind_text, text);
    return 0;
}

static int cmd_shutdown(struct session *s, const struct cmd_args *a)
{
    static const char *const set =
        "UPDATE ge_port SET shutdown = ?4 WHERE switch_id = ?1 AND slot = ?2 AND port = ?3";
    long long v = a->negated ? 0 : 1;
    if (netsim_owned(s))
        return -1;
    ge_update(s, set, bind_int, &v);
    lab_settle(s->lab); /* shut / no shut bounces the link, even at one instant */
    return 0;
}

/* Every interface type of the registry, in list order. */
static int show_all(struct session *s, const struct cmd_args *a)
{
    (void)a;
    for (const struct feature *const *f = features; *f; f++)
        if ((*f)->show_interfaces)
            (*f)->show_interfaces(s);
    return 0;
}

static int show_brief(struct session *s, const struct cmd_args *a)
{
    (void)a;
    for (const struct feature *const *f = features; *f; f++)
        if ((*f)->show_brief)
            (*f)->show_brief(s);
    return 0;
}

static int show_descriptions(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                  "Interface          Description\n"
                  "-------------------------------------------------------------------------------\n");
    for (const struct feature *const *f = features; *f; f++)
        if ((*f)->show_descriptions)
            (*f)->show_descriptions(s);
    return 0;
}

/* `clear counters [interface all]`: every interface type's. Counters are
 * what observers read: the simulation runs on the same. */
static int clear_all(struct session *s, const struct cmd_args *a)
{
    (void)a;
    for (const struct feature *const *f = features; *f; f++)
        if ((*f)->clear_counters)
            (*f)->clear_counters(s);
    return 0;
}

static int show_counters(struct session *s, const struct cmd_args *a)
{
    (void)a;
    for (const struct feature *const *f = features; *f; f++)
        if ((*f)->show_counters)
            (*f)->show_counters(s);
    return 0;
}

const struct cmd_def ge_cmds[] = {
    {M_CONFIG_ALL, "interface gigabitethernet <port:slot/port>", NULL, cmd_interface, 0, 0, 0},
    {M_CONFIG_ALL, "interface gigabitethernet <ports:line>", "ports: Ports, ranges and lists (2/1-3, gigabitethernet 2/5)",
     cmd_interface_list, CMD_HIDDEN, 0, 0},
    {M_CONFIG_ALL, "interface gigabitethernet <port:slot/port> <more:line>", NULL, cmd_interface_list_after,
     CMD_HIDDEN, 0, 0},
    {MODES(MODE_IF), "ip address <addr:ipv4> <netmask:netmask>",
     "addr: IP address\nnetmask: Subnet mask (A.B.C.D)", cmd_ip_address, 0, 0, &ge_iftype},
    {MODES(MODE_IF), "no ip address [<addr:ipv4> <netmask:netmask>]",
     "addr: IP address\nnetmask: Subnet mask (A.B.C.D)", cmd_ip_address, 0, 0, &ge_iftype},
    {MODES(MODE_IF), "switchport mtu <bytes:576-9000>", "bytes: Enter MTU", cmd_mtu, 0, 0, &ge_iftype},
    {MODES(MODE_IF), "no switchport mtu [<bytes:576-9000>]", "bytes: Enter MTU", cmd_mtu, 0, 0, &ge_iftype},
    {MODES(MODE_IF), "switchport description <text:line>", "text: Description (up to 254 characters)",
     cmd_description, 0, 0, &ge_iftype},
    {MODES(MODE_IF), "no switchport description [<text:line>]", "text: Description",
     cmd_description, 0, 0, &ge_iftype},
    {MODES(MODE_IF), "[no] shutdown", NULL, cmd_shutdown, 0, 0, &ge_iftype},
    {MODES(MODE_EXEC), "show interface gigabitethernet <port:slot/port> [{brief | counters | description}]",
     "brief: Brief summary\ncounters: Interface counters\ndescription: Interface description", ge_show_interface,
     CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show ips stats {ip | icmp | mac | all} interface gigabitethernet <port:slot/port>",
     "ips: IP storage services information\nstats: IP storage statistics\nip: IP statistics\nicmp: ICMP statistics\nmac: Ethernet MAC statistics\n"
     "all: All statistics\ninterface: Interface\ngigabitethernet: Gigabit Ethernet interface",
     ge_show_ips_stats, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show ips arp interface gigabitethernet <port:slot/port>",
     "ips: IP storage services information\narp: ARP table\ninterface: Interface\n"
     "gigabitethernet: Gigabit Ethernet interface", ge_show_ips_arp, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show ips ip route interface gigabitethernet <port:slot/port>",
     "ips: IP storage services information\nip: IP information\nroute: Routing table\ninterface: Interface\n"
     "gigabitethernet: Gigabit Ethernet interface", ge_show_ips_route, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show interface description", "description: Interface description", show_descriptions, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show interface counters", "counters: Interface counters", show_counters, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show interface", NULL, show_all, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show interface brief", NULL, show_brief, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "clear counters [interface all]",
     "clear: Reset functions\ncounters: Interface counters\ninterface: Interface\nall: All interfaces", clear_all,
     CMD_ADMIN, 0, 0},
    {MODES(MODE_EXEC), "clear counters interface gigabitethernet <port:slot/port>",
     "clear: Reset functions\ncounters: Interface counters\ninterface: Interface\n"
     "gigabitethernet: Gigabit Ethernet interface", ge_clear_counters, CMD_ADMIN, 0, 0},
    {0},
};
