/* The tuner's state in the store (schema/008_sanext.sql). */
#include "sanext_store.h"
#include "lab/lab.h"
#include "fabric/fabric.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool wwn_parse(const char *text, uint8_t w[8])
{
    unsigned v[8];
    int n = 0;
    if (!text || strlen(text) != 23 ||
        sscanf(text, "%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x%n", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
               &n) != 8 ||
        n != 23)
        return false;
    for (int i = 0; i < 8; i++)
        w[i] = (uint8_t)v[i];
    return true;
}

/* Statements take ?1 switch id, ?2 pwwn, ?3 vsan, then ?4.. values. */
static sqlite3_stmt *nport_stmt(struct lab *lab, const char *sql, int sw, const uint8_t pwwn[8], int vsan)
{
    char w[24];
    sqlite3_stmt *st = lab_stmt(lab, sql);
    fabric_wwn_text(pwwn, w);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, w, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, vsan);
    return st;
}

bool sanext_nwwn(struct lab *lab, int sw, uint8_t w[8])
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT nwwn FROM sanext_node WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    bool ok = sqlite3_step(st) == SQLITE_ROW && wwn_parse((const char *)sqlite3_column_text(st, 0), w);
    sqlite3_reset(st);
    return ok;
}

void sanext_nwwn_set(struct lab *lab, int sw, const uint8_t w[8])
{
    char t[24];
    fabric_wwn_text(w, t);
    sqlite3_stmt *st = lab_stmt(lab, "INSERT OR REPLACE INTO sanext_node VALUES (?, ?)");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, t, -1, SQLITE_TRANSIENT);
    lab_step_done(lab, st);
}

static void nport_row(sqlite3_stmt *st, struct sanext_nport_row *r)
{
    memset(r, 0, sizeof *r);
    wwn_parse((const char *)sqlite3_column_text(st, 0), r->pwwn);
    r->vsan = sqlite3_column_int(st, 1);
    wwn_parse((const char *)sqlite3_column_text(st, 2), r->nwwn);
    r->slot = sqlite3_column_int(st, 3);
    r->port = sqlite3_column_int(st, 4);
    if (sqlite3_column_type(st, 5) != SQLITE_NULL)
        snprintf(r->pattern, sizeof r->pattern, "%s", (const char *)sqlite3_column_text(st, 5));
}

bool sanext_nport_get(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, struct sanext_nport_row *r)
{
    static const char *const q = "SELECT pwwn, vsan, nwwn, slot, port, pattern FROM sanext_nport"
                                 " WHERE switch_id = ?1 AND pwwn = ?2 AND vsan = ?3";
    sqlite3_stmt *st = nport_stmt(lab, q, sw, pwwn, vsan);
    bool ok = sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        nport_row(st, r);
    sqlite3_reset(st);
    return ok;
}

void sanext_nport_add(struct lab *lab, int sw, const struct sanext_nport_row *r)
{
    static const char *const q = "INSERT INTO sanext_nport VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL)";
    char n[24];
    sqlite3_stmt *st = nport_stmt(lab, q, sw, r->pwwn, r->vsan);
    fabric_wwn_text(r->nwwn, n);
    sqlite3_bind_text(st, 4, n, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 5, r->slot);
    sqlite3_bind_int(st, 6, r->port);
    lab_step_done(lab, st);
}

void sanext_nport_delete(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan)
{
    static const char *const q = "DELETE FROM sanext_nport WHERE switch_id = ?1 AND pwwn = ?2 AND vsan = ?3";
    sanext_cmd_delete(lab, sw, pwwn, vsan, 0);
    lab_step_done(lab, nport_stmt(lab, q, sw, pwwn, vsan));
}

void sanext_nport_pattern(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, const char *name)
{
    static const char *const q = "UPDATE sanext_nport SET pattern = ?4 WHERE switch_id = ?1 AND pwwn = ?2 AND vsan = ?3";
    sqlite3_stmt *st = nport_stmt(lab, q, sw, pwwn, vsan);
    if (name)
        sqlite3_bind_text(st, 4, name, -1, SQLITE_TRANSIENT);
    lab_step_done(lab, st);
}

void sanext_nports_each(struct lab *lab, int sw, void (*fn)(void *ctx, const struct sanext_nport_row *r), void *ctx)
{
    static const char *const q = "SELECT pwwn, vsan, nwwn, slot, port, pattern FROM sanext_nport"
                                 " WHERE switch_id = ? ORDER BY rowid";
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    struct sanext_nport_row *v = NULL;
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) { /* rows first: fn may query */
        if (!(v = realloc(v, sizeof *v * (size_t)(n + 1))))
            abort();
        nport_row(st, &v[n++]);
    }
    for (int i = 0; i < n; i++)
        fn(ctx, &v[i]);
    free(v);
}

bool sanext_cmd_exists(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, int id)
{
    static const char *const q =
        "SELECT 1 FROM sanext_cmd WHERE switch_id = ?1 AND pwwn = ?2 AND vsan = ?3 AND cmd_id = ?4";
    sqlite3_stmt *st = nport_stmt(lab, q, sw, pwwn, vsan);
    sqlite3_bind_int(st, 4, id);
    bool ok = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return ok;
}

void sanext_cmd_add(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, const struct sanext_cmd_row *r)
{
    static const char *const q =
        "INSERT INTO sanext_cmd VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
        " (SELECT coalesce(max(start), 0) + 1 FROM sanext_cmd WHERE switch_id = ?1))";
    char t[24];
    sqlite3_stmt *st = nport_stmt(lab, q, sw, pwwn, vsan);
    fabric_wwn_text(r->target, t);
    sqlite3_bind_int(st, 4, r->id);
    sqlite3_bind_int(st, 5, r->op);
    sqlite3_bind_text(st, 6, t, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 7, r->size);
    sqlite3_bind_int(st, 8, r->outstanding);
    sqlite3_bind_int64(st, 9, r->transactions);
    lab_step_done(lab, st);
}

int sanext_cmd_delete(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, int id)
{
    static const char *const q =
        "DELETE FROM sanext_cmd WHERE switch_id = ?1 AND pwwn = ?2 AND vsan = ?3 AND (?4 = 0 OR cmd_id = ?4)";
    sqlite3_stmt *st = nport_stmt(lab, q, sw, pwwn, vsan);
    sqlite3_bind_int(st, 4, id);
    lab_step_done(lab, st);
    return sqlite3_changes(lab_db(lab));
}

void sanext_cmds_each(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan,
                      void (*fn)(void *ctx, const struct sanext_cmd_row *r), void *ctx)
{
    static const char *const q = "SELECT cmd_id, op, target, size, outstanding, transactions, start FROM sanext_cmd"
                                 " WHERE switch_id = ?1 AND pwwn = ?2 AND vsan = ?3 ORDER BY cmd_id";
    sqlite3_stmt *st = nport_stmt(lab, q, sw, pwwn, vsan);
    struct sanext_cmd_row *v = NULL;
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (!(v = realloc(v, sizeof *v * (size_t)(n + 1))))
            abort();
        struct sanext_cmd_row *r = &v[n++];
        r->id = sqlite3_column_int(st, 0);
        r->op = sqlite3_column_int(st, 1);
        wwn_parse((const char *)sqlite3_column_text(st, 2), r->target);
        r->size = (long)sqlite3_column_int64(st, 3);
        r->outstanding = sqlite3_column_int(st, 4);
        r->transactions = sqlite3_column_int64(st, 5);
        r->start = sqlite3_column_int64(st, 6);
    }
    for (int i = 0; i < n; i++)
        fn(ctx, &v[i]);
    free(v);
}
