/* The bytes of a segment, for captures (docs/capture.md). Nothing here
 * runs unless a capture is on: the simulation never needs them. */
#include "tcp/tcp_int.h"

#include <string.h>


void tcp_set_render(tcp_conn *c, tcp_render_fn fn) { c->out->render = fn; }

static uint8_t *put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return p + 2;
}

static uint8_t *put32(uint8_t *p, uint64_t v)
{
    p = put16(p, (uint32_t)(v >> 16 & 0xffff));
    return put16(p, (uint32_t)(v & 0xffff));
}

/* Options in Linux's order: SYNs MSS, SACK-permitted, timestamps, window
 * scale (20 bytes; the simulation counts 12 for every segment, so a
 * captured SYN is 8 bytes longer than the one it timed); others NOP NOP
 * timestamps, then the SACK blocks. */
static uint8_t *options(const struct tcp_seg *seg, uint8_t *p)
{
    if (seg->flags & TCP_SYN) {
        p = put16(put16(p, 0x0204), seg->mss);
        if (seg->sack_ok)
            p = put16(p, 0x0402);
        else
            p = put16(p, 0x0101);
    } else {
        p = put16(p, 0x0101);
    }
    *p++ = 8;
    *p++ = 10;
    p = put32(put32(p, seg->ts_val / 1000u), seg->ts_ecr / 1000u);
    if (seg->flags & TCP_SYN) {
        p = put16(p, 0x0103);
        p = put16(p, 0x0300 | seg->wscale);
    }
    if (seg->n_sack) {
        p = put16(p, 0x0101);
        *p++ = 5;
        *p++ = (uint8_t)(2 + 8 * seg->n_sack);
        for (int i = 0; i < seg->n_sack; i++)
            p = put32(put32(p, seg->sack[i].start), seg->sack[i].end);
    }
    return p;
}

struct fill {
    const struct tcp_stream *s;
    uint64_t seq;
    uint8_t *out;
};

static void fill_rec(void *ctx, const struct tcp_rec *r, uint64_t from, uint64_t to)
{
    struct fill *f = ctx;
    f->s->render(r->rec, (uint32_t)(from - (r->end - r->len)), f->out + (from - f->seq), (uint32_t)(to - from));
}

uint32_t tcp_seg_render(const struct tcp_seg *seg, uint16_t sport, uint16_t dport, uint8_t *out, uint32_t cap)
{
    uint32_t hdr = 32u + (seg->flags & TCP_SYN ? 8u : 0u) + (seg->n_sack ? 4u + 8u * seg->n_sack : 0u);
    if (cap < hdr + seg->len)
        return 0;
    static const uint8_t bits[][2] = {{TCP_FIN, 0x01}, {TCP_SYN, 0x02}, {TCP_RST, 0x04}, {TCP_ACK, 0x10}};
    uint8_t flags = seg->len ? 0x08 : 0; /* PSH on data, as the FCIP ends send whole frames */
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (seg->flags & bits[i][0])
            flags |= bits[i][1];
    uint8_t *p = put16(put16(out, sport), dport);
    p = put32(put32(p, seg->seq), seg->flags & TCP_ACK ? seg->ack : 0);
    *p++ = (uint8_t)(hdr / 4 << 4);
    *p++ = flags;
    p = put16(p, seg->flags & TCP_SYN ? 0xffff : seg->window >> seg->wscale);
    p = put32(p, 0); /* checksum (the capture's) and urgent pointer */
    p = options(seg, p);
    memset(p, 0, seg->len);
    if (seg->len && seg->stream && seg->stream->render) {
        struct fill f = {seg->stream, seg->seq, p};
        tcp_stream_each(seg->stream, seg->seq, seg->seq + seg->len, fill_rec, &f);
    }
    return hdr + seg->len;
}
