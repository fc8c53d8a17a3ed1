#include "ipnet_int.h"
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipport *port_at(struct ipnet *net, int sw, int slot, int port)
{
    if (sw < 0 || sw >= net->nsw || slot < 1 || slot >= SLOTS || port < 1 || port >= PORTS)
        return NULL;
    struct ipport *p = &net->ports[(sw * SLOTS + slot) * PORTS + port];
    return p->exists ? p : NULL;
}

struct ipnet *ipnet_new(engine_t *e, int nswitches) { return ipnet_new_hosts(e, nswitches, 0); }

struct ipnet *ipnet_new_hosts(engine_t *e, int nswitches, int nhosts)
{
    struct ipnet *net = calloc(1, sizeof *net);
    if (!net)
        abort();
    net->e = e;
    net->first_host = nswitches;
    nswitches += nhosts; /* below: every node */
    net->nsw = nswitches;
    net->ports = calloc((size_t)(nswitches * SLOTS * PORTS), sizeof *net->ports);
    net->routes = calloc((size_t)nswitches + 1, sizeof *net->routes);
    net->static_routes = calloc((size_t)nswitches + 1, sizeof *net->static_routes);
    net->gen = 1;
    if ((!net->ports && nswitches > 0) || !net->routes || !net->static_routes)
        abort();
    for (int sw = 0; sw < nswitches; sw++)
        for (int slot = 0; slot < SLOTS; slot++)
            for (int port = 0; port < PORTS; port++) {
                struct ipport *p = &net->ports[(sw * SLOTS + slot) * PORTS + port];
                *p = (struct ipport){.net = net, .sw = sw, .slot = slot, .port = port, .mtu = 1500};
            }
    /* a free dgram must keep alive == 0 (see struct dgram) */
    _Static_assert(offsetof(struct dgram, alive) >= sizeof(void *), "free-list word overlaps alive");
    pool_init(&net->dgrams, sizeof(struct dgram));
    pool_init(&net->frames, sizeof(struct frame));
    ipnet_icmp_init(net);
    return net;
}

engine_t *ipnet_engine(struct ipnet *net) { return net->e; }
int ipnet_first_host(const struct ipnet *net) { return net->first_host; }

void ipnet_register_host(struct ipnet *net, uint8_t proto, ipnet_rx_fn fn, ipnet_lost_fn lost, ipnet_render_fn render,
                         void *ctx)
{
    net->host_proto[proto].fn = fn;
    net->host_proto[proto].lost = lost;
    net->host_proto[proto].render = render;
    net->host_proto[proto].ctx = ctx;
}
void *ipnet_proto_ctx(struct ipnet *net, uint8_t proto) { return net->proto[proto].ctx; }

static void unbridge(struct ipport *p)
{
    netsim_pipe *pipe = p->pipe;
    p->pipe = NULL; /* first: a flushed packet must not re-enter the pipe */
    p->bridge = NULL;
    if (pipe)
        netsim_pipe_free(pipe);
}

static void dgram_end(struct ipnet *net, struct dgram *d)
{
    bool host = d->pkt.host && d->pkt.proto != IPNET_ICMP;
    if (!d->delivered && host && net->host_proto[d->pkt.proto].lost)
        net->host_proto[d->pkt.proto].lost(net->host_proto[d->pkt.proto].ctx, &d->pkt);
    else if (!d->delivered && !host && net->proto[d->pkt.proto].lost)
        net->proto[d->pkt.proto].lost(net->proto[d->pkt.proto].ctx, &d->pkt);
    d->alive = 0;
    pool_put(&net->dgrams, d);
}

/* Datagrams still on cables or in the stack when the lab closes: their
 * engine events die with the engine, their protocols hear they are lost. */
static void lose_if_live(void *ctx, void *o)
{
    struct dgram *d = o;
    if (d->alive > 0)
        dgram_end(ctx, d);
}

void ipnet_free(struct ipnet *net)
{
    if (!net)
        return;
    for (int i = 0; i < net->nsw * SLOTS * PORTS; i++)
        unbridge(&net->ports[i]);
    ipnet_routers_free(net); /* their pipes first: they hold frames */
    pool_each(&net->dgrams, lose_if_live, net);
    ipnet_icmp_free(net);
    /* frames still in flight belong to engine events that die with it */
    pool_destroy(&net->dgrams);
    pool_destroy(&net->frames);
    free(net->ports);
    free(net->routes);
    free(net->static_routes);
    free(net->routers);
    free(net);
}

void ipnet_register(struct ipnet *net, uint8_t proto, ipnet_rx_fn fn, ipnet_lost_fn lost, void *ctx)
{
    net->proto[proto].fn = fn;
    net->proto[proto].lost = lost;
    net->proto[proto].ctx = ctx;
}

enum ipnet_link ipnet_port_link(const struct ipport *p)
{
    if (!p || (!p->admin_up && !p->bridge))
        return IPNET_ADMIN_DOWN;
    struct ipport *q = p->peer;
    return q && q->exists && (q->admin_up || q->bridge) ? IPNET_UP : IPNET_NOT_CONNECTED;
}

enum ipnet_link ipnet_link_state(struct ipnet *net, int sw, int slot, int port)
{
    return ipnet_port_link(port_at(net, sw, slot, port));
}

bool ipnet_is_bridged(struct ipnet *net, int sw, int slot, int port)
{
    struct ipport *p = port_at(net, sw, slot, port);
    return p && p->bridge;
}

static bool port_up(struct ipport *p)
{
    return ipnet_port_link(p) == IPNET_UP;
}

static void frame_free(struct ipnet *net, struct frame *f)
{
    struct dgram *d = f->d;
    pool_put(&net->frames, f);
    if (--d->alive == 0)
        dgram_end(net, d);
}

void ipnet_frame_free(struct ipnet *net, struct frame *f) { frame_free(net, f); }

static void arrive(engine_t *e, void *arg);
static struct ipport *owner(struct ipnet *net, uint32_t ip);

static void owner_of(struct ipnet *net, uint32_t ip, int out[3])
{
    struct ipport *o = owner(net, ip);
    out[0] = o ? o->sw : -1;
    out[1] = o ? o->slot : 0;
    out[2] = o ? o->port : 0;
}

/* The tap hears frame f at port p (only called when there is a tap). */
static void tap(struct ipport *p, const struct frame *f, bool rx, const char *note)
{
    struct ipnet *net = p->net;
    struct ipnet_tap_frame t = {.sw = p->sw, .slot = p->slot, .port = p->port, .rx = rx, .pkt = &f->d->pkt,
                                .ip_len = f->ip_len, .frag_off = f->frag_off, .note = note};
    t.more_frags = f->frag_off + (f->ip_len - IPNET_HEADER) < f->d->pkt.ip_len - IPNET_HEADER;
    owner_of(net, f->d->pkt.src, t.src);
    owner_of(net, f->d->pkt.dst, t.dst);
    net->tap(net->tap_ctx, &t);
}

/* What a frame leaving a pipe went through there, for the tap. */
static const char *pipe_note(struct ipport *p, const struct frame *f, char *buf, size_t n)
{
    if (!f->in_at)
        return NULL;
    uint64_t us = (engine_now(p->net->e) - f->in_at) / 1000u;
    snprintf(buf, n, "netsim: %llu.%03llu ms in the simulator (queue, rate, delay)", (unsigned long long)(us / 1000u),
             (unsigned long long)(us % 1000u));
    return buf;
}

/* Serializes the frame on the port at line rate and sends it down the cable. */
static void port_send(struct ipport *p, struct frame *f)
{
    uint64_t now = engine_now(p->net->e);
    if (!port_up(p)) {
        frame_free(p->net, f);
        return;
    }
    uint32_t l2 = f->ip_len + NETSIM_L2_OVERHEAD;
    uint64_t start = p->tx_free_at > now ? p->tx_free_at : now;
    p->tx_free_at = start + (uint64_t)l2 * 8u * 1000000000u / IPNET_LINE_RATE_BPS;
    if (p->net->tap && !p->rt) { /* a router has no place in a capture */
        char buf[96];
        tap(p, f, false, p->bridge ? pipe_note(p, f, buf, sizeof buf) : NULL);
    }
    p->out_pkts++;
    p->out_bytes += l2;
    ewma_rate_add(&p->out_rate, now, l2);
    f->at = p->peer;
    engine_at(p->net->e, p->tx_free_at + IPNET_CABLE_DELAY_NS, arrive, f);
}

/* The port that owns ip, on any switch. */
static struct ipport *owner(struct ipnet *net, uint32_t ip)
{
    int n = net->nsw * SLOTS * PORTS;
    for (int i = 0; i < n; i++) {
        struct ipport *p = &net->ports[i];
        if (p->exists && p->has_ip && p->ip == ip)
            return p;
    }
    return NULL;
}

/* What ARP would have taught p about ip: refreshed if known, else added
 * when some port owns ip (in place of the oldest when full). */
static void arp_learn(struct ipport *p, uint32_t ip)
{
    if ((ip & p->mask) != (p->ip & p->mask))
        return; /* routed: its neighbour is a router, which no switch port owns */
    uint64_t now = engine_now(p->net->e);
    int oldest = 0;
    for (int i = 0; i < p->narp; i++) {
        if (p->arp[i].ip == ip) {
            p->arp[i].seen_ns = now;
            return;
        }
        if (p->arp[i].seen_ns < p->arp[oldest].seen_ns)
            oldest = i;
    }
    struct ipport *o = owner(p->net, ip);
    if (!o)
        return;
    int at = p->narp < IPNET_ARP_MAX ? p->narp++ : oldest;
    p->arp[at] = (struct ipnet_arp){ip, o->sw, o->slot, o->port, now};
}

/* The datagram's fragments (one frame when it fits the MTU), each carrying
 * IPNET_HEADER plus a multiple of 8 data bytes but the last. */
static void send_dgram(struct ipport *p, struct dgram *d)
{
    uint32_t len = d->pkt.ip_len, mtu = p->mtu;
    uint32_t chunk = (mtu - IPNET_HEADER) & ~7u, data = len - IPNET_HEADER;
    d->arrived = 0;
    d->delivered = false;
    if (len > mtu && d->pkt.df) {
        p->frag_drops++;
        p->ip_st.frag_fails++;
        d->alive = 1;
        dgram_end(p->net, d);
        return;
    }
    d->nfrags = len <= mtu ? 1 : (int)((data + chunk - 1) / chunk);
    d->alive = d->nfrags;
    arp_learn(p, d->pkt.dst);
    p->ip_st.out_dgrams++;
    if (d->nfrags > 1)
        p->ip_st.out_frags += (uint64_t)d->nfrags;
    for (int i = 0; i < d->nfrags; i++) {
        struct frame *f = pool_get(&p->net->frames);
        uint32_t left = data - (uint32_t)i * chunk;
        f->d = d;
        f->ip_len = d->nfrags == 1 ? len : IPNET_HEADER + (left < chunk ? left : chunk);
        f->frag_off = (uint32_t)i * chunk;
        f->in_at = 0;
        f->ttl = d->pkt.ttl ? d->pkt.ttl : 255;
        ipnet_port_emit(p, f);
    }
}

void ipnet_send_dgram(struct ipport *p, struct dgram *d) { send_dgram(p, d); }

void ipnet_port_send(struct ipport *p, struct frame *f) { port_send(p, f); }

void ipnet_port_emit(struct ipport *p, struct frame *f)
{
    if (!p->imp_out) {
        port_send(p, f);
        return;
    }
    netsim_pipe_send(p->imp_out, (netsim_pkt){f->ip_len + NETSIM_L2_OVERHEAD, f});
}


/* The switch's own IP stack: reassembly, then the datagram's protocol. */
static void host_receive(struct ipport *q, struct frame *f, bool wire)
{
    struct ipnet *net = q->net;
    struct dgram *d = f->d;
    bool complete = ++d->arrived == d->nfrags;
    if (wire && d->nfrags > 1)
        q->ip_st.in_frags++;
    if (wire && complete) {
        arp_learn(q, d->pkt.src);
        q->ip_st.in_dgrams++;
        q->ip_st.reasm_ok += d->nfrags > 1;
    }
    /* a host's stack and a switch's do not speak to each other (ICMP
     * aside, which every node's stack shares) */
    bool to_host = q->sw >= net->first_host && d->pkt.proto != IPNET_ICMP;
    bool from_host = d->pkt.host && d->pkt.proto != IPNET_ICMP;
    if (complete && (to_host || from_host)) {
        if (!to_host || !from_host || !net->host_proto[d->pkt.proto].fn) {
            frame_free(net, f);
            return;
        }
        struct ipnet_pkt pkt = d->pkt;
        d->delivered = true;
        frame_free(net, f);
        net->host_proto[pkt.proto].fn(net->host_proto[pkt.proto].ctx, q->sw, &pkt);
        return;
    }
    if (complete && net->proto[d->pkt.proto].fn) {
        struct ipnet_pkt pkt = d->pkt; /* the handler may send, recycling d */
        d->delivered = true;
        frame_free(net, f);
        net->proto[pkt.proto].fn(net->proto[pkt.proto].ctx, q->sw, &pkt);
        return;
    }
    frame_free(net, f); /* a fragment waits for the others, or nobody listens */
}

static const char *const drop_notes[] = {
    [NETSIM_DROP_NTH] = "netsim: dropped (drop nth)",
    [NETSIM_DROP_RANDOM] = "netsim: dropped (drop random)",
    [NETSIM_DROP_QFULL] = "netsim: dropped (queue full)",
    [NETSIM_DROP_FLUSH] = "netsim: dropped (simulator removed)",
};

/* A frame entering a pipe, with a tap: the pipe decides at once whether
 * it drops it (pipe_drop then taps it with the reason, before it is
 * freed); else it is tapped as received. Same calls as without a tap. */
static void tap_pipe(struct ipport *q, struct frame *f, uint32_t l2, uint64_t now)
{
    f->in_at = now;
    q->net->arriving = f;
    bool kept = netsim_pipe_send(q->pipe, (netsim_pkt){l2, f});
    q->net->arriving = NULL;
    if (kept)
        tap(q, f, true, NULL);
}

static void arrive(engine_t *e, void *arg)
{
    struct frame *f = arg;
    struct ipport *q = f->at;
    uint32_t l2 = f->ip_len + NETSIM_L2_OVERHEAD;
    uint64_t now = engine_now(e);
    if (!q->exists) { /* gone while the frame was on the cable */
        frame_free(q->net, f);
        return;
    }
    if (q->net->tap && !q->pipe && !q->rt)
        tap(q, f, true, NULL);
    q->in_pkts++;
    q->in_bytes += l2;
    ewma_rate_add(&q->in_rate, now, l2);
    if (q->rt) {
        ipnet_router_arrive(q, f);
    } else if (q->pipe && q->net->tap) {
        tap_pipe(q, f, l2, now);
    } else if (q->pipe) {
        netsim_pipe_send(q->pipe, (netsim_pkt){l2, f});
    } else if (f->ip_len > (q->mtu > 1500 ? q->mtu : 1500)) {
        /* jumbo on one side only: a giant, lost. A port takes any standard
         * frame whatever its MTU (which bounds what it sends), as NICs do */
        q->in_giants++;
        frame_free(q->net, f);
    } else if (q->admin_up && q->has_ip && f->d->pkt.dst == q->ip) {
        host_receive(q, f, true);
    } else {
        frame_free(q->net, f);
    }
}

static void pipe_deliver(void *ctx, netsim_pkt pkt)
{
    struct ipport *in = ctx;
    if (in->bridge)
        port_send(in->bridge, pkt.user);
    else
        frame_free(in->net, pkt.user);
}

static void pipe_drop(void *ctx, netsim_pkt pkt, netsim_drop_cause cause)
{
    struct ipport *in = ctx;
    if (in->net->tap && pkt.user == in->net->arriving)
        tap(in, pkt.user, true, drop_notes[cause]);
    frame_free(in->net, pkt.user);
}

/* The unbridged port of the switch that owns ip, or whose subnet holds
 * it when `subnet`; an up one only when `up`. */
static struct ipport *port_with(struct ipnet *net, int sw, uint32_t ip, bool subnet, bool up)
{
    for (int slot = 1; slot < SLOTS; slot++)
        for (int port = 1; port < PORTS; port++) {
            struct ipport *p = port_at(net, sw, slot, port);
            if (!p || !p->has_ip || p->bridge || (up && !port_up(p)))
                continue;
            if (subnet ? (p->ip & p->mask) == (ip & p->mask) : p->ip == ip)
                return p;
        }
    return NULL;
}

static struct ipport *find_port(struct ipnet *net, int sw, uint32_t ip, bool subnet)
{
    return port_with(net, sw, ip, subnet, true);
}

bool ipnet_owns(struct ipnet *net, int sw, uint32_t ip) { return find_port(net, sw, ip, false) != NULL; }

bool ipnet_addr_link(struct ipnet *net, int sw, uint32_t ip, enum ipnet_link *link)
{
    struct ipport *p = port_with(net, sw, ip, false, false);
    if (p)
        *link = ipnet_link_state(net, sw, p->slot, p->port);
    return p != NULL;
}

static bool sw_port_up(const struct ipport *p)
{
    return p->exists && p->has_ip && !p->bridge && ipnet_port_link(p) == IPNET_UP;
}

/* The port of ports[0..n) that route r leaves by, when up. */
static struct ipport *route_port(struct ipport *ports, int n, const struct ipnet_route *r,
                                 bool (*up)(const struct ipport *p))
{
    for (int i = 0; i < n; i++) {
        struct ipport *p = &ports[i];
        if (!up(p))
            continue;
        if (r->slot ? p->slot == r->slot && p->port == r->port : (p->ip & p->mask) == (r->nexthop & p->mask))
            return p;
    }
    return NULL;
}

struct ipport *ipnet_lookup(struct ipport *ports, int n, const struct ipnet_route *r, int nr, uint32_t dst,
                            bool (*up)(const struct ipport *p))
{
    for (int i = 0; i < n; i++)
        if (up(&ports[i]) && (ports[i].ip & ports[i].mask) == (dst & ports[i].mask))
            return &ports[i];
    struct ipport *best = NULL;
    int best_len = -1;
    for (int i = 0; i < nr; i++) {
        int len = __builtin_popcount(r[i].mask);
        if ((dst & r[i].mask) != r[i].dest || len <= best_len)
            continue;
        struct ipport *p = route_port(ports, n, &r[i], up);
        if (p) {
            best = p;
            best_len = len;
        }
    }
    return best;
}

/* Where a datagram of sw to dst leaves: connected subnet, then route. */
static struct ipport *sw_out(struct ipnet *net, int sw, uint32_t dst)
{
    const struct sw_routes *t = &net->static_routes[sw];
    return ipnet_lookup(&net->ports[sw * SLOTS * PORTS], SLOTS * PORTS, t->r, t->n, dst, sw_port_up);
}

uint32_t ipnet_route_mtu(struct ipnet *net, int sw, uint32_t dst)
{
    if (sw < 0 || sw >= net->nsw)
        return 0;
    struct ipport *p = sw_out(net, sw, dst);
    return p ? p->mtu : 0;
}

char ipnet_route_port(struct ipnet *net, int sw, uint32_t dst, int *slot, int *port)
{
    if (sw < 0 || sw >= net->nsw)
        return 0;
    struct ipport *p = find_port(net, sw, dst, false);
    char how = 'L';
    if (!p) {
        p = find_port(net, sw, dst, true);
        how = 'C';
    }
    if (!p) {
        p = sw_out(net, sw, dst);
        how = 'S';
    }
    if (!p)
        return 0;
    *slot = p->slot;
    *port = p->port;
    return how;
}

void ipnet_routes_set(struct ipnet *net, int sw, const struct ipnet_route *r, int n)
{
    if (sw < 0 || sw >= net->nsw || n < 0)
        return;
    struct sw_routes *t = &net->static_routes[sw];
    n = n < IPNET_ROUTES_MAX ? n : IPNET_ROUTES_MAX;
    if (t->n == n && memcmp(t->r, r, sizeof *r * (size_t)n) == 0)
        return;
    memcpy(t->r, r, sizeof *r * (size_t)n);
    t->n = n;
    net->gen++;
}

static void local_deliver(engine_t *e, void *arg)
{
    (void)e;
    struct frame *f = arg;
    host_receive(f->at, f, false);
}

bool ipnet_send(struct ipnet *net, int sw, const struct ipnet_pkt *pkt)
{
    if (sw < 0 || sw >= net->nsw)
        return false;
    struct route *r = &net->routes[sw];
    if (r->gen != net->gen || r->dst != pkt->dst) {
        r->gen = net->gen;
        r->dst = pkt->dst;
        r->own = find_port(net, sw, pkt->dst, false);
        r->out = r->own ? r->own : sw_out(net, sw, pkt->dst);
    }
    struct ipport *own = r->own, *out = r->out;
    if (!out)
        return false;
    struct dgram *d = pool_get(&net->dgrams);
    d->pkt = *pkt;
    d->pkt.host = sw >= net->first_host && pkt->proto != IPNET_ICMP; /* the sender says, not the field */
    if (!d->pkt.src)
        d->pkt.src = out->ip;
    if (own) { /* its own address: through the stack, not the wire */
        struct frame *f = pool_get(&net->frames);
        d->nfrags = d->alive = 1;
        d->arrived = 0;
        d->delivered = false;
        *f = (struct frame){.d = d, .ip_len = pkt->ip_len, .at = own}; /* no port: no tap */
        engine_after(net->e, IPNET_LOCAL_RTT_NS / 2, local_deliver, f);
        return true;
    }
    send_dgram(out, d);
    return true;
}

void ipnet_ports_begin(struct ipnet *net)
{
    for (int i = 0; i < net->nsw * SLOTS * PORTS; i++)
        net->ports[i].seen = false;
}

void ipnet_port_set(struct ipnet *net, int sw, int slot, int port, const struct ipnet_port_conf *c)
{
    if (sw < 0 || sw >= net->nsw || slot < 1 || slot >= SLOTS || port < 1 || port >= PORTS)
        return;
    struct ipport *p = &net->ports[(sw * SLOTS + slot) * PORTS + port];
    p->exists = p->seen = true;
    if (p->ip != c->ip || p->mask != c->mask || p->has_ip != c->has_ip)
        p->narp = 0;
    p->admin_up = c->admin_up;
    p->has_ip = c->has_ip;
    p->ip = c->ip;
    p->mask = c->mask;
    p->mtu = c->mtu >= 576 ? c->mtu : 576;
    net->gen++;
}

void ipnet_on_link(struct ipnet *net, ipnet_link_fn fn, void *ctx)
{
    net->on_link = fn;
    net->link_ctx = ctx;
}

/* A port's link depends on its own state, its cable's far end and the
 * bridges: looked at once both kinds of reconcile are done. A port seen
 * for the first time (or again after a bridge) is learned, not told. */
static void tell_links(struct ipnet *net)
{
    for (int i = 0; i < net->first_host * SLOTS * PORTS; i++) {
        struct ipport *p = &net->ports[i];
        if (!p->exists || p->bridge) {
            p->told = false;
            continue;
        }
        enum ipnet_link now = ipnet_link_state(net, p->sw, p->slot, p->port);
        if (p->told && p->link != (uint8_t)now && net->on_link)
            net->on_link(net->link_ctx, p->sw, p->slot, p->port, now);
        p->told = true;
        p->link = (uint8_t)now;
    }
}

void ipnet_ports_end(struct ipnet *net)
{
    net->gen++;
    for (int i = 0; i < net->first_host * SLOTS * PORTS; i++) /* hosts' ports stay */
        if (!net->ports[i].seen && net->ports[i].exists) {
            unbridge(&net->ports[i]);
            net->ports[i].exists = false;
        }
    tell_links(net);
}

void ipnet_cable(struct ipnet *net, int sw_a, int slot_a, int port_a, int sw_b, int slot_b, int port_b)
{
    if (sw_a < 0 || sw_a >= net->nsw || sw_b < 0 || sw_b >= net->nsw || slot_a < 1 || slot_a >= SLOTS ||
        slot_b < 1 || slot_b >= SLOTS || port_a < 1 || port_a >= PORTS || port_b < 1 || port_b >= PORTS)
        return;
    struct ipport *a = &net->ports[(sw_a * SLOTS + slot_a) * PORTS + port_a];
    struct ipport *b = &net->ports[(sw_b * SLOTS + slot_b) * PORTS + port_b];
    a->peer = b;
    b->peer = a;
    net->gen++;
}

void ipnet_bridges_begin(struct ipnet *net)
{
    for (int i = 0; i < net->nsw * SLOTS * PORTS; i++)
        net->ports[i].bridge_seen = false;
}

void ipnet_bridge(struct ipnet *net, int sw, int a_slot, int a_port, int b_slot, int b_port)
{
    struct ipport *a = port_at(net, sw, a_slot, a_port), *b = port_at(net, sw, b_slot, b_port);
    if (!a || !b || a == b)
        return;
    struct ipport *pair[2][2] = {{a, b}, {b, a}};
    for (int i = 0; i < 2; i++) {
        struct ipport *p = pair[i][0];
        if (p->bridge != pair[i][1])
            unbridge(p);
        p->bridge = pair[i][1];
        p->bridge_seen = true;
        if (!p->pipe) {
            char name[64];
            snprintf(name, sizeof name, "netsim:%d:GigabitEthernet%d/%d", sw, p->slot, p->port);
            netsim_pipe_callbacks cb = {pipe_deliver, pipe_drop, p};
            p->pipe = netsim_pipe_new(net->e, name, &cb);
        }
    }
}

void ipnet_bridges_end(struct ipnet *net)
{
    net->gen++;
    for (int i = 0; i < net->nsw * SLOTS * PORTS; i++)
        if (!net->ports[i].bridge_seen && net->ports[i].bridge)
            unbridge(&net->ports[i]);
    tell_links(net);
}

netsim_pipe *ipnet_ingress_pipe(struct ipnet *net, int sw, int slot, int port)
{
    struct ipport *p = port_at(net, sw, slot, port);
    return p ? p->pipe : NULL;
}

void ipnet_port_clear(struct ipnet *net, int sw, int slot, int port)
{
    struct ipport *p = port_at(net, sw, slot, port);
    if (!p)
        return;
    p->in_pkts = p->in_bytes = p->out_pkts = p->out_bytes = p->frag_drops = p->in_giants = 0;
    memset(&p->in_rate, 0, sizeof p->in_rate);
    memset(&p->out_rate, 0, sizeof p->out_rate);
}

void ipnet_port_stats(struct ipnet *net, int sw, int slot, int port, struct ipnet_port_stats *st)
{
    struct ipport *p = port_at(net, sw, slot, port);
    uint64_t now = engine_now(net->e);
    memset(st, 0, sizeof *st);
    if (!p)
        return;
    *st = (struct ipnet_port_stats){p->in_pkts,
                                    p->in_bytes,
                                    p->out_pkts,
                                    p->out_bytes,
                                    p->frag_drops,
                                    ewma_rate_bps(&p->in_rate, now),
                                    ewma_rate_fps(&p->in_rate, now),
                                    ewma_rate_bps(&p->out_rate, now),
                                    ewma_rate_fps(&p->out_rate, now),
                                    p->in_giants};
}

void ipnet_ip_stats(struct ipnet *net, int sw, int slot, int port, struct ipnet_ip_stats *st)
{
    struct ipport *p = port_at(net, sw, slot, port);
    memset(st, 0, sizeof *st);
    if (p)
        *st = p->ip_st;
}

void ipnet_icmp_count(struct ipnet *net, int sw, uint32_t local, uint32_t remote, enum ipnet_icmp_count c)
{
    if (sw < 0 || sw >= net->nsw)
        return;
    struct ipport *p = local ? find_port(net, sw, local, false) : sw_out(net, sw, remote);
    if (!p)
        return;
    uint64_t *const ctr[] = {[IPNET_ECHO_IN] = &p->ip_st.echo_in, [IPNET_ECHO_OUT] = &p->ip_st.echo_out,
                             [IPNET_REPLY_IN] = &p->ip_st.reply_in, [IPNET_REPLY_OUT] = &p->ip_st.reply_out};
    (*ctr[c])++;
}

int ipnet_arp_table(struct ipnet *net, int sw, int slot, int port, struct ipnet_arp out[IPNET_ARP_MAX])
{
    struct ipport *p = port_at(net, sw, slot, port);
    if (!p)
        return 0;
    memcpy(out, p->arp, sizeof p->arp[0] * (size_t)p->narp);
    return p->narp;
}

void ipnet_on_icmp_error(struct ipnet *net, uint8_t proto, ipnet_err_fn fn, void *ctx)
{
    net->err[proto].fn = fn;
    net->err[proto].ctx = ctx;
}

void ipnet_icmp_error_to(struct ipnet *net, int sw, const struct ipnet_icmp_err *err)
{
    if (net->err[err->proto].fn && sw < net->first_host)
        net->err[err->proto].fn(net->err[err->proto].ctx, sw, err);
}

void ipnet_set_tap(struct ipnet *net, ipnet_tap_fn fn, void *ctx)
{
    net->tap = fn;
    net->tap_ctx = ctx;
}

void ipnet_set_render(struct ipnet *net, uint8_t proto, ipnet_render_fn fn, void *ctx)
{
    net->render[proto].fn = fn;
    net->render[proto].ctx = ctx;
}

uint32_t ipnet_render(struct ipnet *net, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap)
{
    uint32_t n = pkt->ip_len - IPNET_HEADER < cap ? pkt->ip_len - IPNET_HEADER : cap;
    bool host = pkt->host && pkt->proto != IPNET_ICMP;
    if (host && net->host_proto[pkt->proto].render)
        return net->host_proto[pkt->proto].render(net->host_proto[pkt->proto].ctx, pkt, out, cap);
    if (!host && net->render[pkt->proto].fn)
        return net->render[pkt->proto].fn(net->render[pkt->proto].ctx, pkt, out, cap);
    memset(out, 0, n); /* a protocol that cannot say: zeros */
    return n;
}
