/* The page's JSON (http_model.h), from the same records the shows read:
 * the lab's switches and cables, netsim's pairs, each fcip interface's
 * live state from its record (fcip/fcip_record.h), as `show interface
 * fcip` reads it. */
#include "http_model.h"
#include "lab/lab.h"
#include "feature.h"
#include "fcip/fcip.h"
#include "fcip/fcip_cause.h"
#include "fcip/fcip_record.h"
#include "netsim/netsim.h"
#include "series/series.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void http_json_str(strbuf *out, const char *s)
{
    sb_puts(out, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(out, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            sb_printf(out, "\\u%04x", *p);
        else
            sb_add(out, (const char *)p, 1);
    }
    sb_puts(out, "\"");
}

static void key_str(strbuf *out, const char *key, const char *val, bool last)
{
    http_json_str(out, key);
    sb_puts(out, ": ");
    http_json_str(out, val);
    sb_puts(out, last ? "" : ", ");
}

static const char q_links[] = "SELECT a.name, l.a_port, b.name, l.b_port FROM link l JOIN switch a ON a.id = l.a_switch"
                              " JOIN switch b ON b.id = l.b_switch ORDER BY l.rowid";
static const char q_ports[] = "SELECT l.a_port FROM link l WHERE l.a_switch = ?1 UNION "
                              "SELECT l.b_port FROM link l WHERE l.b_switch = ?1 ORDER BY 1";

static void switches(struct lab *lab, strbuf *out)
{
    sb_puts(out, "\"switches\": [");
    for (int i = 0; i < lab_switch_count(lab); i++) {
        sb_puts(out, i ? ",\n  {" : "\n  {");
        key_str(out, "name", lab_switch_name(lab, i), false);
        key_str(out, "hostname", lab_hostname(lab, i), false);
        sb_puts(out, "\"ports\": [");
        sqlite3_stmt *st = lab_stmt(lab, q_ports);
        sqlite3_bind_int(st, 1, lab_switch_id(lab, i));
        for (int n = 0; sqlite3_step(st) == SQLITE_ROW; n++) {
            sb_puts(out, n ? ", " : "");
            http_json_str(out, (const char *)sqlite3_column_text(st, 0));
        }
        sqlite3_reset(st);
        sb_puts(out, "]}");
    }
    sb_puts(out, "]");
}

static void cables(struct lab *lab, strbuf *out)
{
    sb_puts(out, ",\n\"cables\": [");
    sqlite3_stmt *st = lab_stmt(lab, q_links);
    for (int n = 0; sqlite3_step(st) == SQLITE_ROW; n++) {
        sb_puts(out, n ? ",\n  {" : "\n  {");
        key_str(out, "a", (const char *)sqlite3_column_text(st, 0), false);
        key_str(out, "a_port", (const char *)sqlite3_column_text(st, 1), false);
        key_str(out, "b", (const char *)sqlite3_column_text(st, 2), false);
        key_str(out, "b_port", (const char *)sqlite3_column_text(st, 3), true);
        sb_puts(out, "}");
    }
    sqlite3_reset(st);
    sb_puts(out, "]");
}

struct each {
    struct lab *lab;
    int sw, n;
    strbuf *out;
};

static void pair_row(void *ctx, int as, int ap, int bs, int bp)
{
    struct each *e = ctx;
    char a[32], b[32];
    snprintf(a, sizeof a, "GigabitEthernet%d/%d", as, ap);
    snprintf(b, sizeof b, "GigabitEthernet%d/%d", bs, bp);
    sb_puts(e->out, e->n++ ? ",\n  {" : "\n  {");
    key_str(e->out, "switch", lab_switch_name(e->lab, e->sw), false);
    key_str(e->out, "a_port", a, false);
    key_str(e->out, "b_port", b, true);
    sb_puts(e->out, "}");
}

static void tunnel_row(void *ctx, const struct fcip_if_conf *ic)
{
    struct each *e = ctx;
    struct fcip_record r;
    struct fcip_profile_conf pc;
    char name[16], port[32] = "";
    int slot, p;
    fcip_record_get(e->lab, e->sw, ic->id, &r);
    snprintf(name, sizeof name, "fcip%d", ic->id);
    if (ic->profile && fcip_profile_get(e->lab, e->sw, ic->profile, &pc) && pc.has_ip &&
        fcip_ge_of_ip(e->lab, e->sw, pc.ip, &slot, &p))
        snprintf(port, sizeof port, "GigabitEthernet%d/%d", slot, p);
    sb_puts(e->out, e->n++ ? ",\n  {" : "\n  {");
    key_str(e->out, "switch", lab_switch_name(e->lab, e->sw), false);
    key_str(e->out, "name", name, false);
    key_str(e->out, "port", port, false);
    key_str(e->out, "peer", r.peer_sw >= 0 && r.peer_sw < lab_switch_count(e->lab) ?
                                lab_switch_name(e->lab, r.peer_sw) : "", false);
    key_str(e->out, "state", fcip_state_text(r.state), false);
    key_str(e->out, "reason", fcip_cause_words(r.cause)->reason, true);
    sb_puts(e->out, "}");
}

void http_topology_json(struct lab *lab, strbuf *out)
{
    sb_puts(out, "{");
    switches(lab, out);
    cables(lab, out);
    struct each e = {.lab = lab, .out = out};
    sb_puts(out, ",\n\"netsim\": [");
    for (e.sw = 0; e.sw < lab_switch_count(lab); e.sw++)
        netsim_pairs_each(lab, e.sw, pair_row, &e);
    sb_puts(out, "],\n\"tunnels\": [");
    e.n = 0;
    for (e.sw = 0; e.sw < lab_switch_count(lab); e.sw++)
        fcip_ifs_each(lab, e.sw, tunnel_row, &e);
    sb_puts(out, "]}\n");
}

bool http_series_json(struct lab *lab, uint64_t *next, int max_rows, strbuf *out)
{
    const struct series *s = series_of_lab(lab);
    if (!s)
        return false;
    uint64_t taken = series_samples_taken(s);
    if (taken <= *next)
        return false;
    if (taken - *next > (uint64_t)max_rows)
        *next = taken - (uint64_t)max_rows;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return false;
    bool ok = series_write_json_from(s, *next, f);
    ok = fclose(f) == 0 && ok;
    if (ok)
        sb_add(out, buf, len);
    free(buf);
    *next = taken;
    return ok;
}
