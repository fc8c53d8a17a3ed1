/*
 * One direction of a netsim pair in the read model (record/record.h):
 * the pipe of the port traffic enters by, as `show ips stats netsim`,
 * the series and the page read it. Clocks are the reference's ticks
 * (pipe.h); "since clear" as pipe.h says.
 */
#ifndef MDSIM_NETSIM_RECORD_H
#define MDSIM_NETSIM_RECORD_H
#include "record/record.h"
#include <stdbool.h>
#include <stdint.h>

struct ipnet;

struct netsim_direction_record {
    int sw, slot, port; /* its ingress port */
    uint64_t arrived_packets, arrived_bytes, delivered_packets, delivered_bytes;
    uint64_t drop_packets;        /* every drop: nth, random and queue full */
    uint64_t netsim_drop_packets; /* the injected ones: nth and random */
    uint64_t reordered_packets;
    uint64_t queue_packets, max_queue_packets, queue_bytes, max_queue_bytes;
    uint64_t mintxdel_poll_clocks, mintxdel_ethtx_clocks;
    uint64_t idle_events;  /* the serializer found the queue empty */
    uint64_t txdel_packets; /* waited for the serializer */
    uint64_t late_packets;  /* waited over half the maximum queue delay */
    uint64_t avg_speed_kbits_per_s;
};

/* False (and a zeroed record) when the port bridges no pair now. */
bool netsim_direction_record_get(struct ipnet *net, int sw, int slot, int port,
                                 struct netsim_direction_record *r);

/* Every bridged direction of every switch. */
extern const struct record_type netsim_direction_record_type;

#endif
