/* FCIP configuration in the store: a row per profile and per fcip
 * interface that exists, each column at its default until configured. */
#include "fcip.h"
#include "fcip_store.h"
#include "fcip_wire.h" /* fcip_wwn_parse */
#include "interface/ge.h"
#include "lab/lab.h"
#include <stdio.h>
#include <string.h>

const long long fcip_pcol_default[FP_COUNT] = {
    [FP_IP] = -1, [FP_PORT] = FCIP_DEFAULT_PORT, [FP_KEEPALIVE] = 60, [FP_MAX_RETRANS] = 4, [FP_MIN_RTO] = 200,
    [FP_PMTU] = 1, [FP_PMTU_RESET] = 3600, [FP_SACK] = 1, [FP_MAX_BW] = 1000000, [FP_MIN_BW] = 500000,
    [FP_RTT] = 1000, [FP_CWM] = 1, [FP_CWM_BURST] = 50, [FP_JITTER] = 1000, [FP_SEND_BUF] = 0,
};

#define PSET(col) "UPDATE fcip_profile SET " col " = ?3 WHERE switch_id = ?1 AND id = ?2"
static const char *const pset[FP_COUNT] = {
    [FP_IP] = PSET("ip_addr"), [FP_PORT] = PSET("port"), [FP_KEEPALIVE] = PSET("keepalive_s"),
    [FP_MAX_RETRANS] = PSET("max_retrans"), [FP_MIN_RTO] = PSET("min_rto_ms"), [FP_PMTU] = PSET("pmtu"),
    [FP_PMTU_RESET] = PSET("pmtu_reset_s"), [FP_SACK] = PSET("sack"), [FP_MAX_BW] = PSET("max_bw_kbps"),
    [FP_MIN_BW] = PSET("min_bw_kbps"), [FP_RTT] = PSET("rtt_us"), [FP_CWM] = PSET("cwm"),
    [FP_CWM_BURST] = PSET("cwm_burst_kb"), [FP_JITTER] = PSET("max_jitter_us"), [FP_SEND_BUF] = PSET("send_buf_kb"),
};

#define ISET(col) "UPDATE fcip_if SET " col " = ?3 WHERE switch_id = ?1 AND id = ?2"
static const char *const iset[FI_COUNT] = {
    [FI_PROFILE] = ISET("profile"), [FI_PEER_IP] = ISET("peer_ip"), [FI_PEER_PORT] = ISET("peer_port"),
    [FI_PASSIVE] = ISET("passive"), [FI_TCP_CONNS] = ISET("tcp_conns"), [FI_COMPRESSION] = ISET("compression"),
    [FI_WRITE_ACC] = ISET("write_acc"), [FI_TAPE_ACC] = ISET("tape_acc"), [FI_TIME_STAMP] = ISET("time_stamp"),
    [FI_TS_DIFF] = ISET("ts_diff_ms"), [FI_SHUTDOWN] = ISET("shutdown"), [FI_TRUNK_MODE] = ISET("trunk_mode"),
    [FI_ALLOWED] = ISET("allowed_vsans"), [FI_DESCRIPTION] = ISET("description"),
    [FI_SF_WWN] = ISET("sf_peer_wwn"), [FI_SF_PROFILE] = ISET("sf_profile"), [FI_TAPE_BUF] = ISET("tape_buf_kb"),
};

static sqlite3_stmt *keyed(struct lab *lab, const char *sql, int sw, int id)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_int(st, 2, id);
    return st;
}

static bool exists(struct lab *lab, const char *sql, int sw, int id)
{
    sqlite3_stmt *st = keyed(lab, sql, sw, id);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return found;
}

static void run(struct lab *lab, const char *sql, int sw, int id) { lab_step_done(lab, keyed(lab, sql, sw, id)); }

static void set(struct lab *lab, const char *sql, int sw, int id, const long long *v)
{
    sqlite3_stmt *st = keyed(lab, sql, sw, id);
    if (v)
        sqlite3_bind_int64(st, 3, *v);
    else
        sqlite3_bind_null(st, 3);
    lab_step_done(lab, st);
}

static int ids(struct lab *lab, const char *sql, int sw, int out[255])
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    int n = 0;
    while (n < 255 && sqlite3_step(st) == SQLITE_ROW)
        out[n++] = sqlite3_column_int(st, 0);
    sqlite3_reset(st);
    return n;
}

bool fcip_profile_exists(struct lab *lab, int sw, int id)
{
    return exists(lab, "SELECT 1 FROM fcip_profile WHERE switch_id = ?1 AND id = ?2", sw, id);
}

void fcip_profile_create(struct lab *lab, int sw, int id)
{
    run(lab, "INSERT OR IGNORE INTO fcip_profile(switch_id, id) VALUES (?1, ?2)", sw, id);
}

void fcip_profile_delete(struct lab *lab, int sw, int id)
{
    run(lab, "DELETE FROM fcip_profile WHERE switch_id = ?1 AND id = ?2", sw, id);
}

void fcip_profile_set(struct lab *lab, int sw, int id, enum fcip_pcol col, const long long *v)
{
    set(lab, pset[col], sw, id, v);
}

void fcip_profile_set_bandwidth(struct lab *lab, int sw, int id, long long max_kbps, long long min_kbps,
                                long long rtt_us)
{
    sqlite3_stmt *st = keyed(lab,
                             "UPDATE fcip_profile SET max_bw_kbps = ?3, min_bw_kbps = ?4, rtt_us = ?5"
                             " WHERE switch_id = ?1 AND id = ?2",
                             sw, id);
    sqlite3_bind_int64(st, 3, max_kbps);
    sqlite3_bind_int64(st, 4, min_kbps);
    sqlite3_bind_int64(st, 5, rtt_us);
    lab_step_done(lab, st);
}

int fcip_profile_ids(struct lab *lab, int sw, int out[255])
{
    return ids(lab, "SELECT id FROM fcip_profile WHERE switch_id = ? ORDER BY id", sw, out);
}

int fcip_profile_user(struct lab *lab, int sw, int profile)
{
    sqlite3_stmt *st = keyed(lab, "SELECT min(id) FROM fcip_if WHERE switch_id = ?1 AND profile = ?2", sw, profile);
    int id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0; /* min() of nothing: NULL, 0 */
    sqlite3_reset(st);
    return id;
}

bool fcip_profile_get(struct lab *lab, int sw, int id, struct fcip_profile_conf *c)
{
    sqlite3_stmt *st = keyed(lab,
                             "SELECT ip_addr, port, keepalive_s, max_retrans, min_rto_ms, pmtu, pmtu_reset_s, sack,"
                             " max_bw_kbps, min_bw_kbps, rtt_us, cwm, cwm_burst_kb, max_jitter_us, send_buf_kb"
                             " FROM fcip_profile WHERE switch_id = ?1 AND id = ?2",
                             sw, id);
    memset(c, 0, sizeof *c);
    c->id = id;
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);
        return false;
    }
    c->has_ip = sqlite3_column_type(st, 0) != SQLITE_NULL;
    c->ip = (uint32_t)sqlite3_column_int64(st, 0);
    c->port = sqlite3_column_int(st, 1);
    c->keepalive_s = sqlite3_column_int(st, 2);
    c->max_retrans = sqlite3_column_int(st, 3);
    c->min_rto_ms = sqlite3_column_int(st, 4);
    c->pmtu = sqlite3_column_int(st, 5) != 0;
    c->pmtu_reset_s = sqlite3_column_int(st, 6);
    c->sack = sqlite3_column_int(st, 7) != 0;
    c->max_bw_kbps = (uint32_t)sqlite3_column_int64(st, 8);
    c->min_bw_kbps = (uint32_t)sqlite3_column_int64(st, 9);
    c->rtt_us = (uint32_t)sqlite3_column_int64(st, 10);
    c->cwm = sqlite3_column_int(st, 11) != 0;
    c->cwm_burst_bytes = (uint32_t)sqlite3_column_int(st, 12) * 1024u;
    c->max_jitter_us = (uint32_t)sqlite3_column_int(st, 13);
    c->send_buf_bytes = (uint32_t)sqlite3_column_int(st, 14) * 1024u;
    sqlite3_reset(st);
    return true;
}

bool fcip_if_exists(struct lab *lab, int sw, int id)
{
    return exists(lab, "SELECT 1 FROM fcip_if WHERE switch_id = ?1 AND id = ?2", sw, id);
}

void fcip_if_create(struct lab *lab, int sw, int id)
{
    run(lab, "INSERT OR IGNORE INTO fcip_if(switch_id, id) VALUES (?1, ?2)", sw, id);
}

void fcip_if_delete(struct lab *lab, int sw, int id)
{
    run(lab, "DELETE FROM fcip_if WHERE switch_id = ?1 AND id = ?2", sw, id);
}

void fcip_if_set(struct lab *lab, int sw, int id, enum fcip_icol col, const long long *v)
{
    set(lab, iset[col], sw, id, v);
}

void fcip_if_set_text(struct lab *lab, int sw, int id, enum fcip_icol col, const char *text)
{
    sqlite3_stmt *st = keyed(lab, iset[col], sw, id);
    if (text)
        sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 3);
    lab_step_done(lab, st);
}

bool fcip_if_set_switchport(struct lab *lab, int sw, int id, enum fcip_trunk_mode mode, const struct vsan_set *allowed)
{
    static const char *const names[] = {[FCIP_TRUNK_ON] = "on", [FCIP_TRUNK_OFF] = "off", [FCIP_TRUNK_AUTO] = "auto"};
    if (!fcip_if_exists(lab, sw, id))
        return false;
    strbuf list;
    sb_init(&list);
    vsan_set_format(allowed, &list);
    fcip_if_set_text(lab, sw, id, FI_TRUNK_MODE, names[mode]);
    fcip_if_set_text(lab, sw, id, FI_ALLOWED, sb_str(&list));
    sb_free(&list);
    return true;
}

int fcip_if_ids(struct lab *lab, int sw, int out[255])
{
    return ids(lab, "SELECT id FROM fcip_if WHERE switch_id = ? ORDER BY id", sw, out);
}

int fcip_if_count(struct lab *lab, int sw)
{
    int all[255];
    return fcip_if_ids(lab, sw, all);
}

static const char *const trunk_modes[] = {[FCIP_TRUNK_ON] = "on", [FCIP_TRUNK_OFF] = "off", [FCIP_TRUNK_AUTO] = "auto"};

bool fcip_if_get(struct lab *lab, int sw, int id, struct fcip_if_conf *c)
{
    sqlite3_stmt *st = keyed(lab,
                             "SELECT profile, peer_ip, peer_port, passive, tcp_conns, compression, write_acc, tape_acc,"
                             " time_stamp, ts_diff_ms, trunk_mode, allowed_vsans, description, shutdown,"
                             " sf_peer_wwn, sf_profile, tape_buf_kb"
                             " FROM fcip_if WHERE switch_id = ?1 AND id = ?2",
                             sw, id);
    memset(c, 0, sizeof *c);
    c->id = id;
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);
        return false;
    }
    c->profile = sqlite3_column_int(st, 0); /* NULL reads 0 */
    c->has_peer = sqlite3_column_type(st, 1) != SQLITE_NULL;
    c->peer_ip = (uint32_t)sqlite3_column_int64(st, 1);
    c->peer_port = sqlite3_column_int(st, 2);
    c->passive = sqlite3_column_int(st, 3) != 0;
    c->tcp_connections = sqlite3_column_int(st, 4);
    c->compression = (enum fcip_compression)sqlite3_column_int(st, 5);
    c->write_acc = sqlite3_column_int(st, 6) != 0;
    c->tape_acc = sqlite3_column_int(st, 7) != 0;
    c->time_stamp = sqlite3_column_int(st, 8) != 0;
    c->ts_diff_ms = sqlite3_column_int(st, 9);
    const char *mode = (const char *)sqlite3_column_text(st, 10);
    for (int m = 0; m < 3; m++)
        if (strcmp(mode, trunk_modes[m]) == 0)
            c->trunk_mode = (enum fcip_trunk_mode)m;
    vsan_set_parse(&c->allowed, (const char *)sqlite3_column_text(st, 11));
    if (sqlite3_column_type(st, 12) != SQLITE_NULL)
        snprintf(c->description, sizeof c->description, "%s", (const char *)sqlite3_column_text(st, 12));
    c->shutdown = sqlite3_column_int(st, 13) != 0;
    const char *wwn = (const char *)sqlite3_column_text(st, 14);
    c->special_frame = wwn && fcip_wwn_parse(wwn, c->sf_peer_wwn);
    c->sf_profile = sqlite3_column_int(st, 15); /* NULL reads 0 */
    c->tape_buf_kb = (uint32_t)sqlite3_column_int(st, 16);
    sqlite3_reset(st);
    return true;
}

void fcip_ifs_each(struct lab *lab, int sw, void (*fn)(void *ctx, const struct fcip_if_conf *c), void *ctx)
{
    int all[255], n = fcip_if_ids(lab, sw, all);
    struct fcip_if_conf c;
    for (int i = 0; i < n; i++)
        if (fcip_if_get(lab, sw, all[i], &c))
            fn(ctx, &c);
}

bool fcip_ge_of_ip(struct lab *lab, int sw, uint32_t ip, int *slot, int *port)
{
    for (int s = 1; s <= 13; s++)
        for (int p = 1; ge_exists(lab, sw, s, p); p++) {
            struct ge_conf g;
            ge_get(lab, sw, s, p, &g);
            if (g.has_ip && g.ip == ip) {
                *slot = s;
                *port = p;
                return true;
            }
        }
    return false;
}
