/* mgmt0 in the store: table mgmt_port, a row while it has an address. */
#include "mgmt.h"
#include "lab/lab.h"
#include "ipnet/ip_text.h"
#include <stdio.h>

bool mgmt_get(struct lab *lab, int sw, uint32_t *ip, uint32_t *mask)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT ip_addr, ip_mask FROM mgmt_port WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    bool found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        *ip = (uint32_t)sqlite3_column_int64(st, 0);
        *mask = (uint32_t)sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    return found;
}

void mgmt_set(struct lab *lab, int sw, uint32_t ip, uint32_t mask)
{
    sqlite3_stmt *st = lab_stmt(lab, "INSERT OR REPLACE INTO mgmt_port VALUES (?, ?, ?)");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_int64(st, 2, ip);
    sqlite3_bind_int64(st, 3, mask);
    lab_step_done(lab, st);
}

void mgmt_clear(struct lab *lab, int sw)
{
    sqlite3_stmt *st = lab_stmt(lab, "DELETE FROM mgmt_port WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    lab_step_done(lab, st);
}

bool mgmt_ip_overlap(struct lab *lab, int sw, uint32_t ip, uint32_t mask)
{
    uint32_t mip, mmask;
    if (!mgmt_get(lab, sw, &mip, &mmask))
        return false;
    uint32_t m = mask & mmask; /* the wider subnet */
    return (mip & m) == (ip & m);
}

void mgmt_render_config(struct lab *lab, int sw, strbuf *out, bool always)
{
    uint32_t ip, mask;
    bool has = mgmt_get(lab, sw, &ip, &mask);
    if (!has && !always)
        return;
    sb_printf(out, "\ninterface mgmt0\n");
    if (has) {
        char a[16], m[16];
        ip_text(ip, a, sizeof a);
        ip_text(mask, m, sizeof m);
        sb_printf(out, "  ip address %s %s\n", a, m);
    }
}
