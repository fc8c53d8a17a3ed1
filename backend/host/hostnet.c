/* A host's IP stack: its ports and gateway on the data plane, TCP
 * connections (backend/tcp endpoints) and UDP sockets, found by port. */
#include "hostnet_int.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UDP_PROTO = 17, EPHEMERAL_LO = 32768, EPHEMERAL_N = 28232, LISTEN_MAX = 8, UDP_MAX = 16 };
enum { UDP_HDR = 8 };

/* What a host's TCP datagram holds: ports, and the segment (or a reset
 * answering one that found no socket: no segment, no stream). */
struct hwire {
    uint16_t sport, dport;
    bool rst;
    struct tcp_seg seg;
};
struct uwire {
    uint16_t sport, dport;
    uint64_t token;
};
_Static_assert(sizeof(struct hwire) <= IPNET_PAYLOAD_MAX, "host TCP header too large");

struct listener {
    uint16_t port;
    uint32_t rcvbuf;
    hconn_accept_fn fn;
    void *app;
};
struct udpsock {
    uint16_t port;
    hudp_rx_fn fn;
    void *app;
};
struct host {
    uint32_t ip[HOSTNET_PORTS], mask[HOSTNET_PORTS], mtu[HOSTNET_PORTS];
    struct hconn *conns;
    int nconns;
    struct listener lis[LISTEN_MAX];
    struct udpsock udp[UDP_MAX];
    uint16_t next_port;
    struct netserver *ns;
};
struct hostnet {
    struct ipnet *net;
    engine_t *e;
    int first, n;
    struct host *hosts;
    struct netperf *runs;
};

static void tcp_rx(void *ctx, int sw, const struct ipnet_pkt *pkt);
static void tcp_lost(void *ctx, const struct ipnet_pkt *pkt);
static uint32_t tcp_render(void *ctx, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap);
static void udp_rx(void *ctx, int sw, const struct ipnet_pkt *pkt);
static uint32_t udp_render(void *ctx, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap);

struct hostnet *hostnet_new(struct ipnet *net, int nhosts)
{
    struct hostnet *hn = calloc(1, sizeof *hn);
    if (!hn || !(hn->hosts = calloc((size_t)nhosts + 1, sizeof *hn->hosts)))
        abort();
    hn->net = net;
    hn->e = ipnet_engine(net);
    hn->first = ipnet_first_host(net);
    hn->n = nhosts;
    for (int i = 0; i < nhosts; i++)
        hn->hosts[i].next_port = EPHEMERAL_LO;
    ipnet_register_host(net, IPNET_TCP, tcp_rx, tcp_lost, tcp_render, hn);
    ipnet_register_host(net, UDP_PROTO, udp_rx, NULL, udp_render, hn);
    return hn;
}

void hostnet_free(struct hostnet *hn)
{
    if (!hn)
        return;
    netperf_orphan_all(hn);
    netserver_free_all(hn);
    for (int i = 0; i < hn->n; i++)
        while (hn->hosts[i].conns)
            hostnet_conn_free(hn->hosts[i].conns);
    free(hn->hosts);
    free(hn);
}

int hostnet_count(const struct hostnet *hn) { return hn->n; }
int hostnet_node(const struct hostnet *hn, int h) { return hn->first + h; }
engine_t *hostnet_engine(struct hostnet *hn) { return hn->e; }
struct netserver **hostnet_netserver_slot(struct hostnet *hn, int h) { return &hn->hosts[h].ns; }
struct netperf **hostnet_runs(struct hostnet *hn) { return &hn->runs; }

void hostnet_port(struct hostnet *hn, int h, int eth, uint32_t ip, uint32_t mask, uint32_t mtu)
{
    if (h < 0 || h >= hn->n || eth < 0 || eth >= HOSTNET_PORTS)
        return;
    struct ipnet_port_conf c = {.admin_up = true, .has_ip = true, .ip = ip, .mask = mask, .mtu = mtu};
    ipnet_port_set(hn->net, hn->first + h, 1, eth + 1, &c);
    hn->hosts[h].ip[eth] = ip;
    hn->hosts[h].mask[eth] = mask;
    hn->hosts[h].mtu[eth] = mtu;
}

void hostnet_gateway(struct hostnet *hn, int h, uint32_t gw)
{
    if (h < 0 || h >= hn->n)
        return;
    struct ipnet_route r = {0, 0, gw, 0, 0};
    ipnet_routes_set(hn->net, hn->first + h, &r, gw ? 1 : 0);
}

/* The port host h reaches dst by, -1 when none. */
static int out_port(struct hostnet *hn, int h, uint32_t dst)
{
    int slot, port;
    char how = ipnet_route_port(hn->net, hn->first + h, dst, &slot, &port);
    return how && slot == 1 && port >= 1 && port <= HOSTNET_PORTS ? port - 1 : -1;
}

uint32_t hostnet_source(struct hostnet *hn, int h, uint32_t dst)
{
    int eth = out_port(hn, h, dst);
    return eth < 0 ? 0 : hn->hosts[h].ip[eth];
}

static bool port_busy(struct host *ho, uint16_t p)
{
    for (struct hconn *c = ho->conns; c; c = c->next)
        if (c->lport == p)
            return true;
    for (int i = 0; i < LISTEN_MAX; i++)
        if (ho->lis[i].fn && ho->lis[i].port == p)
            return true;
    for (int i = 0; i < UDP_MAX; i++)
        if (ho->udp[i].fn && ho->udp[i].port == p)
            return true;
    return false;
}

uint16_t hostnet_ephemeral(struct hostnet *hn, int h)
{
    struct host *ho = &hn->hosts[h];
    for (int i = 0; i < EPHEMERAL_N; i++) {
        uint16_t p = ho->next_port;
        ho->next_port = (uint16_t)(p + 1 >= EPHEMERAL_LO + EPHEMERAL_N ? EPHEMERAL_LO : p + 1);
        if (!port_busy(ho, p))
            return p;
    }
    return 0;
}

/* ---- TCP ---------------------------------------------------------------- */

void hostnet_tcp_params(struct tcp_params *p, uint32_t rcvbuf, uint32_t peer_rcvbuf, uint32_t mtu)
{
    tcp_params_default(p);
    /* a host's TCP: no pacing below the line, no floor, no CWM; the window
     * cap (MWS) made about the peer's receive buffer from the profile's
     * formula, so the peer's advertised window is what bounds the flight */
    p->max_bw_bps = 10000000000ULL;
    p->min_avail_bps = 1000;
    p->cwm = false;
    p->max_retx = 6; /* Linux's tcp_syn_retries: a SYN gives up after 127 s */
    p->keepalive_ns = 7200 * ENGINE_NS_PER_SEC;
    p->mss = mtu > 52 + TCP_MSS_MIN ? mtu - 52 : TCP_MSS_MIN;
    uint64_t w = peer_rcvbuf > 4096 ? peer_rcvbuf - 4096 : 0;
    p->rtt_cfg_ns = (w * 128 * ENGINE_NS_PER_SEC + p->max_bw_bps * 15 - 1) / (p->max_bw_bps * 15) + 1;
    p->rcv_wnd_bytes = rcvbuf < TCP_MWS_MIN ? TCP_MWS_MIN : rcvbuf;
}

static void c_output(void *ctx, const struct tcp_seg *seg, uint32_t ip_len)
{
    struct hconn *hc = ctx;
    struct ipnet_pkt pkt = {.src = hc->lip, .dst = hc->rip, .proto = IPNET_TCP, .host = true, .ip_len = ip_len};
    struct hwire w = {.sport = hc->lport, .dport = hc->rport, .seg = *seg};
    memcpy(pkt.payload, &w, sizeof w);
    if (!ipnet_send(hc->hn->net, hc->hn->first + hc->h, &pkt))
        tcp_seg_drop(seg); /* no route now: lost, as the wire would lose it */
}

static void c_deliver(void *ctx, void *rec, uint32_t len)
{
    struct hconn *hc = ctx;
    if (hc->ops && hc->ops->deliver)
        hc->ops->deliver(hc, rec, len);
    else
        free(rec);
}

static void c_writable(void *ctx)
{
    struct hconn *hc = ctx;
    if (hc->ops && hc->ops->writable)
        hc->ops->writable(hc);
}

static void reap_event(engine_t *e, void *arg)
{
    (void)e;
    hostnet_conn_free(arg);
}

static void schedule_reap(struct hconn *hc)
{
    if (hc->closed && hc->reap && !hc->reaping) {
        hc->reaping = true;
        engine_after(hc->hn->e, 0, reap_event, hc);
    }
}

static void c_state(void *ctx, enum tcp_state st, enum tcp_reason why)
{
    struct hconn *hc = ctx;
    if (st == TCP_CLOSED)
        hc->closed = true;
    if (hc->ops && hc->ops->state)
        hc->ops->state(hc, st, why);
    schedule_reap(hc);
}

static void c_drop(void *ctx, void *rec, uint32_t len)
{
    (void)ctx;
    (void)len;
    free(rec); /* control messages are the only records with a body */
}

static struct hconn *conn_new(struct hostnet *hn, int h, uint32_t lip, uint16_t lport, uint32_t rip,
                              uint16_t rport, const struct tcp_params *p)
{
    struct host *ho = &hn->hosts[h];
    if (ho->nconns >= HOSTNET_CONNS_MAX)
        return NULL;
    struct hconn *hc = calloc(1, sizeof *hc);
    if (!hc)
        abort();
    *hc = (struct hconn){.hn = hn, .h = h, .lip = lip, .rip = rip, .lport = lport, .rport = rport};
    struct tcp_callbacks cb = {c_output, c_deliver, c_writable, c_state, c_drop, hc};
    char name[48];
    snprintf(name, sizeof name, "host%d:%u", h, lport);
    hc->c = tcp_conn_new(hn->e, name, p, &cb);
    if (!hc->c) {
        free(hc);
        return NULL;
    }
    hc->next = ho->conns;
    ho->conns = hc;
    ho->nconns++;
    return hc;
}

struct hconn *hostnet_connect(struct hostnet *hn, int h, uint32_t dst, uint16_t dport, uint32_t rcvbuf,
                              uint32_t peer_rcvbuf, const struct hconn_ops *ops, void *app)
{
    int eth = out_port(hn, h, dst);
    uint16_t lport = eth < 0 ? 0 : hostnet_ephemeral(hn, h);
    if (!lport)
        return NULL;
    struct tcp_params p;
    hostnet_tcp_params(&p, rcvbuf, peer_rcvbuf, hn->hosts[h].mtu[eth]);
    struct hconn *hc = conn_new(hn, h, hn->hosts[h].ip[eth], lport, dst, dport, &p);
    if (!hc)
        return NULL;
    hc->ops = ops;
    hc->app = app;
    tcp_connect(hc->c);
    return hc;
}

void hostnet_conn_free(struct hconn *hc)
{
    struct host *ho = &hc->hn->hosts[hc->h];
    for (struct hconn **p = &ho->conns; *p; p = &(*p)->next)
        if (*p == hc) {
            *p = hc->next;
            ho->nconns--;
            break;
        }
    tcp_conn_free(hc->c);
    free(hc);
}

void hostnet_conn_reap(struct hconn *hc)
{
    hc->reap = true;
    hc->ops = NULL;
    schedule_reap(hc);
}

bool hostnet_listen(struct hostnet *hn, int h, uint16_t port, uint32_t rcvbuf, hconn_accept_fn fn, void *app)
{
    struct host *ho = &hn->hosts[h];
    for (int i = 0; i < LISTEN_MAX; i++)
        if (ho->lis[i].fn && ho->lis[i].port == port)
            return false;
    for (int i = 0; i < LISTEN_MAX; i++)
        if (!ho->lis[i].fn) {
            ho->lis[i] = (struct listener){port, rcvbuf, fn, app};
            return true;
        }
    return false;
}

void hostnet_unlisten(struct hostnet *hn, int h, uint16_t port)
{
    for (int i = 0; i < LISTEN_MAX; i++)
        if (hn->hosts[h].lis[i].fn && hn->hosts[h].lis[i].port == port)
            hn->hosts[h].lis[i].fn = NULL;
}

static int host_of(struct hostnet *hn, int sw) { return sw - hn->first; }

/* No socket for a segment: a reset answers it (but a reset). */
static void send_rst(struct hostnet *hn, int h, const struct ipnet_pkt *in, const struct hwire *w)
{
    if (w->rst || (w->seg.flags & TCP_RST))
        return;
    struct ipnet_pkt pkt = {.src = in->dst, .dst = in->src, .proto = IPNET_TCP, .host = true, .ip_len = 40};
    struct hwire r = {.sport = w->dport, .dport = w->sport, .rst = true};
    memcpy(pkt.payload, &r, sizeof r);
    ipnet_send(hn->net, hn->first + h, &pkt);
}

static struct hconn *find_conn(struct host *ho, uint32_t lip, uint16_t lport, uint32_t rip, uint16_t rport)
{
    for (struct hconn *c = ho->conns; c; c = c->next)
        if (c->lport == lport && c->rport == rport && c->rip == rip && c->lip == lip)
            return c;
    return NULL;
}

static void accept_syn(struct hostnet *hn, int h, const struct ipnet_pkt *pkt, const struct hwire *w)
{
    struct host *ho = &hn->hosts[h];
    for (int i = 0; i < LISTEN_MAX; i++) {
        struct listener *l = &ho->lis[i];
        if (!l->fn || l->port != w->dport)
            continue;
        int eth = out_port(hn, h, pkt->src);
        struct tcp_params p;
        hostnet_tcp_params(&p, l->rcvbuf, HOST_TCP_RCVBUF, eth < 0 ? 1500 : ho->mtu[eth]);
        struct hconn *hc = conn_new(hn, h, pkt->dst, w->dport, pkt->src, w->sport, &p);
        if (!hc)
            break;
        tcp_listen(hc->c);
        l->fn(l->app, hc);
        tcp_input(hc->c, &w->seg);
        return;
    }
    tcp_seg_drop(&w->seg);
    send_rst(hn, h, pkt, w);
}

static void tcp_rx(void *ctx, int sw, const struct ipnet_pkt *pkt)
{
    struct hostnet *hn = ctx;
    int h = host_of(hn, sw);
    struct hwire w;
    memcpy(&w, pkt->payload, sizeof w);
    if (h < 0 || h >= hn->n) {
        if (!w.rst)
            tcp_seg_drop(&w.seg);
        return;
    }
    struct hconn *hc = find_conn(&hn->hosts[h], pkt->dst, w.dport, pkt->src, w.sport);
    if (w.rst) {
        if (hc && !hc->closed && tcp_state_get(hc->c) == TCP_SYN_SENT) {
            hc->refused = true;
            tcp_abort(hc->c);
        }
        return;
    }
    if (hc && !hc->closed)
        tcp_input(hc->c, &w.seg);
    else if (!hc && (w.seg.flags & TCP_SYN) && !(w.seg.flags & TCP_ACK))
        accept_syn(hn, h, pkt, &w);
    else {
        tcp_seg_drop(&w.seg);
        if (!hc)
            send_rst(hn, h, pkt, &w);
    }
}

static void tcp_lost(void *ctx, const struct ipnet_pkt *pkt)
{
    (void)ctx;
    struct hwire w;
    memcpy(&w, pkt->payload, sizeof w);
    if (!w.rst)
        tcp_seg_drop(&w.seg);
}

static uint32_t tcp_render(void *ctx, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap)
{
    (void)ctx;
    struct hwire w;
    memcpy(&w, pkt->payload, sizeof w);
    if (w.rst) {
        struct tcp_seg r = {.flags = TCP_RST};
        return tcp_seg_render(&r, w.sport, w.dport, out, cap);
    }
    return tcp_seg_render(&w.seg, w.sport, w.dport, out, cap);
}

/* ---- UDP ---------------------------------------------------------------- */

bool hostnet_udp_bind(struct hostnet *hn, int h, uint16_t port, hudp_rx_fn fn, void *app)
{
    struct host *ho = &hn->hosts[h];
    for (int i = 0; i < UDP_MAX; i++)
        if (ho->udp[i].fn && ho->udp[i].port == port)
            return false;
    for (int i = 0; i < UDP_MAX; i++)
        if (!ho->udp[i].fn) {
            ho->udp[i] = (struct udpsock){port, fn, app};
            return true;
        }
    return false;
}

void hostnet_udp_unbind(struct hostnet *hn, int h, uint16_t port)
{
    for (int i = 0; i < UDP_MAX; i++)
        if (hn->hosts[h].udp[i].fn && hn->hosts[h].udp[i].port == port)
            hn->hosts[h].udp[i].fn = NULL;
}

bool hostnet_udp_send(struct hostnet *hn, int h, uint16_t sport, uint32_t dst, uint16_t dport, uint32_t len,
                      uint64_t token)
{
    uint32_t src = hostnet_source(hn, h, dst);
    if (!src)
        return false;
    struct ipnet_pkt pkt = {.src = src, .dst = dst, .proto = UDP_PROTO, .host = true,
                            .ip_len = IPNET_HEADER + UDP_HDR + len};
    struct uwire w = {sport, dport, token};
    memcpy(pkt.payload, &w, sizeof w);
    return ipnet_send(hn->net, hn->first + h, &pkt);
}

static void udp_rx(void *ctx, int sw, const struct ipnet_pkt *pkt)
{
    struct hostnet *hn = ctx;
    int h = host_of(hn, sw);
    if (h < 0 || h >= hn->n)
        return;
    struct uwire w;
    memcpy(&w, pkt->payload, sizeof w);
    for (int i = 0; i < UDP_MAX; i++) {
        struct udpsock *u = &hn->hosts[h].udp[i];
        if (u->fn && u->port == w.dport) {
            u->fn(u->app, pkt->src, w.sport, pkt->ip_len - IPNET_HEADER - UDP_HDR, w.token);
            return;
        }
    }
    /* nobody: Linux answers port unreachable; netperf never sees it */
}

static uint32_t udp_render(void *ctx, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap)
{
    (void)ctx;
    struct uwire w;
    memcpy(&w, pkt->payload, sizeof w);
    uint32_t n = pkt->ip_len - IPNET_HEADER;
    n = n < cap ? n : cap;
    memset(out, 0, n);
    uint8_t h[UDP_HDR] = {(uint8_t)(w.sport >> 8), (uint8_t)w.sport, (uint8_t)(w.dport >> 8), (uint8_t)w.dport,
                          (uint8_t)((pkt->ip_len - IPNET_HEADER) >> 8), (uint8_t)(pkt->ip_len - IPNET_HEADER), 0, 0};
    memcpy(out, h, n < UDP_HDR ? n : UDP_HDR);
    return n;
}
