/* The fspf_if rows: one per interface and VSAN whose cost is configured. */
#include "fspf_conf.h"
#include "lab/lab.h"
#include <stdio.h>
#include <string.h>

void fspf_cost_set(struct lab *lab, int sw, const char *ifname, int vsan, int cost)
{
    sqlite3_stmt *st = lab_stmt(lab, "INSERT OR REPLACE INTO fspf_if VALUES (?1, ?2, ?3, ?4)");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, ifname, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, vsan);
    sqlite3_bind_int(st, 4, cost);
    lab_step_done(lab, st);
}

void fspf_cost_clear(struct lab *lab, int sw, const char *ifname, int vsan)
{
    sqlite3_stmt *st = lab_stmt(lab, "DELETE FROM fspf_if WHERE switch_id = ?1 AND ifname = ?2 AND vsan = ?3");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, ifname, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, vsan);
    lab_step_done(lab, st);
}

int fspf_cost_get(struct lab *lab, int sw, const char *ifname, int vsan)
{
    sqlite3_stmt *st =
        lab_stmt(lab, "SELECT cost FROM fspf_if WHERE switch_id = ?1 AND ifname = ?2 AND vsan = ?3");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, ifname, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, vsan);
    int cost = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_reset(st);
    return cost;
}

/* Rows are read into a bounded batch first: the callback may run other
 * statements. Interface names sort as fcip1 < fcip2 < fcip10. */
void fspf_ifs_each(struct lab *lab, int sw, const char *ifname, void (*fn)(void *ctx, const struct fspf_if_conf *c),
                   void *ctx)
{
    enum { BATCH = 256 };
    struct fspf_if_conf rows[BATCH];
    int n = 0, skip = 0;
    do {
        sqlite3_stmt *st = lab_stmt(lab, "SELECT ifname, vsan, cost FROM fspf_if WHERE switch_id = ?1 AND "
                                         "(?2 IS NULL OR ifname = ?2) ORDER BY length(ifname), ifname, vsan "
                                         "LIMIT ?3 OFFSET ?4");
        sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
        if (ifname)
            sqlite3_bind_text(st, 2, ifname, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 3, BATCH);
        sqlite3_bind_int(st, 4, skip);
        for (n = 0; n < BATCH && sqlite3_step(st) == SQLITE_ROW; n++) {
            snprintf(rows[n].ifname, sizeof rows[n].ifname, "%s", (const char *)sqlite3_column_text(st, 0));
            rows[n].vsan = sqlite3_column_int(st, 1);
            rows[n].cost = sqlite3_column_int(st, 2);
        }
        sqlite3_reset(st);
        for (int i = 0; i < n; i++)
            fn(ctx, &rows[i]);
        skip += n;
    } while (n == BATCH);
}

static void render_one(void *ctx, const struct fspf_if_conf *c)
{
    sb_printf(ctx, "  fspf cost %d vsan %d\n", c->cost, c->vsan);
}

void fspf_render_if(struct lab *lab, int sw, const char *ifname, strbuf *out)
{
    fspf_ifs_each(lab, sw, ifname, render_one, out);
}
