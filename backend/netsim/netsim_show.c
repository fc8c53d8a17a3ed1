/* `show ips netsim`, `show ips stats netsim ingress ...` and `clear ips
 * stats netsim ingress ...`. The configuration comes from the store, the
 * counters from the port's pipe in the lab's data plane. docs/netsim.md
 * has the layouts and where they come from. */
#include "session.h"
#include "lab/lab.h"
#include "interface/ge.h"
#include "ipnet/ipnet.h"
#include "netsim.h"
#include "netsim_record.h"
#include <inttypes.h>
#include <stdio.h>

/* The pipe carrying what enters a bridged port, or NULL. */
static netsim_pipe *port_pipe(struct session *s, int slot, int port)
{
    return ipnet_ingress_pipe(lab_ipnet(s->lab), s->sw, slot, port);
}

/* "1.00%" for 100 per 10,000. */
static void per10k(char *buf, size_t n, uint32_t v)
{
    snprintf(buf, n, "%u.%02u%%", v / 100, v % 100);
}

/* One line of the configuration block: `Label : value`, unindented and
 * unaligned, as the reference capture prints it (a student compares the
 * two; the manual's spacing was lost in its PDF, so the reference's
 * indentation of it is a guess). */
#define CONF_LINE "%s : "

static void show_config_block(struct session *s, const netsim_pipe_config *c)
{
    char pct[16];
    if (c->delay_set)
        cmd_printf(s, CONF_LINE "%" PRIu64 " microseconds\n", "Delay", c->delay_ns / 1000u);
    if (c->rate_set)
        cmd_printf(s, CONF_LINE "%" PRIu64 " kbps\n", "Rate", c->rate_bps / 1000u);
    if (c->qsize_set)
        cmd_printf(s, CONF_LINE "%" PRIu64 " bytes\n", "Max_q", c->qsize_bytes);
    /* Derived from the queue and the rate in force: shown once either is set. */
    if (c->qsize_set || c->rate_set)
        cmd_printf(s, CONF_LINE "%" PRIu64 " clocks\n", "Max_qdelay", netsim_config_max_qdelay_clocks(c));
    if (c->drop_nth_set) {
        cmd_printf(s, CONF_LINE "%u", "Drop nth pkt", c->drop_nth);
        if (c->drop_nth_burst > 1)
            cmd_printf(s, " (burst %u)", c->drop_nth_burst);
        cmd_printf(s, "\n");
    }
    if (c->drop_random_set) {
        per10k(pct, sizeof pct, c->drop_random);
        cmd_printf(s, CONF_LINE "%s", "Random Drop %", pct);
        if (c->drop_random_burst > 1)
            cmd_printf(s, " (burst %u)", c->drop_random_burst);
        cmd_printf(s, "\n");
    }
    if (c->reorder_set) {
        if (c->reorder_mode == NETSIM_REORDER_NTH) {
            cmd_printf(s, CONF_LINE "%u", "Reorder nth", c->reorder_value);
        } else {
            per10k(pct, sizeof pct, c->reorder_value);
            cmd_printf(s, CONF_LINE "%s", "Reorder %", pct);
        }
        cmd_printf(s, " (distance %u)\n", c->reorder_distance);
    }
}

/* One line of the statistics block: `Label = value`, as in the capture. */
#define STAT_LINE "%s = %" PRIu64

int netsim_show_stats(struct session *s, const struct cmd_args *a)
{
    int slot, port;
    if (!netsim_ingress_port(s, a, &slot, &port))
        return -1;
    netsim_pipe_config cfg;
    netsim_config_load(s->lab, s->sw, slot, port, &cfg);
    struct netsim_direction_record r;
    netsim_direction_record_get(lab_ipnet(s->lab), s->sw, slot, port, &r);
    cmd_printf(s, "Network Simulator Configuration for Ingress on GigabitEthernet%d/%d\n", slot, port);
    show_config_block(s, &cfg);
    cmd_printf(s, "Network Simulator Statistics for Ingress on GigabitEthernet%d/%d\n", slot, port);
    const struct {
        const char *label;
        uint64_t v;
    } rows[] = {
        {"Dropped (tot)", r.drop_packets},            {"Dropped (netsim)", r.netsim_drop_packets},
        {"Reordered (netsim)", r.reordered_packets},  {"Max Qlen(pkt)", r.max_queue_packets},
        {"Qlen (pkt)", r.queue_packets},              {"Max Qlen (byte)", r.max_queue_bytes},
        {"Qlen (byte)", r.queue_bytes},               {"Mintxdel(poll)", r.mintxdel_poll_clocks},
        {"Mintxdel(ethtx)", r.mintxdel_ethtx_clocks}, {"empty", r.idle_events},
        {"txdel", r.txdel_packets},                   {"late", r.late_packets},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        cmd_printf(s, STAT_LINE "\n", rows[i].label, rows[i].v);
    cmd_printf(s, STAT_LINE " Kbps\n", "Average speed", r.avg_speed_kbits_per_s);
    return 0;
}

int netsim_clear_stats(struct session *s, const struct cmd_args *a)
{
    int slot, port;
    if (!netsim_ingress_port(s, a, &slot, &port))
        return -1;
    netsim_pipe *p = port_pipe(s, slot, port);
    if (p)
        netsim_pipe_clear_stats(p);
    return 0;
}

/* `show ips netsim`: one paragraph per direction of each pair. */
static void show_direction(struct session *s, int in_slot, int in_port, int out_slot, int out_port)
{
    netsim_pipe_config c;
    const char *sep = "";
    netsim_config_load(s->lab, s->sw, in_slot, in_port, &c);
    cmd_printf(s, "Ingress: GigabitEthernet%d/%d  Egress: GigabitEthernet%d/%d\n  ", in_slot, in_port, out_slot,
               out_port);
    if (c.delay_set) {
        cmd_printf(s, "%sdelay %" PRIu64 " us", sep, c.delay_ns / 1000u);
        sep = ", ";
    }
    if (c.rate_set) {
        cmd_printf(s, "%sbandwidth %" PRIu64 " kbps", sep, c.rate_bps / 1000u);
        sep = ", ";
    }
    if (c.qsize_set) {
        cmd_printf(s, "%squeue %" PRIu64 " KB", sep, c.qsize_bytes / 1000u);
        sep = ", ";
    }
    if (c.drop_nth_set) {
        cmd_printf(s, "%sdrop nth %u burst %u", sep, c.drop_nth, c.drop_nth_burst);
        sep = ", ";
    }
    if (c.drop_random_set) {
        cmd_printf(s, "%sdrop random %u/10000 burst %u", sep, c.drop_random, c.drop_random_burst);
        sep = ", ";
    }
    if (c.reorder_set) {
        if (c.reorder_mode == NETSIM_REORDER_NTH)
            cmd_printf(s, "%sreorder nth %u", sep, c.reorder_value);
        else
            cmd_printf(s, "%sreorder random %u/10000", sep, c.reorder_value);
        cmd_printf(s, " distance %u", c.reorder_distance);
        sep = ", ";
    }
    cmd_printf(s, "%s\n", *sep ? "" : "no impairments");
}

struct show_ctx {
    struct session *s;
    int pairs;
};

static void show_pair(void *ctx, int a_slot, int a_port, int b_slot, int b_port)
{
    struct show_ctx *c = ctx;
    c->pairs++;
    show_direction(c->s, a_slot, a_port, b_slot, b_port);
    show_direction(c->s, b_slot, b_port, a_slot, a_port);
}

int netsim_show(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct show_ctx c = {s, 0};
    cmd_printf(s, "NETWORK SIMULATOR CONFIGURATION\n");
    netsim_pairs_each(s->lab, s->sw, show_pair, &c);
    if (!c.pairs)
        cmd_printf(s, "No interfaces in network simulator mode\n");
    return 0;
}
