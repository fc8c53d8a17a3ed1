/* The lab's hosts in the store: topology, written by lab files. */
#include "host.h"
#include "lab/lab.h"
#include <sqlite3.h>
#include <stdio.h>

int host_ports(struct lab *lab, int h, struct host_port_row out[HOSTNET_PORTS])
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT port, ip, mask, mtu, coalesce(gateway, 0) FROM host_port"
                                     " WHERE host_id = ?1 ORDER BY port");
    sqlite3_bind_int(st, 1, h + 1); /* ids 1.. as the lab file declared them */
    int n = 0;
    while (n < HOSTNET_PORTS && sqlite3_step(st) == SQLITE_ROW)
        out[n++] = (struct host_port_row){sqlite3_column_int(st, 0), (uint32_t)sqlite3_column_int64(st, 1),
                                          (uint32_t)sqlite3_column_int64(st, 2), (uint32_t)sqlite3_column_int(st, 3),
                                          (uint32_t)sqlite3_column_int64(st, 4)};
    sqlite3_reset(st);
    return n;
}

uint32_t host_address_of(struct lab *lab, const char *name)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT p.ip FROM host h JOIN host_port p ON p.host_id = h.id"
                                     " WHERE h.name = ?1 COLLATE NOCASE ORDER BY p.port LIMIT 1");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    uint32_t ip = sqlite3_step(st) == SQLITE_ROW ? (uint32_t)sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    return ip;
}

static int switch_index(struct lab *lab, int id)
{
    for (int i = 0; i < lab_switch_count(lab); i++)
        if (lab_switch_id(lab, i) == id)
            return i;
    return -1;
}

/* Each host's ports and gateway, then the cables: a switch's GE port, a
 * router's port (router id k is the data plane's router k - 1, as the
 * route feature declares them) or another host's port. */
struct hostnet *host_declare(struct lab *lab, struct ipnet *net)
{
    int n = lab_host_count(lab);
    struct hostnet *hn = hostnet_new(net, n);
    for (int h = 0; h < n; h++) {
        struct host_port_row p[HOSTNET_PORTS];
        int k = host_ports(lab, h, p);
        for (int i = 0; i < k; i++) {
            hostnet_port(hn, h, p[i].eth, p[i].ip, p[i].mask, p[i].mtu);
            if (p[i].gateway)
                hostnet_gateway(hn, h, p[i].gateway);
        }
    }
    sqlite3_stmt *st = lab_stmt(lab, "SELECT host_id, port, peer_switch, peer_port, peer_router, peer_rport,"
                                     " peer_host, peer_hport FROM host_port ORDER BY host_id, port");
    while (sqlite3_step(st) == SQLITE_ROW) {
        int node = hostnet_node(hn, sqlite3_column_int(st, 0) - 1), port = sqlite3_column_int(st, 1) + 1;
        int slot, gport, sw = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : switch_index(lab, sqlite3_column_int(st, 2));
        if (sw >= 0 && sscanf((const char *)sqlite3_column_text(st, 3), "GigabitEthernet%d/%d", &slot, &gport) == 2)
            ipnet_cable(net, node, 1, port, sw, slot, gport);
        if (sqlite3_column_type(st, 4) != SQLITE_NULL)
            ipnet_router_cable(net, sqlite3_column_int(st, 4) - 1, sqlite3_column_int(st, 5), node, 1, port);
        if (sqlite3_column_type(st, 6) != SQLITE_NULL)
            ipnet_cable(net, node, 1, port, hostnet_node(hn, sqlite3_column_int(st, 6) - 1), 1,
                        sqlite3_column_int(st, 7) + 1);
    }
    sqlite3_reset(st);
    return hn;
}
