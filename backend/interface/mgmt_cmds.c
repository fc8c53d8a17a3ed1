/* mgmt0: `interface mgmt0`, its address, `show interface mgmt0`. */
#include "session.h"
#include "ifname.h"
#include "lab/lab.h"
#include "if_addr.h"
#include "mgmt.h"
#include <stdio.h>

const struct iftype mgmt_iftype = {"mgmt", "mgmt", false};

static int cmd_interface(struct session *s, const struct cmd_args *a)
{
    (void)a;
    s->mode = MODE_IF;
    s->ctx.iftype = &mgmt_iftype;
    s->ctx.a = s->ctx.b = 0;
    s->ctx.nports = 0;
    ifname_format(s->ctx.ifname, sizeof s->ctx.ifname, &mgmt_iftype, 0, 0);
    return 0;
}

static int cmd_ip_address(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *ip = arg_get(a, "addr"), *mask = arg_get(a, "netmask");
    uint32_t cur, cmask;
    bool has = mgmt_get(s->lab, s->sw, &cur, &cmask);
    if (a->negated) {
        if (ip && (!has || cur != ip->ip || cmask != mask->ip))
            return cmd_error(s, "%% Address not configured on this interface");
        mgmt_clear(s->lab, s->sw);
        return 0;
    }
    if (if_addr_check(s, ip->ip, mask->ip) != 0)
        return -1;
    mgmt_set(s->lab, s->sw, ip->ip, mask->ip);
    return 0;
}

/* MDS layout (mds-cli.md §7: `Internet address is a.b.c.d/len` [C], the
 * rest as the MDS configuration guides print mgmt0). Nothing crosses mgmt0
 * in the lab, so its counters stay 0. */
void mgmt_show(struct session *s)
{
    uint32_t ip, mask;
    cmd_printf(s, "mgmt0 is up\n    Hardware is GigabitEthernet, address is 0005.30%02x.0000\n",
               lab_switch_id(s->lab, s->sw));
    if (mgmt_get(s->lab, s->sw, &ip, &mask))
        cmd_printf(s, "    Internet address is %u.%u.%u.%u/%d\n", ip >> 24, ip >> 16 & 255, ip >> 8 & 255,
                   ip & 255, __builtin_popcount(mask));
    cmd_printf(s, "    MTU 1500 bytes, BW 1000 Mbps full Duplex\n"
                  "    0 packets input, 0 bytes\n"
                  "      0 multicast frames, 0 compressed\n"
                  "      0 input errors, 0 frame, 0 overrun 0 fifo\n"
                  "    0 packets output, 0 bytes, 0 underruns\n"
                  "      0 output errors, 0 collisions, 0 fifo\n"
                  "      0 carrier errors\n");
}

static int show_interface(struct session *s, const struct cmd_args *a)
{
    (void)a;
    mgmt_show(s);
    return 0;
}

/* `show interface`: after the ports of the other types, as MDS lists it. */
void mgmt_show_all(struct session *s)
{
    cmd_printf(s, "\n");
    mgmt_show(s);
}

/* Its own table at the end of `show interface brief`, as on MDS [G]. */
void mgmt_show_brief(struct session *s)
{
    uint32_t ip, mask;
    char addr[32] = "--";
    if (mgmt_get(s->lab, s->sw, &ip, &mask))
        snprintf(addr, sizeof addr, "%u.%u.%u.%u/%d", ip >> 24, ip >> 16 & 255, ip >> 8 & 255, ip & 255,
                 __builtin_popcount(mask));
    cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                  "Interface            Status          IP Address        Speed   MTU\n"
                  "-------------------------------------------------------------------------------\n"
                  "%-20s %-15s %-17s %-7s %d\n", "mgmt0", "up", addr, "1 Gbps", 1500);
}

#define MGMT_HELP "mgmt: Management interface\nid: Management interface number\n"

const struct cmd_def mgmt_cmds[] = {
    {M_CONFIG_ALL, "interface mgmt <id:0-0>", MGMT_HELP, cmd_interface, 0, 0, 0},
    {MODES(MODE_IF), "ip address <addr:ipv4> <netmask:netmask>", "addr: IP address\nnetmask: Subnet mask (A.B.C.D)",
     cmd_ip_address, 0, 0, &mgmt_iftype},
    {MODES(MODE_IF), "no ip address [<addr:ipv4> <netmask:netmask>]", "addr: IP address\nnetmask: Subnet mask (A.B.C.D)",
     cmd_ip_address, 0, 0, &mgmt_iftype},
    {MODES(MODE_EXEC), "show interface mgmt <id:0-0>", MGMT_HELP, show_interface, CMD_PIPE, 0, 0},
    {0},
};
