/*
 * The lab's IP data plane: every Gigabit Ethernet port of every switch, the
 * cables between them, and the IP Network Simulator bridges, as simulated
 * objects on the lab's engine. It follows the store (ipnet_reconcile) and
 * never writes it; its counters live here, not in SQLite.
 *
 * A frame leaving a port is serialized at 1 Gb/s on that port, crosses the
 * cable, and arrives at the peer port. There it is either handed to the
 * netsim pipe of that port (a bridged port: the pipe delivers it out of the
 * partner port) or, when addressed to the port's IP address, to the
 * switch's IP stack (ICMP echo).
 */
#ifndef MDSIM_IPNET_H
#define MDSIM_IPNET_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "netsim/pipe.h"

struct lab;
struct ipnet;

#define IPNET_LINE_RATE_BPS 1000000000ULL
#define IPNET_CABLE_DELAY_NS 50u /* 10 m of fibre */
#define IPNET_LOCAL_RTT_NS 20000u /* an echo to the switch's own address, through its stack */

struct ipnet *ipnet_new(engine_t *e);
void ipnet_free(struct ipnet *net);

/* Brings ports, cables and bridges in line with the store. Counters and
 * packets in flight are kept; a bridge that is gone is torn down (its
 * queued packets dropped) and the direct path is back. */
void ipnet_reconcile(struct ipnet *net, struct lab *lab);

/* For netsim's reconcile (called from ipnet_reconcile): declare that ports
 * a and b of switch sw are bridged by the simulator... */
void ipnet_bridge(struct ipnet *net, int sw, int a_slot, int a_port, int b_slot, int b_port);
/* ...and reach the pipe that carries what enters a bridged port; NULL when
 * the port is not bridged. */
netsim_pipe *ipnet_ingress_pipe(struct ipnet *net, int sw, int slot, int port);

/* The link state `show interface` reports. */
enum ipnet_link {
    IPNET_UP,
    IPNET_ADMIN_DOWN,
    IPNET_NOT_CONNECTED, /* no cable, or the far end is down */
};
enum ipnet_link ipnet_link_state(struct ipnet *net, int sw, int slot, int port);
bool ipnet_is_bridged(struct ipnet *net, int sw, int slot, int port);

struct ipnet_port_stats {
    uint64_t in_pkts, in_bytes, out_pkts, out_bytes;
    /* 5-minute exponentially weighted rates, as `show interface` prints */
    uint64_t in_bps, in_fps, out_bps, out_fps;
};
void ipnet_port_stats(struct ipnet *net, int sw, int slot, int port, struct ipnet_port_stats *st);

/* ICMP echo from switch sw to dst: `count` requests of `size` data bytes,
 * one second apart. Several pings may be under way at once: sessions on
 * real time take turns on the lab while theirs wait.
 *   ipnet_ping_start schedules the requests, request seq at
 *     ipnet_ping_send_time; -1 when no up port with an IP address has dst
 *     on its subnet;
 *   ipnet_ping_wait runs the engine until request seq is answered or timed
 *     out, and returns its round trip in ns (UINT64_MAX when lost);
 *   ipnet_ping_end drops the requests not sent yet (Ctrl-C) and forgets
 *     the ping: a late reply is then ignored. */
struct ipnet_ping {
    uint32_t dst;
    int count, size;
    uint64_t timeout_ns;
    /* the rest is ipnet's */
    int sw, id;
    int sent; /* requests gone out so far */
    uint64_t t0;
    uint64_t *rtt_ns;
    struct ipnet_ping *next;
};
int ipnet_ping_start(struct ipnet *net, int sw, struct ipnet_ping *p);
uint64_t ipnet_ping_send_time(const struct ipnet_ping *p, int seq);
uint64_t ipnet_ping_wait(struct ipnet *net, struct ipnet_ping *p, int seq);
void ipnet_ping_end(struct ipnet *net, struct ipnet_ping *p);

#endif
