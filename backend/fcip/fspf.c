#include "fspf.h"
#include "fabric/fc_frame.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fspf_link {
    engine_t *e;
    struct fabric *fab;
    int sw;
    char ifname[16];
    fspf_send_fn send;
    void *ctx;
    struct fspf_nbr *v; /* the VSANs the link carries, in VSAN order */
    int n, cap;
    engine_timer_id timer;
    uint64_t timer_at;
};

struct fspf_link *fspf_link_new(engine_t *e, struct fabric *fab, int sw, const char *ifname, fspf_send_fn send,
                                void *ctx)
{
    struct fspf_link *l = calloc(1, sizeof *l);
    if (!l)
        abort();
    *l = (struct fspf_link){.e = e, .fab = fab, .sw = sw, .send = send, .ctx = ctx};
    snprintf(l->ifname, sizeof l->ifname, "%s", ifname);
    return l;
}

void fspf_link_free(struct fspf_link *l)
{
    if (!l)
        return;
    fspf_link_down(l);
    free(l->v);
    free(l);
}

static struct fspf_nbr *find(const struct fspf_link *l, int vsan)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i].vsan == vsan)
            return &l->v[i];
    return NULL;
}

/* An HLO from this switch's domain controller to the neighbor's
 * (FFFFFD, the fabric controller, as FSPF addresses its peer). */
static void hello(struct fspf_link *l, struct fspf_nbr *n)
{
    struct fspf_hlo *h = malloc(sizeof *h);
    if (!h)
        abort();
    int dom = fabric_domain(l->fab, l->sw, n->vsan);
    *h = (struct fspf_hlo){FSPF_CMD_HLO, dom, n->nbr_domain, n->hello_s, n->dead_s};
    struct fc_frame *f = fabric_frame_new(l->fab);
    f->kind = FC_ILS;
    f->class_f = true;
    f->vsan = (uint16_t)n->vsan;
    f->s_id = FC_DOMAIN_CONTROLLER(dom);
    f->d_id = 0xFFFFFDu;
    f->payload = FSPF_HLO_PAYLOAD;
    f->ils = h;
    n->hellos_out++;
    l->send(l->ctx, f);
}

/* The intervals the interface has in the VSAN now. */
static void intervals(const struct fspf_link *l, struct fspf_nbr *n)
{
    struct fabric_if_fspf c;
    fabric_if_fspf_get(l->fab, l->sw, l->ifname, n->vsan, &c);
    n->hello_s = c.hello_s;
    n->dead_s = c.dead_s;
}

static void tick(engine_t *e, void *arg);

/* One timer per link, at the VSANs' next hello: with every VSAN at one
 * interval they all go together, as one event. */
static void schedule(struct fspf_link *l)
{
    uint64_t next = UINT64_MAX;
    for (int i = 0; i < l->n; i++)
        next = l->v[i].next_hello_ns < next ? l->v[i].next_hello_ns : next;
    if (l->timer && l->timer_at == next)
        return; /* kept: the same event, in its place among the others */
    if (l->timer)
        engine_cancel(l->e, l->timer);
    l->timer = next == UINT64_MAX ? 0 : engine_at(l->e, next, tick, l);
    l->timer_at = next;
}

/* The next timer is set before the hellos leave (the events' order). */
static void tick(engine_t *e, void *arg)
{
    struct fspf_link *l = arg;
    uint64_t now = engine_now(e);
    bool due[FABRIC_VSAN_MAX];
    l->timer = 0;
    for (int i = 0; i < l->n; i++) {
        struct fspf_nbr *n = &l->v[i];
        due[i] = n->next_hello_ns <= now;
        if (due[i]) {
            intervals(l, n);
            n->next_hello_ns = now + n->hello_s * ENGINE_NS_PER_SEC;
        }
    }
    schedule(l);
    for (int i = 0; i < l->n; i++)
        if (due[i])
            hello(l, &l->v[i]);
}

void fspf_link_up(struct fspf_link *l, const struct vsan_set *vsans)
{
    struct fspf_nbr *old = l->v;
    int nold = l->n;
    /* a VSAN new on the link joins the link's next hello */
    uint64_t first = l->timer && nold ? old[0].next_hello_ns : UINT64_MAX;
    for (int i = 1; i < nold; i++)
        first = old[i].next_hello_ns < first ? old[i].next_hello_ns : first;
    l->v = NULL;
    l->n = l->cap = 0;
    for (int v = 1; v < FABRIC_VSAN_MAX; v++) {
        if (!vsan_set_has(vsans, v))
            continue;
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 4;
            l->v = realloc(l->v, sizeof *l->v * (size_t)l->cap);
            if (!l->v)
                abort();
        }
        struct fspf_nbr kept = {.vsan = v};
        for (int i = 0; i < nold; i++)
            if (old[i].vsan == v)
                kept = old[i];
        if (!kept.hello_s) {
            intervals(l, &kept);
            kept.next_hello_ns = first != UINT64_MAX ? first : engine_now(l->e) + kept.hello_s * ENGINE_NS_PER_SEC;
        }
        l->v[l->n++] = kept;
    }
    for (int i = 0; i < nold; i++) /* a VSAN that left takes its refusal along */
        if (!vsan_set_has(vsans, old[i].vsan) && old[i].refused)
            fabric_fspf_refuse(l->fab, l->sw, l->ifname, old[i].vsan, false);
    free(old);
    schedule(l);
}

void fspf_link_down(struct fspf_link *l)
{
    if (l->timer)
        engine_cancel(l->e, l->timer);
    l->timer = 0;
    for (int i = 0; i < l->n; i++)
        if (l->v[i].refused)
            fabric_fspf_refuse(l->fab, l->sw, l->ifname, l->v[i].vsan, false);
    l->n = 0;
}

bool fspf_receive(struct fspf_link *l, struct fc_frame *f)
{
    const struct fspf_hlo *h = f->ils;
    if (f->kind != FC_ILS || !h || h->cmd != FSPF_CMD_HLO)
        return false;
    struct fspf_nbr *n = find(l, f->vsan); /* none: a VSAN this end does not carry */
    if (n)
        intervals(l, n);
    bool agree = n && h->hello_s == n->hello_s && h->dead_s == n->dead_s;
    if (n && agree != !n->refused) {
        n->refused = !agree;
        fabric_fspf_refuse(l->fab, l->sw, l->ifname, n->vsan, n->refused);
    }
    if (n && !agree)
        n->errors++;
    if (agree) {
        n->nbr_domain = h->origin_domain;
        n->two_way = h->recipient_domain == fabric_domain(l->fab, l->sw, n->vsan);
        n->last_rx_ns = engine_now(l->e);
        n->hellos_in++;
    }
    fabric_frame_free(l->fab, f);
    return true;
}

int fspf_link_nbrs(const struct fspf_link *l, struct fspf_nbr *out, int max)
{
    int k = l->n < max ? l->n : max;
    memcpy(out, l->v, sizeof *out * (size_t)k);
    return l->n;
}

enum fspf_nbr_state fspf_nbr_state(const struct fspf_nbr *n, uint64_t now)
{
    if (!n->hellos_in || n->refused || now - n->last_rx_ns > (uint64_t)n->dead_s * ENGINE_NS_PER_SEC)
        return FSPF_NBR_DOWN;
    return n->two_way ? FSPF_NBR_FULL : FSPF_NBR_INIT;
}
