/* IP Network Simulator state in the store (schema/003_netsim.sql), and the
 * reconcile step that pushes it into the engine. */
#include "netsim.h"
#include "ipnet/ipnet.h"
#include "lab/lab.h"
#include <stdlib.h>
#include <string.h>

/* Statements take ?1 switch id, ?2 slot, ?3 port, then ?4.. values. */
static sqlite3_stmt *port_stmt(struct lab *lab, const char *sql, int sw, int slot, int port)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_int(st, 2, slot);
    sqlite3_bind_int(st, 3, port);
    return st;
}

bool netsim_paired(struct lab *lab, int sw, int slot, int port, int *pslot, int *pport)
{
    static const char *const q =
        "SELECT b_slot, b_port FROM netsim_pair WHERE switch_id = ?1 AND a_slot = ?2 AND a_port = ?3"
        " UNION ALL SELECT a_slot, a_port FROM netsim_pair WHERE switch_id = ?1 AND b_slot = ?2 AND b_port = ?3";
    sqlite3_stmt *st = port_stmt(lab, q, sw, slot, port);
    if (sqlite3_step(st) != SQLITE_ROW)
        return false;
    if (pslot)
        *pslot = sqlite3_column_int(st, 0);
    if (pport)
        *pport = sqlite3_column_int(st, 1);
    sqlite3_reset(st);
    return true;
}

void netsim_pair_add(struct lab *lab, int sw, int a_slot, int a_port, int b_slot, int b_port)
{
    static const char *const pair = "INSERT INTO netsim_pair VALUES (?1, ?2, ?3, ?4, ?5)";
    static const char *const dir = "INSERT INTO netsim_ingress(switch_id, slot, port) VALUES (?1, ?2, ?3)";
    sqlite3_stmt *st = port_stmt(lab, pair, sw, a_slot, a_port);
    sqlite3_bind_int(st, 4, b_slot);
    sqlite3_bind_int(st, 5, b_port);
    lab_step_done(lab, st);
    lab_step_done(lab, port_stmt(lab, dir, sw, a_slot, a_port));
    lab_step_done(lab, port_stmt(lab, dir, sw, b_slot, b_port));
}

void netsim_pair_remove(struct lab *lab, int sw, int slot, int port)
{
    static const char *const pair =
        "DELETE FROM netsim_pair WHERE switch_id = ?1 AND ((a_slot = ?2 AND a_port = ?3) OR (b_slot = ?2 AND b_port = ?3))";
    static const char *const dir = "DELETE FROM netsim_ingress WHERE switch_id = ?1 AND slot = ?2 AND port = ?3";
    int pslot, pport;
    if (!netsim_paired(lab, sw, slot, port, &pslot, &pport))
        return;
    lab_step_done(lab, port_stmt(lab, pair, sw, slot, port));
    lab_step_done(lab, port_stmt(lab, dir, sw, slot, port));
    lab_step_done(lab, port_stmt(lab, dir, sw, pslot, pport));
}

#define WHERE_PORT " WHERE switch_id = ?1 AND slot = ?2 AND port = ?3"

/* The columns of each knob: set binds v[0..2] to ?4..?6. */
static const struct {
    const char *set, *clear;
} knob_sql[NETSIM_KNOB_COUNT] = {
    [NETSIM_KNOB_DELAY] = {"UPDATE netsim_ingress SET delay_us = ?4" WHERE_PORT,
                      "UPDATE netsim_ingress SET delay_us = NULL" WHERE_PORT},
    [NETSIM_KNOB_RATE] = {"UPDATE netsim_ingress SET rate_kbps = ?4" WHERE_PORT,
                     "UPDATE netsim_ingress SET rate_kbps = NULL" WHERE_PORT},
    [NETSIM_KNOB_QSIZE] = {"UPDATE netsim_ingress SET qsize_kb = ?4" WHERE_PORT,
                      "UPDATE netsim_ingress SET qsize_kb = NULL" WHERE_PORT},
    [NETSIM_KNOB_DROP_NTH] = {"UPDATE netsim_ingress SET drop_nth = ?4, drop_nth_burst = ?5" WHERE_PORT,
                         "UPDATE netsim_ingress SET drop_nth = NULL, drop_nth_burst = NULL" WHERE_PORT},
    [NETSIM_KNOB_DROP_RANDOM] = {"UPDATE netsim_ingress SET drop_random = ?4, drop_random_burst = ?5" WHERE_PORT,
                            "UPDATE netsim_ingress SET drop_random = NULL, drop_random_burst = NULL" WHERE_PORT},
    [NETSIM_KNOB_REORDER] = {"UPDATE netsim_ingress SET reorder_mode = ?4, reorder_value = ?5, reorder_distance = ?6"
                        WHERE_PORT,
                        "UPDATE netsim_ingress SET reorder_mode = NULL, reorder_value = NULL,"
                        " reorder_distance = NULL" WHERE_PORT},
};

void netsim_knob_set(struct lab *lab, int sw, int slot, int port, enum netsim_knob k, const long v[3])
{
    sqlite3_stmt *st = port_stmt(lab, knob_sql[k].set, sw, slot, port);
    for (int i = 0; i < 3; i++)
        if (sqlite3_bind_parameter_count(st) >= 4 + i)
            sqlite3_bind_int64(st, 4 + i, v[i]);
    lab_step_done(lab, st);
}

void netsim_knob_clear(struct lab *lab, int sw, int slot, int port, enum netsim_knob k)
{
    lab_step_done(lab, port_stmt(lab, knob_sql[k].clear, sw, slot, port));
}

void netsim_config_load(struct lab *lab, int sw, int slot, int port, netsim_pipe_config *cfg)
{
    static const char *const q =
        "SELECT delay_us, rate_kbps, qsize_kb, drop_nth, drop_nth_burst, drop_random, drop_random_burst,"
        " reorder_mode, reorder_value, reorder_distance FROM netsim_ingress" WHERE_PORT;
    netsim_pipe_config_init(cfg);
    sqlite3_stmt *st = port_stmt(lab, q, sw, slot, port);
    if (sqlite3_step(st) != SQLITE_ROW)
        return;
#define SET(col) (sqlite3_column_type(st, col) != SQLITE_NULL)
#define VAL(col) ((uint64_t)sqlite3_column_int64(st, col))
    if ((cfg->delay_set = SET(0)))
        cfg->delay_ns = VAL(0) * 1000u;
    if ((cfg->rate_set = SET(1)))
        cfg->rate_bps = VAL(1) * 1000u;
    if ((cfg->qsize_set = SET(2)))
        cfg->qsize_bytes = VAL(2) * 1000u;
    if ((cfg->drop_nth_set = SET(3))) {
        cfg->drop_nth = (uint32_t)VAL(3);
        cfg->drop_nth_burst = (uint32_t)VAL(4);
    }
    if ((cfg->drop_random_set = SET(5))) {
        cfg->drop_random = (uint32_t)VAL(5);
        cfg->drop_random_burst = (uint32_t)VAL(6);
    }
    if ((cfg->reorder_set = SET(7))) {
        cfg->reorder_mode = VAL(7) ? NETSIM_REORDER_RANDOM : NETSIM_REORDER_NTH;
        cfg->reorder_value = (uint32_t)VAL(8);
        cfg->reorder_distance = (uint32_t)VAL(9);
    }
#undef SET
#undef VAL
    sqlite3_reset(st);
}

void netsim_pairs_each(struct lab *lab, int sw, void (*fn)(void *ctx, int, int, int, int), void *ctx)
{
    static const char *const q =
        "SELECT a_slot, a_port, b_slot, b_port FROM netsim_pair WHERE switch_id = ? ORDER BY rowid";
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    /* Read them all first: fn may run statements of its own. */
    int (*v)[4] = NULL, n = 0, cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            v = realloc(v, sizeof *v * (size_t)cap);
            if (!v)
                abort();
        }
        for (int i = 0; i < 4; i++)
            v[n][i] = sqlite3_column_int(st, i);
        n++;
    }
    for (int i = 0; i < n; i++)
        fn(ctx, v[i][0], v[i][1], v[i][2], v[i][3]);
    free(v);
}

struct reconcile_ctx {
    struct lab *lab;
    struct ipnet *net;
    int sw;
};

static void configure_port(struct reconcile_ctx *c, int slot, int port)
{
    netsim_pipe_config cfg;
    netsim_pipe *p = ipnet_ingress_pipe(c->net, c->sw, slot, port);
    if (!p)
        return;
    netsim_config_load(c->lab, c->sw, slot, port, &cfg);
    /* The store's CHECKs keep every value in the pipe's ranges, so this
     * cannot be refused; if it were, the pipe keeps its previous config. */
    netsim_pipe_configure(p, &cfg);
}

static void reconcile_pair(void *ctx, int a_slot, int a_port, int b_slot, int b_port)
{
    struct reconcile_ctx *c = ctx;
    ipnet_bridge(c->net, c->sw, a_slot, a_port, b_slot, b_port);
    configure_port(c, a_slot, a_port);
    configure_port(c, b_slot, b_port);
}

void netsim_reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    (void)state;
    ipnet_bridges_begin(net);
    for (int sw = 0; sw < lab_switch_count(lab); sw++) {
        struct reconcile_ctx c = {lab, net, sw};
        netsim_pairs_each(lab, sw, reconcile_pair, &c);
    }
    ipnet_bridges_end(net);
}
