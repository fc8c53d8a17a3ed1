/* Configured domain IDs in the store: a row per VSAN that has one. */
#include "fcdomain.h"
#include "lab/lab.h"

static sqlite3_stmt *keyed(struct lab *lab, const char *sql, int sw)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    return st;
}

static void row(sqlite3_stmt *st, struct fcdomain_conf *c)
{
    c->vsan = sqlite3_column_int(st, 0);
    c->domain = sqlite3_column_int(st, 1);
    c->is_static = sqlite3_column_int(st, 2) != 0;
}

bool fcdomain_get(struct lab *lab, int sw, int vsan, struct fcdomain_conf *c)
{
    sqlite3_stmt *st =
        keyed(lab, "SELECT vsan, domain, static FROM fcdomain_domain WHERE switch_id = ?1 AND vsan = ?2", sw);
    sqlite3_bind_int(st, 2, vsan);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    if (found)
        row(st, c);
    sqlite3_reset(st);
    return found;
}

void fcdomain_set(struct lab *lab, int sw, const struct fcdomain_conf *c)
{
    sqlite3_stmt *st = keyed(lab, "INSERT OR REPLACE INTO fcdomain_domain VALUES (?1, ?2, ?3, ?4)", sw);
    sqlite3_bind_int(st, 2, c->vsan);
    sqlite3_bind_int(st, 3, c->domain);
    sqlite3_bind_int(st, 4, c->is_static);
    lab_step_done(lab, st);
}

void fcdomain_clear(struct lab *lab, int sw, int vsan)
{
    sqlite3_stmt *st = keyed(lab, "DELETE FROM fcdomain_domain WHERE switch_id = ?1 AND vsan = ?2", sw);
    sqlite3_bind_int(st, 2, vsan);
    lab_step_done(lab, st);
}

void fcdomain_each(struct lab *lab, int sw, void (*fn)(void *ctx, const struct fcdomain_conf *c), void *ctx)
{
    sqlite3_stmt *st =
        keyed(lab, "SELECT vsan, domain, static FROM fcdomain_domain WHERE switch_id = ?1 ORDER BY vsan", sw);
    while (sqlite3_step(st) == SQLITE_ROW) {
        struct fcdomain_conf c;
        row(st, &c);
        fn(ctx, &c);
    }
    sqlite3_reset(st);
}

static void render_one(void *ctx, const struct fcdomain_conf *c)
{
    sb_printf(ctx, "fcdomain domain %d %s vsan %d\n", c->domain, c->is_static ? "static" : "preferred", c->vsan);
}

void fcdomain_render(struct lab *lab, int sw, strbuf *out) { fcdomain_each(lab, sw, render_one, out); }
