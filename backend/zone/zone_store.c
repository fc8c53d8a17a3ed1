/* Zoning in the store: the default zone policy (a row per VSAN that
 * permits), the full zone database and the zoneset each switch activated
 * (schema 010 and 016). */
#include "zone.h"
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

/* ?1 switch, ?2 VSAN, ?3.. text */
static sqlite3_stmt *in_vsan(struct lab *lab, const char *sql, int sw, int vsan, const char *a, const char *b,
                             const char *c)
{
    sqlite3_stmt *st = keyed(lab, sql, sw);
    sqlite3_bind_int(st, 2, vsan);
    const char *t[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (t[i])
            sqlite3_bind_text(st, 3 + i, t[i], -1, SQLITE_TRANSIENT);
    return st;
}

static bool found(sqlite3_stmt *st)
{
    bool f = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return f;
}

static int count(sqlite3_stmt *st)
{
    int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_reset(st);
    return n;
}

bool zone_default_permits(struct lab *lab, int sw, int vsan)
{
    return found(in_vsan(lab, "SELECT 1 FROM zone_default_permit WHERE switch_id = ?1 AND vsan = ?2", sw, vsan, NULL,
                         NULL, NULL));
}

void zone_default_set(struct lab *lab, int sw, int vsan, bool permit)
{
    lab_step_done(lab, in_vsan(lab,
                               permit ? "INSERT OR IGNORE INTO zone_default_permit VALUES (?1, ?2)"
                                      : "DELETE FROM zone_default_permit WHERE switch_id = ?1 AND vsan = ?2",
                               sw, vsan, NULL, NULL, NULL));
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

/* The full database */

bool zone_exists(struct lab *lab, int sw, int vsan, const char *name)
{
    return found(in_vsan(lab, "SELECT 1 FROM zone WHERE switch_id = ?1 AND vsan = ?2 AND name = ?3", sw, vsan, name,
                         NULL, NULL));
}

bool zoneset_exists(struct lab *lab, int sw, int vsan, const char *name)
{
    return found(in_vsan(lab, "SELECT 1 FROM zoneset WHERE switch_id = ?1 AND vsan = ?2 AND name = ?3", sw, vsan,
                         name, NULL, NULL));
}

int zone_totals(struct lab *lab, int sw, int vsan, struct zone_counts *c)
{
    static const char *const sql[4] = {
        "SELECT count(*) FROM zone WHERE switch_id = ?1 AND (?2 = 0 OR vsan = ?2)",
        "SELECT count(*) FROM zone_member WHERE switch_id = ?1 AND (?2 = 0 OR vsan = ?2)",
        "SELECT count(*) FROM zoneset WHERE switch_id = ?1 AND (?2 = 0 OR vsan = ?2)",
        "SELECT count(*) FROM zoneset_member WHERE switch_id = ?1 AND (?2 = 0 OR vsan = ?2)",
    };
    int v[4];
    for (int i = 0; i < 4; i++)
        v[i] = count(in_vsan(lab, sql[i], sw, vsan, NULL, NULL, NULL));
    *c = (struct zone_counts){v[0], v[1], v[2], v[3]};
    return v[0] + v[2];
}

int zone_count_of(struct lab *lab, int sw, enum zone_kind k)
{
    static const char *const sql[3] = {
        [ZK_ZONES] = "SELECT count(*) FROM zone WHERE switch_id = ?1",
        [ZK_MEMBERS] = "SELECT count(*) FROM zone_member WHERE switch_id = ?1",
        [ZK_SETS] = "SELECT count(*) FROM zoneset WHERE switch_id = ?1",
    };
    return count(keyed(lab, sql[k], sw));
}

void zone_create(struct lab *lab, int sw, int vsan, const char *name, bool is_set)
{
    lab_step_done(lab, in_vsan(lab,
                               is_set ? "INSERT OR IGNORE INTO zoneset VALUES (?1, ?2, ?3)"
                                      : "INSERT OR IGNORE INTO zone VALUES (?1, ?2, ?3)",
                               sw, vsan, name, NULL, NULL));
}

/* A zone leaves the zonesets that named it with it. */
void zone_delete(struct lab *lab, int sw, int vsan, const char *name, bool is_set)
{
    if (!is_set)
        lab_step_done(lab, in_vsan(lab, "DELETE FROM zoneset_member WHERE switch_id = ?1 AND vsan = ?2 AND zone = ?3",
                                   sw, vsan, name, NULL, NULL));
    lab_step_done(lab, in_vsan(lab,
                               is_set ? "DELETE FROM zoneset WHERE switch_id = ?1 AND vsan = ?2 AND name = ?3"
                                      : "DELETE FROM zone WHERE switch_id = ?1 AND vsan = ?2 AND name = ?3",
                               sw, vsan, name, NULL, NULL));
}

bool zone_member_has(struct lab *lab, int sw, int vsan, const char *zone, const char *kind, const char *value)
{
    return found(in_vsan(lab,
                         "SELECT 1 FROM zone_member WHERE switch_id = ?1 AND vsan = ?2 AND zone = ?3 AND kind = ?4 "
                         "AND value = ?5",
                         sw, vsan, zone, kind, value));
}

void zone_member_set(struct lab *lab, int sw, int vsan, const char *zone, const char *kind, const char *value,
                     bool add)
{
    lab_step_done(lab, in_vsan(lab,
                               add ? "INSERT OR IGNORE INTO zone_member VALUES (?1, ?2, ?3, ?4, ?5)"
                                   : "DELETE FROM zone_member WHERE switch_id = ?1 AND vsan = ?2 AND zone = ?3 "
                                     "AND kind = ?4 AND value = ?5",
                               sw, vsan, zone, kind, value));
}

bool zoneset_member_has(struct lab *lab, int sw, int vsan, const char *set, const char *zone)
{
    return found(in_vsan(lab,
                         "SELECT 1 FROM zoneset_member WHERE switch_id = ?1 AND vsan = ?2 AND zoneset = ?3 AND "
                         "zone = ?4",
                         sw, vsan, set, zone, NULL));
}

void zoneset_member_set(struct lab *lab, int sw, int vsan, const char *set, const char *zone, bool add)
{
    lab_step_done(lab, in_vsan(lab,
                               add ? "INSERT OR IGNORE INTO zoneset_member VALUES (?1, ?2, ?3, ?4)"
                                   : "DELETE FROM zoneset_member WHERE switch_id = ?1 AND vsan = ?2 AND "
                                     "zoneset = ?3 AND zone = ?4",
                               sw, vsan, set, zone, NULL));
}

void zone_clear_database(struct lab *lab, int sw, int vsan)
{
    lab_step_done(lab, in_vsan(lab, "DELETE FROM zoneset WHERE switch_id = ?1 AND vsan = ?2", sw, vsan, NULL, NULL,
                               NULL));
    lab_step_done(lab,
                  in_vsan(lab, "DELETE FROM zone WHERE switch_id = ?1 AND vsan = ?2", sw, vsan, NULL, NULL, NULL));
}

/* Activation copies the zoneset's zones with their members; zones it
 * names that do not exist are passed over. */
bool zone_activate(struct lab *lab, int sw, int vsan, const char *set, int64_t when)
{
    if (!zoneset_exists(lab, sw, vsan, set))
        return false;
    zone_deactivate(lab, sw, vsan);
    sqlite3_stmt *st = in_vsan(lab, "INSERT INTO zone_active VALUES (?1, ?2, ?3, ?4)", sw, vsan, set, NULL, NULL);
    sqlite3_bind_int64(st, 4, when);
    lab_step_done(lab, st);
    lab_step_done(lab, in_vsan(lab,
                               "INSERT INTO zone_active_member SELECT m.switch_id, m.vsan, m.zone, m.kind, m.value "
                               "FROM zoneset_member s JOIN zone_member m ON m.switch_id = s.switch_id AND m.vsan = "
                               "s.vsan AND m.zone = s.zone WHERE s.switch_id = ?1 AND s.vsan = ?2 AND s.zoneset = ?3 "
                               "ORDER BY s.rowid, m.rowid",
                               sw, vsan, set, NULL, NULL));
    return true;
}

void zone_deactivate(struct lab *lab, int sw, int vsan)
{
    lab_step_done(lab, in_vsan(lab, "DELETE FROM zone_active WHERE switch_id = ?1 AND vsan = ?2", sw, vsan, NULL,
                               NULL, NULL));
}

bool zone_active_name(struct lab *lab, int sw, int vsan, char *name, size_t n, int64_t *when)
{
    sqlite3_stmt *st = in_vsan(lab, "SELECT zoneset, at_ns FROM zone_active WHERE switch_id = ?1 AND vsan = ?2",
                               sw, vsan, NULL, NULL, NULL);
    bool f = sqlite3_step(st) == SQLITE_ROW;
    if (f) {
        snprintf(name, n, "%s", (const char *)sqlite3_column_text(st, 0));
        if (when)
            *when = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    return f;
}

/* Walks */

static const char *const walk_sql[ZW_COUNT] = {
    [ZW_ZONES] = "SELECT vsan, name FROM zone WHERE switch_id = ?1 AND (?2 = 0 OR vsan = ?2) AND (?3 IS NULL OR "
                 "name = ?3) ORDER BY vsan, rowid",
    [ZW_ZONE_MEMBERS] = "SELECT kind, value FROM zone_member WHERE switch_id = ?1 AND vsan = ?2 AND zone = ?3 "
                        "ORDER BY rowid",
    [ZW_SETS] = "SELECT vsan, name FROM zoneset WHERE switch_id = ?1 AND (?2 = 0 OR vsan = ?2) AND (?3 IS NULL OR "
                "name = ?3) ORDER BY vsan, rowid",
    [ZW_SET_MEMBERS] = "SELECT zone, '' FROM zoneset_member WHERE switch_id = ?1 AND vsan = ?2 AND zoneset = ?3 "
                       "ORDER BY rowid",
    [ZW_ACTIVE] = "SELECT vsan, zoneset FROM zone_active WHERE switch_id = ?1 AND (?2 = 0 OR vsan = ?2) ORDER BY "
                  "vsan",
    [ZW_ACTIVE_ZONES] = "SELECT zone, '' FROM zone_active_member WHERE switch_id = ?1 AND vsan = ?2 GROUP BY zone "
                        "ORDER BY min(rowid)",
    [ZW_ACTIVE_MEMBERS] = "SELECT kind, value FROM zone_active_member WHERE switch_id = ?1 AND vsan = ?2 AND zone = "
                          "?3 ORDER BY rowid",
    [ZW_VSANS] = "SELECT vsan, '' FROM zone WHERE switch_id = ?1 UNION SELECT vsan, '' FROM zoneset WHERE switch_id "
                 "= ?1 UNION SELECT vsan, '' FROM zone_active WHERE switch_id = ?1 ORDER BY 1",
};

/* The rows are read first, then handed out: a walker may walk again. */
int zone_walk(struct lab *lab, int sw, enum zone_walk what, int vsan, const char *name, zone_row_fn fn, void *ctx)
{
    sqlite3_stmt *st = in_vsan(lab, walk_sql[what], sw, vsan, name, NULL, NULL);
    struct zone_row *rows = NULL;
    int n = 0, cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            struct zone_row *v = realloc(rows, sizeof *v * (size_t)cap);
            if (!v)
                break;
            rows = v;
        }
        struct zone_row *r = &rows[n++];
        bool num = sqlite3_column_type(st, 0) == SQLITE_INTEGER;
        r->vsan = num ? sqlite3_column_int(st, 0) : vsan;
        snprintf(r->a, sizeof r->a, "%s", num ? "" : (const char *)sqlite3_column_text(st, 0));
        snprintf(r->b, sizeof r->b, "%s", (const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_reset(st);
    for (int i = 0; i < n; i++)
        fn(ctx, &rows[i]);
    free(rows);
    return n;
}
