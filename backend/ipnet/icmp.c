/* ICMP on the data plane: the switch answers echo requests to its own
 * addresses, and `ping` sends them and collects the replies. */
#include "ipnet.h"
#include <stdlib.h>
#include <string.h>

enum { ECHO_REPLY = 0, ECHO_REQUEST = 8 };
#define ICMP_HEADER 8u

/* The ICMP header as it rides in ipnet_pkt.payload. */
struct echo {
    uint8_t type;
    int id, seq;
    uint64_t sent_at;
};
_Static_assert(sizeof(struct echo) <= IPNET_PAYLOAD_MAX, "ICMP header fits the payload");

/* One request of a ping, waiting for its send time. */
struct request {
    struct icmp *ic;
    struct ipnet_pkt pkt;
    struct request *prev, *next;
};

struct icmp {
    struct ipnet *net;
    struct ipnet_ping *pings; /* those under way */
    int last_id;
    struct request *waiting;  /* freed with the lab if their time never comes */
};

static struct ipnet_ping *ping_find(struct icmp *ic, int id)
{
    struct ipnet_ping *p = ic->pings;
    while (p && p->id != id)
        p = p->next;
    return p;
}

static void got_reply(struct icmp *ic, int sw, const struct ipnet_pkt *pkt, const struct echo *h)
{
    struct ipnet_ping *pg = ping_find(ic, h->id);
    uint64_t now = engine_now(ipnet_engine(ic->net));
    if (pg && sw == pg->sw && pkt->src == pg->dst && h->seq >= 0 && h->seq < pg->count &&
        pg->rtt_ns[h->seq] == UINT64_MAX && now - h->sent_at <= pg->timeout_ns)
        pg->rtt_ns[h->seq] = now - h->sent_at;
}

/* Only an echo request is answered; anything else ends here. */
static void icmp_receive(void *ctx, int sw, const struct ipnet_pkt *pkt)
{
    struct icmp *ic = ctx;
    struct echo h;
    memcpy(&h, pkt->payload, sizeof h);
    if (h.type == ECHO_REPLY || h.type == ECHO_REQUEST)
        ipnet_icmp_count(ic->net, sw, pkt->dst, pkt->src, h.type == ECHO_REPLY ? IPNET_REPLY_IN : IPNET_ECHO_IN);
    if (h.type == ECHO_REPLY) {
        got_reply(ic, sw, pkt, &h);
        return;
    }
    if (h.type != ECHO_REQUEST)
        return;
    struct ipnet_pkt r = *pkt;
    r.src = pkt->dst;
    r.dst = pkt->src;
    h.type = ECHO_REPLY;
    memcpy(r.payload, &h, sizeof h);
    if (ipnet_send(ic->net, sw, &r))
        ipnet_icmp_count(ic->net, sw, r.src, r.dst, IPNET_REPLY_OUT);
}

/* The echo as a capture shows it (docs/capture.md): the real header,
 * checksum left to the capture, and data bytes 0, 1, 2... (the data is
 * counted, never stored; a reply carries the request's). */
static uint32_t icmp_render(void *ctx, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap)
{
    (void)ctx;
    struct echo h;
    memcpy(&h, pkt->payload, sizeof h);
    uint32_t n = pkt->ip_len - IPNET_HEADER;
    if (cap < n || n < ICMP_HEADER)
        return 0;
    uint8_t hdr[ICMP_HEADER] = {h.type, 0, 0, 0, (uint8_t)(h.id >> 8), (uint8_t)h.id, (uint8_t)(h.seq >> 8),
                                (uint8_t)h.seq};
    memcpy(out, hdr, sizeof hdr);
    for (uint32_t i = ICMP_HEADER; i < n; i++)
        out[i] = (uint8_t)(i - ICMP_HEADER);
    return n;
}

void ipnet_icmp_init(struct ipnet *net)
{
    struct icmp *ic = calloc(1, sizeof *ic);
    if (!ic)
        abort();
    ic->net = net;
    ipnet_register(net, IPNET_ICMP, icmp_receive, NULL, ic);
    ipnet_set_render(net, IPNET_ICMP, icmp_render, ic);
}

void ipnet_icmp_free(struct ipnet *net)
{
    struct icmp *ic = ipnet_proto_ctx(net, IPNET_ICMP);
    while (ic->waiting) {
        struct request *rq = ic->waiting;
        ic->waiting = rq->next;
        free(rq);
    }
    free(ic);
}

static void request_unlink(struct request *rq)
{
    if (rq->prev)
        rq->prev->next = rq->next;
    else
        rq->ic->waiting = rq->next;
    if (rq->next)
        rq->next->prev = rq->prev;
}

static void send_echo(engine_t *e, void *arg)
{
    struct request *rq = arg;
    struct echo h;
    memcpy(&h, rq->pkt.payload, sizeof h);
    struct ipnet_ping *p = ping_find(rq->ic, h.id);
    if (p) { /* else the ping was stopped */
        p->sent++;
        h.sent_at = engine_now(e);
        memcpy(rq->pkt.payload, &h, sizeof h);
        if (ipnet_send(rq->ic->net, p->sw, &rq->pkt))
            ipnet_icmp_count(rq->ic->net, p->sw, rq->pkt.src, rq->pkt.dst, IPNET_ECHO_OUT);
    }
    request_unlink(rq);
    free(rq);
}

int ipnet_ping_start(struct ipnet *net, int sw, struct ipnet_ping *p)
{
    struct icmp *ic = ipnet_proto_ctx(net, IPNET_ICMP);
    if (!ipnet_route_mtu(net, sw, p->dst) && !ipnet_owns(net, sw, p->dst))
        return -1;
    p->sw = sw;
    p->sent = 0;
    p->id = ++ic->last_id;
    p->t0 = engine_now(ipnet_engine(net));
    p->rtt_ns = malloc((size_t)p->count * sizeof *p->rtt_ns);
    if (!p->rtt_ns)
        abort();
    for (int i = 0; i < p->count; i++) {
        struct request *rq = calloc(1, sizeof *rq);
        if (!rq)
            abort();
        struct echo h = {ECHO_REQUEST, p->id, i, 0};
        rq->ic = ic;
        rq->next = ic->waiting;
        if (ic->waiting)
            ic->waiting->prev = rq;
        ic->waiting = rq;
        rq->pkt = (struct ipnet_pkt){.dst = p->dst, .proto = IPNET_ICMP,
                                     .ip_len = IPNET_HEADER + ICMP_HEADER + (uint32_t)p->size};
        memcpy(rq->pkt.payload, &h, sizeof h);
        p->rtt_ns[i] = UINT64_MAX;
        engine_at(ipnet_engine(net), ipnet_ping_send_time(p, i), send_echo, rq);
    }
    p->next = ic->pings;
    ic->pings = p;
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

bool ipnet_ping_wait(struct ipnet *net, struct ipnet_ping *p, int seq, uint64_t until)
{
    struct ping_wait w = {p, seq};
    uint64_t deadline = ipnet_ping_send_time(p, seq) + p->timeout_ns;
    if (engine_run_while(ipnet_engine(net), unanswered, &w, until < deadline ? until : deadline))
        return true;
    return until >= deadline;
}

uint64_t ipnet_ping_rtt(const struct ipnet_ping *p, int seq) { return p->rtt_ns[seq]; }

void ipnet_ping_end(struct ipnet *net, struct ipnet_ping *p)
{
    struct icmp *ic = ipnet_proto_ctx(net, IPNET_ICMP);
    struct ipnet_ping **pp = &ic->pings;
    while (*pp && *pp != p)
        pp = &(*pp)->next;
    if (*pp)
        *pp = p->next;
    free(p->rtt_ns);
    p->rtt_ns = NULL;
}
