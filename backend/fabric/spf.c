/* FSPF's routing: each switch's link-state record is read off the ISLs
 * the fabric holds (no LSU crosses a link: docs/fspf.md), and the shortest
 * paths are Dijkstra's over their costs. */
#include "fabric_int.h"
#include <stdlib.h>
#include <string.h>

#define NSW_MAX 256 /* the arrays on the stack; a lab has at most 64 switches */

uint32_t fabric_cost_of_bandwidth(uint64_t bps)
{
    uint64_t mbps = bps / 1000000u;
    if (!mbps)
        return FABRIC_COST_MAX;
    uint64_t c = (FABRIC_COST_REF_MBPS + mbps / 2) / mbps;
    return c < 1 ? 1 : c > FABRIC_COST_MAX ? FABRIC_COST_MAX : (uint32_t)c;
}

void fabric_isl_describe(struct fabric *fab, int id, const struct fabric_isl_info *info)
{
    for (int i = 0; i < fab->nisl; i++)
        if (fab->isls[i].id == id && id)
            fab->isls[i].info = *info;
    fabric_routes_changed(fab);
}

/* The switch's configuration is set again as a whole (clear, set each,
 * done): its LSR changes, and is stamped, only when a cost did. */
void fabric_costs_clear(struct fabric *fab, int sw)
{
    fabric_routes_changed(fab);
    for (int i = 0; i < fab->ncosts; i++)
        if (fab->costs[i].sw == sw)
            fab->costs[i].stale = true;
}

static struct cost_override *override_of(const struct fabric *fab, int sw, const char *ifname, int vsan)
{
    for (int i = 0; i < fab->ncosts; i++) {
        struct cost_override *c = &fab->costs[i];
        if (c->sw == sw && c->vsan == vsan && strcmp(c->ifname, ifname) == 0)
            return c;
    }
    return NULL;
}

static struct cost_override *override_add(struct fabric *fab, int sw, const char *ifname, int vsan)
{
    struct cost_override *v = realloc(fab->costs, sizeof *v * (size_t)(fab->ncosts + 1));
    if (!v)
        abort();
    fab->costs = v;
    struct cost_override *c = &v[fab->ncosts++];
    *c = (struct cost_override){sw, vsan, "", {0, 0, 0}, true, false};
    strncpy(c->ifname, ifname, sizeof c->ifname - 1);
    return c;
}

void fabric_if_fspf_set(struct fabric *fab, int sw, const char *ifname, int vsan, const struct fabric_if_fspf *conf)
{
    struct cost_override *c = override_of(fab, sw, ifname, vsan);
    if (!c)
        c = override_add(fab, sw, ifname, vsan);
    if (c->conf.cost != conf->cost)
        fabric_lsr_touch(fab, sw);
    c->conf = *conf;
    c->stale = false;
    fabric_routes_changed(fab);
}

void fabric_cost_set(struct fabric *fab, int sw, const char *ifname, int vsan, uint32_t cost)
{
    struct fabric_if_fspf c = {cost, 0, 0};
    fabric_if_fspf_set(fab, sw, ifname, vsan, &c);
}

void fabric_costs_done(struct fabric *fab, int sw)
{
    int k = 0;
    fabric_routes_changed(fab);
    for (int i = 0; i < fab->ncosts; i++) {
        struct cost_override *c = &fab->costs[i];
        if (c->sw == sw && c->stale && c->conf.cost)
            fabric_lsr_touch(fab, sw);
        if (c->sw == sw && c->stale)
            c->conf = (struct fabric_if_fspf){0, 0, 0};
        if (!c->stale || c->refused)
            fab->costs[k++] = *c;
    }
    fab->ncosts = k;
}

void fabric_if_fspf_get(const struct fabric *fab, int sw, const char *ifname, int vsan, struct fabric_if_fspf *out)
{
    const struct cost_override *c = override_of(fab, sw, ifname, vsan);
    *out = c ? c->conf : (struct fabric_if_fspf){0, 0, 0};
    out->hello_s = out->hello_s ? out->hello_s : FABRIC_FSPF_HELLO_S;
    out->dead_s = out->dead_s ? out->dead_s : FABRIC_FSPF_DEAD_S;
}

void fabric_fspf_refuse(struct fabric *fab, int sw, const char *ifname, int vsan, bool refused)
{
    struct cost_override *c = override_of(fab, sw, ifname, vsan);
    if (!c && !refused)
        return;
    if (!c)
        c = override_add(fab, sw, ifname, vsan);
    if (c->refused != refused) {
        fabric_lsr_touch(fab, sw);
        fabric_routes_changed(fab);
    }
    c->refused = refused;
}

/* What the ISL's end advertises in the VSAN: its interface's configured
 * cost there, else the one its bandwidth gives. */
static uint32_t isl_cost(const struct fabric *fab, const struct isl *l, int vsan)
{
    const struct cost_override *c = override_of(fab, l->sw, l->info.ifname, vsan);
    return c && c->conf.cost ? c->conf.cost : l->info.cost;
}

uint32_t fabric_if_cost(const struct fabric *fab, int sw, const char *ifname, int vsan)
{
    for (int i = 0; i < fab->nisl; i++) {
        const struct isl *l = &fab->isls[i];
        if (l->id && l->sw == sw && strcmp(l->info.ifname, ifname) == 0)
            return isl_cost(fab, l, vsan);
    }
    return 0;
}

static bool refused(const struct fabric *fab, const struct isl *l, int vsan)
{
    const struct cost_override *c = l->info.ifname[0] ? override_of(fab, l->sw, l->info.ifname, vsan) : NULL;
    return c && c->refused;
}

static bool between(const struct isl *l, int a, int b)
{
    return (l->sw == a && l->peer == b) || (l->sw == b && l->peer == a);
}

static bool carries(const struct fabric *fab, const struct isl *l, int vsan)
{
    return l->id && vsan_set_has(&l->vsans, vsan) && fabric_has_vsan(fab, l->sw, vsan) &&
           fabric_has_vsan(fab, l->peer, vsan) && !refused(fab, l, vsan);
}

static bool shorter(uint32_t cost, int hops, const struct fabric_route *than)
{
    return than->first_isl == -1 || cost < than->cost || (cost == than->cost && hops < than->hops);
}

/* Dijkstra from `from`, leaving out the ISLs between a and b. */
static void spf(const struct fabric *fab, int from, int vsan, struct fabric_route *r, int a, int b)
{
    bool done[NSW_MAX] = {false};
    for (int i = 0; i < fab->nsw; i++)
        r[i] = (struct fabric_route){-1, 0, 0, 0};
    if (fab->nsw > NSW_MAX || !fabric_has_vsan(fab, from, vsan))
        return;
    r[from] = (struct fabric_route){-2, 0, 0, 0};
    for (;;) {
        int at = -1;
        for (int i = 0; i < fab->nsw; i++)
            if (!done[i] && r[i].first_isl != -1 &&
                (at < 0 || r[i].cost < r[at].cost || (r[i].cost == r[at].cost && r[i].hops < r[at].hops)))
                at = i;
        if (at < 0)
            return;
        done[at] = true;
        for (int i = 0; i < fab->nisl; i++) {
            const struct isl *l = &fab->isls[i];
            if (l->sw != at || done[l->peer] || !carries(fab, l, vsan) || between(l, a, b))
                continue;
            uint32_t c = r[at].cost + isl_cost(fab, l, vsan);
            if (!shorter(c, r[at].hops + 1, &r[l->peer]))
                continue;
            int first = at == from ? i : r[at].first_isl;
            r[l->peer] = (struct fabric_route){first, fab->isls[first].id, c, r[at].hops + 1};
        }
    }
}

void fabric_paths(const struct fabric *fab, int from, int vsan, int *first_isl, int a, int b)
{
    struct fabric_route r[NSW_MAX];
    for (int i = 0; i < fab->nsw; i++)
        first_isl[i] = -1;
    if (fab->nsw > NSW_MAX)
        return;
    spf(fab, from, vsan, r, a, b);
    for (int i = 0; i < fab->nsw; i++)
        first_isl[i] = r[i].first_isl;
}

const int *fabric_routes(struct fabric *fab, int sw, int vsan)
{
    int *hop = &fab->memo_hop[(size_t)sw * (size_t)fab->nsw];
    if (fab->memo_gen[sw] != fab->route_gen || fab->memo_vsan[sw] != vsan) {
        fabric_paths(fab, sw, vsan, hop, -1, -1);
        fab->memo_gen[sw] = fab->route_gen;
        fab->memo_vsan[sw] = vsan;
    }
    return hop;
}

void fabric_spf(const struct fabric *fab, int sw, int vsan, struct fabric_route *out)
{
    spf(fab, sw, vsan, out, -1, -1);
}

int fabric_switch_count(const struct fabric *fab) { return fab->nsw; }

int fabric_next_hop(const struct fabric *fab, int sw, int vsan, int domain)
{
    struct fabric_route r[NSW_MAX];
    if (sw < 0 || sw >= fab->nsw || fab->nsw > NSW_MAX)
        return -1;
    spf(fab, sw, vsan, r, -1, -1);
    for (int i = 0; i < fab->nsw; i++)
        if (r[i].first_isl != -1 && fab->dom[i].run[vsan] == domain)
            return i == sw ? sw : fab->isls[r[i].first_isl].peer;
    return -1;
}

/* The peer's end of the same FCIP link: the ISL back whose addresses are
 * this one's, swapped. */
static const struct isl *peer_end(const struct fabric *fab, const struct isl *l)
{
    for (int i = 0; i < fab->nisl; i++) {
        const struct isl *m = &fab->isls[i];
        if (m->id && m->sw == l->peer && m->peer == l->sw && m->info.local_ip == l->info.peer_ip &&
            m->info.peer_ip == l->info.local_ip && m->info.ifname[0])
            return m;
    }
    return NULL;
}

int fabric_lsr(const struct fabric *fab, int sw, int vsan, struct fabric_link *out, int max)
{
    int n = 0;
    for (int i = 0; i < fab->nisl; i++) {
        const struct isl *l = &fab->isls[i];
        if (l->sw != sw || !carries(fab, l, vsan))
            continue;
        if (n < max) {
            const struct isl *p = peer_end(fab, l);
            out[n] = (struct fabric_link){l->id, l->peer, fabric_domain(fab, l->peer, vsan),
                                          isl_cost(fab, l, vsan), l->info.ifname, p ? p->info.ifname : "",
                                          l->info.ifindex, p ? p->info.ifindex : 0, l->info.peer_ip};
        }
        n++;
    }
    return n;
}

void fabric_lsr_touch(struct fabric *fab, int sw)
{
    if (sw < 0 || sw >= fab->nsw)
        return;
    if (!fab->lsr) {
        fab->lsr = calloc((size_t)fab->nsw, sizeof *fab->lsr);
        if (!fab->lsr)
            abort();
    }
    fab->lsr[sw].changed_ns = engine_now(fab->e);
    fab->lsr[sw].changes++;
}

void fabric_lsr_stamp(const struct fabric *fab, int sw, int vsan, struct fabric_lsr_stamp *st)
{
    (void)vsan;
    *st = (struct fabric_lsr_stamp){0, 0};
    if (fab->lsr && sw >= 0 && sw < fab->nsw)
        *st = fab->lsr[sw];
}
