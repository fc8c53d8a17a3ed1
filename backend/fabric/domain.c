/* Domains: what each switch runs per VSAN, taken from its configuration
 * at the moments an MDS builds its fabric, and whether two parts of a
 * VSAN can merge (fabric.h; the choices in docs/fcdomain.md). */
#include "fabric_int.h"
#include <stdlib.h>
#include <string.h>

static int default_domain(int sw) { return sw < FABRIC_FIRST_DOMAIN ? FABRIC_FIRST_DOMAIN - sw : 1; }

void fabric_domains_init(struct fabric *fab)
{
    fab->dom = calloc((size_t)fab->nsw + 1, sizeof *fab->dom);
    if (!fab->dom)
        abort();
}

/* The domain sw asks for: its configured one, else its default. The
 * principal grants it unless another switch of the VSAN's fabric holds it;
 * then a static one is kept all the same (the configuration guide: the
 * switch assigns itself its static ID and isolates) and a preferred one
 * takes what the principal gives, the highest free domain. */
static int requested(const struct fabric *fab, int sw, int vsan)
{
    const struct sw_domains *d = &fab->dom[sw];
    int want = d->conf[vsan] ? d->conf[vsan] : default_domain(sw);
    if (vsan_set_has(&d->conf_static, vsan))
        return want;
    bool held[256] = {false};
    int sws[256], n = fabric_reachable(fab, sw, vsan, sws, 256);
    for (int i = 0; i < n; i++)
        if (sws[i] != sw)
            held[fab->dom[sws[i]].run[vsan]] = true;
    if (!held[want])
        return want;
    for (int dom = FABRIC_FIRST_DOMAIN; dom >= 1; dom--)
        if (!held[dom])
            return dom;
    return want; /* all 239 held: not in a lab */
}

void fabric_domain_take(struct fabric *fab, int sw, int vsan)
{
    fab->dom[sw].run[vsan] = (uint8_t)requested(fab, sw, vsan);
}

int fabric_domain(const struct fabric *fab, int sw, int vsan)
{
    return fabric_has_vsan(fab, sw, vsan) ? fab->dom[sw].run[vsan] : 0;
}

void fabric_domains_unconfigure(struct fabric *fab, int sw)
{
    if (sw < 0 || sw >= fab->nsw)
        return;
    memset(fab->dom[sw].conf, 0, sizeof fab->dom[sw].conf);
    memset(&fab->dom[sw].conf_static, 0, sizeof fab->dom[sw].conf_static);
}

void fabric_domain_configure(struct fabric *fab, int sw, int vsan, int domain, bool is_static)
{
    if (sw < 0 || sw >= fab->nsw || vsan < 1 || vsan > FABRIC_VSAN_MAX || domain < 1 || domain > 239)
        return;
    fab->dom[sw].conf[vsan] = (uint8_t)domain;
    if (is_static)
        vsan_set_add(&fab->dom[sw].conf_static, vsan, vsan);
}

void fabric_on_rebuilt(struct fabric *fab, fabric_rebuilt_fn fn, void *ctx)
{
    fab->rebuilt = fn;
    fab->rebuilt_ctx = ctx;
}

static void rebuilt(struct fabric *fab)
{
    if (fab->rebuilt)
        fab->rebuilt(fab->rebuilt_ctx);
}

void fabric_set_boot(struct fabric *fab, int sw, uint64_t boot_ns)
{
    if (sw < 0 || sw >= fab->nsw || fab->dom[sw].boot_ns == boot_ns)
        return;
    fab->dom[sw].boot_ns = boot_ns;
    bool changed = false;
    for (int v = 1; v < FABRIC_VSAN_MAX; v++) {
        if (!fabric_has_vsan(fab, sw, v))
            continue;
        int was = fab->dom[sw].run[v];
        fabric_domain_take(fab, sw, v);
        changed |= fab->dom[sw].run[v] != was;
    }
    if (changed)
        rebuilt(fab);
}

void fabric_restart(struct fabric *fab, int sw, const struct vsan_set *vsans, bool disruptive)
{
    for (int v = 1; disruptive && v < FABRIC_VSAN_MAX; v++)
        if (vsan_set_has(vsans, v) && fabric_has_vsan(fab, sw, v))
            fabric_domain_take(fab, sw, v);
    rebuilt(fab);
}

bool fabric_domains_overlap(const struct fabric *fab, int a, int b, int vsan)
{
    int ha[256], hb[256];
    if (fab->nsw > 256 || !fabric_has_vsan(fab, a, vsan) || !fabric_has_vsan(fab, b, vsan))
        return false;
    fabric_paths(fab, a, vsan, ha, a, b);
    fabric_paths(fab, b, vsan, hb, a, b);
    for (int x = 0; x < fab->nsw; x++) {
        if (ha[x] == -1)
            continue;
        for (int y = 0; y < fab->nsw; y++)
            if (y != x && hb[y] != -1 && fab->dom[x].run[vsan] == fab->dom[y].run[vsan])
                return true;
    }
    return false;
}
