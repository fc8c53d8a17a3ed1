/* Routed WANs (docs/routing.md): a switch's static routes (`ip route`),
 * kept in the store and handed to the data plane, and the lab's routers,
 * declared to the data plane from the lab's topology. */
#ifndef MDSIM_ROUTE_H
#define MDSIM_ROUTE_H
#include <stdbool.h>
#include "strbuf.h"
#include "ipnet/ipnet.h"
#include "grammar.h"

struct lab;
struct session;

/* Switch sw's routes, ordered by destination, mask, next hop, port. */
int route_list(struct lab *lab, int sw, struct ipnet_route *out, int max);
bool route_exists(struct lab *lab, int sw, const struct ipnet_route *r);
void route_add(struct lab *lab, int sw, const struct ipnet_route *r);
void route_del(struct lab *lab, int sw, const struct ipnet_route *r);
/* Running-config: one `ip route` line per route. */
void route_render(struct lab *lab, int sw, strbuf *out);
/* The lab's routers, ports, routes and cables, into a new data plane. */
void route_routers_declare(struct lab *lab, struct ipnet *net);
/* The head of the routing table shows: codes and the default gateway
 * in use (by that port; slot 0: by any). */
void route_show_head(struct session *s, int slot, int port);
/* The S lines of `show ips ip route interface ...`: the routes of the
 * session's switch that leave by that port (slot 0: every port). */
void route_show_static(struct session *s, int slot, int port);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature route_feature;
extern const struct cmd_def route_cmds[];

#endif
