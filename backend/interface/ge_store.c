/* Gigabit Ethernet configuration in the store: a row per port that differs
 * from the factory default, none for the others. */
#include "ge.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include "ipnet/ip_text.h"
#include <stdio.h>
#include <string.h>

bool ge_exists(struct lab *lab, int sw, int slot, int port)
{
    const char *model = lab_module(lab, sw, slot);
    const struct module_model *m = model ? catalog_module(model) : NULL;
    return m && port >= 1 && port <= m->ge_ports;
}

void ge_get(struct lab *lab, int sw, int slot, int port, struct ge_conf *c)
{
    static const char *const q = "SELECT ip_addr, ip_mask, mtu, description, shutdown FROM ge_port"
                                 " WHERE switch_id = ? AND slot = ? AND port = ?";
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_int(st, 2, slot);
    sqlite3_bind_int(st, 3, port);
    memset(c, 0, sizeof *c);
    c->mtu = 1500;
    c->shutdown = true;
    if (sqlite3_step(st) != SQLITE_ROW)
        return;
    c->configured = true;
    c->has_ip = sqlite3_column_type(st, 0) != SQLITE_NULL;
    c->ip = (uint32_t)sqlite3_column_int64(st, 0);
    c->mask = (uint32_t)sqlite3_column_int64(st, 1);
    c->mtu = sqlite3_column_int(st, 2);
    if (sqlite3_column_type(st, 3) != SQLITE_NULL)
        snprintf(c->description, sizeof c->description, "%s", (const char *)sqlite3_column_text(st, 3));
    c->shutdown = sqlite3_column_int(st, 4) != 0;
}

bool ge_ip_overlap(struct lab *lab, int sw, int slot, int port, uint32_t ip, uint32_t mask,
                   char *other, size_t n)
{
    static const char *const q = "SELECT slot, port, ip_addr, ip_mask FROM ge_port WHERE switch_id = ?"
                                 " AND ip_addr IS NOT NULL AND NOT (slot = ? AND port = ?)"
                                 " ORDER BY slot, port";
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_int(st, 2, slot);
    sqlite3_bind_int(st, 3, port);
    bool found = false;
    while (!found && sqlite3_step(st) == SQLITE_ROW) {
        uint32_t m = mask & (uint32_t)sqlite3_column_int64(st, 3); /* the wider subnet */
        if (((uint32_t)sqlite3_column_int64(st, 2) & m) == (ip & m)) {
            snprintf(other, n, "GigabitEthernet%d/%d", sqlite3_column_int(st, 0), sqlite3_column_int(st, 1));
            found = true;
        }
    }
    sqlite3_reset(st);
    return found;
}

/* all: the defaults too, as `show running-config all` prints them. */
static void render_port(strbuf *out, int slot, int port, const struct ge_conf *c, bool all)
{
    char ip[16], mask[16];
    sb_printf(out, "\ninterface GigabitEthernet%d/%d\n", slot, port);
    if (c->description[0])
        sb_printf(out, "  switchport description %s\n", c->description);
    if (c->has_ip) {
        ip_text(c->ip, ip, sizeof ip);
        ip_text(c->mask, mask, sizeof mask);
        sb_printf(out, "  ip address %s %s\n", ip, mask);
    }
    if (c->mtu != 1500 || all)
        sb_printf(out, "  switchport mtu %d\n", c->mtu);
    if (!c->shutdown)
        sb_printf(out, "  no shutdown\n");
    else if (all)
        sb_printf(out, "  shutdown\n");
}

void ge_render_all(struct lab *lab, int sw, strbuf *out)
{
    struct ge_conf c;
    for (int slot = 1; slot <= 13; slot++)
        for (int port = 1; ge_exists(lab, sw, slot, port); port++) {
            ge_get(lab, sw, slot, port, &c);
            render_port(out, slot, port, &c, true);
        }
}

void ge_render_config(struct lab *lab, int sw, strbuf *out, int slot, int port)
{
    static const char *const q = "SELECT slot, port FROM ge_port WHERE switch_id = ?"
                                 " ORDER BY slot, port";
    struct ge_conf c;
    if (slot) { /* one port, shown even when it has only defaults */
        ge_get(lab, sw, slot, port, &c);
        render_port(out, slot, port, &c, false);
        return;
    }
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    int ports[256][2], n = 0;
    while (sqlite3_step(st) == SQLITE_ROW && n < 256) {
        ports[n][0] = sqlite3_column_int(st, 0);
        ports[n++][1] = sqlite3_column_int(st, 1);
    }
    for (int i = 0; i < n; i++) {
        ge_get(lab, sw, ports[i][0], ports[i][1], &c);
        render_port(out, ports[i][0], ports[i][1], &c, false);
    }
}
