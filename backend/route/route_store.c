/* Static routes and routers in the store. */
#include "route.h"
#include "lab/lab.h"
#include <stdio.h>

int route_list(struct lab *lab, int sw, struct ipnet_route *out, int max)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT dest, mask, nexthop, slot, port FROM ip_route WHERE switch_id = ?1"
                                     " ORDER BY dest, mask, nexthop, slot, port");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    int n = 0;
    while (n < max && sqlite3_step(st) == SQLITE_ROW)
        out[n++] = (struct ipnet_route){(uint32_t)sqlite3_column_int64(st, 0), (uint32_t)sqlite3_column_int64(st, 1),
                                        (uint32_t)sqlite3_column_int64(st, 2), sqlite3_column_int(st, 3),
                                        sqlite3_column_int(st, 4)};
    sqlite3_reset(st);
    return n;
}

static void bind_route(sqlite3_stmt *st, struct lab *lab, int sw, const struct ipnet_route *r)
{
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_int64(st, 2, r->dest);
    sqlite3_bind_int64(st, 3, r->mask);
    sqlite3_bind_int64(st, 4, r->nexthop);
    sqlite3_bind_int(st, 5, r->slot);
    sqlite3_bind_int(st, 6, r->port);
}

bool route_exists(struct lab *lab, int sw, const struct ipnet_route *r)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT 1 FROM ip_route WHERE switch_id = ?1 AND dest = ?2 AND mask = ?3"
                                     " AND nexthop = ?4 AND slot = ?5 AND port = ?6");
    bind_route(st, lab, sw, r);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return found;
}

void route_add(struct lab *lab, int sw, const struct ipnet_route *r)
{
    sqlite3_stmt *st = lab_stmt(lab, "INSERT OR IGNORE INTO ip_route VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    bind_route(st, lab, sw, r);
    lab_step_done(lab, st);
}

void route_del(struct lab *lab, int sw, const struct ipnet_route *r)
{
    sqlite3_stmt *st = lab_stmt(lab, "DELETE FROM ip_route WHERE switch_id = ?1 AND dest = ?2 AND mask = ?3"
                                     " AND nexthop = ?4 AND slot = ?5 AND port = ?6");
    bind_route(st, lab, sw, r);
    lab_step_done(lab, st);
}

static void put_ip(strbuf *out, uint32_t ip)
{
    sb_printf(out, "%u.%u.%u.%u", ip >> 24, ip >> 16 & 255u, ip >> 8 & 255u, ip & 255u);
}

void route_render(struct lab *lab, int sw, strbuf *out)
{
    struct ipnet_route r[IPNET_ROUTES_MAX];
    int n = route_list(lab, sw, r, IPNET_ROUTES_MAX);
    for (int i = 0; i < n; i++) {
        sb_printf(out, "ip route ");
        put_ip(out, r[i].dest);
        sb_printf(out, " ");
        put_ip(out, r[i].mask);
        if (r[i].nexthop) {
            sb_printf(out, " ");
            put_ip(out, r[i].nexthop);
        }
        if (r[i].slot)
            sb_printf(out, " interface GigabitEthernet%d/%d", r[i].slot, r[i].port);
        sb_printf(out, "\n");
    }
}

/* The lab's switch index of a switch id, -1 when none. */
static int switch_index(struct lab *lab, int id)
{
    for (int i = 0; i < lab_switch_count(lab); i++)
        if (lab_switch_id(lab, i) == id)
            return i;
    return -1;
}

static void declare_ports(struct lab *lab, struct ipnet *net, int r, int id)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT port, ip, mask, mtu, delay_us, rate_kbps, qsize_kb, drop_random,"
                                     " peer_switch, peer_port, peer_router, peer_rport FROM router_port"
                                     " WHERE router_id = ?1 ORDER BY port");
    sqlite3_bind_int(st, 1, id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int port = sqlite3_column_int(st, 0);
        struct ipnet_router_port_conf c = {.ip = (uint32_t)sqlite3_column_int64(st, 1),
                                           .mask = (uint32_t)sqlite3_column_int64(st, 2),
                                           .mtu = (uint32_t)sqlite3_column_int(st, 3)};
        netsim_pipe_config_init(&c.imp);
        int delay = sqlite3_column_int(st, 4), rate = sqlite3_column_int(st, 5), q = sqlite3_column_int(st, 6),
            drop = sqlite3_column_int(st, 7);
        c.imp.delay_set = delay > 0, c.imp.delay_ns = (uint64_t)delay * 1000u;
        c.imp.rate_set = rate > 0, c.imp.rate_bps = (uint64_t)rate * 1000u;
        c.imp.qsize_set = q > 0, c.imp.qsize_bytes = (uint64_t)q * 1000u;
        c.imp.drop_random_set = drop > 0, c.imp.drop_random = (uint32_t)drop;
        c.imp.drop_random_burst = drop > 0 ? 1u : 0u;
        ipnet_router_port(net, r, port, &c);
        int slot, gport, sw = switch_index(lab, sqlite3_column_int(st, 8));
        if (sw >= 0 && sscanf((const char *)sqlite3_column_text(st, 9), "GigabitEthernet%d/%d", &slot, &gport) == 2)
            ipnet_router_cable(net, r, port, sw, slot, gport);
        if (sqlite3_column_type(st, 10) != SQLITE_NULL)
            ipnet_router_cable_router(net, r, port, sqlite3_column_int(st, 10) - 1, sqlite3_column_int(st, 11));
    }
    sqlite3_reset(st);
}

static void declare_routes(struct lab *lab, struct ipnet *net, int r, int id)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT dest, mask, nexthop FROM router_route WHERE router_id = ?1 ORDER BY rowid");
    sqlite3_bind_int(st, 1, id);
    struct ipnet_route t[IPNET_ROUTES_MAX];
    int n = 0;
    while (n < IPNET_ROUTES_MAX && sqlite3_step(st) == SQLITE_ROW)
        t[n++] = (struct ipnet_route){(uint32_t)sqlite3_column_int64(st, 0), (uint32_t)sqlite3_column_int64(st, 1),
                                      (uint32_t)sqlite3_column_int64(st, 2), 0, 0};
    sqlite3_reset(st);
    ipnet_router_routes(net, r, t, n);
}

/* Routers are numbered 1.. in the store as the lab file declared them,
 * so router id k is the data plane's router k - 1. All are added before
 * any port, so a cable to a later router finds it. */
void route_routers_declare(struct lab *lab, struct ipnet *net)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT id, name, icmp FROM router ORDER BY id");
    int ids[IPNET_ROUTERS_MAX], n = 0;
    while (n < IPNET_ROUTERS_MAX && sqlite3_step(st) == SQLITE_ROW) {
        ids[n] = sqlite3_column_int(st, 0);
        if (ipnet_router_add(net, (const char *)sqlite3_column_text(st, 1), sqlite3_column_int(st, 2) != 0) < 0)
            break;
        n++;
    }
    sqlite3_reset(st);
    for (int r = 0; r < n; r++) {
        declare_ports(lab, net, r, ids[r]);
        declare_routes(lab, net, r, ids[r]);
    }
}
