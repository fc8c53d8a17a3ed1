#include "fabric_int.h"
#include "zoning.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A frame in the pool: `live` past the free-list word marks it handed out,
 * so the frames still inside engine events when the lab closes are found. */
struct pooled {
    struct fc_frame f;
    bool live;
    struct fabric *fab; /* for the engine events that carry a frame alone */
    int sw;             /* where such an event finds it */
};

void fabric_wwn_text(const uint8_t w[8], char out[24])
{
    snprintf(out, 24, "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x", w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
}

struct fabric *fabric_new(engine_t *e, int nswitches)
{
    struct fabric *fab = calloc(1, sizeof *fab);
    if (!fab)
        abort();
    fab->e = e;
    fab->nsw = nswitches;
    fab->vsans = calloc((size_t)nswitches + 1, sizeof *fab->vsans);
    fab->next_port = calloc((size_t)nswitches + 1, sizeof *fab->next_port);
    fab->permit = calloc((size_t)nswitches + 1, sizeof *fab->permit);
    fab->route_gen = 1; /* memo_gen 0: nothing remembered */
    fab->memo_gen = calloc((size_t)nswitches + 1, sizeof *fab->memo_gen);
    fab->memo_vsan = calloc((size_t)nswitches + 1, sizeof *fab->memo_vsan);
    fab->memo_hop = calloc((size_t)nswitches * (size_t)nswitches + 1, sizeof *fab->memo_hop);
    if (!fab->vsans || !fab->next_port || !fab->permit || !fab->memo_gen || !fab->memo_vsan || !fab->memo_hop)
        abort();
    fabric_domains_init(fab);
    for (int i = 0; i < nswitches; i++) {
        vsan_set_add(&fab->vsans[i], 1, 1);
        fabric_domain_take(fab, i, 1);
    }
    pool_init(&fab->frames, sizeof(struct pooled));
    return fab;
}

static void free_if_live(void *ctx, void *o)
{
    (void)ctx;
    struct pooled *p = o;
    if (p->live)
        free(p->f.ils);
}

void fabric_free(struct fabric *fab)
{
    if (!fab)
        return;
    pool_each(&fab->frames, free_if_live, NULL);
    pool_destroy(&fab->frames);
    fabric_zoning_free(fab);
    free(fab->vsans);
    free(fab->permit);
    free(fab->next_port);
    free(fab->dom);
    free(fab->isls);
    free(fab->ports);
    free(fab->costs);
    free(fab->lsr);
    free(fab->memo_gen);
    free(fab->memo_vsan);
    free(fab->memo_hop);
    free(fab);
}


struct fc_frame *fabric_frame_new(struct fabric *fab)
{
    struct pooled *p = pool_get(&fab->frames);
    memset(p, 0, sizeof *p);
    p->live = true;
    p->fab = fab;
    return &p->f;
}

void fabric_frame_left(struct fc_frame *f)
{
    if (f->sent)
        f->sent(f->origin, f);
    f->sent = NULL;
}

void fabric_frame_free(struct fabric *fab, struct fc_frame *f)
{
    struct pooled *p = (struct pooled *)f;
    free(f->ils);
    p->live = false;
    pool_put(&fab->frames, p);
}

/* A VSAN new on the switch takes its domain; one gone leaves none. */
void fabric_set_vsans(struct fabric *fab, int sw, const struct vsan_set *vsans)
{
    if (sw < 0 || sw >= fab->nsw)
        return;
    struct vsan_set was = fab->vsans[sw];
    fab->vsans[sw] = *vsans;
    fabric_routes_changed(fab);
    vsan_set_add(&fab->vsans[sw], 1, 1);
    for (int v = 1; v < FABRIC_VSAN_MAX; v++) {
        if (was.bit[v >> 3] == fab->vsans[sw].bit[v >> 3]) /* most reconciles change nothing */
            continue;
        if (vsan_set_has(&fab->vsans[sw], v) && !vsan_set_has(&was, v))
            fabric_domain_take(fab, sw, v);
        else if (!vsan_set_has(&fab->vsans[sw], v))
            fab->dom[sw].run[v] = 0;
    }
}

void fabric_set_zone_permit(struct fabric *fab, int sw, const struct vsan_set *permit)
{
    if (sw >= 0 && sw < fab->nsw)
        fab->permit[sw] = *permit;
}

/* Zoning, checked once, where a frame enters the fabric from its N port
 * (the switch of its source's domain): the active zoneset, and for ports
 * in no active zone (all, without one) the default zone's policy. The
 * domain controllers (fcping's ELS ECHO) are not zone members and always
 * answer. */
static bool zone_denies(const struct fabric *fab, int sw, const struct fc_frame *f)
{
    bool dc = (f->d_id & 0xFFFF00u) == 0xFFFC00u || (f->s_id & 0xFFFF00u) == 0xFFFC00u;
    if (dc || (int)FC_DOMAIN_OF(f->s_id) != fabric_domain(fab, sw, f->vsan))
        return false;
    return !fabric_zoning_permits(fab, sw, f, vsan_set_has(&fab->permit[sw], f->vsan));
}

bool fabric_has_vsan(const struct fabric *fab, int sw, int vsan)
{
    return sw >= 0 && sw < fab->nsw && vsan_set_has(&fab->vsans[sw], vsan);
}

void fabric_switch_wwn(const struct fabric *fab, int sw, char *buf, int n)
{
    (void)fab;
    snprintf(buf, (size_t)n, "20:00:00:05:30:00:%02x:%02x", (sw + 1) & 0xff, 0x5f);
}

int fabric_isl_up(struct fabric *fab, int sw, int peer_sw, const struct vsan_set *vsans, fabric_send_fn send,
                  void *ctx)
{
    int i = 0;
    while (i < fab->nisl && fab->isls[i].id)
        i++;
    if (i == fab->nisl) {
        struct isl *v = realloc(fab->isls, sizeof *v * (size_t)(fab->nisl + 1));
        if (!v)
            abort();
        fab->isls = v;
        fab->nisl++;
    }
    fab->isls[i] = (struct isl){++fab->last_isl, sw, peer_sw, *vsans, send, ctx, {.cost = FABRIC_COST_REF_MBPS / 1000}};
    fabric_lsr_touch(fab, sw);
    fabric_routes_changed(fab);
    return fab->isls[i].id;
}

void fabric_isl_down(struct fabric *fab, int id)
{
    for (int i = 0; i < fab->nisl; i++)
        if (fab->isls[i].id == id) {
            fab->isls[i].id = 0;
            fabric_lsr_touch(fab, fab->isls[i].sw);
            fabric_routes_changed(fab);
        }
}

void fabric_isl_vsans(struct fabric *fab, int id, const struct vsan_set *vsans)
{
    for (int i = 0; i < fab->nisl; i++)
        if (id && fab->isls[i].id == id && memcmp(&fab->isls[i].vsans, vsans, sizeof *vsans) != 0) {
            fab->isls[i].vsans = *vsans;
            fabric_lsr_touch(fab, fab->isls[i].sw);
            fabric_routes_changed(fab);
        }
}

int fabric_reachable(const struct fabric *fab, int sw, int vsan, int *sws, int max)
{
    int hop[256], n = 0;
    if (fab->nsw > 256)
        return 0;
    fabric_paths(fab, sw, vsan, hop, -1, -1);
    if (hop[sw] == -2 && n < max)
        sws[n++] = sw;
    for (int i = 0; i < fab->nsw && n < max; i++)
        if (i != sw && hop[i] != -1)
            sws[n++] = i;
    return n;
}

int fabric_principal(const struct fabric *fab, int sw, int vsan)
{
    int sws[256];
    int n = fabric_reachable(fab, sw, vsan, sws, 256), best = sw;
    for (int i = 0; i < n; i++)
        best = sws[i] < best ? sws[i] : best;
    return best;
}

uint32_t fabric_login(struct fabric *fab, int sw, int vsan, const uint8_t pwwn[8], fabric_rx_fn rx, void *ctx)
{
    struct nport *v = realloc(fab->ports, sizeof *v * (size_t)(fab->nports + 1));
    if (!v)
        abort();
    fab->ports = v;
    int n = fab->next_port[sw]++, dom = fabric_domain(fab, sw, vsan);
    if (!dom) /* a VSAN not on the switch: no frame reaches the port anyway */
        dom = fab->dom[sw].run[1];
    uint32_t fcid = (uint32_t)dom << 16 | (uint32_t)(n & 0xffff);
    v[fab->nports] = (struct nport){sw, vsan, fcid, {0}, rx, ctx, {0}, "", ""};
    memcpy(v[fab->nports].pwwn, pwwn, 8);
    fab->nports++;
    return fcid;
}

void fabric_logout(struct fabric *fab, int sw, int vsan, uint32_t fcid)
{
    for (int i = 0; i < fab->nports; i++)
        if (fab->ports[i].sw == sw && fab->ports[i].vsan == vsan && fab->ports[i].fcid == fcid) {
            fab->ports[i] = fab->ports[--fab->nports];
            return;
        }
}

bool fabric_lookup(const struct fabric *fab, int sw, int vsan, const uint8_t pwwn[8], uint32_t *fcid)
{
    int hop[256];
    if (fab->nsw > 256)
        return false;
    fabric_paths(fab, sw, vsan, hop, -1, -1);
    for (int i = 0; i < fab->nports; i++) {
        const struct nport *p = &fab->ports[i];
        if (p->vsan == vsan && memcmp(p->pwwn, pwwn, 8) == 0 && hop[p->sw] != -1) {
            *fcid = p->fcid;
            return true;
        }
    }
    return false;
}

void fabric_port_describe(struct fabric *fab, int sw, uint32_t fcid, const uint8_t nwwn[8], const char *ifname,
                          const char *fc4)
{
    for (int i = 0; i < fab->nports; i++) {
        struct nport *p = &fab->ports[i];
        if (p->sw == sw && p->fcid == fcid) {
            memcpy(p->nwwn, nwwn, 8);
            snprintf(p->ifname, sizeof p->ifname, "%s", ifname);
            p->fc4 = fc4;
            return;
        }
    }
}

void fabric_ports_each(const struct fabric *fab, int sw, int vsan, fabric_port_fn fn, void *ctx)
{
    int hop[256], hop_vsan = -1;
    if (fab->nsw > 256)
        return;
    for (int i = 0; i < fab->nports; i++) {
        const struct nport *p = &fab->ports[i];
        if (vsan && p->vsan != vsan)
            continue;
        if (p->vsan != hop_vsan) /* ports of one VSAN are usually together */
            fabric_paths(fab, sw, hop_vsan = p->vsan, hop, -1, -1);
        if (hop[p->sw] == -1)
            continue;
        struct fabric_port fp = {p->sw, p->vsan, p->fcid, {0}, {0}, p->ifname, p->fc4};
        memcpy(fp.pwwn, p->pwwn, 8);
        memcpy(fp.nwwn, p->nwwn, 8);
        fn(ctx, &fp);
    }
}

static void echo_answered(struct fabric *fab, int sw, struct fc_frame *f);

/* The domain controller's answer to an ELS ECHO, after its service time. */
static void dc_answer(engine_t *e, void *arg)
{
    (void)e;
    struct pooled *p = arg;
    fabric_send(p->fab, p->sw, &p->f);
}

static void deliver_local(struct fabric *fab, int sw, struct fc_frame *f)
{
    int dom = fabric_domain(fab, sw, f->vsan);
    if (f->d_id == FC_DOMAIN_CONTROLLER(dom)) {
        if (f->kind == FC_ELS_ECHO_ACC) {
            echo_answered(fab, sw, f);
            return;
        }
        if (f->kind == FC_ELS_ECHO) {
            f->kind = FC_ELS_ECHO_ACC;
            f->d_id = f->s_id;
            f->s_id = FC_DOMAIN_CONTROLLER(dom);
            ((struct pooled *)f)->sw = sw;
            engine_after(fab->e, FABRIC_DC_SERVICE_NS, dc_answer, f);
            return;
        }
    }
    for (int i = 0; i < fab->nports; i++)
        if (fab->ports[i].sw == sw && fab->ports[i].fcid == f->d_id && fab->ports[i].vsan == f->vsan) {
            fab->st.delivered++;
            fabric_frame_left(f);
            fab->ports[i].rx(fab->ports[i].ctx, f);
            return;
        }
    fab->st.no_route++;
    fabric_frame_free(fab, f);
}

/* The switch reachable from sw in the VSAN that holds the domain (its
 * part of the VSAN has it once: an ISL joining two holders is isolated). */
static int holder(const struct fabric *fab, const int *hop, int vsan, int dom)
{
    for (int i = 0; i < fab->nsw; i++)
        if (hop[i] >= 0 && fab->dom[i].run[vsan] == dom)
            return i;
    return -1;
}

void fabric_send(struct fabric *fab, int sw, struct fc_frame *f)
{
    int dom = FC_DOMAIN_OF(f->d_id);
    const int *hop = NULL;
    if (sw >= 0 && sw < fab->nsw && zone_denies(fab, sw, f)) {
        fab->st.zone_drops++;
        fabric_frame_free(fab, f);
        return;
    }
    if (dom && fabric_domain(fab, sw, f->vsan) == dom) {
        deliver_local(fab, sw, f);
        return;
    }
    int dst = -1;
    if (sw >= 0 && sw < fab->nsw && fab->nsw <= 256) {
        hop = fabric_routes(fab, sw, f->vsan);
        dst = holder(fab, hop, f->vsan, dom);
    }
    if (dst < 0) {
        fab->st.no_route++;
        fabric_frame_free(fab, f);
        return;
    }
    fab->st.forwarded++;
    const struct isl *l = &fab->isls[hop[dst]];
    l->send(l->ctx, f);
}

void fabric_stats_get(const struct fabric *fab, struct fabric_stats *st) { *st = fab->st; }

/* fcping */

static struct fabric_echo *echo_find(struct fabric *fab, int id)
{
    struct fabric_echo *e = fab->echoes;
    while (e && e->id != id)
        e = e->next;
    return e;
}

static void echo_answered(struct fabric *fab, int sw, struct fc_frame *f)
{
    struct fabric_echo *e = echo_find(fab, (int)(f->tag >> 32));
    int seq = (int)(f->tag & 0xffffffffu);
    uint64_t now = engine_now(fab->e);
    if (e && e->sw == sw && seq >= 0 && seq < e->count && e->rtt_ns[seq] == UINT64_MAX &&
        now - f->t0 <= e->timeout_ns)
        e->rtt_ns[seq] = now - f->t0;
    fabric_frame_free(fab, f);
}

/* An echo request waits for its send time as a frame already built. */
static void echo_send(engine_t *eng, void *arg)
{
    struct pooled *p = arg;
    struct fabric *fab = p->fab;
    struct fabric_echo *e = echo_find(fab, (int)(p->f.tag >> 32));
    if (!e) { /* stopped */
        fabric_frame_free(fab, &p->f);
        return;
    }
    p->f.t0 = engine_now(eng);
    e->sent++;
    fabric_send(fab, e->sw, &p->f);
}

int fabric_echo_start(struct fabric *fab, int sw, struct fabric_echo *e)
{
    if (!fabric_domain(fab, sw, e->vsan))
        return -1;
    e->sw = sw;
    e->sent = 0;
    e->id = ++fab->last_echo;
    e->t0 = engine_now(fab->e);
    e->rtt_ns = malloc(sizeof *e->rtt_ns * (size_t)e->count);
    if (!e->rtt_ns)
        abort();
    for (int i = 0; i < e->count; i++) {
        struct fc_frame *f = fabric_frame_new(fab);
        f->kind = FC_ELS_ECHO;
        f->class_f = true; /* ELS to a domain controller: the control connection */
        f->vsan = (uint16_t)e->vsan;
        f->d_id = e->d_id;
        f->s_id = FC_DOMAIN_CONTROLLER(fabric_domain(fab, sw, e->vsan));
        f->payload = e->size;
        f->tag = (uint64_t)(uint32_t)e->id << 32 | (uint32_t)i;
        e->rtt_ns[i] = UINT64_MAX;
        engine_at(fab->e, fabric_echo_send_time(e, i), echo_send, f);
    }
    e->next = fab->echoes;
    fab->echoes = e;
    return 0;
}

uint64_t fabric_echo_send_time(const struct fabric_echo *e, int seq) { return e->t0 + (uint64_t)seq * ENGINE_NS_PER_SEC; }

struct echo_wait {
    struct fabric_echo *e;
    int seq;
};

static bool unanswered(void *arg)
{
    struct echo_wait *w = arg;
    return w->e->rtt_ns[w->seq] == UINT64_MAX;
}

uint64_t fabric_echo_wait(struct fabric *fab, struct fabric_echo *e, int seq)
{
    struct echo_wait w = {e, seq};
    engine_run_while(fab->e, unanswered, &w, fabric_echo_send_time(e, seq) + e->timeout_ns);
    return e->rtt_ns[seq];
}

void fabric_echo_end(struct fabric *fab, struct fabric_echo *e)
{
    struct fabric_echo **pp = &fab->echoes;
    while (*pp && *pp != e)
        pp = &(*pp)->next;
    if (*pp)
        *pp = e->next;
    free(e->rtt_ns);
    e->rtt_ns = NULL;
}
