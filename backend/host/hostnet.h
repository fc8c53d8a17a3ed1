/*
 * The lab's hosts on the data plane (docs/hosts.md): Linux-like IP hosts,
 * each a node of the data plane with up to HOSTNET_PORTS ports (eth0..),
 * a default gateway, TCP connections made of backend/tcp endpoints, UDP
 * sockets, and the netperf 2.x tools: a netserver that answers netperf's
 * control connection, and netperf's TCP_STREAM, TCP_RR and UDP_RR tests.
 * An engine object: it knows neither the store nor the sessions; the host
 * feature declares the hosts, the shell's commands run the tools.
 */
#ifndef MDSIM_HOSTNET_H
#define MDSIM_HOSTNET_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "ipnet/ipnet.h"

#define HOSTNET_PORTS 4          /* eth0 .. eth3 */
#define HOSTNET_MAX 64           /* hosts in a lab */
#define HOSTNET_CONNS_MAX 256    /* TCP connections a host holds at once */
#define NETPERF_PORT 12865       /* netserver's control port */
/* Linux's default socket buffers as netperf prints them (no autotuning
 * here: the receive buffer is the window the receiver advertises). */
#define HOST_TCP_RCVBUF 87380u
#define HOST_TCP_SNDBUF 16384u
#define HOST_UDP_BUF 212992u
#define HOST_SOCKBUF_MIN 16384u
#define HOST_SOCKBUF_MAX (16u * 1024u * 1024u)

struct hostnet;

/* Host h's port ethN's MAC address, locally administered: 02:6d:64 then
 * the host's number and the port (ip address, show ips arp, captures). */
static inline void hostnet_mac(int h, int eth, uint8_t out[6])
{
    const uint8_t m[6] = {0x02, 0x6d, 0x64, (uint8_t)(h >> 8), (uint8_t)h, (uint8_t)eth};
    for (int i = 0; i < 6; i++)
        out[i] = m[i];
}

/* The data plane's host nodes ipnet_first_host(net) .. + nhosts - 1. */
struct hostnet *hostnet_new(struct ipnet *net, int nhosts);
void hostnet_free(struct hostnet *hn);
int hostnet_count(const struct hostnet *hn);
/* Port ethN (0-based) of host h: address, mask, MTU; up. */
void hostnet_port(struct hostnet *hn, int h, int eth, uint32_t ip, uint32_t mask, uint32_t mtu);
/* Host h's default route (0: none). */
void hostnet_gateway(struct hostnet *hn, int h, uint32_t gw);
/* The ipnet node of host h (a ping's `sw`). */
int hostnet_node(const struct hostnet *hn, int h);

/* netserver on host h: listens on port; false when one already does. */
bool hostnet_netserver(struct hostnet *hn, int h, uint16_t port);
/* The netserver's port of host h, 0 when none runs. */
uint16_t hostnet_netserver_port(const struct hostnet *hn, int h);

enum netperf_test { NETPERF_TCP_STREAM, NETPERF_TCP_RR, NETPERF_UDP_RR };
enum netperf_error {
    NETPERF_OK,
    NETPERF_REFUSED,     /* nothing listens on the control port */
    NETPERF_UNREACHABLE, /* no route from the host */
    NETPERF_TIMEOUT,     /* the control connection never came up */
    NETPERF_DATA_FAILED, /* the test's connection failed */
};
struct netperf_conf {
    int host;
    uint32_t remote;
    uint16_t port;             /* netserver's control port */
    enum netperf_test test;
    uint64_t len_ns;           /* -l: how long the test sends */
    uint32_t send_size;        /* TCP_STREAM -m (0: the send socket size) */
    uint32_t req, resp;        /* RR -r */
    uint32_t lsock, rsock;     /* -s / -S: socket buffers (0: the defaults) */
};
struct netperf_result {
    enum netperf_error error;
    uint32_t local_ip;
    /* socket buffers: local send/recv, remote send/recv */
    uint32_t lss, lsr, rss, rsr;
    uint32_t send_size, req, resp;
    uint64_t elapsed_ns;
    uint64_t bytes;            /* TCP_STREAM: bytes sent (all acknowledged) */
    uint64_t transactions;     /* RR */
};
struct netperf;
/* Starts a test on lab time; NULL with res->error set when it cannot
 * (no route). */
struct netperf *netperf_start(struct hostnet *hn, const struct netperf_conf *c, struct netperf_result *res);
/* True once the test has ended (or failed); *res then holds its result. */
bool netperf_done(const struct netperf *np, struct netperf_result *res);
/* When the test, as configured, should be over at the latest: a guard
 * for the caller's wait (the control connection's timeouts included). */
uint64_t netperf_deadline(const struct netperf *np);
/* Stops a test (Ctrl-C or a wait past its deadline) and frees it. */
void netperf_free(struct netperf *np);

#endif
