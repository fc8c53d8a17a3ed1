/* `show interface` for Gigabit Ethernet ports. */
#include "session.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include "ge.h"
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

static void show_port(struct session *s, int slot, int port)
{
    struct ge_conf c;
    char ip[64];
    ge_get(s->lab, s->sw, slot, port, &c);
    bool up = ge_link_up(s->lab, s->sw, slot, port);
    cmd_printf(s, "GigabitEthernet%d/%d is %s\n", slot, port,
               up ? "up" : c.shutdown ? "down (Administratively down)" : "down (Link failure or not-connected)");
    cmd_printf(s, "    Hardware is GigabitEthernet, address is 0005.30%02x.%02x%02x\n",
               lab_switch_id(s->lab, s->sw), slot, port);
    if (c.description[0])
        cmd_printf(s, "    Port description is %s\n", c.description);
    if (c.has_ip) {
        ip_prefix(&c, ip, sizeof ip);
        cmd_printf(s, "    Internet address is %s\n", ip);
    }
    cmd_printf(s, "    MTU %d  bytes, BW 1000000 Kbit\n", c.mtu);
    cmd_printf(s, "    Port mode is IPS\n    Speed is 1 Gbps\n    Beacon is turned off\n");
    /* Traffic counters come from the simulation engine; without traffic
     * they are zero, as on a port that has carried none. */
    cmd_printf(s, "    5 minutes input rate 0 bits/sec, 0 bytes/sec, 0 frames/sec\n"
                  "    5 minutes output rate 0 bits/sec, 0 bytes/sec, 0 frames/sec\n"
                  "    0 packets input, 0 bytes\n"
                  "      0 multicast frames, 0 compressed\n"
                  "      0 input errors, 0 frame, 0 overrun 0 fifo\n"
                  "    0 packets output, 0 bytes, 0 underruns\n"
                  "      0 output errors, 0 collisions, 0 fifo\n"
                  "      0 carrier errors\n");
}

static int ge_ports(struct session *s, int slot)
{
    const char *model = lab_module(s->lab, s->sw, slot);
    const struct module_model *m = model ? catalog_module(model) : NULL;
    return m ? m->ge_ports : 0;
}

int ge_show_interface(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (p) {
        if (!ge_exists(s->lab, s->sw, p->slot, p->port))
            return cmd_error(s, "%% Invalid interface format");
        show_port(s, p->slot, p->port);
        return 0;
    }
    bool first = true;
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; port <= ge_ports(s, slot); port++) {
            if (!first)
                cmd_printf(s, "\n");
            first = false;
            show_port(s, slot, port);
        }
    return 0;
}

int ge_show_brief(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                  "Interface            Status          IP Address        Speed   MTU   Port\n"
                  "                                                                     Channel\n"
                  "-------------------------------------------------------------------------------\n");
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; port <= ge_ports(s, slot); port++) {
            struct ge_conf c;
            char name[32], ip[64];
            ge_get(s->lab, s->sw, slot, port, &c);
            ip_prefix(&c, ip, sizeof ip);
            snprintf(name, sizeof name, "GigabitEthernet%d/%d", slot, port);
            const char *st = ge_link_up(s->lab, s->sw, slot, port) ? "up" : c.shutdown ? "down" : "notConnected";
            cmd_printf(s, "%-20s %-15s %-17s %-7s %-5d --\n", name, st, ip, "1 Gbps", c.mtu);
        }
    return 0;
}
