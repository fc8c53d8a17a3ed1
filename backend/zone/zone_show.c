/* `show zone`, `show zoneset [active]`, `show zone status` and the
 * running configuration's zone sections, in the NX-OS layouts
 * (docs/zoning.md says which are confirmed). */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "vsan/vsan.h"
#include "vsan/vsan_store.h"
#include "fabric/fabric.h"
#include "fabric/zoning.h"
#include "zone.h"
#include "fabric/fabric_feature.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A member as `show zone` and `show zoneset` print it: `pwwn ...` under
 * its zone's line. */
struct walk {
    struct session *s;
    const char *indent;
};

static void member_line(void *ctx, const struct zone_row *r)
{
    struct walk *w = ctx;
    cmd_printf(w->s, "%s%s %s\n", w->indent, r->a, r->b);
}

/* show zone */

struct zone_show {
    struct session *s;
    bool any;
};

static void show_one_zone(void *ctx, const struct zone_row *r)
{
    struct zone_show *z = ctx;
    struct session *s = z->s;
    if (z->any)
        cmd_printf(s, "\n");
    z->any = true;
    cmd_printf(s, "zone name %s vsan %d\n", r->b, r->vsan);
    struct walk w = {s, "  "};
    zone_walk(s->lab, s->sw, ZW_ZONE_MEMBERS, r->vsan, r->b, member_line, &w);
}

int zone_show_zone(struct session *s, const struct cmd_args *a)
{
    struct zone_show z = {s, false};
    const char *name = arg_has(a, "name") ? arg_str(a, "zname") : NULL;
    zone_walk(s->lab, s->sw, ZW_ZONES, (int)arg_num(a, "vid", 0), name, show_one_zone, &z);
    if (!z.any && name)
        return cmd_error(s, "%% Zone %s not present", name);
    return 0;
}

/* show zoneset */

struct set_show {
    struct session *s;
    int vsan;
    bool any, first_zone;
};

static void show_set_zone(void *ctx, const struct zone_row *r)
{
    struct set_show *x = ctx;
    struct session *s = x->s;
    if (!x->first_zone)
        cmd_printf(s, "\n");
    x->first_zone = false;
    cmd_printf(s, "  zone name %s vsan %d\n", r->a, x->vsan);
    struct walk w = {s, "    "};
    zone_walk(s->lab, s->sw, ZW_ZONE_MEMBERS, x->vsan, r->a, member_line, &w);
}

static void show_one_set(void *ctx, const struct zone_row *r)
{
    struct set_show *x = ctx;
    if (x->any)
        cmd_printf(x->s, "\n");
    x->any = true;
    x->vsan = r->vsan;
    x->first_zone = true;
    cmd_printf(x->s, "zoneset name %s vsan %d\n", r->b, r->vsan);
    zone_walk(x->s->lab, x->s->sw, ZW_SET_MEMBERS, r->vsan, r->b, show_set_zone, x);
}

int zone_show_zoneset(struct session *s, const struct cmd_args *a)
{
    struct set_show x = {s, 0, false, true};
    const char *name = arg_has(a, "name") ? arg_str(a, "sname") : NULL;
    zone_walk(s->lab, s->sw, ZW_SETS, (int)arg_num(a, "vid", 0), name, show_one_set, &x);
    if (!x.any && name)
        return cmd_error(s, "%% Zoneset %s not present", name);
    return 0;
}

/* show zoneset active: what the switch enforces (its own activation or a
 * merge's), a member logged in marked `*` with its FCID and pWWN. */

struct logins {
    struct fabric_port v[256];
    int n;
};

static void login_add(void *ctx, const struct fabric_port *p)
{
    struct logins *l = ctx;
    if (l->n < 256)
        l->v[l->n++] = *p;
}

static const struct fabric_port *logged_in(const struct logins *l, const struct zs_member *m)
{
    for (int i = 0; i < l->n; i++)
        if (zs_member_matches(m, l->v[i].fcid, l->v[i].pwwn))
            return &l->v[i];
    return NULL;
}

static void active_member(struct session *s, const struct logins *l, const struct zs_member *m)
{
    char wwn[24];
    const struct fabric_port *p = logged_in(l, m);
    if (p) {
        fabric_wwn_text(p->pwwn, wwn);
        cmd_printf(s, "  * fcid 0x%06x [pwwn %s]\n", p->fcid, wwn);
    } else if (m->is_fcid) {
        cmd_printf(s, "    fcid 0x%06x\n", m->fcid);
    } else {
        fabric_wwn_text(m->pwwn, wwn);
        cmd_printf(s, "    pwwn %s\n", wwn);
    }
}

static struct fabric *fabric_of(struct session *s)
{
    lab_reconcile(s->lab);
    return fabric_of_lab(s->lab);
}

int zone_show_active(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fabric_of(s);
    int only = (int)arg_num(a, "vid", 0);
    bool any = false;
    for (int v = only ? only : 1; v <= (only ? only : VSAN_MAX_USER); v++) {
        const struct zoneset_db *db = fabric_zoning_active(fab, s->sw, v);
        if (!db)
            continue;
        struct logins *l = calloc(1, sizeof *l);
        if (!l)
            return cmd_error(s, "%% Out of memory");
        fabric_ports_each(fab, s->sw, v, login_add, l);
        if (any)
            cmd_printf(s, "\n");
        any = true;
        cmd_printf(s, "zoneset name %s vsan %d\n", db->name, v);
        for (int i = 0; i < db->nzones; i++) {
            if (i)
                cmd_printf(s, "\n");
            cmd_printf(s, "  zone name %s vsan %d\n", db->z[i].name, v);
            for (int j = 0; j < db->z[i].n; j++)
                active_member(s, l, &db->z[i].m[j]);
        }
        free(l);
    }
    if (!any && only)
        return cmd_error(s, "%% Zoneset not present");
    return 0;
}

/* show zone status */

struct sizer {
    struct lab *lab;
    int sw;
    uint32_t bytes;
};

static uint32_t object_bytes(const char *name) { return 8u + (((uint32_t)strlen(name) + 3u) & ~3u); }

static void size_member(void *ctx, const struct zone_row *r)
{
    ((struct sizer *)ctx)->bytes += strcmp(r->a, "fcid") == 0 ? 8u : 12u;
}

static void size_zone(void *ctx, const struct zone_row *r)
{
    struct sizer *z = ctx;
    z->bytes += object_bytes(r->b);
    zone_walk(z->lab, z->sw, ZW_ZONE_MEMBERS, r->vsan, r->b, size_member, z);
}

static void size_set_member(void *ctx, const struct zone_row *r) { ((struct sizer *)ctx)->bytes += object_bytes(r->a); }

static void size_set(void *ctx, const struct zone_row *r)
{
    struct sizer *z = ctx;
    z->bytes += object_bytes(r->b);
    zone_walk(z->lab, z->sw, ZW_SET_MEMBERS, r->vsan, r->b, size_set_member, z);
}

/* The full database's size, counted as the active one's (zoning.c). */
static uint32_t full_bytes(struct session *s, int vsan)
{
    struct sizer z = {s->lab, s->sw, 4};
    zone_walk(s->lab, s->sw, ZW_ZONES, vsan, NULL, size_zone, &z);
    zone_walk(s->lab, s->sw, ZW_SETS, vsan, NULL, size_set, &z);
    return z.bytes;
}

static void active_status(struct session *s, int vsan)
{
    const struct zoneset_db *db = fabric_zoning_active(fabric_of(s), s->sw, vsan);
    if (!db) {
        cmd_printf(s, "    Database Not Available\nStatus:\n");
        return;
    }
    cmd_printf(s, "    DB Size: %u bytes\n    Name: %s Zonesets: 1 Zones: %d\n", zs_bytes(db), db->name, db->nzones);
    time_t now = lab_time(s->lab, s->sw, NULL);
    uint64_t ago = (lab_now(s->lab) - db->at_ns) / 1000000000ull;
    time_t at = now - (time_t)ago;
    struct tm tm;
    char when[64];
    gmtime_r(&at, &tm);
    strftime(when, sizeof when, "%H:%M:%S UTC %b %d %Y", &tm);
    cmd_printf(s, "Status: %s completed at %s\n", db->merged ? "Merge" : "Activation", when);
}

static void show_status(struct session *s, int vsan)
{
    bool permit = zone_default_permits(s->lab, s->sw, vsan);
    struct zone_counts c;
    zone_totals(s->lab, s->sw, vsan, &c);
    cmd_printf(s, "VSAN: %d default-zone: %s distribute: active only Interop: default\n", vsan,
               permit ? "permit" : "deny");
    cmd_printf(s, "    mode: basic merge-control: allow\n"
                  "    session: none\n"
                  "    hard-zoning: enabled broadcast: unsupported\n"
                  "    smart-zoning: disabled\n"
                  "    rscn-format: fabric-address\n"
                  "    activation overwrite control: disabled\n"
                  "Default zone:\n"
                  "    qos: none broadcast: unsupported ronly: unsupported\n"
                  "Full Zoning Database :\n");
    cmd_printf(s, "    DB size: %u bytes\n    Zonesets: %d Zones: %d Aliases: 0\n", full_bytes(s, vsan), c.sets,
               c.zones);
    cmd_printf(s, "Active Zoning Database :\n");
    active_status(s, vsan);
}

/* A VSAN has a status when it exists or its zoning was configured ahead
 * of it. */
static void vsan_of(void *ctx, const struct zone_row *r) { vsan_set_add(ctx, r->vsan, r->vsan); }

static void status_vsans(struct session *s, struct vsan_set *has)
{
    memset(has, 0, sizeof *has);
    vsan_set_add(has, 1, 1);
    int ids[VSAN_MAX_USER];
    for (int i = 0, n = vsan_ids(s->lab, s->sw, ids, VSAN_MAX_USER); i < n; i++)
        vsan_set_add(has, ids[i], ids[i]);
    for (int i = 0, n = zone_permit_vsans(s->lab, s->sw, ids, VSAN_MAX_USER); i < n; i++)
        vsan_set_add(has, ids[i], ids[i]);
    zone_walk(s->lab, s->sw, ZW_VSANS, 0, NULL, vsan_of, has);
}

int zone_show_status(struct session *s, const struct cmd_args *a)
{
    struct vsan_set has;
    status_vsans(s, &has); /* read once: two store lookups for each of 4,093 ids were most of its time */
    if (arg_has(a, "vsan")) {
        int vsan = (int)arg_num(a, "id", 1);
        if (vsan == VSAN_EVFP || !vsan_set_has(&has, vsan)) /* EVFP: reserved, no zone server */
            return cmd_error(s, "%% vsan not present");
        show_status(s, vsan);
        return 0;
    }
    for (int vsan = 1; vsan <= VSAN_MAX_USER; vsan++)
        if (vsan != VSAN_EVFP && vsan_set_has(&has, vsan)) {
            if (vsan > 1)
                cmd_printf(s, "\n");
            show_status(s, vsan);
        }
    return 0;
}
