/* The SAN Extension Tuner: `san-ext-tuner enable` is the gate of the tuner
 * and of the IP Network Simulator (netsim sits behind it). Its state is
 * exec-mode state in its own tables, never running-config; the tuner
 * engine (tuner.h) follows them. */
#include "feature.h"
#include "lab/lab.h"
#include "sanext.h"
#include "sanext_record.h"
#include "sanext_store.h"
#include "tuner.h"
#include "bootflash/bootflash.h"
#include "fabric/fabric_feature.h"
#include <stdlib.h>
#include <string.h>

static const struct owned_table tables[] = {
    {"sanext_cmd", NULL}, {"sanext_nport", NULL}, {"sanext_node", NULL}, {NULL, NULL}};

static void *create(struct lab *lab, engine_t *e, struct ipnet *net)
{
    (void)net;
    return tuner_new(e, fabric_of_lab(lab));
}

static void destroy(void *state) { tuner_free(state); }

struct walk {
    struct lab *lab;
    struct tuner *t;
    int sw;
    const struct sanext_nport_row *np;
};

static void apply_cmd(void *ctx, const struct sanext_cmd_row *r)
{
    struct walk *w = ctx;
    struct tuner_cmd_conf c = {.id = r->id,
                               .op = (enum tuner_op)r->op,
                               .size = (uint32_t)r->size,
                               .outstanding = r->outstanding,
                               .transactions = (uint64_t)r->transactions,
                               .start = (uint64_t)r->start};
    memcpy(c.target, r->target, 8);
    tuner_cmd(w->t, w->sw, w->np->pwwn, w->np->vsan, &c);
}

static void apply_nport(void *ctx, const struct sanext_nport_row *r)
{
    struct walk *w = ctx;
    struct tuner_nport_conf c = {.sw = w->sw, .vsan = r->vsan, .slot = r->slot, .port = r->port};
    memcpy(c.pwwn, r->pwwn, 8);
    memcpy(c.nwwn, r->nwwn, 8);
    unsigned char *data;
    size_t len;
    if (r->pattern[0] && bootflash_read(w->lab, w->sw, r->pattern, &data, &len)) {
        c.pattern = tuner_pattern(w->t, r->pattern, data, len);
        free(data);
    }
    tuner_nport(w->t, &c);
    w->np = r;
    sanext_cmds_each(w->lab, w->sw, r->pwwn, r->vsan, apply_cmd, w);
}

static void reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    (void)net;
    tuner_begin(state);
    for (int sw = 0; sw < lab_switch_count(lab); sw++) {
        struct walk w = {lab, state, sw, NULL};
        if (lab_feature_enabled(lab, sw, &sanext_gate))
            sanext_nports_each(lab, sw, apply_nport, &w);
    }
    tuner_end(state);
}

struct tuner *sanext_tuner(struct lab *lab)
{
    lab_reconcile(lab);
    return lab_feature_state(lab, &sanext_feature);
}

const struct gate sanext_gate = {"san-ext-tuner", "san-ext-tuner enable"};

const struct mode_info sanext_mode = {
    .name = "san-ext",
    .prompt = "(san-ext)",
    .parent = &mode_exec,
    .way_in = "san-ext-tuner",
};
const struct mode_info sanext_nport_mode = {
    .name = "san-ext-nport",
    .prompt = "(san-ext-nport)",
    .parent = &sanext_mode,
    .about = "N port",
};
static const struct mode_info *const modes[] = {&sanext_mode, &sanext_nport_mode, NULL};

const struct feature sanext_feature = {
    .name = "sanext",
    .modes = modes,
    .cmds = sanext_cmds,
    .gate = &sanext_gate,
    .declares = &sanext_gate,
    .tables = tables,
    .engine_new = create,
    .engine_free = destroy,
    .reconcile = reconcile,
    .records = (const struct record_type *const[]){&tuner_nport_record_type, NULL},
    .values = sanext_values,
    .mode_checks = sanext_mode_checks,
};
