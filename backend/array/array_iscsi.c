/* iSCSI between lab hosts and the storage arrays (array_iscsi.h). */
#include "array_iscsi.h"
#include "host/hostnet_int.h"
#include <stdlib.h>
#include <string.h>

/* ---- a connection's PDUs out: queued while TCP's buffer is full -------- */

struct qpdu {
    struct iscsi_pdu p; /* first: the record TCP carries and the peer frees */
    struct qpdu *next;
};

struct link {
    struct hconn *hc;
    struct qpdu *head, *tail;
};

static void link_flush(struct link *l)
{
    while (l->head && l->hc && tcp_send(l->hc->c, iscsi_pdu_bytes(&l->head->p), l->head)) {
        l->head = l->head->next; /* TCP owns it now */
        if (!l->head)
            l->tail = NULL;
    }
}

static void link_send(struct link *l, const struct iscsi_pdu *p)
{
    struct qpdu *q = calloc(1, sizeof *q);
    if (!q)
        abort();
    q->p = *p;
    if (l->tail)
        l->tail->next = q;
    else
        l->head = q;
    l->tail = q;
    link_flush(l);
}

static void link_drop(struct link *l)
{
    while (l->head) {
        struct qpdu *q = l->head;
        l->head = q->next;
        free(q);
    }
    l->tail = NULL;
}

/* ---- the target ------------------------------------------------------------ */

struct tconn;

struct tcmd {
    struct tconn *c;
    struct iscsi_pdu cmd;
    uint32_t got, asked;
    struct tcmd *next;
};

struct tconn {
    struct iscsi_target *t;
    struct link l;
    bool logged_in;
    struct tcmd *cmds;
    struct tconn *next;
};

struct iscsi_target {
    struct array *a;
    struct hostnet *hn;
    int h;
    struct tconn *conns;
    uint64_t commands;
};

static void tcmd_end(struct tcmd *m)
{
    for (struct tcmd **pp = &m->c->cmds; *pp; pp = &(*pp)->next)
        if (*pp == m) {
            *pp = m->next;
            break;
        }
    array_cancel(m->c->t->a, m);
    free(m);
}

static void tconn_free(struct tconn *c)
{
    while (c->cmds)
        tcmd_end(c->cmds);
    link_drop(&c->l);
    for (struct tconn **pp = &c->t->conns; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    if (c->l.hc)
        c->l.hc->app = NULL;
    free(c);
}

static void respond(struct tcmd *m, uint8_t status)
{
    struct iscsi_pdu r = {.op = ISCSI_SCSI_RSP, .final = true, .scsi_status = status, .itt = m->cmd.itt};
    link_send(&m->c->l, &r);
    m->c->t->commands++;
    tcmd_end(m);
}

/* The model is done: a read's data (the last Data-In with the status), a
 * write's response. */
static void io_done(void *ctx, uint64_t latency_ns)
{
    (void)latency_ns;
    struct tcmd *m = ctx;
    if (m->cmd.write) {
        respond(m, 0);
        return;
    }
    for (uint32_t off = 0; off < m->cmd.xfer_len; off += ISCSI_MRDSL) {
        uint32_t n = m->cmd.xfer_len - off < ISCSI_MRDSL ? m->cmd.xfer_len - off : ISCSI_MRDSL;
        bool last = off + n >= m->cmd.xfer_len;
        struct iscsi_pdu d = {.op = ISCSI_DATA_IN, .final = last, .status = last, .itt = m->cmd.itt, .data_len = n,
                              .offset = off};
        link_send(&m->c->l, &d);
    }
    m->c->t->commands++;
    tcmd_end(m);
}

static void start_io(struct tcmd *m)
{
    if (!array_io(m->c->t->a, (int)m->cmd.lun, m->cmd.write, m->cmd.lba * ARRAY_SECTOR, m->cmd.xfer_len, io_done, m))
        respond(m, 2); /* CHECK CONDITION: no such LUN, past its end, no controller */
}

static void ask_data(struct tcmd *m)
{
    uint32_t n = m->cmd.xfer_len - m->asked < ISCSI_BURST ? m->cmd.xfer_len - m->asked : ISCSI_BURST;
    struct iscsi_pdu r = {.op = ISCSI_R2T, .final = true, .itt = m->cmd.itt, .ttt = m->cmd.itt, .xfer_len = n,
                          .offset = m->asked};
    m->asked += n;
    link_send(&m->c->l, &r);
}

static void on_command(struct tconn *c, const struct iscsi_pdu *p)
{
    struct tcmd *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    *m = (struct tcmd){.c = c, .cmd = *p, .next = c->cmds};
    c->cmds = m;
    if (!p->xfer_len)
        respond(m, 0); /* TEST UNIT READY and its kind */
    else if (p->write)
        ask_data(m);
    else
        start_io(m);
}

static void on_data_out(struct tconn *c, const struct iscsi_pdu *p)
{
    for (struct tcmd *m = c->cmds; m; m = m->next)
        if (m->cmd.itt == p->itt && m->cmd.write) {
            m->got += p->data_len;
            if (m->got >= m->cmd.xfer_len)
                start_io(m);
            else if (m->got >= m->asked)
                ask_data(m);
            return;
        }
}

/* Anything a target must not take ends the connection. */
static bool acceptable(const struct tconn *c, const struct iscsi_pdu *p)
{
    if (p->data_len > ISCSI_MRDSL || (p->op == ISCSI_SCSI_CMD && p->xfer_len > ISCSI_XFER_MAX))
        return false;
    return c->logged_in || p->op == ISCSI_LOGIN;
}

static void t_deliver(struct hconn *hc, void *rec, uint32_t len)
{
    (void)len;
    struct tconn *c = hc->app;
    struct iscsi_pdu p = rec ? *(struct iscsi_pdu *)rec : (struct iscsi_pdu){.op = 0xff};
    free(rec);
    if (!c)
        return;
    if (!rec || !acceptable(c, &p)) {
        tcp_abort(hc->c);
        return;
    }
    struct iscsi_pdu r = {.itt = p.itt, .final = true};
    switch (p.op) {
    case ISCSI_LOGIN:
        c->logged_in = true;
        r.op = ISCSI_LOGIN_RSP, r.data_len = ISCSI_LOGIN_TEXT;
        link_send(&c->l, &r);
        break;
    case ISCSI_NOP_OUT:
        r.op = ISCSI_NOP_IN;
        link_send(&c->l, &r);
        break;
    case ISCSI_LOGOUT:
        r.op = ISCSI_LOGOUT_RSP;
        link_send(&c->l, &r);
        tcp_close(hc->c);
        break;
    case ISCSI_SCSI_CMD:
        on_command(c, &p);
        break;
    case ISCSI_DATA_OUT:
        on_data_out(c, &p);
        break;
    default:
        tcp_abort(hc->c);
    }
}

static void t_writable(struct hconn *hc)
{
    if (hc->app)
        link_flush(&((struct tconn *)hc->app)->l);
}

static void t_state(struct hconn *hc, enum tcp_state st, enum tcp_reason why)
{
    (void)why;
    if (st != TCP_CLOSED)
        return;
    if (hc->app) {
        struct tconn *c = hc->app;
        c->l.hc = NULL;
        tconn_free(c);
    }
    hostnet_conn_reap(hc);
}

static const struct hconn_ops t_ops = {t_deliver, t_writable, t_state};

static void t_accept(void *app, struct hconn *hc)
{
    struct iscsi_target *t = app;
    struct tconn *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    *c = (struct tconn){.t = t, .l = {.hc = hc}, .next = t->conns};
    t->conns = c;
    hc->ops = &t_ops;
    hc->app = c;
}

struct iscsi_target *iscsi_target_new(struct array *a, struct hostnet *hn, int h)
{
    struct iscsi_target *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    *t = (struct iscsi_target){.a = a, .hn = hn, .h = h};
    hostnet_listen(hn, h, ISCSI_PORT, HOST_TCP_RCVBUF, t_accept, t);
    return t;
}

void iscsi_target_free(struct iscsi_target *t)
{
    if (!t)
        return;
    while (t->conns) {
        struct hconn *hc = t->conns->l.hc;
        tconn_free(t->conns);
        if (hc)
            hostnet_conn_free(hc);
    }
    hostnet_unlisten(t->hn, t->h, ISCSI_PORT);
    free(t);
}

int iscsi_target_sessions(const struct iscsi_target *t)
{
    int n = 0;
    for (const struct tconn *c = t->conns; c; c = c->next)
        n += c->logged_in;
    return n;
}

uint64_t iscsi_target_commands(const struct iscsi_target *t) { return t->commands; }

/* ---- the initiator --------------------------------------------------------- */

#define PERF_SLOTS 64
#define PERF_GRACE_NS (30 * ENGINE_NS_PER_SEC) /* beyond its length: login and the last I/Os */

struct slot {
    bool busy;
    uint32_t itt;
    uint64_t t0;
};

struct iscsi_perf {
    struct hostnet *hn;
    struct iscsi_perf_conf c;
    struct link l;
    struct iscsi_perf_result r;
    bool done, logged_in;
    uint64_t begun, login_sent, first_io, end_at, next_off, rng;
    uint32_t next_itt;
    struct slot s[PERF_SLOTS];
    engine_timer_id guard;
};

static engine_t *perf_engine(const struct iscsi_perf *p) { return hostnet_engine(p->hn); }

static void finish(struct iscsi_perf *p, enum iscsi_perf_error e)
{
    if (p->done)
        return;
    p->done = true;
    p->r.error = e;
    p->r.elapsed_ns = p->first_io ? engine_now(perf_engine(p)) - p->first_io : 0;
    if (p->guard)
        engine_cancel(perf_engine(p), p->guard);
    p->guard = 0;
    if (p->l.hc)
        tcp_close(p->l.hc->c);
}

static uint64_t next_offset(struct iscsi_perf *p)
{
    uint64_t blocks = p->c.span_bytes / p->c.bytes, off;
    if (p->c.random) {
        p->rng = p->rng * 6364136223846793005ull + 1442695040888963407ull;
        return (p->rng >> 20) % (blocks ? blocks : 1) * p->c.bytes;
    }
    off = p->next_off + p->c.bytes > p->c.span_bytes ? 0 : p->next_off;
    p->next_off = off + p->c.bytes;
    return off;
}

static void issue(struct iscsi_perf *p, struct slot *s)
{
    uint64_t now = engine_now(perf_engine(p));
    *s = (struct slot){.busy = true, .itt = ++p->next_itt, .t0 = now};
    struct iscsi_pdu c = {.op = ISCSI_SCSI_CMD, .final = true, .write = p->c.write, .itt = s->itt,
                          .lun = (uint32_t)p->c.lun, .xfer_len = p->c.bytes, .lba = next_offset(p) / ARRAY_SECTOR};
    link_send(&p->l, &c);
}

static struct slot *slot_of(struct iscsi_perf *p, uint32_t itt)
{
    for (int i = 0; i < p->c.depth; i++)
        if (p->s[i].busy && p->s[i].itt == itt)
            return &p->s[i];
    return NULL;
}

static void completed(struct iscsi_perf *p, struct slot *s, bool good)
{
    uint64_t now = engine_now(perf_engine(p)), lat = now - s->t0;
    s->busy = false;
    if (!good) {
        finish(p, ISCSI_PERF_LOST);
        return;
    }
    p->r.ios++;
    p->r.bytes += p->c.bytes;
    p->r.lat_sum_ns += lat;
    p->r.lat_max_ns = lat > p->r.lat_max_ns ? lat : p->r.lat_max_ns;
    if (now < p->end_at) {
        issue(p, s);
        return;
    }
    for (int i = 0; i < p->c.depth; i++)
        if (p->s[i].busy)
            return;
    finish(p, ISCSI_PERF_OK);
}

static void send_data(struct iscsi_perf *p, const struct iscsi_pdu *r2t)
{
    for (uint32_t off = 0; off < r2t->xfer_len; off += ISCSI_MRDSL) {
        uint32_t n = r2t->xfer_len - off < ISCSI_MRDSL ? r2t->xfer_len - off : ISCSI_MRDSL;
        struct iscsi_pdu d = {.op = ISCSI_DATA_OUT, .final = off + n >= r2t->xfer_len, .itt = r2t->itt,
                              .ttt = r2t->ttt, .data_len = n, .offset = r2t->offset + off};
        link_send(&p->l, &d);
    }
}

static void logged_in(struct iscsi_perf *p)
{
    uint64_t now = engine_now(perf_engine(p));
    p->logged_in = true;
    p->r.login_ns = now - p->login_sent;
    p->first_io = now;
    p->end_at = now + p->c.len_ns;
    for (int i = 0; i < p->c.depth; i++)
        issue(p, &p->s[i]);
}

static void i_deliver(struct hconn *hc, void *rec, uint32_t len)
{
    (void)len;
    struct iscsi_perf *p = hc->app;
    struct iscsi_pdu m = rec ? *(struct iscsi_pdu *)rec : (struct iscsi_pdu){.op = 0xff};
    free(rec);
    if (!p || p->done)
        return;
    struct slot *s = slot_of(p, m.itt);
    if (m.op == ISCSI_LOGIN_RSP && !p->logged_in)
        logged_in(p);
    else if (m.op == ISCSI_R2T && s)
        send_data(p, &m);
    else if (m.op == ISCSI_DATA_IN && s && m.status)
        completed(p, s, m.scsi_status == 0);
    else if (m.op == ISCSI_SCSI_RSP && s)
        completed(p, s, m.scsi_status == 0);
}

static void i_writable(struct hconn *hc)
{
    if (hc->app)
        link_flush(&((struct iscsi_perf *)hc->app)->l);
}

static void i_state(struct hconn *hc, enum tcp_state st, enum tcp_reason why)
{
    (void)why;
    struct iscsi_perf *p = hc->app;
    if (p && st == TCP_ESTABLISHED) {
        struct iscsi_pdu l = {.op = ISCSI_LOGIN, .final = true, .itt = 0, .data_len = ISCSI_LOGIN_TEXT};
        p->login_sent = engine_now(perf_engine(p));
        link_send(&p->l, &l);
        return;
    }
    if (st != TCP_CLOSED)
        return;
    if (p) {
        finish(p, hc->refused ? ISCSI_PERF_REFUSED : p->logged_in ? ISCSI_PERF_LOST : ISCSI_PERF_TIMEOUT);
        p->l.hc = NULL;
        hc->app = NULL;
    }
    hostnet_conn_reap(hc);
}

static const struct hconn_ops i_ops = {i_deliver, i_writable, i_state};

static void guard_fired(engine_t *e, void *arg)
{
    (void)e;
    struct iscsi_perf *p = arg;
    p->guard = 0;
    finish(p, p->logged_in ? ISCSI_PERF_LOST : ISCSI_PERF_TIMEOUT);
}

struct iscsi_perf *iscsi_perf_start(struct hostnet *hn, const struct iscsi_perf_conf *c)
{
    struct iscsi_perf *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    p->hn = hn;
    p->c = *c;
    p->c.depth = c->depth < 1 ? 1 : c->depth > PERF_SLOTS ? PERF_SLOTS : c->depth;
    p->c.span_bytes = c->span_bytes < c->bytes ? c->bytes : c->span_bytes;
    p->rng = 7;
    p->begun = engine_now(hostnet_engine(hn));
    p->l.hc = hostnet_connect(hn, c->h, c->dst, ISCSI_PORT, HOST_TCP_RCVBUF, HOST_TCP_RCVBUF, &i_ops, p);
    if (!p->l.hc) {
        p->done = true;
        p->r.error = ISCSI_PERF_NO_ROUTE;
        return p;
    }
    p->guard = engine_after(perf_engine(p), c->len_ns + PERF_GRACE_NS, guard_fired, p);
    return p;
}

bool iscsi_perf_done(const struct iscsi_perf *p, struct iscsi_perf_result *r)
{
    *r = p->r;
    return p->done;
}

uint64_t iscsi_perf_deadline(const struct iscsi_perf *p) { return p->begun + p->c.len_ns + PERF_GRACE_NS; }

void iscsi_perf_free(struct iscsi_perf *p)
{
    if (!p)
        return;
    if (p->guard)
        engine_cancel(perf_engine(p), p->guard);
    link_drop(&p->l);
    if (p->l.hc) {
        p->l.hc->app = NULL;
        hostnet_conn_free(p->l.hc);
    }
    free(p);
}
