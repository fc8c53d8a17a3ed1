/* The running configuration's zoning, as NX-OS prints it: the default
 * zone lines, then per VSAN the section of its active database (zones,
 * zoneset, `zoneset activate`, then `do clear zone database` so that a
 * replay leaves the full database to the next section) and the section of
 * its full database. The layout is a real MDS's (docs/zoning.md). */
#include "zone.h"
#include "lab/lab.h"
#include <stdio.h>

struct out {
    struct lab *lab;
    int sw;
    strbuf *sb;
    int vsan;
};

static void member(void *ctx, const struct zone_row *r)
{
    struct out *o = ctx;
    sb_printf(o->sb, "    member %s %s\n", r->a, r->b);
}

static void full_zone(void *ctx, const struct zone_row *r)
{
    struct out *o = ctx;
    sb_printf(o->sb, "zone name %s vsan %d\n", r->b, r->vsan);
    zone_walk(o->lab, o->sw, ZW_ZONE_MEMBERS, r->vsan, r->b, member, o);
    sb_printf(o->sb, "\n");
}

static void set_member(void *ctx, const struct zone_row *r)
{
    struct out *o = ctx;
    sb_printf(o->sb, "    member %s\n", r->a);
}

static void full_set(void *ctx, const struct zone_row *r)
{
    struct out *o = ctx;
    sb_printf(o->sb, "zoneset name %s vsan %d\n", r->b, r->vsan);
    zone_walk(o->lab, o->sw, ZW_SET_MEMBERS, r->vsan, r->b, set_member, o);
    sb_printf(o->sb, "\n");
}

static void active_zone(void *ctx, const struct zone_row *r)
{
    struct out *o = ctx;
    sb_printf(o->sb, "zone name %s vsan %d\n", r->a, o->vsan);
    zone_walk(o->lab, o->sw, ZW_ACTIVE_MEMBERS, o->vsan, r->a, member, o);
    sb_printf(o->sb, "\n");
}

static void active_set_member(void *ctx, const struct zone_row *r)
{
    struct out *o = ctx;
    sb_printf(o->sb, "    member %s\n", r->a);
}

static void active_section(void *ctx, const struct zone_row *r)
{
    struct out *o = ctx;
    o->vsan = r->vsan;
    sb_printf(o->sb, "!Active Zone Database Section for vsan %d\n", r->vsan);
    zone_walk(o->lab, o->sw, ZW_ACTIVE_ZONES, r->vsan, NULL, active_zone, o);
    sb_printf(o->sb, "zoneset name %s vsan %d\n", r->b, r->vsan);
    zone_walk(o->lab, o->sw, ZW_ACTIVE_ZONES, r->vsan, NULL, active_set_member, o);
    sb_printf(o->sb, "\nzoneset activate name %s vsan %d\ndo clear zone database vsan %d\n", r->b, r->vsan, r->vsan);
}

static void vsan_sections(void *ctx, const struct zone_row *r)
{
    struct out *o = ctx;
    zone_walk(o->lab, o->sw, ZW_ACTIVE, r->vsan, NULL, active_section, o);
    struct zone_counts c;
    if (zone_totals(o->lab, o->sw, r->vsan, &c) == 0)
        return;
    sb_printf(o->sb, "!Full Zone Database Section for vsan %d\n", r->vsan);
    zone_walk(o->lab, o->sw, ZW_ZONES, r->vsan, NULL, full_zone, o);
    zone_walk(o->lab, o->sw, ZW_SETS, r->vsan, NULL, full_set, o);
}

void zone_render(struct lab *lab, int sw, strbuf *out)
{
    int ids[4093];
    for (int i = 0, n = zone_permit_vsans(lab, sw, ids, 4093); i < n; i++)
        sb_printf(out, "zone default-zone permit vsan %d\n", ids[i]);
    struct out o = {lab, sw, out, 0};
    zone_walk(lab, sw, ZW_VSANS, 0, NULL, vsan_sections, &o);
}
