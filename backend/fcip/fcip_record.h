/*
 * An FCIP interface end in the read model (record/record.h): what `show
 * interface fcipN` and its variants, `show fcip summary`, `show ips stats
 * tcp`, the port-channels' sums, the series and the browser's page read.
 * Field names carry their units; a count of events is named after the
 * event (timeouts, keepalives).
 */
#ifndef MDSIM_FCIP_RECORD_H
#define MDSIM_FCIP_RECORD_H
#include "tunnel.h"
#include "tape.h"
#include "record/record.h"
#include <stdbool.h>
#include <stdint.h>

struct lab;

/* One of its TCP connections. */
struct fcip_tcp_record {
    bool present;
    enum tcp_state state;
    uint32_t local_ip, remote_ip;
    uint16_t local_port, remote_port;
    uint64_t mss_bytes;
    uint64_t rto_ns, srtt_ns, rttvar_ns;
    uint64_t cwnd_bytes, ssthresh_bytes;   /* ssthresh is unbounded before the first loss */
    uint64_t send_window_bytes;            /* the window cap in force */
    uint64_t advertised_window_bytes;      /* the receive window it advertises (its profile's) */
    uint64_t advertised_window_max_bytes;  /* ... at most */
    unsigned window_scale;                 /* ... its scale, as its SYN said */
    uint64_t peer_window_bytes;            /* the last window the peer advertised */
    uint64_t peer_window_max_bytes;        /* ... the largest */
    unsigned peer_window_scale;            /* ... its scale, as its SYN said */
    uint64_t segments_sent, sent_bytes, segments_received, received_bytes;
    uint64_t retx_segments, retx_bytes, fast_retransmits, timeouts, sack_recoveries;
    uint64_t dup_acks, out_of_order_segments, keepalives;
};

struct fcip_record {
    int sw, id;
    enum fcip_state state;
    enum fcip_cause cause; /* why it is not up, or why not all VSANs are */
    int peer_sw;           /* -1 until the link parameters arrived */
    struct vsan_set up_vsans, isolated_vsans;
    int tcp_connections_up;
    struct fcip_tcp_record conn[2]; /* control, data */
    uint64_t connect_attempts, connection_closes;
    uint64_t last_change_ns; /* lab time of its last state change */
    /* FC frames and their bytes; class F among them */
    uint64_t tx_frames, tx_bytes, rx_frames, rx_bytes;
    uint64_t tx_classf_frames, tx_classf_bytes, rx_classf_frames, rx_classf_bytes;
    uint64_t error_frames; /* given to a link that was down, or over the backlog */
    uint64_t timestamp_error_frames; /* received, discarded for their time stamp (case P) */
    /* their `5 minutes` rates, now */
    uint64_t in_rate_bits_per_s, in_rate_frames_per_s, out_rate_bits_per_s, out_rate_frames_per_s;
    uint64_t compress_in_bytes, compress_out_bytes; /* before and after the compressor */
    bool write_acc_active, tape_acc_active;         /* on at both ends */
    struct fcip_tape_stats tape;
    /* What its series plot: the data connection's window and smoothed
     * RTT (the control one's with one connection), both connections'
     * retransmitted segments. */
    uint64_t cwnd_bytes, srtt_us, retx_segments;
};

/* The end as the shows give it: the engine's when the tunnel runs (the
 * engine reconciled first), else shut or not connected. False when the
 * switch has no such interface. */
bool fcip_record_get(struct lab *lab, int sw, int id, struct fcip_record *r);

/* The record type the fcip feature registers: every running tunnel end,
 * read as it is. */
extern const struct record_type fcip_record_type;

#endif
