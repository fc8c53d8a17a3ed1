/* `show san-ext-tuner ...`, in the layouts of the reference capture
 * (mds-cli.md §13.4). Counter definitions: docs/tuner-counters.md. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "sanext.h"
#include "sanext_record.h"
#include "sanext_store.h"
#include "tuner.h"
#include "fabric/fabric.h"
#include <stdio.h>
#include <string.h>

#define MIB 1048576.0 /* the tuner's MBs are 2^20 bytes (docs/tuner-counters.md) */

static void nport_line(void *ctx, const struct sanext_nport_row *r)
{
    struct session *s = ctx;
    char n[24], p[24];
    fabric_wwn_text(r->nwwn, n);
    fabric_wwn_text(r->pwwn, p);
    cmd_printf(s, "GigabitEthernet%d/%d %s %s %d\n", r->slot, r->port, n, p, r->vsan);
}

int sanext_show_nports(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "--------------------------\nInterface NODE NAME PORT NAME VSAN\n--------------------------\n");
    sanext_nports_each(s->lab, s->sw, nport_line, s);
    return 0;
}

static void counters(struct session *s, const struct sanext_nport_row *row)
{
    struct tuner_nport_record r;
    char n[24], p[24];
    tuner_nport_record_get(s->lab, s->sw, row->pwwn, row->vsan, &r);
    fabric_wwn_text(row->nwwn, n);
    fabric_wwn_text(row->pwwn, p);
    uint64_t done = r.read_ios + r.write_ios;
    int reads = done ? (int)((r.read_ios * 100 + done / 2) / done) : 0;
    cmd_printf(s, "Statistics for nport\nNode name %s Port name %s\n", n, p);
    cmd_printf(s, "I/Os per sec : %llu\n", (unsigned long long)r.ios_per_s);
    cmd_printf(s, "Reads : %d%%\nWrites : %d%%\n", reads, done ? 100 - reads : 0);
    cmd_printf(s, "Egress throughput : %.2f MBs/sec (Max - %.2f MBs/sec)\n", r.egress_bytes_per_s / MIB,
               r.egress_max_bytes_per_s / MIB);
    cmd_printf(s, "Ingress throughput : %.2f MBs/sec (Max - %.2f MBs/sec)\n", r.ingress_bytes_per_s / MIB,
               r.ingress_max_bytes_per_s / MIB);
    cmd_printf(s, "Average response time : Read - %llu us, Write - %llu us\n", (unsigned long long)r.read_rt_avg_us,
               (unsigned long long)r.write_rt_avg_us);
    cmd_printf(s, "Minimum response time : Read - %llu us, Write - %llu us\n", (unsigned long long)r.read_rt_min_us,
               (unsigned long long)r.write_rt_min_us);
    cmd_printf(s, "Maximum response time : Read - %llu us, Write - %llu us\n", (unsigned long long)r.read_rt_max_us,
               (unsigned long long)r.write_rt_max_us);
    cmd_printf(s, "Errors : %llu\n", (unsigned long long)r.errors);
}

static void cmd_line(void *ctx, const struct sanext_cmd_row *r)
{
    static const char *const ops[] = {"read", "write", "tape-read", "tape-write"};
    struct session *s = ctx;
    char t[24], k[32];
    fabric_wwn_text(r->target, t);
    if (r->transactions)
        snprintf(k, sizeof k, "num-transactions %lld", r->transactions);
    else
        snprintf(k, sizeof k, "continuous");
    cmd_printf(s, "  command-id %d: %s target %s transfer-size %ld outstanding-ios %d %s\n", r->id, ops[r->op], t,
               r->size, r->outstanding, k);
}

int sanext_show_nport(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    struct sanext_nport_row r;
    if (!sanext_nport_get(s->lab, s->sw, arg_get(a, "wwn")->wwn, (int)arg_num(a, "vid", 1), &r) ||
        r.slot != p->slot || r.port != p->port)
        return cmd_error(s, "%% nport does not exist");
    if (arg_has(a, "counters")) {
        counters(s, &r);
        return 0;
    }
    struct tuner_nport_record c;
    char n[24], w[24];
    tuner_nport_record_get(s->lab, s->sw, r.pwwn, r.vsan, &c);
    fabric_wwn_text(r.nwwn, n);
    fabric_wwn_text(r.pwwn, w);
    cmd_printf(s, "nport %s (node %s) in vsan %d on GigabitEthernet%d/%d, FCID 0x%06x\n", w, n, r.vsan, r.slot,
               r.port, c.fcid);
    cmd_printf(s, "Data pattern: %s\n", r.pattern[0] ? r.pattern : "all zeros (default)");
    cmd_printf(s, "%llu I/Os in flight\nCommands:\n", (unsigned long long)c.in_flight_ios);
    sanext_cmds_each(s->lab, s->sw, r.pwwn, r.vsan, cmd_line, s);
    return 0;
}
