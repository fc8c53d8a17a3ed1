/*
 * The lab's IP data plane: every Gigabit Ethernet port of every switch, the
 * cables between them, and the IP Network Simulator bridges, as simulated
 * objects on the lab's engine. It knows nothing of the store or of the
 * features: the interface feature declares its ports, the lab its cables,
 * netsim its bridges, and a protocol (ICMP here, TCP for FCIP) registers a
 * receive callback for its IP protocol number. Counters live here.
 *
 * A packet leaving a port is cut into fragments of the port's MTU when it
 * is larger (unless it says don't fragment: then it is dropped), each
 * serialized at 1 Gb/s on that port, across the cable, into the peer port.
 * There a bridged port hands it to its netsim pipe (the pipe delivers it
 * out of the partner port); a port that owns the destination address
 * reassembles the datagram and hands it to its protocol.
 */
#ifndef MDSIM_IPNET_H
#define MDSIM_IPNET_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "netsim/pipe.h"

struct ipnet;

#define IPNET_LINE_RATE_BPS 1000000000ULL
#define IPNET_CABLE_DELAY_NS 50u /* 10 m of fibre */
#define IPNET_LOCAL_RTT_NS 20000u /* there and back to the switch's own address, through its stack */
#define IPNET_HEADER 20u          /* IPv4 header, no options */
#define IPNET_PAYLOAD_MAX 128u    /* room for a protocol's header struct */

enum ipnet_proto { IPNET_ICMP = 1, IPNET_TCP = 6, IPNET_PROTO_MAX = 256 };

/* A datagram as a protocol sees it. `ip_len` is what the wire carries (IP
 * header included); `payload` holds the protocol's own header as a struct,
 * the data bytes being counted in ip_len but never stored. */
struct ipnet_pkt {
    uint32_t src, dst;
    uint8_t proto;
    bool df; /* don't fragment */
    uint8_t ttl; /* time to live it leaves with; 0: the default, 255 */
    bool host;   /* a lab host's stack sent it: ipnet_send sets it (ipnet_register_host) */
    uint32_t ip_len;
    unsigned char payload[IPNET_PAYLOAD_MAX];
};

/* Called for each datagram of `proto` that reaches an address of switch
 * sw; pkt is valid only during the call. */
typedef void (*ipnet_rx_fn)(void *ctx, int sw, const struct ipnet_pkt *pkt);
/* Called once for each datagram of `proto` that never arrives (dropped by
 * netsim, a down port, a missing fragment, the lab closing), so a
 * protocol whose payload holds references can release them. */
typedef void (*ipnet_lost_fn)(void *ctx, const struct ipnet_pkt *pkt);
/* How a protocol's message looks on a wire (ipnet_set_render below). */
typedef uint32_t (*ipnet_render_fn)(void *ctx, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap);

struct ipnet *ipnet_new(engine_t *e, int nswitches);
void ipnet_free(struct ipnet *net);

/* Hosts of the lab (lab files' `host`, docs/hosts.md): nodes numbered
 * after the switches (nswitches .. nswitches + nhosts - 1), with ports as
 * a switch's (a host's ethN is slot 1, port N + 1) that the host feature
 * declares once: the ports' reconcile leaves them alone and their links
 * are nobody's log. A host's stack marks its datagrams (pkt.host): those
 * reach only a host's handlers, registered here per protocol (ICMP stays
 * the data plane's, for every node), and a switch's datagrams never reach
 * a host's handlers. */
struct ipnet *ipnet_new_hosts(engine_t *e, int nswitches, int nhosts);
int ipnet_first_host(const struct ipnet *net);
void ipnet_register_host(struct ipnet *net, uint8_t proto, ipnet_rx_fn fn, ipnet_lost_fn lost, ipnet_render_fn render,
                         void *ctx);

/* A protocol's callbacks (lost may be NULL); one per protocol number. */
void ipnet_register(struct ipnet *net, uint8_t proto, ipnet_rx_fn fn, ipnet_lost_fn lost, void *ctx);
void *ipnet_proto_ctx(struct ipnet *net, uint8_t proto);

/* Sends pkt from switch sw: to its own address after IPNET_LOCAL_RTT_NS / 2,
 * else out of the up, unbridged port whose subnet holds pkt->dst. A src of
 * 0 becomes that port's address. False when no port can reach dst. */
bool ipnet_send(struct ipnet *net, int sw, const struct ipnet_pkt *pkt);
/* The MTU of the port that would carry a datagram from sw to dst (0: none). */
uint32_t ipnet_route_mtu(struct ipnet *net, int sw, uint32_t dst);
/* The up, unbridged port of sw that owns address ip. */
bool ipnet_owns(struct ipnet *net, int sw, uint32_t ip);

/* Static routes (docs/routing.md). A route sends what it matches out of
 * its port (slot 0: the up port whose subnet holds the next hop); a
 * switch looks at its own addresses, then its connected subnets, then
 * the longest matching route whose port is up. */
#define IPNET_ROUTES_MAX 64
struct ipnet_route {
    uint32_t dest, mask, nexthop; /* nexthop 0: none, the port is given */
    int slot, port;               /* 0: by the next hop */
};
/* Switch sw's routes from now on (the route feature's reconcile). */
void ipnet_routes_set(struct ipnet *net, int sw, const struct ipnet_route *r, int n);
/* The port of sw a datagram to dst leaves by, and how: 'L' its own
 * address, 'C' a connected subnet, 'S' a static route; 0 when none. */
char ipnet_route_port(struct ipnet *net, int sw, uint32_t dst, int *slot, int *port);

/* Routers of the lab (router.c; lab files' `router`): each has up to
 * IPNET_ROUTER_PORTS ports with an address, an MTU and the netsim pipe's
 * impairments on what enters and leaves them, and static routes. A
 * router takes one from a datagram's TTL (time exceeded when none is
 * left), forwards it by connected subnet then longest prefix (network
 * unreachable when none), refragments what has no DF and sends
 * fragmentation needed, with the next hop's MTU, for what has DF and
 * does not fit; it answers echo requests to its own addresses. With
 * icmp off it sends no ICMP error (a black hole for path MTU). */
#define IPNET_ROUTER_PORTS 8
#define IPNET_ROUTERS_MAX 64
struct ipnet_router_port_conf {
    uint32_t ip, mask, mtu;
    netsim_pipe_config imp; /* each way */
};
int ipnet_router_add(struct ipnet *net, const char *name, bool icmp); /* its id, -1 past the maximum */
void ipnet_router_port(struct ipnet *net, int r, int port, const struct ipnet_router_port_conf *c);
void ipnet_router_routes(struct ipnet *net, int r, const struct ipnet_route *routes, int n);
/* Cables from a router's port to a switch's port, or to another router's. */
void ipnet_router_cable(struct ipnet *net, int r, int rport, int sw, int slot, int port);
void ipnet_router_cable_router(struct ipnet *net, int r, int rport, int r2, int rport2);
struct ipnet_router_stats {
    uint64_t forwarded, ttl_expired, unreachable, frag_needed, refragmented, echo_replies;
};
void ipnet_router_stats(struct ipnet *net, int r, struct ipnet_router_stats *st);
/* The pipe impairing what leaves (out) or enters a router's port. */
netsim_pipe *ipnet_router_pipe(struct ipnet *net, int r, int port, bool out);

/* ICMP errors as a protocol hears them (icmp.c): what a router said of
 * one of the protocol's datagrams. */
enum { IPNET_ICMP_UNREACH = 3, IPNET_ICMP_TIME_EXCEEDED = 11 };
enum { IPNET_UNREACH_NET = 0, IPNET_UNREACH_FRAG_NEEDED = 4 };
#define IPNET_ICMP_QUOTE 24 /* bytes of the datagram's payload quoted */
struct ipnet_icmp_err {
    uint8_t type, code;
    uint32_t mtu;            /* fragmentation needed: the next hop's MTU */
    uint32_t from;           /* the router's address that reports */
    uint32_t src, dst;       /* the datagram it is about */
    uint8_t proto;
    unsigned char quote[IPNET_ICMP_QUOTE]; /* the first bytes of its payload */
};
typedef void (*ipnet_err_fn)(void *ctx, int sw, const struct ipnet_icmp_err *err);
void ipnet_on_icmp_error(struct ipnet *net, uint8_t proto, ipnet_err_fn fn, void *ctx);
/* The ICMP datagram a router sends: an error about orig from `from`, or
 * the reply to an echo request (false when in is none). */
void ipnet_icmp_error_pkt(struct ipnet_pkt *out, uint32_t from, const struct ipnet_pkt *orig, uint8_t type,
                          uint8_t code, uint32_t mtu);
bool ipnet_icmp_echo_reply(const struct ipnet_pkt *in, struct ipnet_pkt *out);

/* Desired state of a port, as the interface feature reconciles it. */
struct ipnet_port_conf {
    bool admin_up, has_ip;
    uint32_t ip, mask, mtu;
};
/* Reconcile of the ports: begin, then declare each port that exists, then
 * end; a port not declared since begin is gone (its bridge torn down).
 * Counters and packets in flight of the ports that stay are kept. */
void ipnet_ports_begin(struct ipnet *net);
void ipnet_port_set(struct ipnet *net, int sw, int slot, int port, const struct ipnet_port_conf *c);
void ipnet_ports_end(struct ipnet *net);
/* A cable of the lab's topology (the lab declares them once). */
void ipnet_cable(struct ipnet *net, int sw_a, int slot_a, int port_a, int sw_b, int slot_b, int port_b);

/* Reconcile of the simulator bridges, by netsim: begin, declare each pair
 * (ports a and b of switch sw), end; a bridge not declared is torn down
 * (its queued packets dropped) and the direct path is back. */
void ipnet_bridges_begin(struct ipnet *net);
void ipnet_bridge(struct ipnet *net, int sw, int a_slot, int a_port, int b_slot, int b_port);
void ipnet_bridges_end(struct ipnet *net);
/* The pipe that carries what enters a bridged port; NULL when not bridged. */
netsim_pipe *ipnet_ingress_pipe(struct ipnet *net, int sw, int slot, int port);

/* The link state `show interface` reports. */
enum ipnet_link {
    IPNET_UP,
    IPNET_ADMIN_DOWN,
    IPNET_NOT_CONNECTED, /* no cable, or the far end is down */
};
enum ipnet_link ipnet_link_state(struct ipnet *net, int sw, int slot, int port);
/* The link state of the (unbridged) port of sw that has address ip,
 * whatever its state; false when no port has it (a tunnel's source is
 * then unbound). */
bool ipnet_addr_link(struct ipnet *net, int sw, uint32_t ip, enum ipnet_link *link);
bool ipnet_is_bridged(struct ipnet *net, int sw, int slot, int port);
/* Who hears of an unbridged port's link changing, as the reconcile of
 * the ports or of the bridges makes it change (the interface feature
 * logs it). Only reads. */
typedef void (*ipnet_link_fn)(void *ctx, int sw, int slot, int port, enum ipnet_link now);
void ipnet_on_link(struct ipnet *net, ipnet_link_fn fn, void *ctx);

struct ipnet_port_stats {
    uint64_t in_pkts, in_bytes, out_pkts, out_bytes;
    uint64_t frag_drops; /* datagrams larger than the MTU with DF set */
    /* 5-minute exponentially weighted rates, as `show interface` prints */
    uint64_t in_bps, in_fps, out_bps, out_fps;
    uint64_t in_giants;  /* frames over the port's MTU, dropped as they arrive */
};
void ipnet_port_stats(struct ipnet *net, int sw, int slot, int port, struct ipnet_port_stats *st);
/* `clear counters`: the port's packets, bytes and rates start again. */
void ipnet_port_clear(struct ipnet *net, int sw, int slot, int port);

/* What `show ips stats ip|icmp` print: datagrams through the port's own
 * IP stack (not those it forwards for a netsim bridge; MAC frames are the
 * packets of ipnet_port_stats). The switch's own address is reached
 * through the stack, not a port: its IP datagrams count on none, its
 * ICMP messages on the port that owns the address. */
struct ipnet_ip_stats {
    uint64_t in_dgrams, in_frags, reasm_ok; /* delivered; fragments of a larger one */
    uint64_t out_dgrams, out_frags, frag_fails; /* sent; created; too large with DF */
    uint64_t echo_in, echo_out, reply_in, reply_out; /* ICMP */
};
void ipnet_ip_stats(struct ipnet *net, int sw, int slot, int port, struct ipnet_ip_stats *st);
/* ICMP's count of an echo request or reply sent or received by the port
 * of sw that owns `local` (when 0: the port that reaches `remote`). */
enum ipnet_icmp_count { IPNET_ECHO_IN, IPNET_ECHO_OUT, IPNET_REPLY_IN, IPNET_REPLY_OUT };
void ipnet_icmp_count(struct ipnet *net, int sw, uint32_t local, uint32_t remote, enum ipnet_icmp_count c);

/* The neighbours of a port (docs/ipnet.md: there is no ARP on the wire):
 * each address it sent a datagram to or received one from, with the port
 * that owns it (its MAC) and when it was last seen; the oldest entry makes
 * room past IPNET_ARP_MAX, and a port's new address or mask forgets all. */
#define IPNET_ARP_MAX 16
struct ipnet_arp {
    uint32_t ip;
    int sw, slot, port; /* the owner */
    uint64_t seen_ns;
};
int ipnet_arp_table(struct ipnet *net, int sw, int slot, int port, struct ipnet_arp out[IPNET_ARP_MAX]);

engine_t *ipnet_engine(struct ipnet *net);

/* Observation points (docs/capture.md): a tap hears every frame a port
 * sends or receives, as it happens. It only reads: off (NULL) it costs a
 * test per frame, on the simulation runs the same events in the same
 * order. One tap per data plane. */
struct ipnet_tap_frame {
    int sw, slot, port;     /* the port */
    bool rx;                /* received (else sent) */
    const struct ipnet_pkt *pkt; /* its datagram (valid during the call) */
    uint32_t ip_len;        /* this frame: the datagram, or one fragment */
    uint32_t frag_off;      /* the fragment's offset in the datagram's data */
    bool more_frags;
    int src[3], dst[3];     /* sw, slot, port owning pkt->src / pkt->dst ({-1} none): the MACs */
    const char *note;       /* what netsim did to it, or NULL */
};
typedef void (*ipnet_tap_fn)(void *ctx, const struct ipnet_tap_frame *f);
void ipnet_set_tap(struct ipnet *net, ipnet_tap_fn fn, void *ctx);
/* How a protocol's message looks on a wire: its header (checksum 0) and
 * data, at most cap bytes, into out; returns the length (the protocol's
 * part of ip_len, but for a TCP SYN's options: tcp_seg_render). Only a
 * tap asks. */
void ipnet_set_render(struct ipnet *net, uint8_t proto, ipnet_render_fn fn, void *ctx);
uint32_t ipnet_render(struct ipnet *net, const struct ipnet_pkt *pkt, uint8_t *out, uint32_t cap);

/* ICMP echo from switch sw to dst (backend/ipnet/icmp.c): `count` requests
 * of `size` data bytes, one second apart. Several pings may be under way
 * at once: sessions on real time take turns on the lab while theirs wait.
 *   ipnet_ping_start schedules the requests, request seq at
 *     ipnet_ping_send_time; -1 when no up port with an IP address has dst
 *     on its subnet;
 *   ipnet_ping_wait runs the engine until request seq is answered, times
 *     out or the clock reaches `until`; true when the request is settled
 *     (answered or timed out);
 *   ipnet_ping_rtt is then its round trip in ns (UINT64_MAX when lost);
 *   ipnet_ping_end drops the requests not sent yet (Ctrl-C) and forgets
 *     the ping: a late reply is then ignored. */
struct ipnet_ping {
    uint32_t dst;
    int count, size;
    uint64_t timeout_ns;
    uint32_t src;    /* 0: the address of the port it leaves by */
    uint8_t ttl;     /* 0: the default; traceroute's probes count hops */
    uint64_t gap_ns; /* between requests; 0: one second */
    /* per request, once settled: who answered (the destination, or the
     * router that reported) and what (0 echo reply, else the ICMP error
     * type, IPNET_ICMP_*; UNREACH with code) */
    uint32_t *from;
    uint8_t *type, *code;
    /* the rest is ipnet's */
    int sw, id;
    int sent; /* requests gone out so far */
    uint64_t t0;
    uint64_t *rtt_ns;
    struct ipnet_ping *next;
};
int ipnet_ping_start(struct ipnet *net, int sw, struct ipnet_ping *p);
uint64_t ipnet_ping_send_time(const struct ipnet_ping *p, int seq);
bool ipnet_ping_wait(struct ipnet *net, struct ipnet_ping *p, int seq, uint64_t until);
uint64_t ipnet_ping_rtt(const struct ipnet_ping *p, int seq);
/* Who answered request seq and how (ipnet_ping above). */
uint32_t ipnet_ping_from(const struct ipnet_ping *p, int seq, uint8_t *type, uint8_t *code);
void ipnet_ping_end(struct ipnet *net, struct ipnet_ping *p);
/* Sets up ICMP on a new data plane (ipnet_new calls it). */
void ipnet_icmp_init(struct ipnet *net);
void ipnet_icmp_free(struct ipnet *net);

#endif
