/* Receiver: reassembly, record delivery, ACK policy, SACK blocks. */
#include "tcp/tcp_int.h"

/* RFC 7323 section 4.3: remember the peer's timestamp of the segment that
 * the next ACK acknowledges first, so the echo measures the full RTT,
 * delayed-ACK wait included. */
void tcp_rcv_ts(tcp_conn *c, const struct tcp_seg *seg)
{
    if (seg->seq <= c->last_ack_sent && seg->ts_val >= c->ts_recent)
        c->ts_recent = seg->ts_val;
}

/* RFC 2018: the block holding the latest segment first, then the most
 * recently changed others. Up to 3 fit beside the timestamps. */
uint8_t tcp_sack_blocks(const tcp_conn *c, struct tcp_sack_block *out)
{
    if (!c->sack_ok || c->ooo.n == 0)
        return 0;
    uint8_t n = 0;
    uint64_t below = UINT64_MAX;
    while (n < TCP_SACK_MAX) {
        const struct tcp_range *best = NULL;
        for (uint32_t i = 0; i < c->ooo.n; i++) {
            const struct tcp_range *r = &c->ooo.r[i];
            if (r->stamp < below && (!best || r->stamp > best->stamp))
                best = r;
        }
        if (!best)
            break;
        out[n++] = (struct tcp_sack_block){ best->start, best->end };
        below = best->stamp;
    }
    return n;
}

void tcp_send_ack(tcp_conn *c)
{
    tcp_emit(c, TCP_ACK, c->snd_max, 0);
}

void tcp_delack_event(engine_t *e, void *arg)
{
    (void)e;
    tcp_conn *c = arg;
    c->delack_t.id = 0;
    if (c->delack_t.deadline == ENGINE_TIME_NEVER)
        return;
    c->delack_t.deadline = ENGINE_TIME_NEVER;
    if (c->ack_pending && c->state != TCP_CLOSED)
        tcp_send_ack(c);
}

/* Hand over every record whose last byte is now in order. */
static void deliver_records(tcp_conn *c)
{
    struct tcp_rec r;
    while (c->in && c->state != TCP_CLOSED && tcp_stream_pop_upto(c->in, c->rcv_nxt, &r)) {
        c->st.recs_delivered++;
        c->cb.deliver(c->cb.ctx, r.rec, r.len);
    }
}

/* Advance rcv_nxt over [s, e) (s <= rcv_nxt) and any queued data it joins. */
static void advance(tcp_conn *c, uint64_t e)
{
    uint64_t before = c->rcv_nxt;
    if (e > c->rcv_nxt)
        c->rcv_nxt = e;
    if (c->ooo.n && c->ooo.r[0].start <= c->rcv_nxt) {
        if (c->ooo.r[0].end > c->rcv_nxt)
            c->rcv_nxt = c->ooo.r[0].end;
    }
    tcp_ranges_cut_below(&c->ooo, c->rcv_nxt);
    c->st.bytes_delivered += c->rcv_nxt - before;
}

static void take_fin(tcp_conn *c)
{
    if (c->have_peer_fin && !c->fin_rcvd && c->rcv_nxt == c->peer_fin_seq) {
        c->rcv_nxt++;
        c->fin_rcvd = true;
        c->ack_now = true;
    }
}

/* RFC 5681 section 4.2: ACK every second full-size segment or within the
 * delayed-ACK time; at once for out-of-order data, for data filling a
 * hole and for duplicates. */
void tcp_rcv_data(tcp_conn *c, const struct tcp_seg *seg)
{
    uint64_t s = seg->seq, e = seg->seq + seg->len;
    uint64_t edge = c->rcv_nxt + c->rcv_wnd > c->rcv_edge ? c->rcv_nxt + c->rcv_wnd : c->rcv_edge;
    if (e < s || e > edge) {
        c->ack_now = true;      /* beyond the window we advertised: not acceptable */
        return;
    }
    if (seg->flags & TCP_FIN) {
        c->have_peer_fin = true;
        c->peer_fin_seq = e;
    }
    if (seg->len == 0) {
        if (!(seg->flags & TCP_FIN) && s + 1 == c->rcv_nxt)
            c->ack_now = true;      /* a keepalive probe */
        take_fin(c);
        if ((seg->flags & TCP_FIN) && e < c->rcv_nxt)
            c->ack_now = true;      /* a retransmitted FIN */
        return;
    }
    if (e <= c->rcv_nxt) {
        c->ack_now = true;
        return;
    }
    if (s > c->rcv_nxt) {
        c->st.ooo_segs++;
        tcp_ranges_add(&c->ooo, s, e, ++c->ooo_stamp);
        c->ack_now = true;
        return;
    }
    bool filled_hole = c->ooo.n > 0;
    advance(c, e);
    take_fin(c);
    if (filled_hole) {
        c->ack_now = true;
    } else {
        c->ack_pending += seg->len;
        if (c->ack_pending >= 2ull * c->rcv_mss)
            c->ack_now = true;
        else if (c->delack_t.deadline == ENGINE_TIME_NEVER)
            tcp_timer_arm(c, &c->delack_t, engine_now(c->e) + TCP_DELACK_NS);
    }
    deliver_records(c);
}
