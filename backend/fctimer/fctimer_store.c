/* The timers in the store: one row per switch that changed one. */
#include "fctimer.h"
#include "lab/lab.h"

void fctimer_get(struct lab *lab, int sw, struct fctimer_conf *c)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT e_d_tov, r_a_tov FROM fctimer WHERE switch_id = ?1");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    *c = (struct fctimer_conf){FCTIMER_E_D_TOV_MS, FCTIMER_R_A_TOV_MS};
    if (sqlite3_step(st) == SQLITE_ROW)
        *c = (struct fctimer_conf){sqlite3_column_int(st, 0), sqlite3_column_int(st, 1)};
    sqlite3_reset(st);
}

/* Back at both defaults, the row goes. */
void fctimer_set(struct lab *lab, int sw, const struct fctimer_conf *c)
{
    bool dflt = c->e_d_tov_ms == FCTIMER_E_D_TOV_MS && c->r_a_tov_ms == FCTIMER_R_A_TOV_MS;
    sqlite3_stmt *st = lab_stmt(lab, dflt ? "DELETE FROM fctimer WHERE switch_id = ?1"
                                          : "INSERT OR REPLACE INTO fctimer VALUES (?1, ?2, ?3)");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    if (!dflt) {
        sqlite3_bind_int(st, 2, c->e_d_tov_ms);
        sqlite3_bind_int(st, 3, c->r_a_tov_ms);
    }
    lab_step_done(lab, st);
}

void fctimer_render(struct lab *lab, int sw, strbuf *out)
{
    struct fctimer_conf c;
    fctimer_get(lab, sw, &c);
    if (c.e_d_tov_ms != FCTIMER_E_D_TOV_MS)
        sb_printf(out, "fctimer e_d_tov %d\n", c.e_d_tov_ms);
    if (c.r_a_tov_ms != FCTIMER_R_A_TOV_MS)
        sb_printf(out, "fctimer r_a_tov %d\n", c.r_a_tov_ms);
}
