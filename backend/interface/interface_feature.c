/* Gigabit Ethernet ports: their commands, their running-config blocks, and
 * the reconcile that declares them to the data plane. */
#include "feature.h"
#include "ge.h"
#include "ge_record.h"
#include "lab/lab.h"
#include "ipnet/ipnet.h"
#include "ge_log.h"

static const struct owned_table tables[] = {{"ge_port", NULL}, {NULL, NULL}};

static void render(struct lab *lab, int sw, strbuf *out)
{
    ge_render_config(lab, sw, out, 0, 0);
}

static void *ge_engine_new(struct lab *lab, engine_t *e, struct ipnet *net)
{
    (void)e;
    return ge_log_new(lab, net);
}

static void reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    ge_log_reconciling(state);
    ipnet_ports_begin(net);
    for (int sw = 0; sw < lab_switch_count(lab); sw++)
        for (int slot = 1; slot <= 13; slot++)
            for (int port = 1; ge_exists(lab, sw, slot, port); port++) {
                struct ge_conf c;
                ge_get(lab, sw, slot, port, &c);
                struct ipnet_port_conf pc = {!c.shutdown, c.has_ip, c.ip, c.mask, (uint32_t)c.mtu};
                ipnet_port_set(net, sw, slot, port, &pc);
            }
    ipnet_ports_end(net);
}

const struct feature interface_feature = {
    .name = "interface",
    .cmds = ge_cmds,
    .iftype = &ge_iftype,
    .render = {[SECTION_INTERFACES] = render},
    .render_all = {[SECTION_INTERFACES] = ge_render_all},
    .tables = tables,
    .engine_new = ge_engine_new,
    .engine_free = ge_log_free,
    .reconcile = reconcile,
    .records = (const struct record_type *const[]){&ge_port_record_type, NULL},
    .show_interfaces = ge_show_all,
    .show_brief = ge_show_brief,
    .show_descriptions = ge_show_descriptions,
    .show_counters = ge_show_all_counters,
    .clear_counters = ge_clear_all_counters,
};
