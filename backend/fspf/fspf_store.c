/* The fspf_if rows: one per interface and VSAN with something configured. */
#include "fspf_conf.h"
#include "lab/lab.h"
#include <stdio.h>
#include <string.h>

static void bind_key(sqlite3_stmt *st, struct lab *lab, int sw, const char *ifname, int vsan)
{
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, ifname, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, vsan);
}

static void bind_or_null(sqlite3_stmt *st, int col, int v)
{
    if (v)
        sqlite3_bind_int(st, col, v);
    else
        sqlite3_bind_null(st, col);
}

static void read_row(sqlite3_stmt *st, int from, struct fspf_if_conf *c)
{
    c->cost = sqlite3_column_int(st, from);
    c->hello = sqlite3_column_int(st, from + 1);
    c->dead = sqlite3_column_int(st, from + 2);
}

void fspf_if_get(struct lab *lab, int sw, const char *ifname, int vsan, struct fspf_if_conf *c)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT cost, hello, dead FROM fspf_if WHERE switch_id = ?1 AND ifname = ?2 "
                                     "AND vsan = ?3");
    bind_key(st, lab, sw, ifname, vsan);
    *c = (struct fspf_if_conf){"", vsan, 0, 0, 0};
    snprintf(c->ifname, sizeof c->ifname, "%s", ifname);
    if (sqlite3_step(st) == SQLITE_ROW)
        read_row(st, 0, c);
    sqlite3_reset(st);
}

void fspf_if_put(struct lab *lab, int sw, const struct fspf_if_conf *c)
{
    bool none = !c->cost && !c->hello && !c->dead;
    sqlite3_stmt *st = lab_stmt(lab, none ? "DELETE FROM fspf_if WHERE switch_id = ?1 AND ifname = ?2 AND vsan = ?3"
                                          : "INSERT OR REPLACE INTO fspf_if VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    bind_key(st, lab, sw, c->ifname, c->vsan);
    if (!none) {
        bind_or_null(st, 4, c->cost);
        bind_or_null(st, 5, c->hello);
        bind_or_null(st, 6, c->dead);
    }
    lab_step_done(lab, st);
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
        sqlite3_stmt *st =
            lab_stmt(lab, "SELECT ifname, vsan, cost, hello, dead FROM fspf_if WHERE switch_id = ?1 AND "
                          "(?2 IS NULL OR ifname = ?2) ORDER BY length(ifname), ifname, vsan LIMIT ?3 OFFSET ?4");
        sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
        if (ifname)
            sqlite3_bind_text(st, 2, ifname, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 3, BATCH);
        sqlite3_bind_int(st, 4, skip);
        for (n = 0; n < BATCH && sqlite3_step(st) == SQLITE_ROW; n++) {
            snprintf(rows[n].ifname, sizeof rows[n].ifname, "%s", (const char *)sqlite3_column_text(st, 0));
            rows[n].vsan = sqlite3_column_int(st, 1);
            read_row(st, 2, &rows[n]);
        }
        sqlite3_reset(st);
        for (int i = 0; i < n; i++)
            fn(ctx, &rows[i]);
        skip += n;
    } while (n == BATCH);
}

/* In the order a replay accepts: the dead interval first when the hello
 * interval reaches the default dead interval (80 s), else after it. */
static void render_one(void *ctx, const struct fspf_if_conf *c)
{
    bool dead_first = c->hello >= FSPF_DEAD_S;
    if (c->cost)
        sb_printf(ctx, "  fspf cost %d vsan %d\n", c->cost, c->vsan);
    if (dead_first)
        sb_printf(ctx, "  fspf dead-interval %d vsan %d\n", c->dead, c->vsan);
    if (c->hello)
        sb_printf(ctx, "  fspf hello-interval %d vsan %d\n", c->hello, c->vsan);
    if (c->dead && !dead_first)
        sb_printf(ctx, "  fspf dead-interval %d vsan %d\n", c->dead, c->vsan);
}

void fspf_render_if(struct lab *lab, int sw, const char *ifname, strbuf *out)
{
    fspf_ifs_each(lab, sw, ifname, render_one, out);
}
