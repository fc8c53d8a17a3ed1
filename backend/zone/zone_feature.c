/* Zoning: always on (no gate); its rows are configuration, forgotten by
 * reload like the rest. Its reconcile hands the fabric each switch's own
 * activation when it changed (the fabric distributes it and merges across
 * ISLs: backend/fabric/zoning.h), so an active zoneset a merge brought is
 * not undone by an unrelated command. */
#include "feature.h"
#include "fabric/zoning.h"
#include "lab/lab.h"
#include "zone.h"
#include "fabric/fabric_feature.h"
#include <stdlib.h>
#include <string.h>

/* Per switch and VSAN the activation last handed over (0: none): a hash
 * of its content and its time, so the same zoneset activated again is
 * handed over again. */
struct zone_engine {
    int nsw;
    uint64_t *applied;
};

static void *zone_engine_new(struct lab *lab, engine_t *e, struct ipnet *net)
{
    (void)e;
    (void)net;
    struct zone_engine *z = calloc(1, sizeof *z);
    if (!z)
        abort();
    z->nsw = lab_switch_count(lab);
    z->applied = calloc((size_t)z->nsw * 4094, sizeof *z->applied);
    if (!z->applied)
        abort();
    return z;
}

static void zone_engine_free(void *state)
{
    struct zone_engine *z = state;
    if (z)
        free(z->applied);
    free(z);
}

struct build {
    struct lab *lab;
    int sw, vsan;
    struct zoneset_db *db;
    int zone;
};

static void add_member(void *ctx, const struct zone_row *r)
{
    struct build *b = ctx;
    struct zs_member m;
    memset(&m, 0, sizeof m);
    m.is_fcid = strcmp(r->a, "fcid") == 0;
    if (m.is_fcid) {
        m.fcid = (uint32_t)strtoul(r->b + 2, NULL, 16);
    } else {
        for (int i = 0; i < 8; i++)
            m.pwwn[i] = (uint8_t)strtoul(r->b + 3 * i, NULL, 16);
    }
    zs_add(b->db, b->zone, &m);
}

static void add_zone(void *ctx, const struct zone_row *r)
{
    struct build *b = ctx;
    b->zone = zs_zone(b->db, r->a);
    zone_walk(b->lab, b->sw, ZW_ACTIVE_MEMBERS, b->vsan, r->a, add_member, b);
}

struct pass {
    struct lab *lab;
    struct fabric *fab;
    int sw;
    uint64_t *applied;
    bool seen[4094];
};

/* A VSAN the switch activated in: handed over when its content changed. */
static void activation(void *ctx, const struct zone_row *r)
{
    struct pass *p = ctx;
    struct build b = {p->lab, p->sw, r->vsan, zs_new(r->b), 0};
    zone_walk(p->lab, p->sw, ZW_ACTIVE_ZONES, r->vsan, NULL, add_zone, &b);
    zs_canon(b.db);
    int64_t at = 0;
    char name[65];
    zone_active_name(p->lab, p->sw, r->vsan, name, sizeof name, &at);
    uint64_t h = (zs_hash(b.db) ^ ((uint64_t)at * 0x9e3779b97f4a7c15ULL)) | 1;
    p->seen[r->vsan] = true;
    if (h != p->applied[r->vsan]) {
        fabric_zoning_activate(p->fab, p->sw, r->vsan, b.db);
        p->applied[r->vsan] = h;
    }
    zs_free(b.db);
}

static void reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    (void)net;
    struct zone_engine *z = state;
    struct fabric *fab = fabric_of_lab(lab);
    struct pass p;
    for (int sw = 0; sw < z->nsw && fab; sw++) {
        memset(p.seen, 0, sizeof p.seen);
        p.lab = lab;
        p.fab = fab;
        p.sw = sw;
        p.applied = &z->applied[(size_t)sw * 4094];
        zone_walk(lab, sw, ZW_ACTIVE, 0, NULL, activation, &p);
        for (int v = 1; v <= 4093; v++)
            if (p.applied[v] && !p.seen[v]) { /* deactivated */
                fabric_zoning_activate(fab, sw, v, NULL);
                p.applied[v] = 0;
            }
    }
}

static const struct owned_table tables[] = {
    {"zone_default_permit", NULL}, {"zone_active_member", NULL}, {"zone_active", NULL}, {"zoneset_member", NULL},
    {"zoneset", NULL},             {"zone_member", NULL},        {"zone", NULL},        {NULL, NULL},
};

const struct mode_info zone_mode = {
    .name = "config-zone",
    .prompt = "(config-zone)",
    .parent = &mode_config,
    .is_config = true,
    .about = "zone",
};
const struct mode_info zoneset_mode = {
    .name = "config-zoneset",
    .prompt = "(config-zoneset)",
    .parent = &mode_config,
    .is_config = true,
    .about = "zoneset",
};
static const struct mode_info *const modes[] = {&zone_mode, &zoneset_mode, NULL};

const struct feature zone_feature = {
    .name = "zone",
    .modes = modes,
    .cmds = zone_cmds,
    .render = {[SECTION_GLOBAL] = zone_render},
    .tables = tables,
    .engine_new = zone_engine_new,
    .engine_free = zone_engine_free,
    .reconcile = reconcile,
    .mode_checks = zone_mode_checks,
};
