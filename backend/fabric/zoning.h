/*
 * Zoning in the fabric engine (docs/zoning.md): per switch and VSAN the
 * active zoneset it enforces, its activation distributed to the switches
 * reachable in the VSAN, and the merge of two sides' active zonesets when
 * an ISL joins them. An engine object: the zone feature's reconcile hands
 * it each switch's local activation; the FCIP links ask it to merge.
 *
 * Merge (the MR/MRRA exchange, decided from the fabric's view of both
 * sides as fcdomain's overlap is, so no frame crosses the tunnel): both
 * empty, equal, or one empty -> the union is active on both sides; zones
 * of one name with different members -> failure ("Member mismatch"), both
 * sides keep theirs and the link isolates the VSAN. Two different zoneset
 * names merge under the greater one (strcmp) [P].
 */
#ifndef MDSIM_FABRIC_ZONING_H
#define MDSIM_FABRIC_ZONING_H
#include <stdbool.h>
#include <stdint.h>
#include "fabric.h"

#define ZONE_NAME_MAX 64

struct zs_member {
    bool is_fcid;
    uint32_t fcid;
    uint8_t pwwn[8];
};

struct zs_zone {
    char name[ZONE_NAME_MAX + 1];
    int n;
    struct zs_member *m;
};

/* An active zoneset: zones sorted by name, members sorted, no duplicate
 * (zs_canon). */
struct zoneset_db {
    char name[ZONE_NAME_MAX + 1];
    int nzones;
    struct zs_zone *z;
    uint64_t at_ns;  /* lab time it became active here */
    bool merged;     /* ... by a merge, not a local activation */
};

struct zoneset_db *zs_new(const char *name);
/* The zone of that name, added (empty) when absent; returns its index. */
int zs_zone(struct zoneset_db *db, const char *name);
void zs_add(struct zoneset_db *db, int zone, const struct zs_member *m);
void zs_canon(struct zoneset_db *db);
struct zoneset_db *zs_copy(const struct zoneset_db *db);
void zs_free(struct zoneset_db *db);
bool zs_equal(const struct zoneset_db *a, const struct zoneset_db *b);
/* A hash of the content (name, zones, members), 0 never. */
uint64_t zs_hash(const struct zoneset_db *db);
/* Its size as `show zone status` counts it (docs/zoning.md). */
uint32_t zs_bytes(const struct zoneset_db *db);
bool zs_member_matches(const struct zs_member *m, uint32_t fcid, const uint8_t pwwn[8]);

/* Switch sw activates db in the VSAN (NULL: deactivates): it and every
 * switch reachable from it in the VSAN take a copy. */
void fabric_zoning_activate(struct fabric *fab, int sw, int vsan, const struct zoneset_db *db);
/* What sw enforces in the VSAN; NULL: no active zoneset. */
const struct zoneset_db *fabric_zoning_active(const struct fabric *fab, int sw, int vsan);
/* An ISL between a and b comes up carrying the VSAN: merges the two
 * sides' active zonesets (every ISL between a and b left out, so both
 * ends get the same answer). False on a conflict, with the zone's name. */
bool fabric_zoning_merge(struct fabric *fab, int a, int b, int vsan, char *zone, int n);
/* May a frame entering the fabric at sw from its N port go to its
 * destination? Only asked where an active zoneset exists. */
bool fabric_zoning_permits(const struct fabric *fab, int sw, const struct fc_frame *f, bool default_permit);
void fabric_zoning_free(struct fabric *fab);

#endif
