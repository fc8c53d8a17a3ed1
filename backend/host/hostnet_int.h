/* A host's stack for netperf.c: TCP connections and UDP sockets over the
 * data plane. Only hostnet.c, netperf.c and the storage arrays' iSCSI
 * (backend/array/array_iscsi.c, docs/array.md) include it. */
#ifndef MDSIM_HOSTNET_INT_H
#define MDSIM_HOSTNET_INT_H
#include "hostnet.h"
#include "tcp/tcp.h"

struct hconn;
/* What an application hears of its connection (any may be NULL). */
struct hconn_ops {
    void (*deliver)(struct hconn *hc, void *rec, uint32_t len);
    void (*writable)(struct hconn *hc);
    void (*state)(struct hconn *hc, enum tcp_state st, enum tcp_reason why);
};
struct hconn {
    struct hostnet *hn;
    int h;
    tcp_conn *c;
    uint32_t lip, rip;
    uint16_t lport, rport;
    bool refused;  /* a reset answered its SYN */
    bool closed;   /* CLOSED reported: freed by its owner, or reaped */
    bool reap;     /* nobody owns it: freed once closed */
    bool reaping;  /* its free is scheduled */
    const struct hconn_ops *ops;
    void *app;
    struct hconn *next;
};
/* A listener's accept: set ops and app on the new connection. */
typedef void (*hconn_accept_fn)(void *app, struct hconn *hc);
/* A UDP datagram of len data bytes carrying a token. */
typedef void (*hudp_rx_fn)(void *app, uint32_t src, uint16_t sport, uint32_t len, uint64_t token);

engine_t *hostnet_engine(struct hostnet *hn);
/* The TCP profile of a host's socket with this receive buffer. */
void hostnet_tcp_params(struct tcp_params *p, uint32_t rcvbuf, uint32_t peer_rcvbuf, uint32_t mtu);
/* An active open from host h to dst:dport; NULL when no route. */
struct hconn *hostnet_connect(struct hostnet *hn, int h, uint32_t dst, uint16_t dport, uint32_t rcvbuf,
                              uint32_t peer_rcvbuf, const struct hconn_ops *ops, void *app);
/* Frees a connection (never from inside its own callbacks). */
void hostnet_conn_free(struct hconn *hc);
/* From a callback: free it once it is closed. */
void hostnet_conn_reap(struct hconn *hc);
bool hostnet_listen(struct hostnet *hn, int h, uint16_t port, uint32_t rcvbuf, hconn_accept_fn fn, void *app);
void hostnet_unlisten(struct hostnet *hn, int h, uint16_t port);
bool hostnet_udp_bind(struct hostnet *hn, int h, uint16_t port, hudp_rx_fn fn, void *app);
void hostnet_udp_unbind(struct hostnet *hn, int h, uint16_t port);
bool hostnet_udp_send(struct hostnet *hn, int h, uint16_t sport, uint32_t dst, uint16_t dport, uint32_t len,
                      uint64_t token);
/* A free ephemeral port of host h (TCP and UDP share the range). */
uint16_t hostnet_ephemeral(struct hostnet *hn, int h);
/* The address host h sends from to reach dst (0: no route). */
uint32_t hostnet_source(struct hostnet *hn, int h, uint32_t dst);

/* netperf.c's per-host netserver, freed with the hosts. */
void netserver_free_all(struct hostnet *hn);
struct netserver;
struct netserver **hostnet_netserver_slot(struct hostnet *hn, int h);
/* The tests under way, so that the hosts going (an engine restart)
 * leaves each a failed test its command can still read and free. */
struct netperf **hostnet_runs(struct hostnet *hn);
void netperf_orphan_all(struct hostnet *hn);

#endif
