#include "pchan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct member {
    struct pchan_member m;
    void *link;
    fabric_send_fn send;
    struct vsan_set vsans;
    uint64_t seq;    /* when it came up: the first operational port is the oldest */
    uint64_t frames;
};

struct channel {
    int sw, id;
    int peer_sw;
    int isl;
    struct member mem[PCHAN_MAX_MEMBERS];
    int n;
    int fop;
    struct pchan_set *ps;
    uint64_t last_change_ns;
};

struct pchan_set {
    engine_t *e;
    struct fabric *fab;
    struct channel **ch;
    int nch;
    uint64_t seq;
    struct vsan_set *src_dst; /* per switch, grown on demand */
    int nsw;
    pchan_change_fn on_change;
    void *ctx;
};

struct pchan_set *pchan_set_new(engine_t *e, struct fabric *fab)
{
    struct pchan_set *ps = calloc(1, sizeof *ps);
    if (!ps)
        abort();
    ps->e = e;
    ps->fab = fab;
    return ps;
}

void pchan_set_free(struct pchan_set *ps)
{
    if (!ps)
        return;
    for (int i = 0; i < ps->nch; i++)
        free(ps->ch[i]);
    free(ps->ch);
    free(ps->src_dst);
    free(ps);
}

void pchan_on_change(struct pchan_set *ps, pchan_change_fn fn, void *ctx)
{
    ps->on_change = fn;
    ps->ctx = ctx;
}

void pchan_set_src_dst(struct pchan_set *ps, int sw, const struct vsan_set *src_dst_id)
{
    if (sw < 0 || sw > 4095)
        return;
    if (sw >= ps->nsw) {
        struct vsan_set *v = realloc(ps->src_dst, sizeof *v * (size_t)(sw + 1));
        if (!v)
            abort();
        memset(v + ps->nsw, 0, sizeof *v * (size_t)(sw + 1 - ps->nsw));
        ps->src_dst = v;
        ps->nsw = sw + 1;
    }
    ps->src_dst[sw] = *src_dst_id;
}

static void tell(struct channel *c, enum pchan_event ev, int member, int from, int to)
{
    struct pchan_change ch = {c->sw, c->id, ev, member, from, to, c->n && c->mem[0].m.trunking};
    if (c->ps->on_change)
        c->ps->on_change(c->ps->ctx, &ch);
}

static struct channel *find(const struct pchan_set *ps, int sw, int id)
{
    for (int i = 0; i < ps->nch; i++)
        if (ps->ch[i]->sw == sw && ps->ch[i]->id == id)
            return ps->ch[i];
    return NULL;
}

static struct channel *get(struct pchan_set *ps, int sw, int id)
{
    struct channel *c = find(ps, sw, id);
    if (c)
        return c;
    struct channel **v = realloc(ps->ch, sizeof *v * (size_t)(ps->nch + 1));
    if (!v)
        abort();
    ps->ch = v;
    c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->sw = sw;
    c->id = id;
    c->ps = ps;
    ps->ch[ps->nch++] = c;
    return c;
}

/* splitmix64's finalizer: every input bit moves every output bit. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The same key at both ends and both ways: the two FCIDs in order, and
 * the exchange's OX_ID (which every frame of the exchange carries). */
static uint64_t flow_key(const struct fc_frame *f, bool src_dst_id)
{
    uint32_t lo = f->s_id < f->d_id ? f->s_id : f->d_id, hi = f->s_id < f->d_id ? f->d_id : f->s_id;
    uint64_t k = mix((uint64_t)lo << 32 | hi);
    return src_dst_id ? k : mix(k ^ f->ox_id);
}

static uint64_t pair_of(const struct pchan_member *m)
{
    uint32_t lo = m->local_ip < m->peer_ip ? m->local_ip : m->peer_ip;
    uint32_t hi = m->local_ip < m->peer_ip ? m->peer_ip : m->local_ip;
    return (uint64_t)lo << 32 | hi;
}

int pchan_pick(const uint64_t *pairs, int n, const struct fc_frame *f, bool src_dst_id)
{
    uint64_t key = flow_key(f, src_dst_id), best = 0;
    int pick = -1;
    for (int i = 0; i < n; i++) {
        uint64_t w = mix(key ^ mix(pairs[i]));
        if (pick < 0 || w > best)
            best = w, pick = i;
    }
    return pick;
}

static bool src_dst(const struct pchan_set *ps, int sw, int vsan)
{
    return sw < ps->nsw && vsan_set_has(&ps->src_dst[sw], vsan);
}

/* The fabric's send for the channel's ISL: the frame's member among those
 * that carry its VSAN. */
static void channel_send(void *ctx, struct fc_frame *f)
{
    struct channel *c = ctx;
    uint64_t pairs[PCHAN_MAX_MEMBERS];
    int idx[PCHAN_MAX_MEMBERS], n = 0;
    for (int i = 0; i < c->n; i++)
        if (vsan_set_has(&c->mem[i].vsans, f->vsan) || f->class_f) {
            pairs[n] = pair_of(&c->mem[i].m);
            idx[n++] = i;
        }
    if (n == 0)
        n = 1, idx[0] = 0, pairs[0] = pair_of(&c->mem[0].m); /* the member drops and counts it */
    struct member *m = &c->mem[idx[pchan_pick(pairs, n, f, src_dst(c->ps, c->sw, f->vsan))]];
    m->frames++;
    m->send(m->link, f);
}

static int fop_of(const struct channel *c)
{
    int best = -1;
    for (int i = 0; i < c->n; i++)
        if (best < 0 || c->mem[i].seq < c->mem[best].seq)
            best = i;
    return best < 0 ? 0 : c->mem[best].m.id;
}

/* What FSPF reads of the channel: its name, the addresses of the member
 * link with the lowest pair (the same link at both ends, so they pair),
 * the cost of the bandwidth of all members up. */
static void describe(struct channel *c)
{
    struct fabric_isl_info info = {.ifindex = PCHAN_IFINDEX(c->id)};
    uint64_t bw = 0, low = UINT64_MAX;
    struct vsan_set all = {{0}};
    for (int i = 0; i < c->n; i++) {
        bw += c->mem[i].m.bw_bps;
        for (size_t b = 0; b < sizeof all.bit; b++)
            all.bit[b] |= c->mem[i].vsans.bit[b];
        if (pair_of(&c->mem[i].m) < low) {
            low = pair_of(&c->mem[i].m);
            info.local_ip = c->mem[i].m.local_ip, info.peer_ip = c->mem[i].m.peer_ip;
        }
    }
    info.cost = fabric_cost_of_bandwidth(bw);
    snprintf(info.ifname, sizeof info.ifname, "port-channel%d", c->id);
    fabric_isl_vsans(c->ps->fab, c->isl, &all);
    fabric_isl_describe(c->ps->fab, c->isl, &info);
}

static void fop_check(struct channel *c)
{
    int fop = fop_of(c);
    if (fop == c->fop)
        return;
    int was = c->fop;
    c->fop = fop;
    if (was && fop)
        tell(c, PCHAN_FOP_CHANGED, 0, was, fop);
}

int pchan_member_up(struct pchan_set *ps, int sw, int channel, int peer_sw, const struct vsan_set *vsans,
                    const struct pchan_member *m, fabric_send_fn send, void *link)
{
    struct channel *c = get(ps, sw, channel);
    for (int i = 0; i < c->n; i++)
        if (c->mem[i].link == link) { /* computed again: the same member, its VSANs or bandwidth new */
            c->mem[i].m = *m;
            c->mem[i].vsans = *vsans;
            describe(c);
            return c->isl;
        }
    if (c->n == PCHAN_MAX_MEMBERS)
        return 0;
    bool first = c->n == 0;
    if (first) {
        c->peer_sw = peer_sw;
        c->isl = fabric_isl_up(ps->fab, sw, peer_sw, vsans, channel_send, c);
        c->last_change_ns = engine_now(ps->e);
    }
    c->mem[c->n++] = (struct member){*m, link, send, *vsans, ++ps->seq, 0};
    tell(c, PCHAN_MEMBER_UP, m->id, 0, 0);
    fop_check(c);
    describe(c);
    if (first)
        tell(c, PCHAN_UP, 0, 0, 0);
    return c->isl;
}

void pchan_member_down(struct pchan_set *ps, int sw, int channel, void *link)
{
    struct channel *c = find(ps, sw, channel);
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        if (c->mem[i].link != link)
            continue;
        int id = c->mem[i].m.id;
        c->mem[i] = c->mem[--c->n];
        tell(c, PCHAN_MEMBER_DOWN, id, 0, 0);
        if (c->n == 0) {
            fabric_isl_down(ps->fab, c->isl);
            c->isl = 0;
            c->fop = 0;
            c->last_change_ns = engine_now(ps->e);
            tell(c, PCHAN_DOWN, 0, 0, 0);
            return;
        }
        fop_check(c);
        describe(c);
        return;
    }
}

static int by_seq(const void *x, const void *y)
{
    const struct member *a = x, *b = y;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void pchan_status_get(const struct pchan_set *ps, int sw, int channel, struct pchan_status *st)
{
    memset(st, 0, sizeof *st);
    const struct channel *c = find(ps, sw, channel);
    if (!c)
        return;
    struct member sorted[PCHAN_MAX_MEMBERS];
    memcpy(sorted, c->mem, sizeof sorted[0] * (size_t)c->n);
    qsort(sorted, (size_t)c->n, sizeof sorted[0], by_seq);
    st->up = c->n > 0;
    st->trunking = c->n && c->mem[0].m.trunking;
    st->nup = c->n;
    st->fop = c->fop;
    st->last_change_ns = c->last_change_ns;
    for (int i = 0; i < c->n; i++) {
        st->up_ids[i] = sorted[i].m.id;
        st->frames[i] = sorted[i].frames;
        st->bw_bps += sorted[i].m.bw_bps;
        for (size_t b = 0; b < sizeof st->vsans.bit; b++)
            st->vsans.bit[b] |= sorted[i].vsans.bit[b];
    }
}
