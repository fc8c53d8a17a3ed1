/* ICMP on the data plane: the switch answers echo requests to its own
 * addresses, and `ping` sends them and collects the replies. */
#include "ipnet_int.h"
#include <stddef.h>
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
_Static_assert(sizeof(struct ipnet_icmp_err) <= IPNET_PAYLOAD_MAX, "an ICMP error fits the payload");
_Static_assert(offsetof(struct echo, sent_at) + sizeof(uint64_t) <= IPNET_ICMP_QUOTE,
               "an error quotes the whole echo header");
/* an error carries its header, the datagram's IP header and 8 bytes */
#define ICMP_ERR_LEN (IPNET_HEADER + ICMP_HEADER + IPNET_HEADER + 8u)

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

/* The answer to request h of a ping: a reply from its destination
 * (type 0), or an error from `from` about it. */
static void got_answer(struct icmp *ic, int sw, uint32_t dst, const struct echo *h, uint32_t from, uint8_t type,
                       uint8_t code)
{
    struct ipnet_ping *pg = ping_find(ic, h->id);
    uint64_t now = engine_now(ipnet_engine(ic->net));
    if (pg && sw == pg->sw && dst == pg->dst && h->seq >= 0 && h->seq < pg->count &&
        pg->rtt_ns[h->seq] == UINT64_MAX && now - h->sent_at <= pg->timeout_ns) {
        pg->rtt_ns[h->seq] = now - h->sent_at;
        pg->from[h->seq] = from;
        pg->type[h->seq] = type;
        pg->code[h->seq] = code;
    }
}

/* An error a router sent about one of this switch's datagrams: a ping's
 * (traceroute's) answer, or the datagram's protocol's business. */
static void got_error(struct icmp *ic, int sw, const struct ipnet_pkt *pkt)
{
    struct ipnet_icmp_err err;
    memcpy(&err, pkt->payload, sizeof err);
    if (err.proto == IPNET_ICMP) {
        struct echo h = {0};
        memcpy(&h, err.quote, sizeof h);
        if (h.type == ECHO_REQUEST)
            got_answer(ic, sw, err.dst, &h, pkt->src, err.type, err.code);
        return;
    }
    ipnet_icmp_error_to(ic->net, sw, &err);
}

void ipnet_icmp_error_pkt(struct ipnet_pkt *out, uint32_t from, const struct ipnet_pkt *orig, uint8_t type,
                          uint8_t code, uint32_t mtu)
{
    struct ipnet_icmp_err e = {.type = type, .code = code, .mtu = mtu, .from = from, .src = orig->src,
                               .dst = orig->dst, .proto = orig->proto};
    memcpy(e.quote, orig->payload, sizeof e.quote);
    *out = (struct ipnet_pkt){.src = from, .dst = orig->src, .proto = IPNET_ICMP, .ip_len = ICMP_ERR_LEN};
    memcpy(out->payload, &e, sizeof e);
}

bool ipnet_icmp_echo_reply(const struct ipnet_pkt *in, struct ipnet_pkt *out)
{
    struct echo h;
    memcpy(&h, in->payload, sizeof h);
    if (in->proto != IPNET_ICMP || h.type != ECHO_REQUEST)
        return false;
    *out = *in;
    out->src = in->dst;
    out->dst = in->src;
    out->ttl = 0;
    h.type = ECHO_REPLY;
    memcpy(out->payload, &h, sizeof h);
    return true;
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
        got_answer(ic, sw, pkt->src, &h, pkt->src, 0, 0);
        return;
    }
    if (h.type == IPNET_ICMP_UNREACH || h.type == IPNET_ICMP_TIME_EXCEEDED) {
        got_error(ic, sw, pkt);
        return;
    }
    if (h.type != ECHO_REQUEST)
        return;
    struct ipnet_pkt r;
    ipnet_icmp_echo_reply(pkt, &r);
    if (ipnet_send(ic->net, sw, &r))
        ipnet_icmp_count(ic->net, sw, r.src, r.dst, IPNET_REPLY_OUT);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* An error as RFC 792 lays it out: type, code, the next hop's MTU (RFC
 * 1191), then the datagram's IP header (checksum 0) and 8 bytes of it. */
static uint32_t error_render(const struct ipnet_pkt *pkt, uint8_t *out, uint32_t n)
{
    struct ipnet_icmp_err e;
    memcpy(&e, pkt->payload, sizeof e);
    if (n < ICMP_ERR_LEN - IPNET_HEADER)
        return 0;
    memset(out, 0, n);
    out[0] = e.type, out[1] = e.code;
    out[6] = (uint8_t)(e.mtu >> 8), out[7] = (uint8_t)e.mtu;
    uint8_t *ip = out + ICMP_HEADER;
    ip[0] = 0x45, ip[8] = 1, ip[9] = e.proto;
    put32(ip + 12, e.src);
    put32(ip + 16, e.dst);
    memcpy(ip + IPNET_HEADER, e.quote, 8);
    return ICMP_ERR_LEN - IPNET_HEADER;
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
    if (h.type == IPNET_ICMP_UNREACH || h.type == IPNET_ICMP_TIME_EXCEEDED)
        return error_render(pkt, out, n);
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
    p->from = calloc((size_t)p->count, sizeof *p->from);
    p->type = calloc((size_t)p->count, 1);
    p->code = calloc((size_t)p->count, 1);
    if (!p->rtt_ns || !p->from || !p->type || !p->code)
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
        rq->pkt = (struct ipnet_pkt){.src = p->src, .dst = p->dst, .proto = IPNET_ICMP, .ttl = p->ttl,
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
    return p->t0 + (uint64_t)seq * (p->gap_ns ? p->gap_ns : ENGINE_NS_PER_SEC);
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

uint32_t ipnet_ping_from(const struct ipnet_ping *p, int seq, uint8_t *type, uint8_t *code)
{
    *type = p->type[seq];
    *code = p->code[seq];
    return p->from[seq];
}

void ipnet_ping_end(struct ipnet *net, struct ipnet_ping *p)
{
    struct icmp *ic = ipnet_proto_ctx(net, IPNET_ICMP);
    struct ipnet_ping **pp = &ic->pings;
    while (*pp && *pp != p)
        pp = &(*pp)->next;
    if (*pp)
        *pp = p->next;
    free(p->rtt_ns);
    free(p->from);
    free(p->type);
    free(p->code);
    p->rtt_ns = NULL;
    p->from = NULL;
    p->type = p->code = NULL;
}
