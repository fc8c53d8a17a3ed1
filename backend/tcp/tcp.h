/* tcp: one endpoint of a simulated TCP connection with the MDS FCIP
 * profile's behaviour (engine-model.md sections 4.3 and 6; docs/tcp.md).
 *
 * Only the engine kernel is used: no store, no session, no lab. The IP
 * layer is the owner's: output() hands it a segment, and it later calls
 * tcp_input() on the peer endpoint (or tcp_seg_drop() if it loses it). It
 * may drop, delay, reorder or duplicate segments freely.
 *
 * Virtual byte stream. No payload is copied. The application writes
 * records: tcp_send(c, len, rec) appends len bytes to the stream, carrying
 * the opaque pointer rec. Each endpoint owns a record stream (a queue of
 * {end offset, len, rec}); every segment it emits references that stream,
 * and the peer's receiver takes records from it only once its in-order
 * point (rcv_nxt) has passed a record's last byte, then calls deliver().
 * So a record is handed over exactly as a real stream would let the
 * receiver re-frame it, and it is in exactly one place at any time: in the
 * sender's stream until delivered, then the receiving application's.
 *
 * Segment references. A segment holds one reference to its sender's
 * stream, so the stream outlives both endpoints while segments are still
 * inside the IP layer. Every segment given to output() must end in exactly
 * one tcp_input() or tcp_seg_drop(); a duplicate made by the IP layer must
 * first take its own reference with tcp_seg_hold().
 *
 * Sequence numbers are 64-bit stream offsets (no wrap): the SYN is offset
 * 0, the first data byte 1, a FIN the offset after the last data byte.
 *
 * Callbacks run from inside tcp_* calls and engine events. They may call
 * tcp_send, tcp_close and tcp_abort on any connection, but must not free a
 * connection (do that from outside, e.g. from a zero-delay engine event).
 *
 * Deterministic: integer nanoseconds, no randomness, no wall clock.
 */
#ifndef MDSIM_TCP_TCP_H
#define MDSIM_TCP_TCP_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

/* Header bytes of every segment: IP 20 + TCP 20 + timestamp option 12
 * (NOP NOP TS). SACK blocks add 4 + 8 per block (NOP NOP kind len), at most
 * TCP_SACK_MAX blocks next to the timestamps (40 bytes of options). */
#define TCP_HDR_BYTES 52u
#define TCP_SACK_MAX 3
/* Bytes the pacer charges per segment beyond the IP length: the Ethernet
 * header and FCS, as netsim's L2 accounting (engine-model.md section 3). */
#define TCP_PACE_L2_OVERHEAD 18u

#define TCP_MSS_MIN 536u
#define TCP_MSS_MAX 9000u
#define TCP_MWS_MIN (14u * 1024u)             /* 14 KB */
#define TCP_MWS_MAX (32u * 1024u * 1024u)     /* 32 MB */
#define TCP_RTO_MAX_NS (60ULL * ENGINE_NS_PER_SEC)
#define TCP_SYN_RTO_NS ENGINE_NS_PER_SEC      /* RFC 6298 initial RTO */
#define TCP_DELACK_NS ENGINE_NS_PER_MS
#define TCP_KEEPALIVE_PROBES 8u
#define TCP_KEEPALIVE_INTVL_NS ENGINE_NS_PER_SEC
/* The largest receive window an endpoint advertises (a host's socket
 * buffer at most); an FCIP end's follows its profile (tcp_rcv_wnd). */
#define TCP_RCV_WND (64u * 1024u * 1024u)
#define TCP_WSCALE_MAX 14u
#define TCP_BW_ROUNDS 10u                     /* delivery-rate samples kept */
#define TCP_MIN_RTT_WIN_NS (10ULL * ENGINE_NS_PER_SEC)
#define TCP_SHAPER_QUEUE_SEGS 3u  /* our segments queued on the path before the shaper slows (Vegas' beta) */
#define TCP_PACE_MIN_BPS 64000ULL                /* the shaper never goes slower */

enum tcp_flag {
    TCP_SYN = 1,
    TCP_ACK = 2,
    TCP_FIN = 4,
    TCP_RST = 8,
};

struct tcp_stream;

struct tcp_sack_block {
    uint64_t start, end;      /* [start, end) received above the ACK */
};

/* A segment, passed by value. */
struct tcp_seg {
    uint64_t seq, ack;        /* stream offsets (see above) */
    uint32_t len;             /* payload bytes */
    uint32_t window;          /* advertised receive window, bytes */
    uint8_t flags;            /* enum tcp_flag */
    uint8_t n_sack;           /* SACK blocks used, 0..TCP_SACK_MAX */
    uint8_t wscale;           /* the sender's window scale (what a capture shows) */
    bool sack_ok;             /* SYN only: SACK permitted option */
    uint16_t mss;             /* SYN only: MSS option */
    struct tcp_sack_block sack[TCP_SACK_MAX];
    uint64_t ts_val, ts_ecr;  /* timestamps option, engine ns */
    struct tcp_stream *stream;/* the sender's record stream; one reference */
};

/* IP total length of a segment: payload + 52 + SACK option bytes. */
uint32_t tcp_seg_ip_len(const struct tcp_seg *seg);
/* Reference counting for the IP layer (see "Segment references"). */
void tcp_seg_hold(const struct tcp_seg *seg);
void tcp_seg_drop(const struct tcp_seg *seg);

/* FCIP profile TCP parameters (engine-model.md section 2.2). */
struct tcp_params {
    uint64_t max_bw_bps;       /* 1 kb/s .. 10 Gb/s; window cap and pacing rate */
    uint64_t min_avail_bps;    /* <= max_bw_bps; congestion window floor */
    uint64_t rtt_cfg_ns;       /* 0 .. 300 ms; window cap */
    bool cwm;                  /* congestion window monitoring */
    uint32_t cwm_burst_bytes;  /* 10 .. 100 KB */
    bool sack;
    uint32_t max_retx;         /* 1 .. 8 */
    uint64_t min_rto_ns;       /* 50 ms .. 5 s */
    uint64_t keepalive_ns;     /* 1 s .. 7200 s */
    uint32_t send_buffer_bytes;/* 0 .. 8192 KB */
    uint32_t mss;              /* TCP_MSS_MIN .. TCP_MSS_MAX; MTU - 52 */
    uint64_t max_jitter_ns;    /* 0 .. 10 ms: RTT rise above the path's minimum
                                * that is jitter, not queueing (the shaper) */
    uint32_t rcv_wnd_bytes;    /* window it advertises: 0 from the profile (FCIP), else
                                * TCP_MWS_MIN .. TCP_RCV_WND (a host's receive
                                * socket buffer, docs/hosts.md) */
};

/* The profile defaults: 1 Gb/s, 500 Mb/s, 1 ms, CWM on 50 KB, SACK on,
 * 4 retransmissions, 200 ms, 60 s, 0 KB, MSS 1448 (MTU 1500). */
void tcp_params_default(struct tcp_params *p);
/* 0 if usable, else -1 (a field outside its range above). */
int tcp_params_check(const struct tcp_params *p);
/* The window an FCIP end advertises (docs/tcp.md "Receive window"): the
 * profile's max-bandwidth times twice the RTT (the measured one, never
 * below the configured one, at most 4 times it), plus 4 KB; its maximum,
 * at 4 times the configured RTT, is what an end without an RTT sample of
 * its own (srtt_ns 0) offers. Both within TCP_MWS_MIN .. TCP_MWS_MAX. */
uint64_t tcp_rcv_wnd_of(const struct tcp_params *p, uint64_t srtt_ns);
uint64_t tcp_rcv_wnd_max_of(const struct tcp_params *p);
/* The smallest scale whose 16-bit field holds wnd. */
uint8_t tcp_wscale_of(uint64_t wnd);

enum tcp_state {
    TCP_CLOSED = 0,
    TCP_LISTEN,
    TCP_SYN_SENT,
    TCP_SYN_RCVD,
    TCP_ESTABLISHED,
    TCP_CLOSING,              /* a FIN sent or received, not both done */
};

enum tcp_reason {
    TCP_REASON_NONE = 0,      /* with ESTABLISHED */
    TCP_REASON_LOCAL_CLOSE,   /* tcp_close, FINs exchanged */
    TCP_REASON_PEER_CLOSE,    /* the peer closed, FINs exchanged */
    TCP_REASON_LOCAL_ABORT,   /* tcp_abort (an RST was sent) */
    TCP_REASON_PEER_RESET,    /* RST received */
    TCP_REASON_MAX_RETX,      /* max_retx retransmission timeouts in a row */
    TCP_REASON_KEEPALIVE,     /* keepalive probes unanswered */
    TCP_REASON_SYN_TIMEOUT,   /* SYN (or SYN-ACK) never answered */
};

const char *tcp_state_name(enum tcp_state s);
const char *tcp_reason_name(enum tcp_reason r);

struct tcp_callbacks {
    /* A segment to carry; ip_len = tcp_seg_ip_len(seg). */
    void (*output)(void *ctx, const struct tcp_seg *seg, uint32_t ip_len);
    /* A record's last byte arrived in order; rec now belongs to the app. */
    void (*deliver)(void *ctx, void *rec, uint32_t len);
    /* Room for more after tcp_send refused. May be NULL. */
    void (*writable)(void *ctx);
    /* ESTABLISHED (reason NONE) and CLOSED (with its reason). May be NULL. */
    void (*state)(void *ctx, enum tcp_state st, enum tcp_reason why);
    /* tcp_conn_free hands back each record never delivered. May be NULL. */
    void (*drop_rec)(void *ctx, void *rec, uint32_t len);
    void *ctx;
};

typedef struct tcp_conn tcp_conn;

/* A closed endpoint. `name` is copied (for diagnostics; no randomness is
 * used). NULL on allocation failure or if tcp_params_check fails. */
tcp_conn *tcp_conn_new(engine_t *e, const char *name, const struct tcp_params *p,
                       const struct tcp_callbacks *cb);
/* Cancels the timers, hands every undelivered record of its own stream to
 * drop_rec, releases its references. Sends nothing. */
void tcp_conn_free(tcp_conn *c);

/* Active open (SYN, retransmitted on the RTO with backoff, max_retx
 * times) / passive open. -1 unless the endpoint is fresh (CLOSED, never
 * used): an endpoint is used once; make a new one to reconnect. */
int tcp_connect(tcp_conn *c);
int tcp_listen(tcp_conn *c);
/* Graceful close: a FIN after the data written so far; the peer answers
 * with its own FIN after its data. CLOSED is reported when both FINs are
 * acknowledged (or at once when not connected). */
void tcp_close(tcp_conn *c);
/* RST to the peer (if synchronized), CLOSED with LOCAL_ABORT. */
void tcp_abort(tcp_conn *c);

/* Change the profile on a live connection (never resets it): the window
 * cap, floor, pacing rate and timers follow from the next event on. -1
 * and nothing changed if tcp_params_check fails. */
int tcp_set_params(tcp_conn *c, const struct tcp_params *p);
const struct tcp_params *tcp_get_params(const tcp_conn *c);

/* Append a record of len >= 1 bytes. Refused (false) unless ESTABLISHED
 * and not closing, or when unsent + unacked bytes would exceed
 * MWS + send_buffer; a refusal arms writable(). A record larger than the
 * whole limit is accepted when nothing is buffered, so it cannot block
 * forever. */
bool tcp_send(tcp_conn *c, uint32_t len, void *rec);
/* Bytes tcp_send would accept now (0 when it would refuse any). */
uint64_t tcp_send_room(const tcp_conn *c);
/* The writer has more records on their way (MSG_MORE): while corked, a
 * segment shorter than the MSS waits for more data; uncorking sends it. */
void tcp_set_cork(tcp_conn *c, bool on);

/* Feed a segment from the IP layer. Consumes the segment's reference. */
void tcp_input(tcp_conn *c, const struct tcp_seg *seg);

enum tcp_state tcp_state_get(const tcp_conn *c);

/* Captures (docs/capture.md; tcp_wire.c). The stream is virtual, so the
 * bytes a segment carries are made up when someone looks: its writer says
 * how a record looks (the bytes [off, off + n) of rec into out), and a byte
 * no record explains (one already delivered) is zero. */
typedef void (*tcp_render_fn)(const void *rec, uint32_t off, uint8_t *out, uint32_t n);
void tcp_set_render(tcp_conn *c, tcp_render_fn fn);
/* The segment as a real TCP would send it: header with the options this
 * TCP uses (MSS, window scale, SACK-permitted on SYNs, timestamps, SACK
 * blocks), checksum left 0, then its payload. Sequence numbers are the
 * stream offsets modulo 2^32 (initial sequence number 0), timestamps
 * microseconds. Returns the byte count, 0 when cap is too small. */
uint32_t tcp_seg_render(const struct tcp_seg *seg, uint16_t sport, uint16_t dport, uint8_t *out, uint32_t cap);

/* What `show interface fcipN` / `show ips stats tcp` print. Bytes are
 * payload bytes unless named otherwise. */
struct tcp_stats {
    enum tcp_state state;
    enum tcp_reason close_reason;
    uint64_t srtt_ns, rttvar_ns, rto_ns;
    uint64_t cwnd, ssthresh;      /* bytes; cwnd includes the floor */
    uint64_t mws;                 /* window cap in force, bytes */
    uint64_t w_floor;             /* min-available floor, bytes */
    uint64_t pace_bps;            /* the shaper's rate in force (L2 bits/s) */
    uint64_t min_rtt_ns;          /* the path's RTT without queueing, as seen */
    uint64_t bw_est;              /* delivery rate estimate, payload bytes/s */
    uint64_t peer_wnd;            /* last window the peer advertised */
    uint64_t peer_wnd_max;        /* ... the largest it advertised */
    uint8_t peer_wscale;          /* ... its window scale (its SYN's) */
    uint64_t rcv_wnd, rcv_wnd_max; /* the window this end advertises now, its largest */
    uint8_t rcv_wscale;           /* ... its scale */
    uint64_t mss;                 /* send MSS in force */
    uint64_t flight;              /* snd_max - snd_una */
    uint64_t buffered;            /* unsent + unacked */
    uint64_t bytes_sent, segs_sent;   /* all data bytes / all segments, incl. retransmissions */
    uint64_t bytes_acked;         /* data bytes acknowledged (sender goodput) */
    uint64_t bytes_rcvd, segs_rcvd;   /* all payload bytes / segments that arrived */
    uint64_t bytes_delivered;     /* in-order payload bytes (receiver goodput) */
    uint64_t recs_delivered;
    uint64_t retx_segs, retx_bytes;
    uint64_t fast_retx;           /* recoveries entered on dupACKs / SACK */
    uint64_t timeouts;            /* RTO expiries (incl. SYN) */
    uint64_t sack_recoveries;     /* fast recoveries driven by SACK */
    uint64_t dup_acks;            /* duplicate ACKs received */
    uint64_t ooo_segs;            /* segments received above rcv_nxt */
    uint64_t keepalives;          /* keepalive probes sent */
};
void tcp_stats_get(const tcp_conn *c, struct tcp_stats *out);
/* Zero the counters (bytes, segments and events); state, timers and
 * windows are untouched. */
void tcp_stats_clear(tcp_conn *c);

#endif
