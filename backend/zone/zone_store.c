/* The default zone policy in the store: a row per VSAN that permits. */
#include "zone.h"
#include "lab/lab.h"

static sqlite3_stmt *keyed(struct lab *lab, const char *sql, int sw)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    return st;
}

bool zone_default_permits(struct lab *lab, int sw, int vsan)
{
    sqlite3_stmt *st = keyed(lab, "SELECT 1 FROM zone_default_permit WHERE switch_id = ?1 AND vsan = ?2", sw);
    sqlite3_bind_int(st, 2, vsan);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return found;
}

void zone_default_set(struct lab *lab, int sw, int vsan, bool permit)
{
    sqlite3_stmt *st = keyed(lab, permit ? "INSERT OR IGNORE INTO zone_default_permit VALUES (?1, ?2)"
                                         : "DELETE FROM zone_default_permit WHERE switch_id = ?1 AND vsan = ?2",
                             sw);
    sqlite3_bind_int(st, 2, vsan);
    lab_step_done(lab, st);
}

int zone_permit_vsans(struct lab *lab, int sw, int *vsans, int max)
{
    sqlite3_stmt *st = keyed(lab, "SELECT vsan FROM zone_default_permit WHERE switch_id = ?1 ORDER BY vsan", sw);
    int n = 0;
    while (n < max && sqlite3_step(st) == SQLITE_ROW)
        vsans[n++] = sqlite3_column_int(st, 0);
    sqlite3_reset(st);
    return n;
}

void zone_render(struct lab *lab, int sw, strbuf *out)
{
    sqlite3_stmt *st = keyed(lab, "SELECT vsan FROM zone_default_permit WHERE switch_id = ?1 ORDER BY vsan", sw);
    while (sqlite3_step(st) == SQLITE_ROW)
        sb_printf(out, "zone default-zone permit vsan %d\n", sqlite3_column_int(st, 0));
    sqlite3_reset(st);
}
