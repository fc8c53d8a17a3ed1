/* Zoning, the default zone only: per switch and VSAN, does the default
 * zone permit traffic between N ports (`zone default-zone permit vsan N`)
 * or deny it (the default)? No zones or zonesets. */
#ifndef MDSIM_ZONE_H
#define MDSIM_ZONE_H
#include <stdbool.h>
#include "strbuf.h"

struct lab;

bool zone_default_permits(struct lab *lab, int sw, int vsan);
void zone_default_set(struct lab *lab, int sw, int vsan, bool permit);
/* The VSANs whose default zone permits, ascending: up to max of them in
 * vsans; returns how many. The fabric's reconcile reads this. */
int zone_permit_vsans(struct lab *lab, int sw, int *vsans, int max);

/* Running-config: `zone default-zone permit vsan N` lines. */
void zone_render(struct lab *lab, int sw, strbuf *out);

#endif
