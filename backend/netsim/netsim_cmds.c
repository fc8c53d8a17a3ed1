/* `ips netsim ...`: the IP Network Simulator's exec commands. They need
 * `san-ext-tuner enable` (invalid commands before it) and act on a pair of
 * Gigabit Ethernet ports; every impairment is per direction, named by the
 * port where packets enter the simulator (`ingress`). docs/netsim.md. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "interface/ge.h"
#include "netsim.h"
#include "sanext/sanext.h"

/* Help of the words every netsim command shares. */
#define PORT_WORDS                                                                            \
    "ingress: Direction: packets entering the simulator on this port\n"                      \
    "gigabitethernet: Gigabit Ethernet interface\n"                                           \
    "port: Slot/port of a Gigabit Ethernet port in network simulator mode\n"
#define NETSIM_WORDS "ips: Configure IP storage services\nnetsim: IP Network Simulator\n" PORT_WORDS

#define INGRESS " ingress gigabitethernet <port:slot/port>"

bool netsim_ingress_port(struct session *s, const struct cmd_args *a, int *slot, int *port)
{
    const struct cmd_arg *p = arg_get(a, "port");
    *slot = p->slot;
    *port = p->port;
    if (!ge_exists(s->lab, s->sw, p->slot, p->port)) {
        cmd_error(s, "%% Invalid interface format");
        return false;
    }
    if (!netsim_paired(s->lab, s->sw, p->slot, p->port, NULL, NULL)) {
        cmd_error(s, "%% Network simulator is not enabled on interface GigabitEthernet%d/%d", p->slot, p->port);
        return false;
    }
    return true;
}

static int cmd_enable(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *x = arg_get(a, "first"), *y = arg_get(a, "second");
    const struct cmd_arg *end[2] = {x, y};
    for (int i = 0; i < 2; i++)
        if (!ge_exists(s->lab, s->sw, end[i]->slot, end[i]->port))
            return cmd_error(s, "%% Invalid interface format");
    if (x->slot == y->slot && x->port == y->port)
        return cmd_error(s, "%% Network simulator needs two different interfaces");
    int pslot, pport;
    bool same_pair = netsim_paired(s->lab, s->sw, x->slot, x->port, &pslot, &pport) && pslot == y->slot &&
                     pport == y->port;
    if (a->negated) {
        if (!same_pair)
            return cmd_error(s, "%% Network simulator is not enabled on GigabitEthernet%d/%d and GigabitEthernet%d/%d",
                             x->slot, x->port, y->slot, y->port);
        netsim_pair_remove(s->lab, s->sw, x->slot, x->port);
        return 0;
    }
    if (same_pair) /* already so: nothing to do, settings kept */
        return 0;
    for (int i = 0; i < 2; i++) {
        struct ge_conf c;
        if (netsim_paired(s->lab, s->sw, end[i]->slot, end[i]->port, NULL, NULL))
            return cmd_error(s, "%% Interface GigabitEthernet%d/%d is already in network simulator mode",
                             end[i]->slot, end[i]->port);
        ge_get(s->lab, s->sw, end[i]->slot, end[i]->port, &c);
        if (c.has_ip) /* the simulator would take the port, its address would go silent */
            return cmd_error(s, "%% Interface GigabitEthernet%d/%d has an IP address: remove it before"
                                " network simulator mode", end[i]->slot, end[i]->port);
    }
    netsim_pair_add(s->lab, s->sw, x->slot, x->port, y->slot, y->port);
    return 0;
}

/* Sets (or with `no`, removes) one knob of the ingress direction. A value
 * typed after `no` is range-checked by the grammar and otherwise ignored:
 * `no` removes the impairment whatever its value. */
static int knob(struct session *s, const struct cmd_args *a, enum netsim_knob k, long v0, long v1, long v2)
{
    int slot, port;
    if (!netsim_ingress_port(s, a, &slot, &port))
        return -1;
    const long v[3] = {v0, v1, v2};
    if (a->negated)
        netsim_knob_clear(s->lab, s->sw, slot, port, k);
    else
        netsim_knob_set(s->lab, s->sw, slot, port, k, v);
    return 0;
}

/* One handler per unit: a handler reads only its own command's words. */
static int cmd_delay_ms(struct session *s, const struct cmd_args *a)
{
    return knob(s, a, NETSIM_KNOB_DELAY, arg_num(a, "milliseconds", 0) * 1000, 0, 0);
}

static int cmd_delay_us(struct session *s, const struct cmd_args *a)
{
    return knob(s, a, NETSIM_KNOB_DELAY, arg_num(a, "microseconds", 0), 0, 0);
}

static int cmd_bandwidth_mbps(struct session *s, const struct cmd_args *a)
{
    return knob(s, a, NETSIM_KNOB_RATE, arg_num(a, "mbps", 0) * 1000, 0, 0);
}

static int cmd_bandwidth_kbps(struct session *s, const struct cmd_args *a)
{
    return knob(s, a, NETSIM_KNOB_RATE, arg_num(a, "kbps", 0), 0, 0);
}

static int cmd_qsize(struct session *s, const struct cmd_args *a)
{
    return knob(s, a, NETSIM_KNOB_QSIZE, arg_num(a, "kilobytes", 0), 0, 0);
}

static int cmd_drop(struct session *s, const struct cmd_args *a)
{
    bool nth = arg_has(a, "nth");
    return knob(s, a, nth ? NETSIM_KNOB_DROP_NTH : NETSIM_KNOB_DROP_RANDOM, nth ? arg_num(a, "packet", 0) : arg_num(a, "percentage", 0),
                arg_num(a, "burst-size", 1), 0);
}

static int cmd_reorder(struct session *s, const struct cmd_args *a)
{
    bool nth = arg_has(a, "nth");
    return knob(s, a, NETSIM_KNOB_REORDER, nth ? NETSIM_REORDER_NTH : NETSIM_REORDER_RANDOM,
                nth ? arg_num(a, "packet", 0) : arg_num(a, "percentage", 0), arg_num(a, "packets", 0));
}

#define DROP_HELP                                                                                           \
    NETSIM_WORDS "drop: Drop packets\n"                                                                     \
                 "nth: Drop every nth packet\n"                                                             \
                 "packet: Drop one packet (or one burst) every N packets\n"                       \
                 "random: Drop packets at random\n"                                                         \
                 "percentage: Drop probability in packets per 10000 (100 = 1%)\n"                          \
                 "burst: Drop several consecutive packets each time (default 1)\n"                          \
                 "burst-size: Packets dropped each time\n"
#define REORDER_HELP                                                                                        \
    NETSIM_WORDS "reorder: Reorder packets\n"                                                               \
                 "nth: Reorder every nth packet\n"                                                          \
                 "packet: Reorder one packet every N packets\n"                                   \
                 "random: Reorder packets at random\n"                                                      \
                 "percentage: Reorder probability in packets per 10000 (100 = 1%)\n"                       \
                 "distance: How far a reordered packet is held back\n"                                      \
                 "packets: Number of later packets that overtake it\n"
#define DELAY_HELP                                                                                          \
    NETSIM_WORDS "delay-ms: One-way delay in milliseconds\n"                                                \
                 "milliseconds: Delay in milliseconds\n"                                                    \
                 "delay-us: One-way delay in microseconds\n"                                                \
                 "microseconds: Delay in microseconds\n"
#define BANDWIDTH_HELP                                                                                      \
    NETSIM_WORDS "max-bandwidth-mbps: Maximum bandwidth in Mbps\n"                                          \
                 "mbps: Bandwidth in Mbps\n"                                                                \
                 "max-bandwidth-kbps: Maximum bandwidth in Kbps\n"                                          \
                 "kbps: Bandwidth in Kbps\n"
#define QSIZE_HELP NETSIM_WORDS "qsize: Queue size in KB (1 KB = 1000 bytes)\nkilobytes: Queue size in KB\n"
#define ENABLE_HELP                                                                                         \
    NETSIM_WORDS "enable: Bridge two Gigabit Ethernet ports through the network simulator\n"                \
                 "interface: The two ports to bridge\n"                                                     \
                 "first: Slot/port of the first port\n"                                                     \
                 "second: Slot/port of the second port\n"
#define SHOW_HELP                                                                                           \
    PORT_WORDS "ips: IP storage services information\n"                                                    \
               "stats: IP storage statistics\n"                                                            \
               "netsim: IP Network Simulator\n"
#define CLEAR_HELP                                                                                          \
    PORT_WORDS "clear: Reset functions\n"                                                                  \
               "ips: IP storage services\n"                                                                \
               "stats: Reset IP storage statistics\n"                                                      \
               "netsim: IP Network Simulator\n"

#define SANEXT &sanext_gate
const struct cmd_def netsim_cmds[] = {
    {MODES(MODE_EXEC), "[no] ips netsim enable interface gigabitethernet <first:slot/port> gigabitethernet <second:slot/port>",
     ENABLE_HELP, cmd_enable, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "ips netsim delay-ms <milliseconds:0-150>" INGRESS, DELAY_HELP, cmd_delay_ms, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "no ips netsim delay-ms [<milliseconds:0-150>]" INGRESS, DELAY_HELP, cmd_delay_ms, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "ips netsim delay-us <microseconds:0-150000>" INGRESS, DELAY_HELP, cmd_delay_us, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "no ips netsim delay-us [<microseconds:0-150000>]" INGRESS, DELAY_HELP, cmd_delay_us, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "ips netsim max-bandwidth-mbps <mbps:1-1000>" INGRESS, BANDWIDTH_HELP, cmd_bandwidth_mbps, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "no ips netsim max-bandwidth-mbps [<mbps:1-1000>]" INGRESS, BANDWIDTH_HELP, cmd_bandwidth_mbps, CMD_ADMIN,
     SANEXT, 0},
    {MODES(MODE_EXEC), "ips netsim max-bandwidth-kbps <kbps:1000-1000000>" INGRESS, BANDWIDTH_HELP, cmd_bandwidth_kbps, CMD_ADMIN,
     SANEXT, 0},
    {MODES(MODE_EXEC), "no ips netsim max-bandwidth-kbps [<kbps:1000-1000000>]" INGRESS, BANDWIDTH_HELP, cmd_bandwidth_kbps, CMD_ADMIN,
     SANEXT, 0},
    {MODES(MODE_EXEC), "ips netsim qsize <kilobytes:1-1000>" INGRESS, QSIZE_HELP, cmd_qsize, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "no ips netsim qsize [<kilobytes:1-1000>]" INGRESS, QSIZE_HELP, cmd_qsize, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "ips netsim drop {nth <packet:1-10000> | random <percentage:1-10000>} [burst <burst-size:1-100>]" INGRESS,
     DROP_HELP, cmd_drop, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC),
     "no ips netsim drop {nth [<packet:1-10000>] | random [<percentage:1-10000>]} [burst <burst-size:1-100>]" INGRESS,
     DROP_HELP, cmd_drop, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "ips netsim reorder {nth <packet:1-10000> | random <percentage:1-10000>} distance <packets:1-10>" INGRESS,
     REORDER_HELP, cmd_reorder, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC),
     "no ips netsim reorder [{nth [<packet:1-10000>] | random [<percentage:1-10000>]} [distance <packets:1-10>]]"
     INGRESS,
     REORDER_HELP, cmd_reorder, CMD_ADMIN, SANEXT, 0},
    {MODES(MODE_EXEC), "show ips netsim", SHOW_HELP, netsim_show, CMD_PIPE, SANEXT, 0},
    {MODES(MODE_EXEC), "show ips stats netsim" INGRESS, SHOW_HELP, netsim_show_stats, CMD_PIPE, SANEXT, 0},
    {MODES(MODE_EXEC), "clear ips stats netsim" INGRESS, CLEAR_HELP, netsim_clear_stats, CMD_ADMIN, SANEXT, 0},
    {0},
};
