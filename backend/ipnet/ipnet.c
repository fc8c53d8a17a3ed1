#include "ipnet.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include "interface/ge.h"
#include "netsim/netsim.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SLOTS = 14, PORTS = 9 }; /* slots 1..13, ports 1..8 */
#define RATE_TAU_S 300.0          /* `5 minutes` rates: EWMA time constant */

/* A rate estimated as an exponentially weighted average over RATE_TAU_S. */
struct ewma {
    double rate;
    uint64_t at;
};

struct ipport {
    struct ipnet *net;
    bool exists, admin_up, has_ip;
    int sw, slot, port;
    uint32_t ip, mask;
    struct ipport *peer;   /* the other end of the cable */
    struct ipport *bridge; /* netsim partner while bridged */
    netsim_pipe *pipe;     /* carries what enters this port while bridged */
    bool bridge_seen;      /* declared again by the current reconcile */
    uint64_t tx_free_at;   /* the transmit serializer is busy until then */
    uint64_t in_pkts, in_bytes, out_pkts, out_bytes;
    struct ewma in_bits, in_frames, out_bits, out_frames;
};

enum pkt_type { ICMP_ECHO, ICMP_REPLY };

struct ippkt {
    enum pkt_type type;
    uint32_t src, dst;
    uint32_t ip_len;
    int seq, ping_id; /* an echo's ping, 0 for none */
    uint64_t sent_at;
    struct ipport *at; /* where it arrives next */
    struct ippkt *prev, *next; /* every live packet, so closing the lab frees them */
};

struct ipnet {
    engine_t *e;
    struct ipport *ports;
    int nsw;
    struct ipnet_ping *pings; /* those under way */
    int last_ping_id;
    struct ippkt *live; /* packets in flight (their events die with the engine) */
};

static struct ipport *port_at(struct ipnet *net, int sw, int slot, int port)
{
    if (sw < 0 || sw >= net->nsw || slot < 1 || slot >= SLOTS || port < 1 || port >= PORTS)
        return NULL;
    struct ipport *p = &net->ports[(sw * SLOTS + slot) * PORTS + port];
    return p->exists ? p : NULL;
}

static struct ippkt *pkt_new(struct ipnet *net)
{
    struct ippkt *k = calloc(1, sizeof *k);
    if (!k)
        abort();
    k->next = net->live;
    if (net->live)
        net->live->prev = k;
    net->live = k;
    return k;
}

static void pkt_free(struct ipnet *net, struct ippkt *k)
{
    if (k->prev)
        k->prev->next = k->next;
    else
        net->live = k->next;
    if (k->next)
        k->next->prev = k->prev;
    free(k);
}

struct ipnet *ipnet_new(engine_t *e)
{
    struct ipnet *net = calloc(1, sizeof *net);
    if (!net)
        abort();
    net->e = e;
    return net;
}

static void unbridge(struct ipport *p)
{
    netsim_pipe *pipe = p->pipe;
    p->pipe = NULL; /* first: a flushed packet must not re-enter the pipe */
    p->bridge = NULL;
    if (pipe)
        netsim_pipe_free(pipe);
}

void ipnet_free(struct ipnet *net)
{
    if (!net)
        return;
    for (int i = 0; i < net->nsw * SLOTS * PORTS; i++)
        unbridge(&net->ports[i]);
    while (net->live)
        pkt_free(net, net->live);
    free(net->ports);
    free(net);
}

static void ewma_add(struct ewma *w, uint64_t now, double amount)
{
    double dt = (double)(now - w->at) / 1e9;
    w->rate = w->rate * exp(-dt / RATE_TAU_S) + amount / RATE_TAU_S;
    w->at = now;
}

static uint64_t ewma_read(const struct ewma *w, uint64_t now)
{
    return (uint64_t)llround(w->rate * exp(-(double)(now - w->at) / 1e9 / RATE_TAU_S));
}

enum ipnet_link ipnet_link_state(struct ipnet *net, int sw, int slot, int port)
{
    struct ipport *p = port_at(net, sw, slot, port);
    if (!p || (!p->admin_up && !p->bridge))
        return IPNET_ADMIN_DOWN;
    struct ipport *q = p->peer;
    return q && (q->admin_up || q->bridge) ? IPNET_UP : IPNET_NOT_CONNECTED;
}

bool ipnet_is_bridged(struct ipnet *net, int sw, int slot, int port)
{
    struct ipport *p = port_at(net, sw, slot, port);
    return p && p->bridge;
}

static bool port_up(struct ipport *p)
{
    return ipnet_link_state(p->net, p->sw, p->slot, p->port) == IPNET_UP;
}

static void arrive(engine_t *e, void *arg);

/* Serializes the frame on the port at line rate and sends it down the cable. */
static void port_send(struct ipport *p, struct ippkt *k)
{
    uint64_t now = engine_now(p->net->e);
    if (!port_up(p)) {
        pkt_free(p->net, k);
        return;
    }
    uint32_t l2 = k->ip_len + NETSIM_L2_OVERHEAD;
    uint64_t start = p->tx_free_at > now ? p->tx_free_at : now;
    p->tx_free_at = start + (uint64_t)l2 * 8u * 1000000000u / IPNET_LINE_RATE_BPS;
    p->out_pkts++;
    p->out_bytes += l2;
    ewma_add(&p->out_bits, now, l2 * 8.0);
    ewma_add(&p->out_frames, now, 1.0);
    k->at = p->peer;
    engine_at(p->net->e, p->tx_free_at + IPNET_CABLE_DELAY_NS, arrive, k);
}

static struct ipnet_ping *ping_find(struct ipnet *net, int id)
{
    struct ipnet_ping *p = net->pings;
    while (p && p->id != id)
        p = p->next;
    return p;
}

static void ping_reply(struct ipnet *net, struct ipport *q, struct ippkt *k)
{
    struct ipnet_ping *pg = ping_find(net, k->ping_id);
    uint64_t now = engine_now(net->e);
    if (pg && q->sw == pg->sw && k->src == pg->dst && k->seq >= 0 && k->seq < pg->count &&
        pg->rtt_ns[k->seq] == UINT64_MAX && now - k->sent_at <= pg->timeout_ns)
        pg->rtt_ns[k->seq] = now - k->sent_at;
    pkt_free(net, k);
}

/* The switch's own IP stack: answers echo requests, collects replies. */
static void host_receive(struct ipport *q, struct ippkt *k)
{
    if (k->type == ICMP_REPLY) {
        ping_reply(q->net, q, k);
        return;
    }
    k->type = ICMP_REPLY;
    k->dst = k->src;
    k->src = q->ip;
    port_send(q, k);
}

static void arrive(engine_t *e, void *arg)
{
    struct ippkt *k = arg;
    struct ipport *q = k->at;
    uint32_t l2 = k->ip_len + NETSIM_L2_OVERHEAD;
    uint64_t now = engine_now(e);
    q->in_pkts++;
    q->in_bytes += l2;
    ewma_add(&q->in_bits, now, l2 * 8.0);
    ewma_add(&q->in_frames, now, 1.0);
    if (q->pipe)
        netsim_pipe_send(q->pipe, (netsim_pkt){l2, k});
    else if (q->admin_up && q->has_ip && k->dst == q->ip)
        host_receive(q, k);
    else
        pkt_free(q->net, k);
}

static void pipe_deliver(void *ctx, netsim_pkt pkt)
{
    struct ipport *in = ctx;
    if (in->bridge)
        port_send(in->bridge, pkt.user);
    else
        pkt_free(in->net, pkt.user);
}

static void pipe_drop(void *ctx, netsim_pkt pkt, netsim_drop_cause cause)
{
    struct ipport *in = ctx;
    (void)cause;
    pkt_free(in->net, pkt.user);
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

netsim_pipe *ipnet_ingress_pipe(struct ipnet *net, int sw, int slot, int port)
{
    struct ipport *p = port_at(net, sw, slot, port);
    return p ? p->pipe : NULL;
}

static void load_ports(struct ipnet *net, struct lab *lab)
{
    if (!net->ports) {
        net->nsw = lab_switch_count(lab);
        net->ports = calloc((size_t)(net->nsw * SLOTS * PORTS), sizeof *net->ports);
        if (!net->ports)
            abort();
    }
    for (int sw = 0; sw < net->nsw; sw++)
        for (int slot = 1; slot < SLOTS; slot++)
            for (int port = 1; port < PORTS; port++) {
                struct ipport *p = &net->ports[(sw * SLOTS + slot) * PORTS + port];
                struct ge_conf c;
                p->net = net;
                p->sw = sw;
                p->slot = slot;
                p->port = port;
                p->exists = ge_exists(lab, sw, slot, port);
                if (!p->exists)
                    continue;
                ge_get(lab, sw, slot, port, &c);
                p->admin_up = !c.shutdown;
                p->has_ip = c.has_ip;
                p->ip = c.ip;
                p->mask = c.mask;
                p->peer = NULL;
            }
}

static void load_cables(struct ipnet *net, struct lab *lab)
{
    static const char *const q = "SELECT a_switch, a_port, b_switch, b_port FROM link";
    sqlite3_stmt *st = lab_stmt(lab, q);
    while (sqlite3_step(st) == SQLITE_ROW) {
        struct ipport *end[2] = {NULL, NULL};
        for (int i = 0; i < 2; i++) {
            int id = sqlite3_column_int(st, i * 2), slot, port, sw = 0;
            if (sscanf((const char *)sqlite3_column_text(st, i * 2 + 1), "GigabitEthernet%d/%d", &slot, &port) != 2)
                continue;
            while (sw < net->nsw && lab_switch_id(lab, sw) != id)
                sw++;
            end[i] = port_at(net, sw, slot, port);
        }
        if (end[0] && end[1]) {
            end[0]->peer = end[1];
            end[1]->peer = end[0];
        }
    }
}

void ipnet_reconcile(struct ipnet *net, struct lab *lab)
{
    load_ports(net, lab);
    load_cables(net, lab);
    for (int i = 0; i < net->nsw * SLOTS * PORTS; i++)
        net->ports[i].bridge_seen = false;
    netsim_reconcile(lab, net);
    for (int i = 0; i < net->nsw * SLOTS * PORTS; i++)
        if (!net->ports[i].bridge_seen && net->ports[i].bridge)
            unbridge(&net->ports[i]);
}

void ipnet_port_stats(struct ipnet *net, int sw, int slot, int port, struct ipnet_port_stats *st)
{
    struct ipport *p = port_at(net, sw, slot, port);
    uint64_t now = engine_now(net->e);
    memset(st, 0, sizeof *st);
    if (!p)
        return;
    *st = (struct ipnet_port_stats){p->in_pkts, p->in_bytes, p->out_pkts, p->out_bytes,
                                    ewma_read(&p->in_bits, now), ewma_read(&p->in_frames, now),
                                    ewma_read(&p->out_bits, now), ewma_read(&p->out_frames, now)};
}

/* The up port of the switch whose subnet holds dst. */
static struct ipport *route(struct ipnet *net, int sw, uint32_t dst)
{
    for (int slot = 1; slot < SLOTS; slot++)
        for (int port = 1; port < PORTS; port++) {
            struct ipport *p = port_at(net, sw, slot, port);
            if (p && p->has_ip && !p->bridge && port_up(p) && (p->ip & p->mask) == (dst & p->mask))
                return p;
        }
    return NULL;
}

static void local_reply(engine_t *e, void *arg)
{
    (void)e;
    struct ippkt *k = arg;
    ping_reply(k->at->net, k->at, k);
}

static void send_echo(engine_t *e, void *arg)
{
    struct ippkt *k = arg;
    struct ipport *from = k->at;
    struct ipnet_ping *p = ping_find(from->net, k->ping_id);
    if (!p) { /* the ping was stopped */
        pkt_free(from->net, k);
        return;
    }
    p->sent++;
    k->sent_at = engine_now(e);
    if (k->dst == from->ip) { /* its own address: answered without the wire */
        k->type = ICMP_REPLY;
        k->src = from->ip;
        engine_after(e, IPNET_LOCAL_RTT_NS, local_reply, k);
        return;
    }
    port_send(from, k);
}

/* The up port of the switch that has dst as its own address. */
static struct ipport *own_port(struct ipnet *net, int sw, uint32_t dst)
{
    for (int slot = 1; slot < SLOTS; slot++)
        for (int port = 1; port < PORTS; port++) {
            struct ipport *p = port_at(net, sw, slot, port);
            if (p && p->has_ip && !p->bridge && port_up(p) && p->ip == dst)
                return p;
        }
    return NULL;
}

int ipnet_ping_start(struct ipnet *net, int sw, struct ipnet_ping *p)
{
    struct ipport *from = own_port(net, sw, p->dst);
    if (!from)
        from = route(net, sw, p->dst);
    if (!from)
        return -1;
    p->sw = sw;
    p->sent = 0;
    p->id = ++net->last_ping_id;
    p->t0 = engine_now(net->e);
    p->rtt_ns = malloc((size_t)p->count * sizeof *p->rtt_ns);
    if (!p->rtt_ns)
        abort();
    for (int i = 0; i < p->count; i++) {
        struct ippkt *k = pkt_new(net);
        k->type = ICMP_ECHO;
        k->src = from->ip;
        k->dst = p->dst;
        k->ip_len = (uint32_t)p->size + 28u;
        k->seq = i;
        k->ping_id = p->id;
        k->at = from;
        p->rtt_ns[i] = UINT64_MAX;
        engine_at(net->e, ipnet_ping_send_time(p, i), send_echo, k);
    }
    p->next = net->pings;
    net->pings = p;
    return 0;
}

uint64_t ipnet_ping_send_time(const struct ipnet_ping *p, int seq)
{
    return p->t0 + (uint64_t)seq * ENGINE_NS_PER_SEC;
}

struct ping_wait {
    struct ipnet_ping *p;
    int seq;
};

static bool unanswered(void *arg)
{
    struct ping_wait *w = arg;
    return w->p->rtt_ns[w->seq] == UINT64_MAX;
}

uint64_t ipnet_ping_wait(struct ipnet *net, struct ipnet_ping *p, int seq)
{
    struct ping_wait w = {p, seq};
    engine_run_while(net->e, unanswered, &w, ipnet_ping_send_time(p, seq) + p->timeout_ns);
    return p->rtt_ns[seq];
}

void ipnet_ping_end(struct ipnet *net, struct ipnet_ping *p)
{
    struct ipnet_ping **pp = &net->pings;
    while (*pp && *pp != p)
        pp = &(*pp)->next;
    if (*pp)
        *pp = p->next;
    free(p->rtt_ns);
    p->rtt_ns = NULL;
}
