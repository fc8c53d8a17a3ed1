/* The lab's storage arrays in the store: topology written by lab files,
 * settings written by their SMcli shell. */
#include "array.h"
#include "ipnet/ip_text.h"
#include "lab/lab.h"
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static void read_lds(struct lab *lab, int h, struct array_conf *c)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT name, raid, disks, capacity_gb, owner, write_cache, mirror_cache,"
                                     " read_cache FROM array_ld WHERE host_id = ?1 ORDER BY idx");
    sqlite3_bind_int(st, 1, h + 1);
    c->nld = 0;
    while (c->nld < ARRAY_LD_MAX && sqlite3_step(st) == SQLITE_ROW) {
        struct array_ld_conf *d = &c->ld[c->nld++];
        snprintf(d->name, sizeof d->name, "%s", (const char *)sqlite3_column_text(st, 0));
        d->raid = sqlite3_column_int(st, 1);
        d->disks = sqlite3_column_int(st, 2);
        d->capacity_gb = (uint32_t)sqlite3_column_int(st, 3);
        d->owner = sqlite3_column_int(st, 4);
        d->write_cache = sqlite3_column_int(st, 5);
        d->mirror_cache = sqlite3_column_int(st, 6);
        d->read_cache = sqlite3_column_int(st, 7);
    }
    sqlite3_reset(st);
}

bool array_row_get(struct lab *lab, int h, struct array_row *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = lab_stmt(lab, "SELECT a.controllers, a.online_a, a.online_b, a.disks, a.monitor_interval,"
                                     " a.monitor_iterations, f.pwwn, f.switch_id, f.vsan FROM array a"
                                     " LEFT JOIN array_fc f ON f.host_id = a.host_id WHERE a.host_id = ?1");
    sqlite3_bind_int(st, 1, h + 1);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        out->host = h;
        out->conf.controllers = sqlite3_column_int(st, 0);
        out->conf.online[0] = sqlite3_column_int(st, 1);
        out->conf.online[1] = out->conf.controllers == 2 && sqlite3_column_int(st, 2);
        out->disks = sqlite3_column_int(st, 3);
        out->interval_s = sqlite3_column_int(st, 4);
        out->iterations = sqlite3_column_int(st, 5);
        if ((out->has_fc = sqlite3_column_type(st, 6) != SQLITE_NULL)) {
            snprintf(out->pwwn, sizeof out->pwwn, "%s", (const char *)sqlite3_column_text(st, 6));
            out->fc_switch_id = sqlite3_column_int(st, 7);
            out->vsan = sqlite3_column_int(st, 8);
        }
    }
    sqlite3_reset(st);
    if (found)
        read_lds(lab, h, &out->conf);
    return found;
}

int array_hosts(struct lab *lab, int *out, int max)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT host_id FROM array ORDER BY host_id");
    int n = 0;
    while (n < max && sqlite3_step(st) == SQLITE_ROW)
        out[n++] = sqlite3_column_int(st, 0) - 1;
    sqlite3_reset(st);
    return n;
}

static bool exec_ii(struct lab *lab, const char *sql, int a, int b, int c)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, a);
    sqlite3_bind_int(st, 2, b);
    sqlite3_bind_int(st, 3, c);
    bool ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_reset(st);
    return ok;
}

bool array_set_ld_flag(struct lab *lab, int h, int ld, const char *column, bool on)
{
    static const char *const cols[] = {"write_cache", "mirror_cache", "read_cache"};
    static const char *const sql[] = {
        "UPDATE array_ld SET write_cache = ?2 WHERE host_id = ?1 AND (?3 < 0 OR idx = ?3)",
        "UPDATE array_ld SET mirror_cache = ?2 WHERE host_id = ?1 AND (?3 < 0 OR idx = ?3)",
        "UPDATE array_ld SET read_cache = ?2 WHERE host_id = ?1 AND (?3 < 0 OR idx = ?3)"};
    for (int i = 0; i < 3; i++)
        if (strcmp(cols[i], column) == 0)
            return exec_ii(lab, sql[i], h + 1, on, ld);
    return false;
}

bool array_set_online(struct lab *lab, int h, int ctrl, bool on)
{
    return exec_ii(lab, ctrl ? "UPDATE array SET online_b = ?2 WHERE host_id = ?1 AND ?3 = 1"
                             : "UPDATE array SET online_a = ?2 WHERE host_id = ?1 AND ?3 = 0",
                   h + 1, on, ctrl);
}

bool array_set_monitor(struct lab *lab, int h, int interval_s, int iterations)
{
    return exec_ii(lab, "UPDATE array SET monitor_interval = ?2, monitor_iterations = ?3 WHERE host_id = ?1", h + 1,
                   interval_s, iterations);
}

bool array_file_put(struct lab *lab, int h, const char *name, const char *content)
{
    sqlite3_stmt *st = lab_stmt(lab, "INSERT OR REPLACE INTO array_file(host_id, name, content) VALUES (?1, ?2, ?3)");
    sqlite3_bind_int(st, 1, h + 1);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, content, -1, SQLITE_TRANSIENT);
    bool ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_reset(st);
    return ok;
}

char *array_file_get(struct lab *lab, int h, const char *name)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT content FROM array_file WHERE host_id = ?1 AND name = ?2");
    sqlite3_bind_int(st, 1, h + 1);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    char *s = sqlite3_step(st) == SQLITE_ROW ? strdup((const char *)sqlite3_column_text(st, 0)) : NULL;
    sqlite3_reset(st);
    return s;
}

static void print_ports(struct lab *lab, int h, FILE *out)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT port, ip, mask, gateway, mtu FROM host_port WHERE host_id = ?1 ORDER BY port");
    sqlite3_bind_int(st, 1, h + 1);
    char a[16], b[16], c[16];
    while (sqlite3_step(st) == SQLITE_ROW) {
        ip_text((uint32_t)sqlite3_column_int64(st, 1), a, sizeof a);
        ip_text((uint32_t)sqlite3_column_int64(st, 2), b, sizeof b);
        fprintf(out, "  interface eth%d %s %s", sqlite3_column_int(st, 0), a, b);
        if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
            ip_text((uint32_t)sqlite3_column_int64(st, 3), c, sizeof c);
            fprintf(out, " gateway %s", c);
        }
        if (sqlite3_column_int(st, 4) != 1500)
            fprintf(out, " mtu %d", sqlite3_column_int(st, 4));
        fputc('\n', out);
    }
    sqlite3_reset(st);
}

void array_print_one(struct lab *lab, int h, FILE *out)
{
    struct array_row r;
    if (!array_row_get(lab, h, &r))
        return;
    fprintf(out, "\n! storage array (docs/array.md)\narray %s controllers %d disks %d\n",
            lab_switch_name(lab, lab_switch_count(lab) + h), r.conf.controllers, r.disks);
    print_ports(lab, h, out);
    for (int k = 0; k < r.conf.nld; k++) {
        const struct array_ld_conf *d = &r.conf.ld[k];
        fprintf(out, "  logical-drive %s raid %d disks %d capacity-gb %u%s\n", d->name, d->raid, d->disks,
                d->capacity_gb, d->owner ? " owner b" : "");
    }
    if (r.has_fc)
        for (int s = 0; s < lab_switch_count(lab); s++)
            if (lab_switch_id(lab, s) == r.fc_switch_id)
                fprintf(out, "  fc-port %s switch %s vsan %d\n", r.pwwn, lab_switch_name(lab, s), r.vsan);
}
