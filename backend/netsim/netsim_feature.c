/* The IP Network Simulator behind the san-ext-tuner gate: exec-mode state
 * kept in the lab, never in running-config; reload, factory reset and
 * `no san-ext-tuner enable` forget it. */
#include "feature.h"
#include "netsim.h"
#include "sanext/sanext.h"
#include "netsim_record.h"

static const struct owned_table tables[] = {{"netsim_ingress", NULL}, {"netsim_pair", NULL}, {NULL, NULL}};

const struct feature netsim_feature = {
    .name = "netsim",
    .cmds = netsim_cmds,
    .gate = &sanext_gate,
    .tables = tables,
    .reconcile = netsim_reconcile,
    .records = (const struct record_type *const[]){&netsim_direction_record_type, NULL},
};
