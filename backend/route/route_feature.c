/* Routed WANs: always on (no gate). The switch's static routes are
 * configuration (reload forgets them); the lab's routers are topology,
 * declared once when the engine starts, as the cables are. */
#include "feature.h"
#include "lab/lab.h"
#include "route.h"

static const struct owned_table tables[] = {{"ip_route", NULL}, {NULL, NULL}};

static void *route_engine_new(struct lab *lab, engine_t *e, struct ipnet *net)
{
    (void)e;
    route_routers_declare(lab, net);
    return NULL;
}

/* Each switch's routes as the store has them (the data plane keeps what
 * did not change and forgets its cached routes only when one did). */
static void route_reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    (void)state;
    struct ipnet_route r[IPNET_ROUTES_MAX];
    for (int sw = 0; sw < lab_switch_count(lab); sw++)
        ipnet_routes_set(net, sw, r, route_list(lab, sw, r, IPNET_ROUTES_MAX));
}

const struct feature route_feature = {
    .name = "route",
    .cmds = route_cmds,
    .render = {[SECTION_GLOBAL] = route_render},
    .tables = tables,
    .engine_new = route_engine_new,
    .reconcile = route_reconcile,
};
