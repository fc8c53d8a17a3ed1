/* tcp_int: the endpoint's state, shared by the files of backend/tcp:
 *   tcp_conn.c  life cycle, handshake, close, input dispatch, timers, stats
 *   tcp_out.c   sender: segment choice, pacing, window cap and floor,
 *               congestion control, ACK and SACK processing, RTO
 *   tcp_in.c    receiver: reassembly, record delivery, ACKs and SACK blocks
 * Internal; the API is tcp.h. */
#ifndef MDSIM_TCP_INT_H
#define MDSIM_TCP_INT_H

#include "tcp/tcp.h"
#include "tcp/tcp_ranges.h"
#include "tcp/tcp_stream.h"

/* A timer whose deadline may move often (RTO restarted on every ACK,
 * keepalive pushed back on every segment): moving it later only updates
 * `deadline`; the pending event, when it fires early, re-arms itself. */
struct tcp_timer {
    engine_timer_id id;
    uint64_t at;          /* time of the pending event, if id != 0 */
    uint64_t deadline;    /* ENGINE_TIME_NEVER: stopped */
    engine_fn fn;         /* fixed at creation */
};

struct tcp_conn {
    engine_t *e;
    char *name;
    struct tcp_params p;
    struct tcp_callbacks cb;
    enum tcp_state state;
    enum tcp_reason reason;
    bool used;
    bool local_close;         /* we closed first */
    struct tcp_stream *out;   /* our records, read by the peer */
    struct tcp_stream *in;    /* the peer's, bound by the handshake */

    /* ---- sender ---- */
    uint64_t snd_una, snd_max;   /* oldest unacked / next new offset */
    uint64_t snd_end;            /* offset past the last byte written */
    bool fin_queued, fin_sent, fin_acked;
    uint32_t mss;                /* send MSS: min(ours, peer's) */
    bool sack_ok;                /* both ends offered SACK */
    uint64_t cwnd, ssthresh;
    uint64_t mws, w_floor;       /* derived from params and srtt (tcp_derive) */
    uint64_t ca_acc;             /* congestion avoidance byte counter */
    uint64_t srtt, rttvar, rto;  /* rto includes the backoff */
    bool have_rtt;
    uint32_t retx_count;         /* RTO expiries since the last new ACK */
    uint32_t dupacks;
    bool in_recovery;
    bool rto_recovery;           /* SACK: repairing after an RTO, until recover is acked */
    bool rto_rxt;                /* SACK: the timed-out segment goes next */
    uint64_t rto_at;             /* when the last RTO fired */
    uint64_t rxt_fence;          /* snd_max when the last retransmission left */
    bool force_retx;             /* next retransmission ignores cwnd */
    bool partial_seen;           /* NewReno: RTO reset on the first partial ACK only */
    uint64_t recover;            /* recovery point (RFC 6582 / 6675) */
    uint64_t high_rxt;           /* retransmitted up to here this episode */
    uint64_t lost_hi;            /* unSACKed bytes below are deemed lost */
    struct tcp_ranges sacked;    /* scoreboard, above snd_una */
    uint32_t reno_sacked;        /* NewReno: dupACKs as segments that left */
    uint64_t peer_wnd, peer_wnd_max;
    uint8_t peer_wscale;
    uint64_t pace_next, pace_rem;
    uint64_t pace_bps;           /* the shaper: max_bw, or less while the path queues */
    uint64_t delivered;          /* payload bytes ACKed or SACKed, each once */
    uint64_t round_t0, round_d0; /* the delivery-rate round: start, delivered then */
    uint64_t bw_ring[TCP_BW_ROUNDS]; /* the last rounds' rates, bytes/s */
    uint32_t bw_i;
    uint64_t min_rtt, min_rtt_at; /* the least RTT sample of the last 10 s, when */
    uint64_t last_data_tx;
    bool sent_data;
    bool want_writable;
    bool cork;                   /* the writer has more coming: no partial segment */

    /* ---- receiver ---- */
    uint64_t rcv_nxt;
    uint64_t rcv_wnd, rcv_wnd_max; /* advertised (tcp_derive) */
    uint8_t rcv_wscale;          /* fixed when the endpoint is made */
    uint64_t rcv_edge;           /* the furthest right edge advertised: never taken back */
    struct tcp_ranges ooo;
    uint64_t ooo_stamp;
    bool have_peer_fin, fin_rcvd;
    uint64_t peer_fin_seq;
    uint32_t rcv_mss;
    uint64_t ack_pending;        /* in-order bytes not acknowledged yet */
    bool ack_now;
    uint64_t ts_recent, last_ack_sent;
    uint64_t last_rx;
    uint32_t ka_probes;

    /* ---- timers ---- */
    struct tcp_timer rto_t, delack_t, ka_t;
    engine_timer_id pace_id;
    bool in_output, output_again;

    struct tcp_stats st;
};

uint64_t tcp_muldiv(uint64_t a, uint64_t b, uint64_t c);

/* tcp_conn.c */
void tcp_timer_arm(tcp_conn *c, struct tcp_timer *t, uint64_t deadline);
void tcp_timer_stop(struct tcp_timer *t);
/* Start of every timer event: true if the deadline has really come (else
 * it re-arms itself for the moved deadline). */
bool tcp_timer_due(tcp_conn *c, struct tcp_timer *t);
void tcp_go_closed(tcp_conn *c, enum tcp_reason why);
/* Fill and hand a segment to output(); returns its IP length. */
uint32_t tcp_emit(tcp_conn *c, uint8_t flags, uint64_t seq, uint32_t len);

/* tcp_out.c */
/* Recompute the window cap and the floor (after an RTT sample or a
 * profile change); tcp_mws / tcp_w_floor read the results. */
void tcp_derive(tcp_conn *c);
uint64_t tcp_mws(const tcp_conn *c);
uint64_t tcp_w_floor(const tcp_conn *c);
uint64_t tcp_cwnd_now(const tcp_conn *c);
/* The shaper (docs/tcp-shaper.md): the pacing rate from the profile, the
 * RTT samples and the delivery rate. */
void tcp_shaper_update(tcp_conn *c);
uint64_t tcp_bw_est(const tcp_conn *c);
void tcp_rtt_sample(tcp_conn *c, uint64_t rtt_ns);
/* Recompute the RTO from srtt/rttvar (new minimum), unless backed off. */
void tcp_rto_refresh(tcp_conn *c);
void tcp_check_writable(tcp_conn *c);
void tcp_out_established(tcp_conn *c);
void tcp_output(tcp_conn *c);
void tcp_process_ack(tcp_conn *c, const struct tcp_seg *seg);
/* The retransmission timer expired while synchronized. */
void tcp_rto_expired(tcp_conn *c);
void tcp_pace_event(engine_t *e, void *arg);
uint64_t tcp_buffered(const tcp_conn *c);

/* tcp_in.c */
void tcp_rcv_data(tcp_conn *c, const struct tcp_seg *seg);
void tcp_rcv_ts(tcp_conn *c, const struct tcp_seg *seg);
/* SACK blocks for the next segment; returns how many. */
uint8_t tcp_sack_blocks(const tcp_conn *c, struct tcp_sack_block *out);
void tcp_send_ack(tcp_conn *c);
void tcp_delack_event(engine_t *e, void *arg);

#endif
