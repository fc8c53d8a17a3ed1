/* Sender: what to send next, when (pacing, window cap, floor, cwnd), and
 * what ACKs, SACK blocks and timeouts change (RFC 5681, 6675, 6582, 6298;
 * engine-model.md section 4.3). docs/tcp.md explains the choices. */
#include "tcp/tcp_int.h"

#define CLOCK_G_NS ENGINE_NS_PER_MS     /* RFC 6298 clock granularity G */
#define DUPTHRESH 3u

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The RTT the MDS rules use: the measured one once there is a sample,
 * the configured one before. */
static uint64_t rtt_est(const tcp_conn *c)
{
    return c->have_rtt ? c->srtt : c->p.rtt_cfg_ns;
}

/* MWS = clamp(max_bw/8 x RTT_w x 0.9375 + 4096, 14 KB, 32 MB),
 * RTT_w = min(max(srtt, rtt_cfg), 4 x rtt_cfg). */
static uint64_t mws_compute(const tcp_conn *c)
{
    uint64_t cfg = c->p.rtt_cfg_ns;
    uint64_t rw = min64(max64(rtt_est(c), cfg), 4 * cfg);
    uint64_t w = tcp_muldiv(c->p.max_bw_bps, rw * 15, 128 * ENGINE_NS_PER_SEC) + 4096;
    return min64(max64(w, TCP_MWS_MIN), TCP_MWS_MAX);
}

/* W_floor = min_avail/8 x srtt. Both are needed on every ACK and segment
 * but change only with srtt or the profile: computed there, read here. */
uint64_t tcp_rcv_wnd_max_of(const struct tcp_params *p)
{
    if (p->rcv_wnd_bytes)
        return p->rcv_wnd_bytes;
    uint64_t w = tcp_muldiv(p->max_bw_bps, 4 * p->rtt_cfg_ns, 8 * ENGINE_NS_PER_SEC) + 4096;
    return min64(max64(w, TCP_MWS_MIN), TCP_MWS_MAX);
}

/* Twice the RTT, as a receive buffer autotuned from the data of one RTT
 * is (Linux's rcv_space): a receiver whose samples miss the queueing its
 * peer's see still never binds a peer of the same profile, whose window
 * cap is at most 15/16 of the bandwidth times its own RTT_w. Without a
 * sample of its own (it only receives) it offers the maximum. */
uint64_t tcp_rcv_wnd_of(const struct tcp_params *p, uint64_t srtt_ns)
{
    if (p->rcv_wnd_bytes)
        return p->rcv_wnd_bytes;
    uint64_t cfg = p->rtt_cfg_ns, rw = srtt_ns ? min64(2 * max64(srtt_ns, cfg), 4 * cfg) : 4 * cfg;
    uint64_t w = tcp_muldiv(p->max_bw_bps, rw, 8 * ENGINE_NS_PER_SEC) + 4096;
    return min64(max64(w, TCP_MWS_MIN), tcp_rcv_wnd_max_of(p));
}

uint8_t tcp_wscale_of(uint64_t wnd)
{
    uint8_t s = 0;
    while (s < TCP_WSCALE_MAX && (wnd >> s) > 0xffff)
        s++;
    return s;
}

void tcp_derive(tcp_conn *c)
{
    /* the scale went out on the SYN: a live profile change cannot widen it */
    c->rcv_wnd_max = min64(tcp_rcv_wnd_max_of(&c->p), (uint64_t)0xffff << c->rcv_wscale);
    c->rcv_wnd = min64(tcp_rcv_wnd_of(&c->p, c->have_rtt ? c->srtt : 0), c->rcv_wnd_max);
    c->mws = mws_compute(c);
    c->w_floor = tcp_muldiv(c->p.min_avail_bps, rtt_est(c), 8 * ENGINE_NS_PER_SEC);
}

uint64_t tcp_mws(const tcp_conn *c)
{
    return c->mws;
}

uint64_t tcp_w_floor(const tcp_conn *c)
{
    return c->w_floor;
}

uint64_t tcp_cwnd_now(const tcp_conn *c)
{
    return max64(c->cwnd, tcp_w_floor(c));
}

/* RFC 5681 initial window. */
static uint64_t initial_window(const tcp_conn *c)
{
    if (c->mss > 2190)
        return 2ull * c->mss;
    if (c->mss > 1095)
        return 3ull * c->mss;
    return 4ull * c->mss;
}

uint64_t tcp_buffered(const tcp_conn *c)
{
    uint64_t una = max64(c->snd_una, 1);
    return c->snd_end > una ? c->snd_end - una : 0;
}

static void rto_update(tcp_conn *c)
{
    uint64_t rto = c->srtt + max64(CLOCK_G_NS, 4 * c->rttvar);
    c->rto = min64(max64(rto, c->p.min_rto_ns), TCP_RTO_MAX_NS);
}

/* RFC 6298 section 2, fed by timestamp echoes (RFC 7323), which are valid
 * for retransmitted segments too, so Karn's rule is not needed. */
void tcp_rtt_sample(tcp_conn *c, uint64_t r)
{
    uint64_t now = engine_now(c->e);
    if (c->min_rtt == 0 || r <= c->min_rtt || now - c->min_rtt_at > TCP_MIN_RTT_WIN_NS) {
        c->min_rtt = r;
        c->min_rtt_at = now;
    }
    if (!c->have_rtt) {
        c->srtt = r;
        c->rttvar = r / 2;
        c->have_rtt = true;
    } else {
        uint64_t d = c->srtt > r ? c->srtt - r : r - c->srtt;
        c->rttvar = (3 * c->rttvar + d) / 4;
        c->srtt = (7 * c->srtt + r) / 8;
    }
    rto_update(c);
    tcp_derive(c);
    tcp_shaper_update(c);
}

/* ---- the shaper ----------------------------------------------------------
 * Segments leave at max-bandwidth unless the path queues our data: the
 * smoothed RTT beyond the path's minimum plus max-jitter, times the rate
 * the path delivered lately, is more than 3 of our segments (TCP Vegas'
 * test). Then the shaper slows to 5/4 of that rate: enough to find more
 * room, not enough to pour a window into a queue (docs/tcp-shaper.md). */

uint64_t tcp_bw_est(const tcp_conn *c)
{
    uint64_t bw = 0;
    for (uint32_t i = 0; i < TCP_BW_ROUNDS; i++)
        bw = max64(bw, c->bw_ring[i]);
    return bw;
}

void tcp_shaper_update(tcp_conn *c)
{
    uint64_t rate = c->p.max_bw_bps, bw = tcp_bw_est(c);
    uint64_t base = c->min_rtt + c->p.max_jitter_ns;
    uint64_t queued = c->srtt > base ? tcp_muldiv(c->srtt - base, bw, ENGINE_NS_PER_SEC) : 0;
    if (queued > TCP_SHAPER_QUEUE_SEGS * (uint64_t)c->mss) {
        /* payload bytes/s to L2 bits/s, as the pacer counts, with 5/4 gain */
        uint64_t l2 = tcp_muldiv(bw, 10ull * (c->mss + TCP_HDR_BYTES + TCP_PACE_L2_OVERHEAD), c->mss);
        rate = min64(rate, max64(l2, TCP_PACE_MIN_BPS));
    }
    if (rate != c->pace_bps) {
        c->pace_bps = rate;
        c->pace_rem = 0;        /* the carry is in units of the old rate */
    }
}

/* One delivery-rate sample per round of at least the path's RTT: bytes
 * newly ACKed or SACKed over the round's time, so a cumulative ACK that
 * fills a hole counts only the retransmission, not what was SACKed before. */
static void rate_sample(tcp_conn *c, uint64_t now)
{
    if (c->round_t0 == 0 || !c->have_rtt) {
        c->round_t0 = now;
        c->round_d0 = c->delivered;
        return;
    }
    uint64_t dt = now - c->round_t0;
    if (dt < max64(c->min_rtt, ENGINE_NS_PER_MS))
        return;
    c->bw_ring[c->bw_i] = tcp_muldiv(c->delivered - c->round_d0, ENGINE_NS_PER_SEC, dt);
    c->bw_i = (c->bw_i + 1) % TCP_BW_ROUNDS;
    c->round_t0 = now;
    c->round_d0 = c->delivered;
    tcp_shaper_update(c);
}

void tcp_rto_refresh(tcp_conn *c)
{
    if (c->have_rtt && c->retx_count == 0)
        rto_update(c);
}

void tcp_out_established(tcp_conn *c)
{
    c->cwnd = initial_window(c);
    c->ssthresh = UINT64_MAX / 4;
    c->recover = c->snd_una;
    c->high_rxt = c->lost_hi = c->snd_una;
}

/* ---- the scoreboard ----------------------------------------------------- */

static uint64_t unsacked_in(const tcp_conn *c, uint64_t a, uint64_t b)
{
    if (a >= b)
        return 0;
    uint64_t s = tcp_ranges_bytes_above(&c->sacked, a) - tcp_ranges_bytes_above(&c->sacked, b);
    return (b - a) - s;
}

/* RFC 6675 IsLost for the hole at seq: DupThresh SACKed blocks above it,
 * or more than (DupThresh - 1) x MSS SACKed bytes above it. */
static bool is_lost(const tcp_conn *c, uint64_t seq)
{
    uint32_t i = tcp_ranges_find(&c->sacked, seq);
    return c->sacked.n - i >= DUPTHRESH ||
           tcp_ranges_bytes_above(&c->sacked, seq) > (DUPTHRESH - 1) * (uint64_t)c->mss;
}

/* Everything unSACKed below the highest hole that IsLost is lost: scan
 * from the top, where the SACKed count and bytes above a hole are least. */
static void mark_lost(tcp_conn *c)
{
    uint64_t acc = 0;
    for (uint32_t k = c->sacked.n; k-- > 0;) {
        acc += c->sacked.r[k].end - c->sacked.r[k].start;
        if (c->sacked.n - k >= DUPTHRESH || acc > (DUPTHRESH - 1) * (uint64_t)c->mss) {
            c->lost_hi = max64(c->lost_hi, c->sacked.r[k].start);
            return;
        }
    }
}

/* RFC 6675 pipe: outstanding bytes neither SACKed nor lost-and-not-yet-
 * retransmitted. Without SACK, each dupACK stands for a segment that left
 * the network (as Linux's NewReno does), so the same rule serves both. */
static uint64_t pipe_bytes(const tcp_conn *c)
{
    uint64_t out = c->snd_max - c->snd_una;
    uint64_t sacked;
    if (c->sack_ok) {
        sacked = c->sacked.bytes;
    } else {
        uint64_t cap = out > c->mss ? out - c->mss : 0;
        sacked = min64((uint64_t)c->reno_sacked * c->mss, cap);
    }
    uint64_t from = max64(c->high_rxt, c->snd_una);
    uint64_t lost = unsacked_in(c, from, min64(c->lost_hi, c->snd_max));
    uint64_t p = out - sacked;
    return p > lost ? p - lost : 0;
}

/* ---- choosing and sending segments ------------------------------------ */

struct pick {
    uint64_t seq;
    uint32_t len;
    bool fin, retx;
};

/* RFC 6675 NextSeg rule 1 (and go-back-N after an RTO, where every
 * outstanding byte is lost): the first lost, unSACKed byte not yet
 * retransmitted. */
static bool pick_retx(tcp_conn *c, struct pick *k, uint32_t room)
{
    if (c->rto_rxt && c->snd_una < c->snd_end) {
        uint64_t lim = c->snd_end;
        if (c->sacked.n > 0 && c->sacked.r[0].start > c->snd_una)
            lim = min64(lim, c->sacked.r[0].start);
        *k = (struct pick){ c->snd_una, (uint32_t)min64(room, lim - c->snd_una), false, true };
        return true;
    }
    uint64_t from = max64(c->high_rxt, c->snd_una);
    uint64_t top = min64(c->lost_hi, c->snd_max);
    while (from < top) {
        uint32_t i = tcp_ranges_find(&c->sacked, from);
        if (i < c->sacked.n && c->sacked.r[i].start <= from) {
            from = c->sacked.r[i].end;
            continue;
        }
        if (from >= c->snd_end) {
            *k = (struct pick){ c->snd_end, 0, true, true };
            return true;
        }
        uint64_t lim = min64(top, c->snd_end);
        if (i < c->sacked.n && c->sacked.r[i].start < lim)
            lim = c->sacked.r[i].start;
        *k = (struct pick){ from, (uint32_t)min64(room, lim - from), false, true };
        return true;
    }
    if (c->high_rxt < top)
        c->high_rxt = top;      /* the rest of the lost region is SACKed */
    return false;
}

/* What may go now, or false. New data only in whole segments unless it is
 * the tail of what was written (sender-side silly window avoidance). */
static bool pick(tcp_conn *c, struct pick *k, uint32_t room)
{
    uint64_t cwnd = tcp_cwnd_now(c);
    uint64_t pipe = pipe_bytes(c);
    if (pick_retx(c, k, room)) {
        uint64_t need = k->len ? k->len : 1;
        return c->force_retx || pipe + need <= cwnd;
    }
    uint64_t wnd = min64(tcp_mws(c), c->peer_wnd);
    if (c->snd_max < c->snd_end) {
        uint32_t len = (uint32_t)min64(room, c->snd_end - c->snd_max);
        if (c->cork && len < room)
            return false;       /* more is coming: wait for a full segment */
        *k = (struct pick){ c->snd_max, len, false, false };
        return c->snd_max + len - c->snd_una <= wnd && pipe + len <= cwnd;
    }
    if (c->fin_queued && !c->fin_sent) {
        *k = (struct pick){ c->snd_end, 0, true, false };
        return true;
    }
    return false;
}

static uint64_t pace_ns(tcp_conn *c, uint32_t ip_len)
{
    uint64_t num = (uint64_t)(ip_len + TCP_PACE_L2_OVERHEAD) * 8 * ENGINE_NS_PER_SEC + c->pace_rem;
    c->pace_rem = num % c->pace_bps;
    return num / c->pace_bps;
}

static void send_pick(tcp_conn *c, const struct pick *k, uint64_t now)
{
    uint32_t ip_len = tcp_emit(c, TCP_ACK | (k->fin ? TCP_FIN : 0), k->seq, k->len);
    c->pace_next = max64(c->pace_next, now) + pace_ns(c, ip_len);
    uint64_t end = k->seq + k->len + (k->fin ? 1 : 0);
    if (k->retx) {
        c->st.retx_segs++;
        c->st.retx_bytes += k->len;
        c->high_rxt = max64(c->high_rxt, end);
        c->rxt_fence = c->snd_max;
        c->rto_rxt = false;
        c->force_retx = false;
    } else {
        c->snd_max = end;
        if (k->fin)
            c->fin_sent = true;
    }
    c->last_data_tx = now;
    c->sent_data = true;
    if (c->rto_t.deadline == ENGINE_TIME_NEVER)
        tcp_timer_arm(c, &c->rto_t, now + c->rto);
}

/* CWM (engine-model.md 2.2): a burst after an idle of at least one RTT
 * starts from at most the CWM burst size (the floor still applies, so
 * below min-available the whole floor window goes at once), then grows
 * by slow start back towards where it was (RFC 2861 keeps ssthresh). */
static void cwm_restart(tcp_conn *c, uint64_t now)
{
    if (!c->p.cwm || !c->sent_data || c->snd_una != c->snd_max || c->snd_max >= c->snd_end)
        return;
    if (now - c->last_data_tx < rtt_est(c))
        return;
    uint64_t b = max64(c->p.cwm_burst_bytes, initial_window(c));
    if (c->cwnd > b) {
        c->ssthresh = max64(c->ssthresh, c->cwnd / 4 * 3);
        c->cwnd = b;
    }
}

static uint32_t seg_room(const tcp_conn *c)
{
    uint32_t n = c->sack_ok ? (c->ooo.n < TCP_SACK_MAX ? c->ooo.n : TCP_SACK_MAX) : 0;
    return c->mss - (n ? 4u + 8u * n : 0u);
}

static void send_loop(tcp_conn *c)
{
    uint64_t now = engine_now(c->e);
    while (c->state == TCP_ESTABLISHED || c->state == TCP_CLOSING) {
        cwm_restart(c, now);
        struct pick k;
        if (!pick(c, &k, seg_room(c)))
            return;
        if (now < c->pace_next) {
            if (!c->pace_id)
                c->pace_id = engine_at(c->e, c->pace_next, tcp_pace_event, c);
            return;
        }
        send_pick(c, &k, now);
    }
}

void tcp_output(tcp_conn *c)
{
    if (c->in_output) {
        c->output_again = true;
        return;
    }
    c->in_output = true;
    do {
        c->output_again = false;
        send_loop(c);
    } while (c->output_again);
    c->in_output = false;
    if (c->ack_now && (c->state == TCP_ESTABLISHED || c->state == TCP_CLOSING))
        tcp_send_ack(c);
}

void tcp_pace_event(engine_t *e, void *arg)
{
    (void)e;
    tcp_conn *c = arg;
    c->pace_id = 0;
    tcp_output(c);
}

/* ---- application side --------------------------------------------------- */

static uint64_t send_limit(const tcp_conn *c)
{
    return tcp_mws(c) + c->p.send_buffer_bytes;
}

uint64_t tcp_send_room(const tcp_conn *c)
{
    if (c->state != TCP_ESTABLISHED)
        return 0;
    uint64_t b = tcp_buffered(c), lim = send_limit(c);
    if (b == 0)
        return max64(lim, UINT32_MAX);
    return b >= lim ? 0 : lim - b;
}

bool tcp_send(tcp_conn *c, uint32_t len, void *rec)
{
    if (c->state != TCP_ESTABLISHED || len == 0)
        return false;
    uint64_t b = tcp_buffered(c);
    if (b > 0 && b + len > send_limit(c)) {
        c->want_writable = true;
        return false;
    }
    if (!tcp_stream_push(c->out, c->snd_end + len, len, rec))
        return false;
    c->snd_end += len;
    tcp_output(c);
    return true;
}

void tcp_set_cork(tcp_conn *c, bool on)
{
    if (c->cork == on)
        return;
    c->cork = on;
    if (!on)
        tcp_output(c);
}

void tcp_check_writable(tcp_conn *c)
{
    if (c->want_writable && c->state == TCP_ESTABLISHED && tcp_send_room(c) > 0) {
        c->want_writable = false;
        if (c->cb.writable)
            c->cb.writable(c->cb.ctx);
    }
}

/* ---- ACK processing ----------------------------------------------------- */

/* Slow start with appropriate byte counting (RFC 3465, L = 2 MSS), then
 * one MSS per window's worth of acknowledged bytes; never below the
 * floor, never beyond what the window cap lets out. */
static void grow(tcp_conn *c, uint64_t acked)
{
    uint64_t fl = tcp_w_floor(c);
    uint64_t cap = max64(tcp_mws(c), fl);
    if (c->cwnd < fl)
        c->cwnd = fl;
    if (c->cwnd >= cap)
        return;
    if (c->cwnd < c->ssthresh) {
        c->cwnd += min64(acked, 2ull * c->mss);
    } else {
        c->ca_acc += acked;
        if (c->ca_acc >= c->cwnd) {
            c->ca_acc -= c->cwnd;
            c->cwnd += c->mss;
        }
    }
    c->cwnd = min64(c->cwnd, cap);
}

static uint64_t loss_ssthresh(const tcp_conn *c)
{
    uint64_t flight = c->snd_max - c->snd_una;
    return max64(max64(flight / 2, 2ull * c->mss), tcp_w_floor(c));
}

static void enter_recovery(tcp_conn *c)
{
    c->in_recovery = true;
    c->recover = c->snd_max;
    c->ssthresh = loss_ssthresh(c);
    c->cwnd = c->ssthresh;
    c->ca_acc = 0;
    c->high_rxt = c->snd_una;
    c->lost_hi = max64(c->lost_hi, min64(c->snd_una + c->mss, c->snd_max));
    if (c->sack_ok)
        mark_lost(c);
    c->force_retx = true;
    c->partial_seen = false;
    c->st.fast_retx++;
    if (c->sack_ok)
        c->st.sack_recoveries++;
}

static void restart_rto(tcp_conn *c, uint64_t now)
{
    if (c->snd_una == c->snd_max)
        tcp_timer_stop(&c->rto_t);
    else
        tcp_timer_arm(c, &c->rto_t, now + c->rto);
}

/* A cumulative ACK that moves snd_una. */
static void new_ack(tcp_conn *c, const struct tcp_seg *seg, uint64_t now)
{
    uint64_t ack = seg->ack, old = c->snd_una;
    uint64_t d0 = min64(max64(old, 1), c->snd_end), d1 = min64(ack, c->snd_end);
    c->st.bytes_acked += d1 - d0;
    if (c->fin_sent && ack == c->snd_end + 1)
        c->fin_acked = true;
    c->snd_una = ack;
    tcp_ranges_cut_below(&c->sacked, ack);
    c->high_rxt = max64(c->high_rxt, ack);
    c->lost_hi = max64(c->lost_hi, ack);
    if (seg->ts_ecr <= now)
        tcp_rtt_sample(c, now - seg->ts_ecr);
    c->retx_count = 0;
    c->rto_rxt = false;
    if (c->rto_recovery) {
        /* RFC 6582 after a timeout, with the scoreboard: when the ACK
         * answers a segment sent after the timeout (its echoed timestamp,
         * RFC 3522's test), the segment at the new snd_una, sent before,
         * is still missing, so it is lost too. An ACK of an original (a
         * spurious timeout: the path only queued it) marks nothing. */
        if (ack >= c->recover)
            c->rto_recovery = false;
        else if (seg->ts_ecr >= c->rto_at)
            c->lost_hi = max64(c->lost_hi, min64(ack + c->mss, c->snd_max));
    }
    if (!c->in_recovery) {
        c->dupacks = 0;
        c->reno_sacked = 0;
        grow(c, ack - old);
    } else if (ack >= c->recover) {
        c->in_recovery = false;
        c->cwnd = max64(c->ssthresh, tcp_w_floor(c));
        c->dupacks = 0;
        c->reno_sacked = 0;
    } else if (!c->sack_ok) {
        /* RFC 6582 partial ACK: the next hole goes at once; segments the
         * dupACKs announced are among those now acknowledged. */
        uint64_t segs = (ack - old + c->mss - 1) / c->mss;
        uint64_t gone = segs > 0 ? segs - 1 : 0;
        c->reno_sacked = c->reno_sacked > gone ? (uint32_t)(c->reno_sacked - gone) : 0;
        c->high_rxt = ack;
        c->lost_hi = min64(ack + c->mss, c->snd_max);
        c->force_retx = true;
        if (c->partial_seen)
            return;             /* "impatient": restart the RTO once only */
        c->partial_seen = true;
    }
    restart_rto(c, now);
}

/* A retransmission is lost when data sent after it has been SACKed while
 * the hole it filled is still there (the path is FIFO but for reordering;
 * Linux's lost-retransmit detection): the holes below high_rxt go again,
 * instead of waiting for the RTO. */
static void lost_retx(tcp_conn *c)
{
    if (c->high_rxt <= c->snd_una || c->sacked.n == 0 || c->sacked.r[c->sacked.n - 1].end <= c->rxt_fence)
        return;
    if (unsacked_in(c, c->snd_una, c->high_rxt) == 0)
        return;
    c->high_rxt = c->snd_una;
    c->rxt_fence = UINT64_MAX;  /* once, until the next retransmission */
    c->force_retx = true;
}

void tcp_process_ack(tcp_conn *c, const struct tcp_seg *seg)
{
    uint64_t ack = seg->ack, now = engine_now(c->e);
    if (ack > c->snd_max || ack < c->snd_una)
        return;                 /* not for anything sent, or stale */
    c->peer_wnd = seg->window;
    c->peer_wnd_max = max64(c->peer_wnd_max, seg->window);
    uint64_t una0 = c->snd_una, sacked0 = c->sacked.bytes;
    if (c->sack_ok) {
        for (uint8_t i = 0; i < seg->n_sack && i < TCP_SACK_MAX; i++) {
            uint64_t s = max64(seg->sack[i].start, ack), e = min64(seg->sack[i].end, c->snd_max);
            if (s < e)
                tcp_ranges_add(&c->sacked, s, e, 0);
        }
    }
    if (ack > c->snd_una) {
        new_ack(c, seg, now);
    } else if (seg->len == 0 && !(seg->flags & (TCP_SYN | TCP_FIN)) && c->snd_max > c->snd_una) {
        c->dupacks++;
        c->st.dup_acks++;
        uint64_t segs_out = (c->snd_max - c->snd_una) / c->mss;
        if (!c->sack_ok && c->reno_sacked + 1 < segs_out)
            c->reno_sacked++;
    }
    c->delivered += (c->snd_una - una0) + c->sacked.bytes - sacked0;
    rate_sample(c, now);
    if (!c->in_recovery && c->snd_una < c->snd_max && c->snd_una >= c->recover &&
        (c->dupacks >= DUPTHRESH || (c->sack_ok && is_lost(c, c->snd_una))))
        enter_recovery(c);
    if ((c->in_recovery || c->rto_recovery) && c->sack_ok) {
        lost_retx(c);
        mark_lost(c);
    }
}

/* ---- retransmission timeout --------------------------------------------- */

void tcp_rto_expired(tcp_conn *c)
{
    if (c->snd_una == c->snd_max)
        return;
    uint64_t now = engine_now(c->e);
    c->st.timeouts++;
    if (++c->retx_count > c->p.max_retx) {
        tcp_emit(c, TCP_RST | TCP_ACK, c->snd_max, 0);
        tcp_go_closed(c, TCP_REASON_MAX_RETX);
        return;
    }
    /* RFC 5681 / 6582: half the flight (never below the floor), restart
     * from one MSS (the floor lifts it), everything outstanding lost, no
     * fast retransmit until what was sent before the timeout is acked. */
    c->ssthresh = loss_ssthresh(c);
    c->cwnd = c->mss;
    c->ca_acc = 0;
    c->in_recovery = false;
    c->recover = c->snd_max;
    c->dupacks = 0;
    c->reno_sacked = 0;
    if (c->sack_ok) {
        /* RFC 6675 section 5.1: keep the scoreboard and follow it. What is
         * unSACKed is not all lost: at a large floor or window most of it
         * is still queued on the path (and so may be the retransmissions
         * of this episode), and resending it all would double the queue.
         * The timed-out segment goes again now; holes IsLost finds, partial
         * ACKs and lost retransmissions reveal the rest. */
        c->rto_recovery = true;
        c->rto_at = now;
        c->rto_rxt = c->snd_una < c->snd_end;
        if (!c->rto_rxt)
            c->high_rxt = c->snd_una; /* only the FIN is outstanding */
        c->lost_hi = max64(c->lost_hi, min64(c->snd_una + c->mss, c->snd_max));
        mark_lost(c);
    } else {
        c->high_rxt = c->snd_una;
        c->lost_hi = c->snd_max; /* NewReno: go-back-N */
    }
    c->rto = min64(c->rto * 2, TCP_RTO_MAX_NS);
    tcp_timer_arm(c, &c->rto_t, now + c->rto);
    c->force_retx = true;
    tcp_output(c);
}
