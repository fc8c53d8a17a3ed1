/* iSCSI configuration in the store: a row per enabled module, a row per
 * interface that differs from the default. */
#include "iscsi.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include <stdio.h>
#include <string.h>

static sqlite3_stmt *keyed(struct lab *lab, const char *sql, int sw, int slot)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_int(st, 2, slot);
    return st;
}

static sqlite3_stmt *by_switch(struct lab *lab, const char *sql, int sw)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    return st;
}

bool iscsi_module_enabled(struct lab *lab, int sw, int slot)
{
    sqlite3_stmt *st = keyed(lab, "SELECT 1 FROM iscsi_module WHERE switch_id = ?1 AND slot = ?2", sw, slot);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return found;
}

/* Turning a module off forgets its interfaces (the schema cascades). */
void iscsi_module_set(struct lab *lab, int sw, int slot, bool on)
{
    sqlite3_stmt *st = keyed(lab, on ? "INSERT OR IGNORE INTO iscsi_module VALUES (?1, ?2)"
                                     : "DELETE FROM iscsi_module WHERE switch_id = ?1 AND slot = ?2",
                             sw, slot);
    lab_step_done(lab, st);
}

int iscsi_module_ports(struct lab *lab, int sw, int slot)
{
    const char *model = lab_module(lab, sw, slot);
    const struct module_model *m = model ? catalog_module(model) : NULL;
    return m ? m->ge_ports : 0;
}

bool iscsi_if_exists(struct lab *lab, int sw, int slot, int port)
{
    return port >= 1 && port <= iscsi_module_ports(lab, sw, slot) && iscsi_module_enabled(lab, sw, slot);
}

void iscsi_if_get(struct lab *lab, int sw, int slot, int port, struct iscsi_if_conf *c)
{
    sqlite3_stmt *st = keyed(lab, "SELECT description, shutdown FROM iscsi_if"
                                  " WHERE switch_id = ?1 AND slot = ?2 AND port = ?3",
                             sw, slot);
    sqlite3_bind_int(st, 3, port);
    memset(c, 0, sizeof *c);
    c->shutdown = true;
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 0) != SQLITE_NULL)
            snprintf(c->description, sizeof c->description, "%s", (const char *)sqlite3_column_text(st, 0));
        c->shutdown = sqlite3_column_int(st, 1) != 0;
    }
    sqlite3_reset(st);
}

/* All defaults: no row. */
void iscsi_if_put(struct lab *lab, int sw, int slot, int port, const struct iscsi_if_conf *c)
{
    bool dflt = !c->description[0] && c->shutdown;
    sqlite3_stmt *st = keyed(lab, dflt ? "DELETE FROM iscsi_if WHERE switch_id = ?1 AND slot = ?2 AND port = ?3"
                                       : "INSERT OR REPLACE INTO iscsi_if VALUES (?1, ?2, ?3, ?4, ?5)",
                             sw, slot);
    sqlite3_bind_int(st, 3, port);
    if (!dflt) {
        if (c->description[0])
            sqlite3_bind_text(st, 4, c->description, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(st, 4);
        sqlite3_bind_int(st, 5, c->shutdown);
    }
    lab_step_done(lab, st);
}

void iscsi_render_modules(struct lab *lab, int sw, strbuf *out)
{
    sqlite3_stmt *st = by_switch(lab, "SELECT slot FROM iscsi_module WHERE switch_id = ?1 ORDER BY slot", sw);
    while (sqlite3_step(st) == SQLITE_ROW)
        sb_printf(out, "iscsi enable module %d\n", sqlite3_column_int(st, 0));
    sqlite3_reset(st);
}

void iscsi_render_ifs(struct lab *lab, int sw, strbuf *out)
{
    sqlite3_stmt *st = by_switch(lab, "SELECT slot, port, description, shutdown FROM iscsi_if"
                                      " WHERE switch_id = ?1 ORDER BY slot, port",
                                 sw);
    while (sqlite3_step(st) == SQLITE_ROW) {
        sb_printf(out, "\ninterface iscsi%d/%d\n", sqlite3_column_int(st, 0), sqlite3_column_int(st, 1));
        if (sqlite3_column_type(st, 2) != SQLITE_NULL)
            sb_printf(out, "  switchport description %s\n", (const char *)sqlite3_column_text(st, 2));
        if (!sqlite3_column_int(st, 3))
            sb_printf(out, "  no shutdown\n");
    }
    sqlite3_reset(st);
}

/* `show running-config all`: every interface of the enabled modules, its
 * defaults included. */
void iscsi_render_all_ifs(struct lab *lab, int sw, strbuf *out)
{
    for (int slot = 1; slot <= 13; slot++) {
        if (!iscsi_module_enabled(lab, sw, slot))
            continue;
        for (int port = 1; port <= iscsi_module_ports(lab, sw, slot); port++) {
            struct iscsi_if_conf c;
            iscsi_if_get(lab, sw, slot, port, &c);
            sb_printf(out, "\ninterface iscsi%d/%d\n", slot, port);
            if (c.description[0])
                sb_printf(out, "  switchport description %s\n", c.description);
            sb_printf(out, "  %sshutdown\n", c.shutdown ? "" : "no ");
        }
    }
}
