#include "zoning.h"
#include "fabric_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
    void *v = realloc(p, n ? n : 1);
    if (!v)
        abort();
    return v;
}

struct zoneset_db *zs_new(const char *name)
{
    struct zoneset_db *db = calloc(1, sizeof *db);
    if (!db)
        abort();
    snprintf(db->name, sizeof db->name, "%s", name);
    return db;
}

int zs_zone(struct zoneset_db *db, const char *name)
{
    for (int i = 0; i < db->nzones; i++)
        if (strcmp(db->z[i].name, name) == 0)
            return i;
    db->z = xrealloc(db->z, sizeof *db->z * (size_t)(db->nzones + 1));
    struct zs_zone *z = &db->z[db->nzones];
    memset(z, 0, sizeof *z);
    snprintf(z->name, sizeof z->name, "%s", name);
    return db->nzones++;
}

void zs_add(struct zoneset_db *db, int zone, const struct zs_member *m)
{
    struct zs_zone *z = &db->z[zone];
    z->m = xrealloc(z->m, sizeof *z->m * (size_t)(z->n + 1));
    z->m[z->n] = *m;
    if (m->is_fcid)
        memset(z->m[z->n].pwwn, 0, 8);
    else
        z->m[z->n].fcid = 0;
    z->n++;
}

static int member_cmp(const void *a, const void *b)
{
    const struct zs_member *x = a, *y = b;
    if (x->is_fcid != y->is_fcid)
        return x->is_fcid ? 1 : -1;
    if (x->is_fcid)
        return x->fcid < y->fcid ? -1 : x->fcid > y->fcid;
    return memcmp(x->pwwn, y->pwwn, 8);
}

static int zone_cmp(const void *a, const void *b)
{
    return strcmp(((const struct zs_zone *)a)->name, ((const struct zs_zone *)b)->name);
}

/* qsort's array must not be NULL, even for no elements (C11 7.22.5). */
static void sort(void *base, int n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, (size_t)n, size, cmp);
}

void zs_canon(struct zoneset_db *db)
{
    sort(db->z, db->nzones, sizeof *db->z, zone_cmp);
    for (int i = 0; i < db->nzones; i++) {
        struct zs_zone *z = &db->z[i];
        sort(z->m, z->n, sizeof *z->m, member_cmp);
        int k = 0;
        for (int j = 0; j < z->n; j++)
            if (k == 0 || member_cmp(&z->m[k - 1], &z->m[j]) != 0)
                z->m[k++] = z->m[j];
        z->n = k;
    }
}

struct zoneset_db *zs_copy(const struct zoneset_db *db)
{
    struct zoneset_db *c = zs_new(db->name);
    *c = *db;
    c->z = xrealloc(NULL, sizeof *c->z * (size_t)db->nzones);
    for (int i = 0; i < db->nzones; i++) {
        c->z[i] = db->z[i];
        c->z[i].m = xrealloc(NULL, sizeof *c->z[i].m * (size_t)db->z[i].n);
        memcpy(c->z[i].m, db->z[i].m, sizeof *c->z[i].m * (size_t)db->z[i].n);
    }
    return c;
}

void zs_free(struct zoneset_db *db)
{
    if (!db)
        return;
    for (int i = 0; i < db->nzones; i++)
        free(db->z[i].m);
    free(db->z);
    free(db);
}

static bool zone_equal(const struct zs_zone *a, const struct zs_zone *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++)
        if (member_cmp(&a->m[i], &b->m[i]) != 0)
            return false;
    return true;
}

bool zs_equal(const struct zoneset_db *a, const struct zoneset_db *b)
{
    if (!a || !b)
        return a == b;
    if (strcmp(a->name, b->name) != 0 || a->nzones != b->nzones)
        return false;
    for (int i = 0; i < a->nzones; i++)
        if (strcmp(a->z[i].name, b->z[i].name) != 0 || !zone_equal(&a->z[i], &b->z[i]))
            return false;
    return true;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

uint64_t zs_hash(const struct zoneset_db *db)
{
    uint64_t h = fnv(0xcbf29ce484222325ULL, db->name, strlen(db->name) + 1);
    for (int i = 0; i < db->nzones; i++) {
        h = fnv(h, db->z[i].name, strlen(db->z[i].name) + 1);
        for (int j = 0; j < db->z[i].n; j++) {
            const struct zs_member *m = &db->z[i].m[j];
            h = fnv(h, &m->is_fcid, 1);
            h = m->is_fcid ? fnv(h, &m->fcid, 4) : fnv(h, m->pwwn, 8);
        }
    }
    return h ? h : 1;
}

/* FC-GS objects: a 4-byte header, the name padded to 4, a 4-byte count;
 * a member is its 4-byte header and its 8-byte (pWWN) or 4-byte (FCID)
 * value. One zoneset of one zone and four pWWNs gives 84 bytes, as the
 * reference's `show zone status` does. */
static uint32_t object_bytes(const char *name) { return 8u + (((uint32_t)strlen(name) + 3u) & ~3u); }

uint32_t zs_bytes(const struct zoneset_db *db)
{
    uint32_t n = 4u + object_bytes(db->name);
    for (int i = 0; i < db->nzones; i++) {
        n += object_bytes(db->z[i].name);
        for (int j = 0; j < db->z[i].n; j++)
            n += db->z[i].m[j].is_fcid ? 8u : 12u;
    }
    return n;
}

bool zs_member_matches(const struct zs_member *m, uint32_t fcid, const uint8_t pwwn[8])
{
    return m->is_fcid ? m->fcid == fcid : pwwn && memcmp(m->pwwn, pwwn, 8) == 0;
}

/* The fabric's table */

static struct zoneset_db **slot(struct fabric *fab, int sw, int vsan)
{
    if (!fab->zoning) {
        fab->zoning = calloc((size_t)fab->nsw * (FABRIC_VSAN_MAX + 1), sizeof *fab->zoning);
        if (!fab->zoning)
            abort();
    }
    return &fab->zoning[(size_t)sw * (FABRIC_VSAN_MAX + 1) + (size_t)vsan];
}

const struct zoneset_db *fabric_zoning_active(const struct fabric *fab, int sw, int vsan)
{
    if (!fab->zoning || sw < 0 || sw >= fab->nsw || vsan < 1 || vsan > FABRIC_VSAN_MAX)
        return NULL;
    return fab->zoning[(size_t)sw * (FABRIC_VSAN_MAX + 1) + (size_t)vsan];
}

static void put(struct fabric *fab, int sw, int vsan, const struct zoneset_db *db, bool merged)
{
    struct zoneset_db **p = slot(fab, sw, vsan);
    zs_free(*p);
    *p = db ? zs_copy(db) : NULL;
    if (*p) {
        (*p)->at_ns = engine_now(fab->e);
        (*p)->merged = merged;
    }
}

/* sw and the switches reachable from it in the VSAN, leaving out the ISLs
 * between a and b (-1: none). */
static void spread(struct fabric *fab, int sw, int vsan, int a, int b, const struct zoneset_db *db, bool merged)
{
    int hop[256];
    if (fab->nsw > 256)
        return;
    fabric_paths(fab, sw, vsan, hop, a, b);
    put(fab, sw, vsan, db, merged);
    for (int i = 0; i < fab->nsw; i++)
        if (i != sw && hop[i] != -1)
            put(fab, i, vsan, db, merged);
}

void fabric_zoning_activate(struct fabric *fab, int sw, int vsan, const struct zoneset_db *db)
{
    if (sw < 0 || sw >= fab->nsw || vsan < 1 || vsan > FABRIC_VSAN_MAX)
        return;
    spread(fab, sw, vsan, -1, -1, db, false);
}

/* Zones of one name in both with different members: the first such name. */
static const char *conflict(const struct zoneset_db *x, const struct zoneset_db *y)
{
    for (int i = 0; i < x->nzones; i++)
        for (int j = 0; j < y->nzones; j++)
            if (strcmp(x->z[i].name, y->z[j].name) == 0 && !zone_equal(&x->z[i], &y->z[j]))
                return x->z[i].name;
    return NULL;
}

static struct zoneset_db *merged(const struct zoneset_db *x, const struct zoneset_db *y)
{
    struct zoneset_db *u = zs_new(strcmp(x->name, y->name) >= 0 ? x->name : y->name);
    const struct zoneset_db *both[2] = {x, y};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < both[k]->nzones; i++) {
            int z = zs_zone(u, both[k]->z[i].name);
            for (int j = 0; j < both[k]->z[i].n; j++)
                zs_add(u, z, &both[k]->z[i].m[j]);
        }
    zs_canon(u);
    return u;
}

bool fabric_zoning_merge(struct fabric *fab, int a, int b, int vsan, char *zone, int n)
{
    const struct zoneset_db *x = fabric_zoning_active(fab, a, vsan), *y = fabric_zoning_active(fab, b, vsan);
    if (zs_equal(x, y))
        return true;
    if (x && y) {
        const char *bad = conflict(x, y);
        if (bad) {
            snprintf(zone, (size_t)n, "%s", bad);
            return false;
        }
    }
    if (!x || !y) { /* the empty side takes the other's */
        struct zoneset_db *c = zs_copy(x ? x : y);
        spread(fab, x ? b : a, vsan, a, b, c, true);
        zs_free(c);
        return true;
    }
    struct zoneset_db *u = merged(x, y);
    spread(fab, a, vsan, a, b, u, true);
    spread(fab, b, vsan, a, b, u, true);
    zs_free(u);
    return true;
}

static const struct nport *port_of(const struct fabric *fab, int vsan, uint32_t fcid)
{
    for (int i = 0; i < fab->nports; i++)
        if (fab->ports[i].fcid == fcid && fab->ports[i].vsan == vsan)
            return &fab->ports[i];
    return NULL;
}

static bool in_zone(const struct zs_zone *z, uint32_t fcid, const uint8_t *pwwn)
{
    for (int i = 0; i < z->n; i++)
        if (zs_member_matches(&z->m[i], fcid, pwwn))
            return true;
    return false;
}

/* Two ports talk when some active zone holds both; a port in no active
 * zone is in the default zone, with its policy. */
bool fabric_zoning_permits(const struct fabric *fab, int sw, const struct fc_frame *f, bool default_permit)
{
    const struct zoneset_db *db = fabric_zoning_active(fab, sw, f->vsan);
    if (!db)
        return default_permit;
    const struct nport *s = port_of(fab, f->vsan, f->s_id), *d = port_of(fab, f->vsan, f->d_id);
    const uint8_t *sp = s ? s->pwwn : NULL, *dp = d ? d->pwwn : NULL;
    bool s_zoned = false, d_zoned = false;
    for (int i = 0; i < db->nzones; i++) {
        bool si = in_zone(&db->z[i], f->s_id, sp), di = in_zone(&db->z[i], f->d_id, dp);
        if (si && di)
            return true;
        s_zoned |= si;
        d_zoned |= di;
    }
    return !s_zoned && !d_zoned && default_permit;
}

void fabric_zoning_free(struct fabric *fab)
{
    if (!fab->zoning)
        return;
    for (size_t i = 0; i < (size_t)fab->nsw * (FABRIC_VSAN_MAX + 1); i++)
        zs_free(fab->zoning[i]);
    free(fab->zoning);
    fab->zoning = NULL;
}
