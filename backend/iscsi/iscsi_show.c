/* `show interface iscsiS/P` and the iSCSI table of `show interface brief`.
 * An iSCSI interface rides on the Gigabit Ethernet port of the same
 * number: up when it is not shut and that port's link is up. mdsim has no
 * iSCSI initiators, so its traffic counters are zero. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "ipnet/ipnet.h"
#include "iscsi.h"
#include <stdio.h>

enum iscsi_state { ISCSI_UP, ISCSI_ADMIN_DOWN, ISCSI_LINK_DOWN };

static enum iscsi_state state_of(struct session *s, int slot, int port, const struct iscsi_if_conf *c)
{
    if (c->shutdown)
        return ISCSI_ADMIN_DOWN;
    return ipnet_link_state(lab_ipnet(s->lab), s->sw, slot, port) == IPNET_UP ? ISCSI_UP : ISCSI_LINK_DOWN;
}

static const char *const state_text[] = {
    [ISCSI_UP] = "up",
    [ISCSI_ADMIN_DOWN] = "down (Administratively down)",
    [ISCSI_LINK_DOWN] = "down (Link failure or not-connected)",
};

static void show_one(struct session *s, int slot, int port)
{
    struct iscsi_if_conf c;
    iscsi_if_get(s->lab, s->sw, slot, port, &c);
    enum iscsi_state st = state_of(s, slot, port, &c);
    int id = lab_switch_id(s->lab, s->sw);
    cmd_printf(s, "iscsi%d/%d is %s\n", slot, port, state_text[st]);
    cmd_printf(s, "    Hardware is GigabitEthernet\n");
    if (c.description[0])
        cmd_printf(s, "    Port description is %s\n", c.description);
    cmd_printf(s, "    Port WWN is 21:%02x:00:05:30:%02x:%02x:%02x\n", (slot - 1) * 8 + port - 1, id & 255, slot,
               port);
    cmd_printf(s, "    Admin port mode is ISCSI\n"
                  "    Port vsan is 1\n");
    if (st == ISCSI_UP)
        cmd_printf(s, "    Speed is 1 Gbps\n");
    cmd_printf(s, "    iSCSI initiator is identified by name\n"
                  "    Number of packets in TCP send queue: 0\n"
                  "    Number of TCP connections: 0\n"
                  "    Configured TCP parameters\n"
                  "        Local Port is 3260\n"
                  "        PMTU discover is enabled, reset timeout is 3600 sec\n"
                  "        Keepalive-timeout is 60 sec\n"
                  "        Minimum-retransmit-time is 300 ms\n"
                  "        Max-retransmissions 4\n"
                  "        Sack is enabled\n"
                  "        QOS code point is 0\n"
                  "        Maximum allowed bandwidth is 1000000 kbps\n"
                  "        Minimum available bandwidth is 70000 kbps\n"
                  "        Estimated round trip time is 1000 usec\n"
                  "        Send buffer size is 4096 KB\n"
                  "        Congestion window monitoring is enabled, burst size is 50 KB\n"
                  "        Configured maximum jitter is 500 us\n"
                  "    Forwarding mode: store-and-forward\n"
                  "    TMF Queueing Mode : enabled\n"
                  "    Proxy Initiator Mode : disabled\n"
                  "    5 minutes input rate 0 bits/sec, 0 bytes/sec, 0 frames/sec\n"
                  "    5 minutes output rate 0 bits/sec, 0 bytes/sec, 0 frames/sec\n"
                  "    iSCSI statistics\n"
                  "      Input 0 packets, 0 bytes\n"
                  "        Command 0 pdus, Data-out 0 pdus, 0 bytes, Unsolicited 0 bytes\n"
                  "      Output 0 packets, 0 bytes\n"
                  "        Response 0 pdus (with sense 0), R2T 0 pdus\n"
                  "        Data-in 0 pdus, 0 bytes\n");
}

int iscsi_show_interface(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!iscsi_if_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    show_one(s, p->slot, p->port);
    return 0;
}

/* Calls fn for every iSCSI interface of the switch, in slot/port order. */
static void each_if(struct session *s, void (*fn)(struct session *s, int slot, int port, bool first))
{
    bool first = true;
    for (int slot = 1; slot <= 13; slot++) {
        if (!iscsi_module_enabled(s->lab, s->sw, slot))
            continue;
        for (int port = 1; port <= iscsi_module_ports(s->lab, s->sw, slot); port++) {
            fn(s, slot, port, first);
            first = false;
        }
    }
}

static void full(struct session *s, int slot, int port, bool first)
{
    (void)first; /* after the other types' interfaces: a blank line each */
    cmd_printf(s, "\n");
    show_one(s, slot, port);
}

void iscsi_show_all(struct session *s)
{
    if (lab_feature_enabled(s->lab, s->sw, &iscsi_gate))
        each_if(s, full);
}

static void brief_row(struct session *s, int slot, int port, bool first)
{
    static const char *const brief[] = {[ISCSI_UP] = "up", [ISCSI_ADMIN_DOWN] = "down",
                                        [ISCSI_LINK_DOWN] = "notConnected"};
    struct iscsi_if_conf c;
    char name[32];
    if (first)
        cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                      "Interface                    Status          Oper Mode   Oper Speed\n"
                      "                                                         (Gbps)\n"
                      "-------------------------------------------------------------------------------\n");
    iscsi_if_get(s->lab, s->sw, slot, port, &c);
    enum iscsi_state st = state_of(s, slot, port, &c);
    snprintf(name, sizeof name, "iscsi%d/%d", slot, port);
    cmd_printf(s, "%-28s %-15s %-11s %s\n", name, brief[st], st == ISCSI_UP ? "ISCSI" : "--",
               st == ISCSI_UP ? "1" : "--");
}

void iscsi_show_brief(struct session *s)
{
    if (lab_feature_enabled(s->lab, s->sw, &iscsi_gate))
        each_if(s, brief_row);
}
