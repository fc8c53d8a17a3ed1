/* FSPF (docs/fspf.md): always on, as on an MDS. Its rows are the costs
 * and hello intervals configured per interface and VSAN; its reconcile
 * hands them to the fabric, which routes on the costs and gives the FCIP
 * links' hellos their intervals. Its shows read the fabric and the FCIP
 * links' hellos. */
#include "feature.h"
#include "lab/lab.h"
#include "fabric/fabric.h"
#include "fspf_conf.h"
#include "fabric/fabric_feature.h"

static void set_cost(void *ctx, const struct fspf_if_conf *c)
{
    struct fabric *fab = ((void **)ctx)[0];
    int sw = *(int *)((void **)ctx)[1];
    struct fabric_if_fspf f = {(uint32_t)c->cost, (uint32_t)c->hello, (uint32_t)c->dead};
    fabric_if_fspf_set(fab, sw, c->ifname, c->vsan, &f);
}

static void reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    (void)net;
    (void)state;
    struct fabric *fab = fabric_of_lab(lab);
    for (int sw = 0; fab && sw < lab_switch_count(lab); sw++) {
        void *ctx[2] = {fab, &sw};
        fabric_costs_clear(fab, sw);
        fspf_ifs_each(lab, sw, NULL, set_cost, ctx);
        fabric_costs_done(fab, sw);
    }
}

static const struct owned_table tables[] = {{"fspf_if", NULL}, {NULL, NULL}};

const struct feature fspf_feature = {
    .name = "fspf",
    .cmds = fspf_cmds,
    .tables = tables,
    .reconcile = reconcile,
};
