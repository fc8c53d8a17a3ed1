/* `show ips stats {ip | icmp | mac | all} interface gigabitethernet S/P`:
 * what the data plane counted on the port (docs/cli-behaviour.md). */
#include "session.h"
#include "lab/lab.h"
#include "ge.h"
#include "ge_record.h"
#include "host/hostnet.h"
#include "ipnet/ipnet.h"
#include "route/route.h"
#include <stdio.h>

#define U(x) ((unsigned long long)(x))

static void ip_block(struct session *s, int slot, int port)
{
    struct ipnet_ip_stats st;
    ipnet_ip_stats(lab_ipnet(s->lab), s->sw, slot, port, &st);
    cmd_printf(s, "Internet Protocol Statistics for port GigabitEthernet%d/%d\n", slot, port);
    cmd_printf(s, "    %llu total received, %llu good, 0 error\n", U(st.in_dgrams), U(st.in_dgrams));
    cmd_printf(s, "    %llu reassembly required, %llu reassembled ok, 0 dropped after timeout\n", U(st.in_frags),
               U(st.reasm_ok));
    cmd_printf(s, "    %llu packets sent, 0 outgoing dropped, 0 dropped no route\n", U(st.out_dgrams));
    cmd_printf(s, "    %llu fragments created, %llu cannot fragment\n", U(st.out_frags), U(st.frag_fails));
}

static void icmp_block(struct session *s, int slot, int port)
{
    struct ipnet_ip_stats st;
    ipnet_ip_stats(lab_ipnet(s->lab), s->sw, slot, port, &st);
    cmd_printf(s, "ICMP Statistics for port GigabitEthernet%d/%d\n", slot, port);
    cmd_printf(s, "  Message Stats:\n    %llu received, 0 errors, %llu sent, 0 errors\n",
               U(st.echo_in + st.reply_in), U(st.echo_out + st.reply_out));
    cmd_printf(s, "  Echo Request:\n    %llu received, %llu sent\n", U(st.echo_in), U(st.echo_out));
    cmd_printf(s, "  Echo Reply:\n    %llu received, %llu sent\n", U(st.reply_in), U(st.reply_out));
}

static void mac_block(struct session *s, int slot, int port)
{
    struct ge_port_record r;
    ge_port_record_get(lab_ipnet(s->lab), s->sw, slot, port, &r);
    cmd_printf(s, "Ethernet MAC statistics for port GigabitEthernet%d/%d\n", slot, port);
    cmd_printf(s, "  Hardware Transmit Counters\n    %llu frames %llu bytes\n"
                  "    0 collisions, 0 late collisions, 0 excess collisions\n",
               U(r.tx_packets), U(r.tx_bytes));
    cmd_printf(s, "  Hardware Receive Counters\n    %llu frames %llu bytes\n"
                  "    0 runt, 0 jabber, 0 CRC, 0 length errors\n",
               U(r.rx_packets), U(r.rx_bytes));
}

int ge_show_ips_stats(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    bool all = arg_has(a, "all");
    if (all || arg_has(a, "ip"))
        ip_block(s, p->slot, p->port);
    if (all)
        cmd_printf(s, "\n");
    if (all || arg_has(a, "icmp"))
        icmp_block(s, p->slot, p->port);
    if (all)
        cmd_printf(s, "\n");
    if (all || arg_has(a, "mac"))
        mac_block(s, p->slot, p->port);
    return 0;
}

/* The neighbours the port exchanged datagrams with (docs/ipnet.md), MACs
 * as `show interface` prints the owner's. */
int ge_show_ips_arp(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    struct ipnet_arp t[IPNET_ARP_MAX];
    struct ipnet *net = lab_ipnet(s->lab);
    int n = ipnet_arp_table(net, s->sw, p->slot, p->port, t);
    uint64_t now = engine_now(ipnet_engine(net));
    cmd_printf(s, "Protocol    Address          Age (min)  Hardware Addr   Type   Interface\n");
    for (int i = 0; i < n; i++) {
        char ip[20];
        snprintf(ip, sizeof ip, "%u.%u.%u.%u", t[i].ip >> 24, t[i].ip >> 16 & 255, t[i].ip >> 8 & 255, t[i].ip & 255);
        uint8_t m[6] = {0x00, 0x05, 0x30, (uint8_t)lab_switch_id(s->lab, t[i].sw), (uint8_t)t[i].slot,
                        (uint8_t)t[i].port};
        if (lab_is_host(s->lab, t[i].sw)) /* a lab host's NIC (docs/hosts.md) */
            hostnet_mac(t[i].sw - lab_switch_count(s->lab), t[i].port - 1, m);
        cmd_printf(s, "Internet    %-16s %9llu  %02x%02x.%02x%02x.%02x%02x  ARPA   GigabitEthernet%d/%d\n", ip,
                   U((now - t[i].seen_ns) / 60000000000ULL), m[0], m[1], m[2], m[3], m[4], m[5], p->slot, p->port);
    }
    return 0;
}

/* The port's static routes (docs/routing.md), then its connected subnet. */
int ge_show_ips_route(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    struct ge_conf c;
    ge_get(s->lab, s->sw, p->slot, p->port, &c);
    route_show_head(s, p->slot, p->port);
    route_show_static(s, p->slot, p->port);
    if (c.has_ip) {
        uint32_t net = c.ip & c.mask;
        int len = __builtin_popcount(c.mask);
        cmd_printf(s, "C %u.%u.%u.%u/%d is directly connected, GigabitEthernet%d/%d\n", net >> 24, net >> 16 & 255,
                   net >> 8 & 255, net & 255, len, p->slot, p->port);
    }
    return 0;
}
