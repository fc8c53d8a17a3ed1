/* Port-channels and their members in the store (schema/021). */
#include "pc_store.h"
#include "lab/lab.h"
#include <stdio.h>
#include <string.h>

static const char *const trunk_text[] = {[FCIP_TRUNK_ON] = "on", [FCIP_TRUNK_OFF] = "off",
                                         [FCIP_TRUNK_AUTO] = "auto"};

static sqlite3_stmt *keyed(struct lab *lab, const char *sql, int sw)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    return st;
}

bool pc_get(struct lab *lab, int sw, int id, struct pc_conf *c)
{
    sqlite3_stmt *st = keyed(lab,
                             "SELECT shutdown, trunk_mode, allowed_vsans, mode_active FROM port_channel"
                             " WHERE switch_id = ?1 AND id = ?2",
                             sw);
    sqlite3_bind_int(st, 2, id);
    memset(c, 0, sizeof *c);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        c->id = id;
        c->shutdown = sqlite3_column_int(st, 0);
        const char *t = (const char *)sqlite3_column_text(st, 1);
        c->trunk_mode = strcmp(t, "off") == 0 ? FCIP_TRUNK_OFF : strcmp(t, "auto") == 0 ? FCIP_TRUNK_AUTO : FCIP_TRUNK_ON;
        vsan_set_parse(&c->allowed, (const char *)sqlite3_column_text(st, 2));
        c->mode_active = sqlite3_column_int(st, 3);
    }
    sqlite3_reset(st);
    return found;
}

void pc_create(struct lab *lab, int sw, int id)
{
    sqlite3_stmt *st = keyed(lab, "INSERT OR IGNORE INTO port_channel(switch_id, id) VALUES (?1, ?2)", sw);
    sqlite3_bind_int(st, 2, id);
    lab_step_done(lab, st);
}

void pc_delete(struct lab *lab, int sw, int id)
{
    sqlite3_stmt *st = keyed(lab, "DELETE FROM port_channel WHERE switch_id = ?1 AND id = ?2", sw);
    sqlite3_bind_int(st, 2, id);
    lab_step_done(lab, st);
}

void pc_put(struct lab *lab, int sw, const struct pc_conf *c)
{
    strbuf list;
    sb_init(&list);
    vsan_set_format(&c->allowed, &list);
    sqlite3_stmt *st = keyed(lab,
                             "UPDATE port_channel SET shutdown = ?3, trunk_mode = ?4, allowed_vsans = ?5,"
                             " mode_active = ?6 WHERE switch_id = ?1 AND id = ?2",
                             sw);
    sqlite3_bind_int(st, 2, c->id);
    sqlite3_bind_int(st, 3, c->shutdown);
    sqlite3_bind_text(st, 4, trunk_text[c->trunk_mode], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, sb_str(&list), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 6, c->mode_active);
    lab_step_done(lab, st);
    sb_free(&list);
}

void pc_member_set(struct lab *lab, int sw, int fcip_id, int channel)
{
    sqlite3_stmt *st = keyed(lab, channel ? "INSERT OR REPLACE INTO port_channel_member VALUES (?1, ?2, ?3)"
                                          : "DELETE FROM port_channel_member WHERE switch_id = ?1 AND fcip_id = ?2",
                             sw);
    sqlite3_bind_int(st, 2, fcip_id);
    if (channel)
        sqlite3_bind_int(st, 3, channel);
    lab_step_done(lab, st);
}

int pc_channel_of(struct lab *lab, int sw, int fcip_id)
{
    sqlite3_stmt *st = keyed(lab, "SELECT channel FROM port_channel_member WHERE switch_id = ?1 AND fcip_id = ?2", sw);
    sqlite3_bind_int(st, 2, fcip_id);
    int ch = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_reset(st);
    return ch;
}

int pc_members(struct lab *lab, int sw, int id, int *fcip_ids)
{
    sqlite3_stmt *st = keyed(lab,
                             "SELECT fcip_id FROM port_channel_member WHERE switch_id = ?1 AND channel = ?2"
                             " ORDER BY fcip_id",
                             sw);
    sqlite3_bind_int(st, 2, id);
    int n = 0;
    while (n < PC_MEMBERS_MAX && sqlite3_step(st) == SQLITE_ROW)
        fcip_ids[n++] = sqlite3_column_int(st, 0);
    sqlite3_reset(st);
    return n;
}

int pc_ids(struct lab *lab, int sw, int ids[PC_ID_MAX])
{
    sqlite3_stmt *st = keyed(lab, "SELECT id FROM port_channel WHERE switch_id = ?1 ORDER BY id", sw);
    int n = 0;
    while (n < PC_ID_MAX && sqlite3_step(st) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int(st, 0);
    sqlite3_reset(st);
    return n;
}

void pc_render_member(struct lab *lab, int sw, int fcip_id, strbuf *out)
{
    int ch = pc_channel_of(lab, sw, fcip_id);
    if (ch)
        sb_printf(out, "  channel-group %d force\n", ch);
}
