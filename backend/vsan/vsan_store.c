/* VSANs and port membership in the store: a row per VSAN created (or VSAN
 * 1 renamed), a row per interface outside VSAN 1. */
#include "vsan.h"
#include "vsan_store.h"
#include "lab/lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sqlite3_stmt *keyed(struct lab *lab, const char *sql, int sw)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    return st;
}

bool vsan_row(struct lab *lab, int sw, int id, char name[33])
{
    sqlite3_stmt *st = keyed(lab, "SELECT name FROM vsan WHERE switch_id = ?1 AND id = ?2", sw);
    sqlite3_bind_int(st, 2, id);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    if (found && sqlite3_column_type(st, 0) != SQLITE_NULL)
        snprintf(name, 33, "%s", (const char *)sqlite3_column_text(st, 0));
    else
        snprintf(name, 33, "VSAN%04d", id);
    sqlite3_reset(st);
    return found;
}

void vsan_row_set(struct lab *lab, int sw, int id, const char *name)
{
    sqlite3_stmt *st = keyed(lab, "INSERT INTO vsan(switch_id, id, name) VALUES (?1, ?2, ?3)"
                                  " ON CONFLICT (switch_id, id) DO UPDATE SET name = ?3",
                             sw);
    sqlite3_bind_int(st, 2, id);
    if (name)
        sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 3);
    lab_step_done(lab, st);
}

void vsan_row_delete(struct lab *lab, int sw, int id)
{
    sqlite3_stmt *st = keyed(lab, "UPDATE vsan_member SET vsan = 4094 WHERE switch_id = ?1 AND vsan = ?2", sw);
    sqlite3_bind_int(st, 2, id);
    lab_step_done(lab, st);
    st = keyed(lab, "DELETE FROM vsan WHERE switch_id = ?1 AND id = ?2", sw);
    sqlite3_bind_int(st, 2, id);
    lab_step_done(lab, st);
}

int vsan_named(struct lab *lab, int sw, const char *name)
{
    sqlite3_stmt *st = keyed(lab, "SELECT id FROM vsan WHERE switch_id = ?1 AND name = ?2", sw);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    int id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_reset(st);
    return id;
}

int vsan_ids(struct lab *lab, int sw, int *ids, int max)
{
    sqlite3_stmt *st = keyed(lab, "SELECT id FROM vsan WHERE switch_id = ?1 ORDER BY id", sw);
    int n = 0;
    while (n < max && sqlite3_step(st) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int(st, 0);
    sqlite3_reset(st);
    return n;
}

void vsan_member_set(struct lab *lab, int sw, const char *ifname, int vsan)
{
    sqlite3_stmt *st = keyed(lab, vsan == 1 ? "DELETE FROM vsan_member WHERE switch_id = ?1 AND ifname = ?2"
                                            : "INSERT OR REPLACE INTO vsan_member VALUES (?1, ?2, ?3)",
                             sw);
    sqlite3_bind_text(st, 2, ifname, -1, SQLITE_TRANSIENT);
    if (vsan != 1)
        sqlite3_bind_int(st, 3, vsan);
    lab_step_done(lab, st);
}

void vsan_members_each(struct lab *lab, int sw, void (*fn)(void *ctx, const char *ifname, int vsan), void *ctx)
{
    struct row {
        char ifname[32];
        int vsan;
    } *rows = NULL;
    int n = 0, cap = 0;
    sqlite3_stmt *st = keyed(lab, "SELECT ifname, vsan FROM vsan_member WHERE switch_id = ?1", sw);
    while (sqlite3_step(st) == SQLITE_ROW) { /* read all first: fn may use the store */
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            rows = realloc(rows, (size_t)cap * sizeof *rows);
            if (!rows)
                abort();
        }
        snprintf(rows[n].ifname, sizeof rows[n].ifname, "%s", (const char *)sqlite3_column_text(st, 0));
        rows[n++].vsan = sqlite3_column_int(st, 1);
    }
    sqlite3_reset(st);
    for (int i = 0; i < n; i++)
        fn(ctx, rows[i].ifname, rows[i].vsan);
    free(rows);
}

bool vsan_exists(struct lab *lab, int sw, int id)
{
    char name[33];
    return id == 1 || id == VSAN_EVFP || id == VSAN_ISOLATED || vsan_row(lab, sw, id, name);
}

int vsan_port_vsan(struct lab *lab, int sw, const char *ifname)
{
    sqlite3_stmt *st = keyed(lab, "SELECT vsan FROM vsan_member WHERE switch_id = ?1 AND ifname = ?2", sw);
    sqlite3_bind_text(st, 2, ifname, -1, SQLITE_TRANSIENT);
    int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 1;
    sqlite3_reset(st);
    return v;
}

void vsan_lb_set(struct lab *lab, int sw, int id, bool src_dst_id)
{
    sqlite3_stmt *st = keyed(lab, "INSERT INTO vsan(switch_id, id, src_dst_id) VALUES (?1, ?2, ?3)"
                                  " ON CONFLICT (switch_id, id) DO UPDATE SET src_dst_id = ?3",
                             sw);
    sqlite3_bind_int(st, 2, id);
    sqlite3_bind_int(st, 3, src_dst_id);
    lab_step_done(lab, st);
}

bool vsan_lb_src_dst_id(struct lab *lab, int sw, int id)
{
    sqlite3_stmt *st = keyed(lab, "SELECT src_dst_id FROM vsan WHERE switch_id = ?1 AND id = ?2", sw);
    sqlite3_bind_int(st, 2, id);
    bool yes = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
    sqlite3_reset(st);
    return yes;
}

void vsan_src_dst_ids(struct lab *lab, int sw, struct vsan_set *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = keyed(lab, "SELECT id FROM vsan WHERE switch_id = ?1 AND src_dst_id = 1", sw);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int id = sqlite3_column_int(st, 0);
        vsan_set_add(out, id, id);
    }
    sqlite3_reset(st);
}
