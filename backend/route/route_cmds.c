/* `ip route`, `show ip route`, `traceroute` and `ips measure-rtt`
 * (docs/routing.md; layouts marked [G] there where the references are
 * silent). */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "route.h"
#include "fcip/fcip.h"
#include "interface/ge.h"
#include "ipnet/ip_text.h"
#include "ipnet/ping_cmds.h"
#include <stdio.h>
#include <stdlib.h>

static const char *ipt(uint32_t ip, char b[16])
{
    ip_text(ip, b, 16);
    return b;
}

static bool own_address(struct lab *lab, int sw, uint32_t ip)
{
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; ge_exists(lab, sw, slot, port); port++) {
            struct ge_conf c;
            ge_get(lab, sw, slot, port, &c);
            if (c.has_ip && c.ip == ip)
                return true;
        }
    return false;
}

static int ip_route(struct session *s, const struct cmd_args *a, const struct cmd_arg *hop,
                    const struct cmd_arg *port)
{
    struct ipnet_route r = {arg_get(a, "dest")->ip, arg_get(a, "mask")->ip, hop ? hop->ip : 0, port ? port->slot : 0,
                            port ? port->port : 0};
    char d[16], m[16];
    if (r.dest & ~r.mask)
        return cmd_error(s, "%% Invalid route: %s has bits outside its mask %s", ipt(r.dest, d),
                         ipt(r.mask, m));
    if (port && !ge_exists(s->lab, s->sw, r.slot, r.port))
        return cmd_error(s, "%% Invalid interface format");
    if (a->negated) {
        if (!route_exists(s->lab, s->sw, &r))
            return cmd_error(s, "%% Route not found");
        route_del(s->lab, s->sw, &r);
        return 0;
    }
    if (hop && (hop->ip == 0 || own_address(s->lab, s->sw, hop->ip)))
        return cmd_error(s, "%% Invalid next hop address %s", ipt(hop->ip, d));
    struct ipnet_route all[IPNET_ROUTES_MAX];
    if (!route_exists(s->lab, s->sw, &r) && route_list(s->lab, s->sw, all, IPNET_ROUTES_MAX) >= IPNET_ROUTES_MAX)
        return cmd_error(s, "%% Too many static routes (at most %d)", IPNET_ROUTES_MAX);
    route_add(s->lab, s->sw, &r);
    return 0;
}

/* `ip route DEST MASK NEXTHOP [interface ...]` */
static int cmd_route_hop(struct session *s, const struct cmd_args *a)
{
    return ip_route(s, a, arg_get(a, "nexthop"), arg_get(a, "port"));
}

/* `ip route DEST MASK interface ...` */
static int cmd_route_if(struct session *s, const struct cmd_args *a)
{
    return ip_route(s, a, NULL, arg_get(a, "port"));
}

static void prefix(const struct ipnet_route *r, char *buf, size_t n)
{
    char d[16];
    snprintf(buf, n, "%s/%d", ipt(r->dest, d), __builtin_popcount(r->mask));
}

/* The port a route leaves by now, false when it cannot be used (its
 * port down, its next hop on no up port's subnet). */
static bool route_via(struct session *s, const struct ipnet_route *r, int *slot, int *port)
{
    struct ipnet *net = lab_ipnet(s->lab);
    if (r->slot) {
        *slot = r->slot, *port = r->port;
        return ipnet_link_state(net, s->sw, r->slot, r->port) == IPNET_UP;
    }
    return ipnet_route_port(net, s->sw, r->nexthop, slot, port) == 'C';
}

void route_show_static(struct session *s, int slot, int port)
{
    struct ipnet_route r[IPNET_ROUTES_MAX];
    int n = route_list(s->lab, s->sw, r, IPNET_ROUTES_MAX);
    for (int i = 0; i < n; i++) {
        int vs, vp;
        char p[24], h[16];
        if (!route_via(s, &r[i], &vs, &vp) || (slot && (vs != slot || vp != port)))
            continue;
        prefix(&r[i], p, sizeof p);
        if (r[i].nexthop)
            cmd_printf(s, "S %s via %s, GigabitEthernet%d/%d\n", p, ipt(r[i].nexthop, h), vs, vp);
        else
            cmd_printf(s, "S %s is directly connected, GigabitEthernet%d/%d\n", p, vs, vp);
    }
}

void route_show_head(struct session *s, int slot, int port)
{
    struct ipnet_route r[IPNET_ROUTES_MAX];
    int n = route_list(s->lab, s->sw, r, IPNET_ROUTES_MAX), vs, vp;
    char h[16];
    cmd_printf(s, "Codes: C - connected, S - static\n\n");
    for (int i = 0; i < n; i++)
        if (r[i].mask == 0 && r[i].nexthop && route_via(s, &r[i], &vs, &vp) &&
            (!slot || (vs == slot && vp == port))) {
            cmd_printf(s, "Default gateway is %s\n\n", ipt(r[i].nexthop, h));
            return;
        }
    cmd_printf(s, "No default gateway\n\n");
}

/* `show ip route` and `show ips ip route`: the routes in use, static
 * then connected (an up port with an address), as `show ips ip route
 * interface` prints one port's. */
static int show_ip_route(struct session *s, const struct cmd_args *a)
{
    (void)a;
    route_show_head(s, 0, 0);
    route_show_static(s, 0, 0);
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; ge_exists(s->lab, s->sw, slot, port); port++) {
            struct ge_conf c;
            ge_get(s->lab, s->sw, slot, port, &c);
            if (!c.has_ip || ipnet_link_state(lab_ipnet(s->lab), s->sw, slot, port) != IPNET_UP)
                continue;
            struct ipnet_route net = {c.ip & c.mask, c.mask, 0, 0, 0};
            char p[24];
            prefix(&net, p, sizeof p);
            cmd_printf(s, "C %s is directly connected, GigabitEthernet%d/%d\n", p, slot, port);
        }
    return 0;
}

enum { HOPS_MAX = 30, PROBES = 3, PROBE_BYTES = 40 };

/* One hop of traceroute: PROBES echoes with that TTL, printed as Linux's
 * traceroute prints them. True when the destination (or an unreachable)
 * ended the trace. */
static bool trace_hop(struct session *s, uint32_t dst, int ttl, bool *stopped)
{
    struct ipnet_ping p = {.dst = dst, .count = PROBES, .size = PROBE_BYTES - 28, .timeout_ns = 5000000000ull,
                           .ttl = (uint8_t)ttl, .gap_ns = 1000};
    if (ipnet_ping_start(lab_ipnet(s->lab), s->sw, &p) < 0)
        return true;
    uint32_t shown = 0;
    bool end = false;
    cmd_printf(s, "%2d ", ttl);
    for (int i = 0; i < PROBES; i++) {
        if (!ping_settle(s, &p, i)) {
            *stopped = true;
            break;
        }
        uint8_t type, code;
        uint32_t from = ipnet_ping_from(&p, i, &type, &code);
        uint64_t rtt = ipnet_ping_rtt(&p, i);
        char h[16];
        if (rtt == UINT64_MAX) {
            cmd_printf(s, " *");
            continue;
        }
        if (from != shown)
            cmd_printf(s, " %s (%s)", ipt(from, h), h);
        shown = from;
        cmd_printf(s, "  %.3f ms", rtt / 1e6);
        if (type == IPNET_ICMP_UNREACH)
            cmd_printf(s, code == IPNET_UNREACH_FRAG_NEEDED ? " !F" : " !N");
        end = end || type != IPNET_ICMP_TIME_EXCEEDED;
    }
    cmd_printf(s, "\n");
    ipnet_ping_end(lab_ipnet(s->lab), &p);
    return end;
}

static int cmd_traceroute(struct session *s, const struct cmd_args *a)
{
    uint32_t dst = arg_get(a, "dest")->ip;
    char d[16];
    ipt(dst, d);
    s->no_more = true;
    int slot, port;
    if (!ipnet_route_port(lab_ipnet(s->lab), s->sw, dst, &slot, &port))
        return cmd_error(s, "traceroute: sendto %s, No route to host", d);
    cmd_printf(s, "traceroute to %s (%s), %d hops max, %d byte packets\n", d, d, HOPS_MAX, PROBE_BYTES);
    bool stopped = false;
    for (int ttl = 1; ttl <= HOPS_MAX && !stopped; ttl++)
        if (trace_hop(s, dst, ttl, &stopped))
            break;
    return 0;
}

/* `ips measure-rtt`: one echo from the port's address [G: the guide
 * names the command in its FCIP chapter, hence behind `feature fcip`;
 * how the MDS measures is not documented]. */
static int cmd_measure_rtt(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *pa = arg_get(a, "port");
    uint32_t dst = arg_get(a, "dest")->ip;
    struct ge_conf c;
    if (!ge_exists(s->lab, s->sw, pa->slot, pa->port))
        return cmd_error(s, "%% Invalid interface format");
    ge_get(s->lab, s->sw, pa->slot, pa->port, &c);
    if (!c.has_ip)
        return cmd_error(s, "%% Interface GigabitEthernet%d/%d has no IP address", pa->slot, pa->port);
    if (ipnet_link_state(lab_ipnet(s->lab), s->sw, pa->slot, pa->port) != IPNET_UP)
        return cmd_error(s, "%% Interface GigabitEthernet%d/%d is down", pa->slot, pa->port);
    struct ipnet_ping p = {.dst = dst, .count = 1, .size = 56, .timeout_ns = 5000000000ull, .src = c.ip};
    char d[16];
    ipt(dst, d);
    if (ipnet_ping_start(lab_ipnet(s->lab), s->sw, &p) < 0)
        return cmd_error(s, "%% No route to host %s", d);
    bool done = ping_settle(s, &p, 0);
    uint8_t type, code;
    uint64_t rtt = ipnet_ping_rtt(&p, 0);
    bool reply = rtt != UINT64_MAX && ipnet_ping_from(&p, 0, &type, &code) == dst && type == 0;
    ipnet_ping_end(lab_ipnet(s->lab), &p);
    if (!done)
        return 0;
    if (!reply)
        return cmd_error(s, "%% No response from %s", d);
    cmd_printf(s, "Round trip time is %llu micro seconds (%.2f milli seconds)\n", (unsigned long long)(rtt / 1000u),
               rtt / 1e6);
    return 0;
}

#define ROUTE_HELP                                                                                                 \
    "ip: Configure IP features\nroute: Configure a static route\ndest: Destination prefix\nmask: Destination prefix mask\n"
#define IF_HELP "interface: Outgoing interface\ngigabitethernet: Gigabit Ethernet interface\nport: Slot/port\n"
#define SHOW_HELP "ip: Display IP information\nroute: Display the routing table\n"
const struct cmd_def route_cmds[] = {
    {MODES(MODE_CONFIG), "[no] ip route <dest:ipv4> <mask:netmask> <nexthop:ipv4> [interface gigabitethernet <port:slot/port>]",
     ROUTE_HELP "nexthop: Next hop address\n" IF_HELP, cmd_route_hop, 0, 0, 0},
    {MODES(MODE_CONFIG), "[no] ip route <dest:ipv4> <mask:netmask> interface gigabitethernet <port:slot/port>",
     ROUTE_HELP IF_HELP, cmd_route_if, 0, 0, 0},
    {MODES(MODE_EXEC), "show ip route", SHOW_HELP, show_ip_route, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show ips ip route", "ips: IP storage services information\n" SHOW_HELP, show_ip_route, CMD_PIPE,
     0, 0},
    {MODES(MODE_EXEC), "traceroute <dest:ipv4>", "traceroute: Trace the route to a destination\ndest: Destination address",
     cmd_traceroute, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "ips measure-rtt <dest:ipv4> interface gigabitethernet <port:slot/port>",
     "ips: IP storage services\nmeasure-rtt: Measure the round trip time to an address\ndest: Peer address\n" IF_HELP,
     cmd_measure_rtt, 0, &fcip_gate, 0},
    {0},
};
