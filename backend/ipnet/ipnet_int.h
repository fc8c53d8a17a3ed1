/* The data plane's insides, shared by ipnet.c (ports, cables, switches'
 * stacks) and router.c (the lab's routers); no one else includes it. */
#ifndef MDSIM_IPNET_INT_H
#define MDSIM_IPNET_INT_H
#include "ipnet.h"
#include "engine/pool.h"
#include "engine/ewma.h"

enum { SLOTS = 14, PORTS = 9 }; /* slots 1..13, ports 1..8 */


struct ipport {
    struct ipnet *net;
    bool exists, admin_up, has_ip;
    bool seen;             /* declared again by the current reconcile */
    int sw, slot, port;
    uint32_t ip, mask, mtu;
    struct ipport *peer;   /* the other end of the cable */
    struct ipport *bridge; /* netsim partner while bridged */
    netsim_pipe *pipe;     /* carries what enters this port while bridged */
    bool bridge_seen;
    bool told;             /* its link has been seen: `link` is the last one */
    uint8_t link;          /* enum ipnet_link, for ipnet_on_link */
    uint64_t tx_free_at;   /* the transmit serializer is busy until then */
    uint64_t in_pkts, in_bytes, out_pkts, out_bytes, frag_drops, in_giants;
    struct ipnet_ip_stats ip_st;
    struct ipnet_arp arp[IPNET_ARP_MAX];
    int narp;
    struct ewma_rate in_rate, out_rate;
    /* a router's port (router.c): its router, and the impairments of
     * what enters and leaves it, netsim pipes (NULL: none) */
    struct router *rt;
    netsim_pipe *imp_in, *imp_out;
};

/* A datagram on its way: shared by its fragments, freed with the last.
 * The pool's free list overwrites its first word only: `alive` stays 0
 * while it is free, which is how ipnet_free finds the live ones. */
struct dgram {
    struct ipnet_pkt pkt;
    int nfrags, alive, arrived;
    bool delivered;
};

/* One frame on the wire: a datagram or a fragment of it. */
struct frame {
    struct dgram *d;
    uint32_t ip_len;
    uint32_t frag_off;  /* its data's offset in the datagram */
    struct ipport *at;  /* where it arrives next */
    uint64_t in_at;     /* with a tap: when it entered a netsim pipe (0: never) */
    uint8_t ttl;        /* its IP header's: each router takes one */
};

/* The last route of a switch: a saturated tunnel sends to one address. */
struct route {
    uint64_t gen;
    uint32_t dst;
    struct ipport *own, *out;
};

/* A switch's static routes (`ip route`), as the route feature gave them. */
struct sw_routes {
    struct ipnet_route r[IPNET_ROUTES_MAX];
    int n;
};

struct ipnet {
    engine_t *e;
    struct ipport *ports;
    int nsw;
    uint64_t gen;         /* bumped when ports, cables or bridges change */
    struct route *routes; /* per switch */
    struct {
        ipnet_rx_fn fn;
        ipnet_lost_fn lost;
        void *ctx;
    } proto[IPNET_PROTO_MAX];
    struct pool dgrams, frames;
    ipnet_link_fn on_link;
    void *link_ctx;
    ipnet_tap_fn tap;
    void *tap_ctx;
    struct frame *arriving; /* with a tap: the frame entering a pipe now */
    struct {
        ipnet_render_fn fn;
        void *ctx;
    } render[IPNET_PROTO_MAX];
    struct sw_routes *static_routes; /* per switch */
    struct router **routers;
    int nrouters;
    struct {
        ipnet_err_fn fn;
        void *ctx;
    } err[IPNET_PROTO_MAX];
    int first_host; /* nodes from here on are hosts (ipnet_new_hosts) */
    struct {
        ipnet_rx_fn fn;
        ipnet_lost_fn lost;
        ipnet_render_fn render;
        void *ctx;
    } host_proto[IPNET_PROTO_MAX];
};

/* A port's link as ipnet_link_state says it, from the port itself. */
enum ipnet_link ipnet_port_link(const struct ipport *p);
/* A frame out of port p: through its egress impairment when it has one,
 * then serialized onto the cable. */
void ipnet_port_emit(struct ipport *p, struct frame *f);
/* Serialized onto the cable at once (what leaves an egress impairment). */
void ipnet_port_send(struct ipport *p, struct frame *f);
/* A new datagram out of port p (fragmented to its MTU, or dropped when
 * too large with DF set). */
void ipnet_send_dgram(struct ipport *p, struct dgram *d);
void ipnet_frame_free(struct ipnet *net, struct frame *f);
/* The port whose connected subnet holds dst among ports[1..n), or the
 * one a route of table r..r+nr resolves to (longest prefix first; a
 * route whose next hop no up port reaches is skipped). NULL: none. */
struct ipport *ipnet_lookup(struct ipport *ports, int n, const struct ipnet_route *r, int nr, uint32_t dst,
                            bool (*up)(const struct ipport *p));
/* A frame arriving at a router's port (router.c). */
void ipnet_router_arrive(struct ipport *q, struct frame *f);
void ipnet_routers_free(struct ipnet *net);
/* An ICMP error about a datagram of err->proto, to its protocol. */
void ipnet_icmp_error_to(struct ipnet *net, int sw, const struct ipnet_icmp_err *err);
/* The router port that owns ip, NULL when none. */
struct ipport *ipnet_router_owner(struct ipnet *net, uint32_t ip);

#endif
