/* `show interface` for Gigabit Ethernet ports. */
#include "session.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include "ge.h"
#include "ge_record.h"
#include "ipnet/ipnet.h"
#include <stdio.h>

static int prefix_len(uint32_t mask)
{
    int n = 0;
    while (mask & 0x80000000u) {
        n++;
        mask <<= 1;
    }
    return n;
}

static void ip_prefix(const struct ge_conf *c, char *buf, size_t n)
{
    if (!c->has_ip)
        snprintf(buf, n, "--");
    else
        snprintf(buf, n, "%u.%u.%u.%u/%d", c->ip >> 24, c->ip >> 16 & 255, c->ip >> 8 & 255, c->ip & 255,
                 prefix_len(c->mask));
}

static const char *const state_text[] = {
    [IPNET_UP] = "up",
    [IPNET_ADMIN_DOWN] = "down (Administratively down)",
    [IPNET_NOT_CONNECTED] = "down (Link failure or not-connected)",
};

static void show_counters(struct session *s, const struct ge_port_record *r)
{
    cmd_printf(s, "    5 minutes input rate %llu bits/sec, %llu bytes/sec, %llu frames/sec\n",
               (unsigned long long)r->in_rate_bits_per_s, (unsigned long long)r->in_rate_bits_per_s / 8,
               (unsigned long long)r->in_rate_packets_per_s);
    cmd_printf(s, "    5 minutes output rate %llu bits/sec, %llu bytes/sec, %llu frames/sec\n",
               (unsigned long long)r->out_rate_bits_per_s, (unsigned long long)r->out_rate_bits_per_s / 8,
               (unsigned long long)r->out_rate_packets_per_s);
    cmd_printf(s, "    %llu packets input, %llu bytes\n", (unsigned long long)r->rx_packets,
               (unsigned long long)r->rx_bytes);
    cmd_printf(s, "      0 multicast frames, 0 compressed\n"
                  "      %llu input errors, 0 frame, 0 overrun 0 fifo\n",
               (unsigned long long)r->rx_giant_packets);
    cmd_printf(s, "    %llu packets output, %llu bytes, 0 underruns\n", (unsigned long long)r->tx_packets,
               (unsigned long long)r->tx_bytes);
    cmd_printf(s, "      0 output errors, 0 collisions, 0 fifo\n"
                  "      0 carrier errors\n");
}

static void show_port(struct session *s, int slot, int port)
{
    struct ge_conf c;
    struct ge_port_record r;
    char ip[64];
    ge_get(s->lab, s->sw, slot, port, &c);
    ge_port_record_get(lab_ipnet(s->lab), s->sw, slot, port, &r);
    cmd_printf(s, "GigabitEthernet%d/%d is %s\n", slot, port, state_text[r.link]);
    cmd_printf(s, "    Hardware is GigabitEthernet, address is 0005.30%02x.%02x%02x\n",
               lab_switch_id(s->lab, s->sw), slot, port);
    if (c.description[0])
        cmd_printf(s, "    Port description is %s\n", c.description);
    if (c.has_ip) {
        ip_prefix(&c, ip, sizeof ip);
        cmd_printf(s, "    Internet address is %s\n", ip);
    }
    cmd_printf(s, "    MTU %d  bytes, BW 1000000 Kbit\n", c.mtu);
    cmd_printf(s, "    Port mode is %s\n    Speed is 1 Gbps\n    Beacon is turned off\n",
               "IPS");
    show_counters(s, &r);
}

static int ge_ports(struct session *s, int slot)
{
    const char *model = lab_module(s->lab, s->sw, slot);
    const struct module_model *m = model ? catalog_module(model) : NULL;
    return m ? m->ge_ports : 0;
}

static void brief_header(struct session *s)
{
    cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                  "Interface            Status          IP Address        Speed   MTU   Port\n"
                  "                                                                     Channel\n"
                  "-------------------------------------------------------------------------------\n");
}

static void brief_row(struct session *s, int slot, int port)
{
    static const char *const brief[] = {[IPNET_UP] = "up", [IPNET_ADMIN_DOWN] = "down",
                                        [IPNET_NOT_CONNECTED] = "notConnected"};
    struct ge_conf c;
    char name[32], ip[64];
    ge_get(s->lab, s->sw, slot, port, &c);
    ip_prefix(&c, ip, sizeof ip);
    snprintf(name, sizeof name, "GigabitEthernet%d/%d", slot, port);
    const char *st = brief[ipnet_link_state(lab_ipnet(s->lab), s->sw, slot, port)];
    cmd_printf(s, "%-20s %-15s %-17s %-7s %-5d --\n", name, st, ip, "1 Gbps", c.mtu);
}

/* A row under the `Interface  Description` header, as fcip prints it. */
static void description_row(struct session *s, int slot, int port)
{
    struct ge_conf c;
    char name[32];
    ge_get(s->lab, s->sw, slot, port, &c);
    snprintf(name, sizeof name, "GigabitEthernet%d/%d", slot, port);
    cmd_printf(s, "%-18s %s\n", name, c.description[0] ? c.description : "--");
}

/* The port's name, then the counter lines of its full `show interface`. */
static void counters_block(struct session *s, int slot, int port)
{
    struct ge_port_record r;
    ge_port_record_get(lab_ipnet(s->lab), s->sw, slot, port, &r);
    cmd_printf(s, "GigabitEthernet%d/%d\n", slot, port);
    show_counters(s, &r);
}

int ge_show_interface(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    if (arg_has(a, "brief")) {
        brief_header(s);
        brief_row(s, p->slot, p->port);
    } else if (arg_has(a, "description")) {
        cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                      "Interface          Description\n"
                      "-------------------------------------------------------------------------------\n");
        description_row(s, p->slot, p->port);
    } else if (arg_has(a, "counters")) {
        counters_block(s, p->slot, p->port);
    } else {
        show_port(s, p->slot, p->port);
    }
    return 0;
}

int ge_clear_counters(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    ipnet_port_clear(lab_ipnet(s->lab), s->sw, p->slot, p->port);
    return 0;
}

void ge_clear_all_counters(struct session *s)
{
    struct ipnet *net = lab_ipnet(s->lab);
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; port <= ge_ports(s, slot); port++)
            ipnet_port_clear(net, s->sw, slot, port);
}

void ge_show_descriptions(struct session *s)
{
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; port <= ge_ports(s, slot); port++)
            description_row(s, slot, port);
}

void ge_show_all_counters(struct session *s)
{
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; port <= ge_ports(s, slot); port++) {
            counters_block(s, slot, port);
            cmd_printf(s, "\n");
        }
}

void ge_show_all(struct session *s)
{
    bool first = true;
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; port <= ge_ports(s, slot); port++) {
            if (!first)
                cmd_printf(s, "\n");
            first = false;
            show_port(s, slot, port);
        }
}

void ge_show_brief(struct session *s)
{
    brief_header(s);
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; port <= ge_ports(s, slot); port++)
            brief_row(s, slot, port);
}
