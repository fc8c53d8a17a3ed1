/* The Fibre Channel fabric of the lab (fabric.h): the VSANs of each switch
 * come from its vsan database, the domains it asks for from its fcdomain
 * configuration, the default zone policy from its zoning; FCIP links add
 * and remove the ISLs. Its commands: fcping, show flogi and show fcns. */
#include "feature.h"
#include "fabric.h"
#include "lab/lab.h"
#include "vsan/vsan.h"
#include "vsan/vsan_store.h"
#include "zone/zone.h"
#include "fcdomain/fcdomain.h"
#include "fabric_feature.h"
#include <string.h>

static void *fabric_create(struct lab *lab, engine_t *e, struct ipnet *net)
{
    (void)net;
    return fabric_new(e, lab_switch_count(lab));
}

static void fabric_destroy(void *state) { fabric_free(state); }

struct conf_ctx {
    struct fabric *fab;
    int sw;
};

static void configure(void *ctx, const struct fcdomain_conf *c)
{
    struct conf_ctx *x = ctx;
    fabric_domain_configure(x->fab, x->sw, c->vsan, c->domain, c->is_static);
}

/* The configured domains first: a VSAN new on the switch, or a switch
 * that booted, takes them. */
static void reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    (void)net;
    for (int sw = 0; sw < lab_switch_count(lab); sw++) {
        struct conf_ctx x = {state, sw};
        fabric_domains_unconfigure(state, sw);
        fcdomain_each(lab, sw, configure, &x);
        fabric_set_boot(state, sw, lab_boot_ns(lab, sw));
        int ids[VSAN_MAX_USER];
        int n = vsan_ids(lab, sw, ids, VSAN_MAX_USER);
        struct vsan_set v;
        memset(&v, 0, sizeof v);
        for (int i = 0; i < n; i++)
            vsan_set_add(&v, ids[i], ids[i]);
        fabric_set_vsans(state, sw, &v);
        memset(&v, 0, sizeof v);
        n = zone_permit_vsans(lab, sw, ids, VSAN_MAX_USER);
        for (int i = 0; i < n; i++)
            vsan_set_add(&v, ids[i], ids[i]);
        fabric_set_zone_permit(state, sw, &v);
    }
}

struct fabric *fabric_of_lab(struct lab *lab) { return lab_feature_state(lab, &fabric_feature); }

const struct feature fabric_feature = {
    .name = "fabric",
    .cmds = fabric_cmds,
    .engine_new = fabric_create,
    .engine_free = fabric_destroy,
    .reconcile = reconcile,
};
