/* The lab's routers (docs/routing.md): IP hops between the switches'
 * subnets, each port with an MTU and the netsim pipe's impairments on
 * what enters and leaves it, so a hop delays, limits and drops exactly
 * as the IP Network Simulator does. */
#include "ipnet_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct router {
    struct ipnet *net;
    char name[33];
    bool icmp; /* sends ICMP errors */
    struct ipport port[PORTS]; /* 1..IPNET_ROUTER_PORTS */
    struct ipnet_route routes[IPNET_ROUTES_MAX];
    int nroutes;
    struct ipnet_router_stats st;
};
_Static_assert(IPNET_ROUTER_PORTS < PORTS, "a router's ports fit its array");

static bool rport_up(const struct ipport *p)
{
    return p->exists && p->has_ip && ipnet_port_link(p) == IPNET_UP;
}

static struct router *router_at(struct ipnet *net, int r)
{
    return r >= 0 && r < net->nrouters ? net->routers[r] : NULL;
}

static struct ipport *rport_at(struct ipnet *net, int r, int port)
{
    struct router *rt = router_at(net, r);
    return rt && port >= 1 && port <= IPNET_ROUTER_PORTS ? &rt->port[port] : NULL;
}

int ipnet_router_add(struct ipnet *net, const char *name, bool icmp)
{
    if (net->nrouters >= IPNET_ROUTERS_MAX)
        return -1;
    struct router *rt = calloc(1, sizeof *rt);
    struct router **all = realloc(net->routers, sizeof *all * (size_t)(net->nrouters + 1));
    if (!rt || !all)
        abort();
    net->routers = all;
    rt->net = net;
    rt->icmp = icmp;
    snprintf(rt->name, sizeof rt->name, "%s", name);
    for (int i = 0; i < PORTS; i++)
        rt->port[i] = (struct ipport){.net = net, .sw = -1, .port = i, .mtu = 1500, .rt = rt};
    all[net->nrouters] = rt;
    return net->nrouters++;
}

static void forward(struct ipport *in, struct frame *f);

static void in_deliver(void *ctx, netsim_pkt pkt) { forward(ctx, pkt.user); }
static void out_deliver(void *ctx, netsim_pkt pkt) { ipnet_port_send(ctx, pkt.user); }

static void imp_drop(void *ctx, netsim_pkt pkt, netsim_drop_cause cause)
{
    (void)cause;
    struct ipport *p = ctx;
    ipnet_frame_free(p->net, pkt.user);
}

static netsim_pipe *imp_pipe(struct ipport *p, bool out, const netsim_pipe_config *c)
{
    char name[64];
    snprintf(name, sizeof name, "router:%s:eth%d:%s", p->rt->name, p->port, out ? "out" : "in");
    netsim_pipe_callbacks cb = {out ? out_deliver : in_deliver, imp_drop, p};
    netsim_pipe *pipe = netsim_pipe_new(p->net->e, name, &cb);
    if (netsim_pipe_configure(pipe, c) != 0)
        abort(); /* the lab file's ranges keep it valid */
    return pipe;
}

void ipnet_router_port(struct ipnet *net, int r, int port, const struct ipnet_router_port_conf *c)
{
    struct ipport *p = rport_at(net, r, port);
    if (!p)
        return;
    p->exists = p->admin_up = p->has_ip = true;
    p->ip = c->ip;
    p->mask = c->mask;
    p->mtu = c->mtu >= 576 ? c->mtu : 576;
    const netsim_pipe_config *m = &c->imp;
    bool impaired = m->delay_set || m->rate_set || m->qsize_set || m->drop_nth_set || m->drop_random_set ||
                    m->reorder_set; /* else a plain port: no pipe to serialize in twice */
    if (impaired && !p->imp_in) {
        p->imp_in = imp_pipe(p, false, &c->imp);
        p->imp_out = imp_pipe(p, true, &c->imp);
    }
    net->gen++;
}

void ipnet_router_routes(struct ipnet *net, int r, const struct ipnet_route *routes, int n)
{
    struct router *rt = router_at(net, r);
    if (!rt || n < 0)
        return;
    rt->nroutes = n < IPNET_ROUTES_MAX ? n : IPNET_ROUTES_MAX;
    memcpy(rt->routes, routes, sizeof *routes * (size_t)rt->nroutes);
}

static void cable(struct ipnet *net, struct ipport *a, struct ipport *b)
{
    if (!a || !b || a == b)
        return;
    a->peer = b;
    b->peer = a;
    net->gen++;
}

void ipnet_router_cable(struct ipnet *net, int r, int rport, int sw, int slot, int port)
{
    if (sw < 0 || sw >= net->nsw || slot < 1 || slot >= SLOTS || port < 1 || port >= PORTS)
        return;
    cable(net, rport_at(net, r, rport), &net->ports[(sw * SLOTS + slot) * PORTS + port]);
}

void ipnet_router_cable_router(struct ipnet *net, int r, int rport, int r2, int rport2)
{
    cable(net, rport_at(net, r, rport), rport_at(net, r2, rport2));
}

void ipnet_router_stats(struct ipnet *net, int r, struct ipnet_router_stats *st)
{
    struct router *rt = router_at(net, r);
    memset(st, 0, sizeof *st);
    if (rt)
        *st = rt->st;
}

netsim_pipe *ipnet_router_pipe(struct ipnet *net, int r, int port, bool out)
{
    struct ipport *p = rport_at(net, r, port);
    return p ? (out ? p->imp_out : p->imp_in) : NULL;
}

void ipnet_routers_free(struct ipnet *net)
{
    for (int r = 0; r < net->nrouters; r++) {
        struct router *rt = net->routers[r];
        for (int i = 0; i < PORTS; i++) {
            netsim_pipe *in = rt->port[i].imp_in, *out = rt->port[i].imp_out;
            rt->port[i].imp_in = rt->port[i].imp_out = NULL;
            if (in)
                netsim_pipe_free(in);
            if (out)
                netsim_pipe_free(out);
        }
    }
    for (int r = 0; r < net->nrouters; r++)
        free(net->routers[r]);
    net->nrouters = 0;
}

struct ipport *ipnet_router_owner(struct ipnet *net, uint32_t ip)
{
    for (int r = 0; r < net->nrouters; r++)
        for (int i = 1; i <= IPNET_ROUTER_PORTS; i++)
            if (net->routers[r]->port[i].has_ip && net->routers[r]->port[i].ip == ip)
                return &net->routers[r]->port[i];
    return NULL;
}

/* A datagram the router itself sends (an ICMP message). */
static void originate(struct router *rt, const struct ipnet_pkt *pkt)
{
    struct ipport *out = ipnet_lookup(rt->port, PORTS, rt->routes, rt->nroutes, pkt->dst, rport_up);
    if (!out)
        return;
    struct dgram *d = pool_get(&rt->net->dgrams);
    d->pkt = *pkt;
    ipnet_send_dgram(out, d);
}

/* An ICMP error about f's datagram, to its source: only about a first
 * fragment, and never about an ICMP error (RFC 1812 4.3.2.7). */
static void icmp_error(struct router *rt, struct ipport *in, const struct frame *f, uint8_t type, uint8_t code,
                       uint32_t mtu)
{
    const struct ipnet_pkt *orig = &f->d->pkt;
    if (!rt->icmp || f->frag_off != 0 ||
        (orig->proto == IPNET_ICMP && (orig->payload[0] == IPNET_ICMP_UNREACH ||
                                       orig->payload[0] == IPNET_ICMP_TIME_EXCEEDED)))
        return;
    struct ipnet_pkt pkt;
    ipnet_icmp_error_pkt(&pkt, in->ip, orig, type, code, mtu);
    originate(rt, &pkt);
}

/* To one of the router's own addresses: an echo request is answered,
 * whole; a fragment is not reassembled here. */
static void to_self(struct router *rt, struct frame *f)
{
    struct ipnet_pkt reply;
    if (f->d->nfrags == 1 && ipnet_icmp_echo_reply(&f->d->pkt, &reply)) {
        rt->st.echo_replies++;
        originate(rt, &reply);
    }
    ipnet_frame_free(rt->net, f);
}

/* f cut again to out's MTU: its data in chunks of the MTU less the
 * header, multiples of 8 but the last. The datagram counts the new
 * fragments before any can arrive, so it completes only with all. */
static void refragment(struct ipport *out, struct frame *f)
{
    struct dgram *d = f->d;
    uint32_t data = f->ip_len - IPNET_HEADER, chunk = (out->mtu - IPNET_HEADER) & ~7u;
    int k = (int)((data + chunk - 1) / chunk);
    d->nfrags += k - 1;
    d->alive += k - 1;
    uint32_t base = f->frag_off;
    uint8_t ttl = f->ttl;
    for (int i = 0; i < k; i++) {
        struct frame *g = i == 0 ? f : pool_get(&out->net->frames);
        uint32_t left = data - (uint32_t)i * chunk;
        *g = (struct frame){.d = d, .ip_len = IPNET_HEADER + (left < chunk ? left : chunk),
                            .frag_off = base + (uint32_t)i * chunk, .ttl = ttl};
        ipnet_port_emit(out, g);
    }
}

static bool owns(const struct router *rt, uint32_t ip)
{
    for (int i = 1; i <= IPNET_ROUTER_PORTS; i++)
        if (rt->port[i].has_ip && rt->port[i].ip == ip)
            return true;
    return false;
}

static void forward(struct ipport *in, struct frame *f)
{
    struct router *rt = in->rt;
    const struct ipnet_pkt *pkt = &f->d->pkt;
    if (owns(rt, pkt->dst)) {
        to_self(rt, f);
        return;
    }
    struct ipport *out = ipnet_lookup(rt->port, PORTS, rt->routes, rt->nroutes, pkt->dst, rport_up);
    if (!out) { /* the route first, as Linux and IOS look: !N at any TTL */
        rt->st.unreachable++;
        icmp_error(rt, in, f, IPNET_ICMP_UNREACH, IPNET_UNREACH_NET, 0);
    } else if (f->ttl <= 1) {
        rt->st.ttl_expired++;
        icmp_error(rt, in, f, IPNET_ICMP_TIME_EXCEEDED, 0, 0);
    } else if (f->ip_len > out->mtu && pkt->df) {
        rt->st.frag_needed++;
        icmp_error(rt, in, f, IPNET_ICMP_UNREACH, IPNET_UNREACH_FRAG_NEEDED, out->mtu);
    } else {
        f->ttl--;
        rt->st.forwarded++;
        if (f->ip_len > out->mtu) {
            rt->st.refragmented++;
            refragment(out, f);
        } else {
            ipnet_port_emit(out, f);
        }
        return;
    }
    ipnet_frame_free(rt->net, f);
}

void ipnet_router_arrive(struct ipport *q, struct frame *f)
{
    if (q->imp_in)
        netsim_pipe_send(q->imp_in, (netsim_pkt){f->ip_len + NETSIM_L2_OVERHEAD, f});
    else
        forward(q, f);
}
