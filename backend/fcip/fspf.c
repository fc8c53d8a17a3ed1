#include "fspf.h"
#include "fabric/fc_frame.h"
#include <stdlib.h>
#include <string.h>

struct fspf_link {
    engine_t *e;
    struct fabric *fab;
    int sw;
    fspf_send_fn send;
    void *ctx;
    struct fspf_nbr *v; /* the VSANs the link carries, in VSAN order */
    int n, cap;
    engine_timer_id timer;
};

struct fspf_link *fspf_link_new(engine_t *e, struct fabric *fab, int sw, fspf_send_fn send, void *ctx)
{
    struct fspf_link *l = calloc(1, sizeof *l);
    if (!l)
        abort();
    *l = (struct fspf_link){.e = e, .fab = fab, .sw = sw, .send = send, .ctx = ctx};
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
    *h = (struct fspf_hlo){FSPF_CMD_HLO, dom, n->nbr_domain, FSPF_HELLO_NS / ENGINE_NS_PER_SEC,
                           FSPF_DEAD_NS / ENGINE_NS_PER_SEC};
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

static void tick(engine_t *e, void *arg)
{
    struct fspf_link *l = arg;
    l->timer = engine_after(e, FSPF_HELLO_NS, tick, l);
    for (int i = 0; i < l->n; i++)
        hello(l, &l->v[i]);
}

void fspf_link_up(struct fspf_link *l, const struct vsan_set *vsans)
{
    struct fspf_nbr *old = l->v;
    int nold = l->n;
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
        l->v[l->n++] = kept;
    }
    free(old);
    if (!l->timer)
        l->timer = engine_after(l->e, FSPF_HELLO_NS, tick, l);
}

void fspf_link_down(struct fspf_link *l)
{
    if (l->timer)
        engine_cancel(l->e, l->timer);
    l->timer = 0;
    l->n = 0;
}

bool fspf_receive(struct fspf_link *l, struct fc_frame *f)
{
    const struct fspf_hlo *h = f->ils;
    if (f->kind != FC_ILS || !h || h->cmd != FSPF_CMD_HLO)
        return false;
    struct fspf_nbr *n = find(l, f->vsan); /* none: a VSAN this end does not carry */
    if (n) {
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
    if (!n->hellos_in || now - n->last_rx_ns > FSPF_DEAD_NS)
        return FSPF_NBR_DOWN;
    return n->two_way ? FSPF_NBR_FULL : FSPF_NBR_INIT;
}
