/* netperf 2.x's tools on the hosts (docs/hosts.md): netserver answers a
 * control connection; netperf opens one, asks for a test, runs it on a
 * data connection (UDP socket for UDP_RR) for its length of lab time, and
 * reports what its side measured, as netperf does. */
#include "hostnet_int.h"
#include <stdlib.h>
#include <string.h>

enum { CTL_MSG_BYTES = 256 };                            /* a control message on the wire */
#define CONNECT_GUARD_NS (200ULL * ENGINE_NS_PER_SEC)  /* SYN retries and more */

/* A control message (the record's body; the receiver frees it). */
struct np_msg {
    bool response;
    enum netperf_test test;
    uint32_t req, resp;
    uint32_t rcvbuf, sndbuf; /* request: the -S the client asks for; response: the server's */
    uint16_t data_port;
};

/* ---- netserver ------------------------------------------------------------ */

struct nssession; /* one netperf's control connection and its test */
struct netserver {
    struct hostnet *hn;
    int h;
    uint16_t port;
    struct nssession *sessions;
};
struct nssession {
    struct netserver *ns;
    struct hconn *ctl, *data;
    enum netperf_test test;
    uint16_t data_port;
    bool listening, udp;
    uint32_t req, resp;
    uint64_t got; /* bytes of the current request */
    struct nssession *next;
};

static void ns_session_end(struct nssession *ss)
{
    struct netserver *ns = ss->ns;
    if (ss->data)
        ss->data->app = NULL;
    if (ss->listening && ss->udp)
        hostnet_udp_unbind(ns->hn, ns->h, ss->data_port);
    else if (ss->listening)
        hostnet_unlisten(ns->hn, ns->h, ss->data_port);
    for (struct nssession **p = &ns->sessions; *p; p = &(*p)->next)
        if (*p == ss) {
            *p = ss->next;
            break;
        }
    free(ss);
}

/* Data of a request-response test: a response for each whole request. */
static void ns_data(struct hconn *hc, void *rec, uint32_t len)
{
    free(rec);
    struct nssession *ss = hc->app;
    if (!ss || ss->test != NETPERF_TCP_RR)
        return; /* a stream is only counted by its sender */
    ss->got += len;
    while (ss->got >= ss->req) {
        ss->got -= ss->req;
        tcp_send(hc->c, ss->resp, NULL);
    }
}

static void ns_data_state(struct hconn *hc, enum tcp_state st, enum tcp_reason why)
{
    (void)why;
    struct nssession *ss = hc->app;
    if (st != TCP_CLOSED)
        return;
    if (ss)
        ss->data = NULL;
    hostnet_conn_reap(hc);
}

static const struct hconn_ops ns_data_ops = {ns_data, NULL, ns_data_state};

static void ns_accept_data(void *app, struct hconn *hc)
{
    struct nssession *ss = app;
    hc->ops = &ns_data_ops;
    hc->app = ss;
    ss->data = hc;
    hostnet_unlisten(ss->ns->hn, ss->ns->h, ss->data_port); /* one connection a test */
    ss->listening = false;
}

static void ns_udp(void *app, uint32_t src, uint16_t sport, uint32_t len, uint64_t token)
{
    struct nssession *ss = app;
    (void)len;
    hostnet_udp_send(ss->ns->hn, ss->ns->h, ss->data_port, src, sport, ss->resp, token);
}

static void ns_ctl(struct hconn *hc, void *rec, uint32_t len)
{
    (void)len;
    struct nssession *ss = hc->app;
    struct np_msg *m = rec;
    if (!m || m->response || ss->data_port) { /* one request a connection */
        free(m);
        return;
    }
    struct hostnet *hn = ss->ns->hn;
    int h = ss->ns->h;
    ss->test = m->test;
    ss->req = m->req ? m->req : 1;
    ss->resp = m->resp ? m->resp : 1;
    ss->udp = m->test == NETPERF_UDP_RR;
    uint32_t rcv = m->rcvbuf ? m->rcvbuf : ss->udp ? HOST_UDP_BUF : HOST_TCP_RCVBUF;
    uint32_t snd = m->sndbuf ? m->sndbuf : ss->udp ? HOST_UDP_BUF : HOST_TCP_SNDBUF;
    uint16_t port = hostnet_ephemeral(hn, h);
    ss->listening = port && (ss->udp ? hostnet_udp_bind(hn, h, port, ns_udp, ss)
                                     : hostnet_listen(hn, h, port, rcv, ns_accept_data, ss));
    ss->data_port = ss->listening ? port : 0;
    *m = (struct np_msg){.response = true, .test = ss->test, .rcvbuf = rcv, .sndbuf = snd, .data_port = ss->data_port};
    tcp_send(hc->c, CTL_MSG_BYTES, m);
}

static void ns_ctl_state(struct hconn *hc, enum tcp_state st, enum tcp_reason why)
{
    (void)why;
    if (st != TCP_CLOSED)
        return;
    ns_session_end(hc->app);
    hostnet_conn_reap(hc);
}

static const struct hconn_ops ns_ctl_ops = {ns_ctl, NULL, ns_ctl_state};

static void ns_accept(void *app, struct hconn *hc)
{
    struct netserver *ns = app;
    struct nssession *ss = calloc(1, sizeof *ss);
    if (!ss)
        abort();
    ss->ns = ns;
    ss->ctl = hc;
    ss->next = ns->sessions;
    ns->sessions = ss;
    hc->ops = &ns_ctl_ops;
    hc->app = ss;
}

bool hostnet_netserver(struct hostnet *hn, int h, uint16_t port)
{
    if (h < 0 || h >= hostnet_count(hn))
        return false;
    struct netserver **slot = hostnet_netserver_slot(hn, h);
    if (*slot)
        return false;
    struct netserver *ns = calloc(1, sizeof *ns);
    if (!ns)
        abort();
    *ns = (struct netserver){.hn = hn, .h = h, .port = port};
    if (!hostnet_listen(hn, h, port, HOST_TCP_RCVBUF, ns_accept, ns)) {
        free(ns);
        return false;
    }
    *slot = ns;
    return true;
}

uint16_t hostnet_netserver_port(const struct hostnet *hn, int h)
{
    if (h < 0 || h >= hostnet_count(hn))
        return 0;
    struct netserver *ns = *hostnet_netserver_slot((struct hostnet *)hn, h);
    return ns ? ns->port : 0;
}

void netserver_free_all(struct hostnet *hn)
{
    for (int h = 0; h < hostnet_count(hn); h++) {
        struct netserver **slot = hostnet_netserver_slot(hn, h);
        if (!*slot)
            continue;
        while ((*slot)->sessions)
            ns_session_end((*slot)->sessions);
        free(*slot);
        *slot = NULL;
    }
}

/* ---- netperf -------------------------------------------------------------- */

enum phase { P_CONNECT, P_ASKED, P_DATA_CONNECT, P_RUNNING, P_DRAIN, P_CLOSING, P_DONE };

struct netperf {
    struct hostnet *hn;
    struct netperf_conf c;
    struct netperf_result res;
    enum phase phase;
    struct hconn *ctl, *data;
    uint16_t data_port, udp_port;
    uint64_t t0, end_at, deadline;
    engine_timer_id timer;
    uint64_t got; /* bytes of the current response */
    struct netperf *next; /* hostnet_runs */
};

static void finish(struct netperf *np, enum netperf_error err)
{
    if (np->phase == P_DONE)
        return;
    if (!np->res.error)
        np->res.error = err;
    np->phase = P_DONE;
    if (np->timer)
        engine_cancel(hostnet_engine(np->hn), np->timer);
    np->timer = 0;
}

/* The test's time is up: the control connection goes too. */
static void close_ctl(struct netperf *np)
{
    np->phase = P_CLOSING;
    tcp_close(np->ctl->c);
}

static void stream_fill(struct netperf *np)
{
    uint32_t n = np->res.send_size;
    while (np->phase == P_RUNNING && tcp_send(np->data->c, n, NULL))
        np->res.bytes += n;
}

static void send_request(struct netperf *np)
{
    np->got = 0;
    if (np->c.test == NETPERF_UDP_RR)
        hostnet_udp_send(np->hn, np->c.host, np->udp_port, np->c.remote, np->data_port, np->res.req,
                         np->res.transactions);
    else
        tcp_send(np->data->c, np->res.req, NULL);
}

static void time_up(engine_t *e, void *arg)
{
    struct netperf *np = arg;
    np->timer = 0;
    if (np->phase != P_RUNNING)
        return;
    if (np->c.test == NETPERF_TCP_STREAM) { /* the sent data drains before the clock stops */
        np->phase = P_DRAIN;
        tcp_close(np->data->c);
        return;
    }
    np->res.elapsed_ns = engine_now(e) - np->t0; /* the alarm cuts the transaction in flight */
    if (np->data)
        tcp_close(np->data->c);
    close_ctl(np);
}

static void start_test(struct netperf *np)
{
    engine_t *e = hostnet_engine(np->hn);
    np->phase = P_RUNNING;
    np->t0 = engine_now(e);
    np->end_at = np->t0 + np->c.len_ns;
    np->timer = engine_at(e, np->end_at, time_up, np);
    if (np->c.test == NETPERF_TCP_STREAM)
        stream_fill(np);
    else
        send_request(np);
}

static void data_deliver(struct hconn *hc, void *rec, uint32_t len)
{
    free(rec);
    struct netperf *np = hc->app;
    if (!np || np->phase != P_RUNNING || np->c.test != NETPERF_TCP_RR)
        return;
    np->got += len;
    if (np->got >= np->res.resp) {
        np->res.transactions++;
        send_request(np);
    }
}

static void data_writable(struct hconn *hc)
{
    struct netperf *np = hc->app;
    if (np && np->c.test == NETPERF_TCP_STREAM)
        stream_fill(np);
}

static void data_state(struct hconn *hc, enum tcp_state st, enum tcp_reason why)
{
    struct netperf *np = hc->app;
    if (!np)
        return;
    if (st == TCP_ESTABLISHED && np->phase == P_DATA_CONNECT) {
        start_test(np);
    } else if (st == TCP_CLOSED && np->phase == P_DRAIN &&
               (why == TCP_REASON_LOCAL_CLOSE || why == TCP_REASON_PEER_CLOSE)) {
        np->res.elapsed_ns = engine_now(hostnet_engine(np->hn)) - np->t0;
        close_ctl(np);
    } else if (st == TCP_CLOSED && np->phase < P_DRAIN) {
        finish(np, NETPERF_DATA_FAILED);
    }
}

static const struct hconn_ops data_ops = {data_deliver, data_writable, data_state};

static void udp_reply(void *app, uint32_t src, uint16_t sport, uint32_t len, uint64_t token)
{
    struct netperf *np = app;
    (void)src;
    (void)sport;
    (void)len;
    if (np->phase != P_RUNNING || token != np->res.transactions)
        return; /* a late answer to a request the test gave up on */
    np->res.transactions++;
    send_request(np);
}

static void ctl_deliver(struct hconn *hc, void *rec, uint32_t len)
{
    (void)len;
    struct netperf *np = hc->app;
    struct np_msg *m = rec;
    if (!m || !m->response || np->phase != P_ASKED) {
        free(m);
        return;
    }
    np->res.rss = m->sndbuf;
    np->res.rsr = m->rcvbuf;
    np->data_port = m->data_port;
    free(m);
    if (!np->data_port) {
        finish(np, NETPERF_DATA_FAILED);
        return;
    }
    np->phase = P_DATA_CONNECT;
    if (np->c.test == NETPERF_UDP_RR) {
        np->udp_port = hostnet_ephemeral(np->hn, np->c.host);
        if (!np->udp_port || !hostnet_udp_bind(np->hn, np->c.host, np->udp_port, udp_reply, np)) {
            np->udp_port = 0;
            finish(np, NETPERF_DATA_FAILED);
            return;
        }
        start_test(np);
        return;
    }
    np->data = hostnet_connect(np->hn, np->c.host, np->c.remote, np->data_port, np->res.lsr, np->res.rsr,
                               &data_ops, np);
    if (!np->data)
        finish(np, NETPERF_DATA_FAILED);
}

static void ctl_state(struct hconn *hc, enum tcp_state st, enum tcp_reason why)
{
    struct netperf *np = hc->app;
    if (st == TCP_ESTABLISHED && np->phase == P_CONNECT) {
        struct np_msg *m = malloc(sizeof *m);
        if (!m)
            abort();
        *m = (struct np_msg){.test = np->c.test, .req = np->res.req, .resp = np->res.resp, .rcvbuf = np->c.rsock,
                             .sndbuf = np->c.rsock};
        np->phase = P_ASKED;
        tcp_send(hc->c, CTL_MSG_BYTES, m);
    } else if (st == TCP_CLOSED) {
        finish(np, np->phase == P_CLOSING                ? NETPERF_OK
                   : hc->refused                         ? NETPERF_REFUSED
                   : why == TCP_REASON_SYN_TIMEOUT       ? NETPERF_TIMEOUT
                                                         : NETPERF_DATA_FAILED);
    }
}

static const struct hconn_ops ctl_ops = {ctl_deliver, NULL, ctl_state};

struct netperf *netperf_start(struct hostnet *hn, const struct netperf_conf *c, struct netperf_result *res)
{
    struct netperf *np = calloc(1, sizeof *np);
    if (!np)
        abort();
    np->hn = hn;
    np->c = *c;
    bool udp = c->test == NETPERF_UDP_RR;
    uint32_t def_snd = udp ? HOST_UDP_BUF : HOST_TCP_SNDBUF, def_rcv = udp ? HOST_UDP_BUF : HOST_TCP_RCVBUF;
    np->res = (struct netperf_result){
        .local_ip = hostnet_source(hn, c->host, c->remote),
        .lss = c->lsock ? c->lsock : def_snd,
        .lsr = c->lsock ? c->lsock : def_rcv,
        .req = c->test == NETPERF_TCP_STREAM ? 0 : c->req ? c->req : 1,
        .resp = c->test == NETPERF_TCP_STREAM ? 0 : c->resp ? c->resp : 1,
    };
    np->res.send_size = c->test == NETPERF_TCP_STREAM ? (c->send_size ? c->send_size : np->res.lss) : 0;
    np->deadline = engine_now(hostnet_engine(hn)) + c->len_ns + CONNECT_GUARD_NS;
    np->ctl = hostnet_connect(hn, c->host, c->remote, c->port, HOST_TCP_RCVBUF, HOST_TCP_RCVBUF, &ctl_ops, np);
    if (!np->ctl) {
        res->error = NETPERF_UNREACHABLE;
        free(np);
        return NULL;
    }
    np->next = *hostnet_runs(hn);
    *hostnet_runs(hn) = np;
    return np;
}

bool netperf_done(const struct netperf *np, struct netperf_result *res)
{
    *res = np->res;
    return np->phase == P_DONE;
}

uint64_t netperf_deadline(const struct netperf *np) { return np->deadline; }

void netperf_orphan_all(struct hostnet *hn)
{
    for (struct netperf *np = *hostnet_runs(hn); np; np = np->next) {
        np->ctl = np->data = NULL; /* hostnet_free frees them */
        np->udp_port = 0;
        np->timer = 0;       /* dies with the engine */
        finish(np, NETPERF_DATA_FAILED);
        np->hn = NULL;
    }
    *hostnet_runs(hn) = NULL;
}

void netperf_free(struct netperf *np)
{
    if (!np)
        return;
    if (!np->hn) { /* its hosts are gone */
        free(np);
        return;
    }
    for (struct netperf **p = hostnet_runs(np->hn); *p; p = &(*p)->next)
        if (*p == np) {
            *p = np->next;
            break;
        }
    if (np->timer)
        engine_cancel(hostnet_engine(np->hn), np->timer);
    if (np->udp_port)
        hostnet_udp_unbind(np->hn, np->c.host, np->udp_port);
    /* the connections may still close: their owner is gone, they free
     * themselves when closed */
    struct hconn *cs[2] = {np->data, np->ctl};
    for (int i = 0; i < 2; i++) {
        if (!cs[i])
            continue;
        bool open = !cs[i]->closed;
        hostnet_conn_reap(cs[i]); /* first: the abort's callbacks must not reach np */
        if (open)
            tcp_abort(cs[i]->c);
    }
    free(np);
}
