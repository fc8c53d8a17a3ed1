/* Zoning (docs/zoning.md, docs/iscsi-zone-bootflash.md): per switch and
 * VSAN the default zone policy, the full zone database (zones of pWWN and
 * FCID members, zonesets of zones) and the zoneset the switch activated.
 * The fabric enforces what is active (backend/fabric/zoning.h); the
 * reconcile hands it each switch's activation. */
#ifndef MDSIM_ZONE_H
#define MDSIM_ZONE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"
#include "session_host.h"

struct lab;

/* Bounds per switch, all VSANs together (the MDS's: 8000 zones, 20000
 * members, 1000 zonesets). */
#define ZONE_MAX_ZONES 8000
#define ZONE_MAX_MEMBERS 20000
#define ZONE_MAX_SETS 1000

bool zone_default_permits(struct lab *lab, int sw, int vsan);
void zone_default_set(struct lab *lab, int sw, int vsan, bool permit);
/* The VSANs whose default zone permits, ascending: up to max of them in
 * vsans; returns how many. The fabric's reconcile reads this. */
int zone_permit_vsans(struct lab *lab, int sw, int *vsans, int max);

/* The full database; is_set: a zoneset, else a zone. kind "pwwn" (value
 * hh:...:hh, lower case) or "fcid" (value 0xhhhhhh). */
bool zone_exists(struct lab *lab, int sw, int vsan, const char *name);
bool zoneset_exists(struct lab *lab, int sw, int vsan, const char *name);
void zone_create(struct lab *lab, int sw, int vsan, const char *name, bool is_set);
void zone_delete(struct lab *lab, int sw, int vsan, const char *name, bool is_set);
bool zone_member_has(struct lab *lab, int sw, int vsan, const char *zone, const char *kind, const char *value);
void zone_member_set(struct lab *lab, int sw, int vsan, const char *zone, const char *kind, const char *value,
                     bool add);
bool zoneset_member_has(struct lab *lab, int sw, int vsan, const char *set, const char *zone);
void zoneset_member_set(struct lab *lab, int sw, int vsan, const char *set, const char *zone, bool add);
/* `clear zone database vsan N`: the full database only. */
void zone_clear_database(struct lab *lab, int sw, int vsan);
struct zone_counts {
    int zones, members, sets, set_members;
};
/* In a VSAN (0: all of the switch's). */
int zone_totals(struct lab *lab, int sw, int vsan, struct zone_counts *c);
/* One count of the switch's, all VSANs: what its bounds are checked on. */
enum zone_kind { ZK_ZONES, ZK_MEMBERS, ZK_SETS };
int zone_count_of(struct lab *lab, int sw, enum zone_kind k);

/* The switch's own activation: a copy of the zoneset's zones now; false
 * when no such zoneset. `when`: the lab clock's nanoseconds. */
bool zone_activate(struct lab *lab, int sw, int vsan, const char *set, int64_t when);
void zone_deactivate(struct lab *lab, int sw, int vsan);
bool zone_active_name(struct lab *lab, int sw, int vsan, char *name, size_t n, int64_t *when);

/* Walks, in creation order. A row: its VSAN, and two texts:
 *   ZW_ZONES, ZW_SETS (vsan 0: all; name NULL: all)  b = the name
 *   ZW_ZONE_MEMBERS, ZW_ACTIVE_MEMBERS (zone = name)  a = kind, b = value
 *   ZW_SET_MEMBERS (zoneset = name)                   a = the zone
 *   ZW_ACTIVE (vsan 0: all)                           b = the zoneset
 *   ZW_ACTIVE_ZONES                                   a = the zone
 *   ZW_VSANS: every VSAN with zoning of the switch's  vsan */
enum zone_walk {
    ZW_ZONES,
    ZW_ZONE_MEMBERS,
    ZW_SETS,
    ZW_SET_MEMBERS,
    ZW_ACTIVE,
    ZW_ACTIVE_ZONES,
    ZW_ACTIVE_MEMBERS,
    ZW_VSANS,
    ZW_COUNT
};
struct zone_row {
    int vsan;
    char a[65], b[65];
};
typedef void (*zone_row_fn)(void *ctx, const struct zone_row *r);
int zone_walk(struct lab *lab, int sw, enum zone_walk what, int vsan, const char *name, zone_row_fn fn, void *ctx);

/* Running-config: default-zone lines, then per VSAN its active and full
 * database sections as NX-OS prints them. */
void zone_render(struct lab *lab, int sw, strbuf *out);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature zone_feature;
extern const struct cmd_def zone_cmds[];
extern const struct mode_check zone_mode_checks[];
/* zone_show.c's handlers for zone_cmds. */
int zone_show_zone(struct session *s, const struct cmd_args *a);
int zone_show_zoneset(struct session *s, const struct cmd_args *a);
int zone_show_active(struct session *s, const struct cmd_args *a);
int zone_show_status(struct session *s, const struct cmd_args *a);
struct mode_info;
/* (config-zone): `zone name Z vsan N` (docs/registry.md). */
extern const struct mode_info zone_mode;
/* (config-zoneset): `zoneset name S vsan N` (docs/registry.md). */
extern const struct mode_info zoneset_mode;

#endif
