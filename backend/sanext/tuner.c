#include "tuner.h"
#include "fcip/compress.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nport;

/* One I/O as its initiator sees it; ox_id 0: the slot is free. */
struct exchange {
    struct cmd *cmd;
    uint16_t ox_id;
    uint32_t target;
    uint64_t started;
    uint32_t got; /* read data received */
    engine_timer_id timer;
};

struct cmd {
    struct tuner_cmd_conf conf;
    struct nport *np;
    bool seen;
    uint64_t issued, completed;
    struct exchange ex[TUNER_OUTSTANDING_MAX];
    engine_timer_id retry;
};

/* One I/O as its target serves it. */
struct serve {
    struct nport *np;
    uint32_t initiator;
    uint16_t ox_id;
    bool write;
    uint32_t size, got;
    uint64_t started;
    const struct fc_pattern *pattern;
    engine_timer_id timer;
    struct serve *next;
};

/* Completions and data bytes of the current second of lab time, and the
 * last complete one (what the counters show). */
struct second {
    uint64_t sec, ios, egress, ingress;
    uint64_t last_ios, last_egress, last_ingress;
};

struct nport {
    struct tuner *t;
    struct tuner_nport_conf conf;
    uint64_t uid;
    uint32_t fcid;
    bool seen;
    struct cmd **cmds;
    int ncmd;
    struct serve *serves;
    uint16_t next_ox;
    struct second s;
    struct tuner_counters c;
};

/* A data pattern and the bytes it samples. */
struct pattern {
    struct fc_pattern p;
    unsigned char *bytes;
    size_t len;
    struct pattern *next;
};

struct tuner {
    engine_t *e;
    struct fabric *fab;
    struct nport **np;
    int n;
    uint64_t last_uid;
    struct pattern *patterns;
};

const struct fc_pattern *tuner_pattern(struct tuner *t, const char *name, const unsigned char *data, size_t len)
{
    for (struct pattern *p = t->patterns; p; p = p->next)
        if (p->len == len && strcmp(p->p.name, name) == 0 && memcmp(p->bytes, data, len) == 0)
            return &p->p;
    struct pattern *p = calloc(1, sizeof *p);
    if (!p || !(p->bytes = malloc(len ? len : 1)))
        abort();
    memcpy(p->bytes, data, len);
    p->len = len;
    fc_pattern_init(&p->p, name, p->bytes, len);
    p->next = t->patterns;
    t->patterns = p;
    return &p->p;
}

static const struct fc_pattern *pattern_of(const struct nport *np)
{
    return np->conf.pattern ? np->conf.pattern : fc_pattern_zeros();
}

static uint64_t now(const struct tuner *t) { return engine_now(t->e); }

/* Counters */

static void roll(struct nport *np)
{
    uint64_t sec = now(np->t) / ENGINE_NS_PER_SEC;
    if (sec == np->s.sec)
        return;
    bool adjacent = sec == np->s.sec + 1;
    np->s.last_ios = adjacent ? np->s.ios : 0;
    np->s.last_egress = adjacent ? np->s.egress : 0;
    np->s.last_ingress = adjacent ? np->s.ingress : 0;
    if (np->s.last_egress > np->c.egress_max_bytes_per_s)
        np->c.egress_max_bytes_per_s = np->s.last_egress;
    if (np->s.last_ingress > np->c.ingress_max_bytes_per_s)
        np->c.ingress_max_bytes_per_s = np->s.last_ingress;
    np->s.sec = sec;
    np->s.ios = np->s.egress = np->s.ingress = 0;
}

static void count_io(struct nport *np, bool write, uint64_t rt)
{
    roll(np);
    np->s.ios++;
    int k = write ? 1 : 0;
    if (write)
        np->c.writes++;
    else
        np->c.reads++;
    np->c.rt_sum_ns[k] += rt;
    np->c.rt_min_ns[k] = np->c.rt_count[k] == 0 || rt < np->c.rt_min_ns[k] ? rt : np->c.rt_min_ns[k];
    np->c.rt_max_ns[k] = rt > np->c.rt_max_ns[k] ? rt : np->c.rt_max_ns[k];
    np->c.rt_count[k]++;
}

static void count_bytes(struct nport *np, uint64_t bytes, bool egress)
{
    roll(np);
    if (egress)
        np->s.egress += bytes;
    else
        np->s.ingress += bytes;
}

/* Frames */

static struct fc_frame *frame(struct nport *np, uint32_t d_id, uint8_t kind, uint16_t ox_id, uint32_t payload)
{
    struct fc_frame *f = fabric_frame_new(np->t->fab);
    f->kind = kind;
    f->vsan = (uint16_t)np->conf.vsan;
    f->s_id = np->fcid;
    f->d_id = d_id;
    f->ox_id = ox_id;
    f->payload = payload;
    return f;
}

/* Egress counts when a data frame reaches its destination: never faster
 * than the path carries it (docs/tuner-counters.md). The frame names its
 * N port by id: the port may be gone by then. */
static void data_left(void *origin, const struct fc_frame *f)
{
    struct tuner *t = origin;
    for (int i = 0; i < t->n; i++)
        if (t->np[i]->uid == f->tag) {
            count_bytes(t->np[i], f->payload, true);
            return;
        }
}

static void send_data(struct nport *np, uint32_t d_id, uint16_t ox_id, uint32_t size, const struct fc_pattern *p,
                      bool write)
{
    for (uint32_t off = 0; off < size; off += TUNER_FRAME) {
        uint32_t n = size - off < TUNER_FRAME ? size - off : TUNER_FRAME;
        struct fc_frame *f = frame(np, d_id, FC_FCP_DATA, ox_id, n);
        f->fcp_dl = size; /* what a capture draws: FC_FCP_DATA's sequence */
        f->fcp_write = write;
        f->rel_off = off;
        f->seq_cnt = (uint16_t)(off / TUNER_FRAME);
        f->pattern = p;
        f->sent = data_left;
        f->origin = np->t;
        f->tag = np->uid;
        fabric_send(np->t->fab, np->conf.sw, f);
    }
}

/* Initiator */

static bool is_write(enum tuner_op op) { return op == TUNER_WRITE || op == TUNER_TAPE_WRITE; }

static void issue(struct cmd *c, struct exchange *x);

static void io_timeout(engine_t *e, void *arg)
{
    (void)e;
    struct exchange *x = arg;
    x->timer = 0;
    x->cmd->np->c.errors++; /* aborted: issued again */
    x->ox_id = 0;
    issue(x->cmd, x);
}

static void retry_event(engine_t *e, void *arg)
{
    (void)e;
    struct cmd *c = arg;
    c->retry = 0;
    for (int i = 0; i < c->conf.outstanding; i++)
        if (!c->ex[i].ox_id)
            issue(c, &c->ex[i]);
}

static uint64_t live(const struct cmd *c)
{
    uint64_t n = 0;
    for (int i = 0; i < c->conf.outstanding; i++)
        n += c->ex[i].ox_id != 0;
    return n;
}

/* Into the free slot x, unless num-transactions are all done or under way. */
static void issue(struct cmd *c, struct exchange *x)
{
    struct nport *np = c->np;
    if (c->conf.transactions && c->completed + live(c) >= c->conf.transactions)
        return;
    uint32_t target;
    if (!fabric_lookup(np->t->fab, np->conf.sw, np->conf.vsan, c->conf.target, &target)) {
        if (!c->retry) /* not logged in yet, or no path: look again later */
            c->retry = engine_after(np->t->e, TUNER_RETRY_NS, retry_event, c);
        return;
    }
    if (++np->next_ox >= FC_OX_ID_SWITCH_FIRST) /* those above are the switches' (tape read-ahead) */
        np->next_ox = 1;
    *x = (struct exchange){.cmd = c, .ox_id = np->next_ox, .target = target, .started = now(np->t)};
    c->issued++;
    struct fc_frame *f = frame(np, target, FC_FCP_CMND, x->ox_id, TUNER_CMND_BYTES);
    f->fcp_dl = c->conf.size;
    f->fcp_write = is_write(c->conf.op);
    f->fcp_tape = c->conf.op == TUNER_TAPE_READ || c->conf.op == TUNER_TAPE_WRITE;
    x->timer = engine_after(np->t->e, TUNER_IO_TIMEOUT_NS, io_timeout, x);
    fabric_send(np->t->fab, np->conf.sw, f);
}

static struct exchange *exchange_of(struct nport *np, uint16_t ox_id)
{
    for (int i = 0; i < np->ncmd; i++)
        for (int k = 0; k < np->cmds[i]->conf.outstanding; k++)
            if (np->cmds[i]->ex[k].ox_id == ox_id)
                return &np->cmds[i]->ex[k];
    return NULL;
}

static void complete(struct exchange *x)
{
    struct cmd *c = x->cmd;
    struct nport *np = c->np;
    engine_cancel(np->t->e, x->timer);
    x->timer = 0;
    x->ox_id = 0;
    c->completed++;
    count_io(np, is_write(c->conf.op), now(np->t) - x->started);
    issue(c, x);
}

static void initiator_rx(struct nport *np, struct fc_frame *f)
{
    struct exchange *x = exchange_of(np, f->ox_id);
    if (!x || x->target != f->s_id)
        return; /* late: the I/O was aborted or its command stopped */
    if (f->kind == FC_FCP_XFER_RDY)
        send_data(np, x->target, x->ox_id, x->cmd->conf.size, pattern_of(np), true);
    else if (f->kind == FC_FCP_DATA) {
        x->got += f->payload;
        count_bytes(np, f->payload, false);
    } else if (f->kind == FC_FCP_RSP)
        complete(x);
}

/* Target */

static void serve_end(struct serve *sv)
{
    struct nport *np = sv->np;
    for (struct serve **pp = &np->serves; *pp; pp = &(*pp)->next)
        if (*pp == sv) {
            *pp = sv->next;
            break;
        }
    if (sv->timer)
        engine_cancel(np->t->e, sv->timer);
    free(sv);
}

static void respond(struct serve *sv)
{
    struct nport *np = sv->np;
    count_io(np, sv->write, now(np->t) - sv->started);
    fabric_send(np->t->fab, np->conf.sw, frame(np, sv->initiator, FC_FCP_RSP, sv->ox_id, TUNER_RSP_BYTES));
    serve_end(sv);
}

/* The service time has passed: a read sends its data and status, a write
 * asks for its data. */
static void serviced(engine_t *e, void *arg)
{
    (void)e;
    struct serve *sv = arg;
    struct nport *np = sv->np;
    sv->timer = 0;
    if (sv->write) {
        struct fc_frame *x = frame(np, sv->initiator, FC_FCP_XFER_RDY, sv->ox_id, TUNER_XFER_RDY_BYTES);
        x->fcp_dl = sv->size; /* its burst length, as a capture draws it */
        fabric_send(np->t->fab, np->conf.sw, x);
        return;
    }
    send_data(np, sv->initiator, sv->ox_id, sv->size, sv->pattern, false);
    respond(sv);
}

static void target_rx(struct nport *np, struct fc_frame *f)
{
    if (f->kind == FC_FCP_CMND) {
        struct serve *sv = malloc(sizeof *sv);
        if (!sv)
            abort();
        *sv = (struct serve){.np = np, .initiator = f->s_id, .ox_id = f->ox_id, .write = f->fcp_write,
                             .size = f->fcp_dl, .started = now(np->t), .next = np->serves};
        sv->pattern = pattern_of(np); /* what the target holds: its own data pattern */
        np->serves = sv;
        sv->timer = engine_after(np->t->e, TUNER_SERVICE_NS, serviced, sv);
        return;
    }
    if (f->kind != FC_FCP_DATA)
        return;
    for (struct serve *sv = np->serves; sv; sv = sv->next)
        if (sv->initiator == f->s_id && sv->ox_id == f->ox_id && sv->write) {
            count_bytes(np, f->payload, false);
            if ((sv->got += f->payload) >= sv->size)
                respond(sv);
            return;
        }
}

static void nport_rx(void *ctx, struct fc_frame *f)
{
    struct nport *np = ctx;
    if (f->kind == FC_ELS_ECHO) { /* fcping: the accept carries the echo back */
        f->kind = FC_ELS_ECHO_ACC;
        f->d_id = f->s_id;
        f->s_id = np->fcid;
        fabric_send(np->t->fab, np->conf.sw, f);
        return;
    }
    if (f->kind == FC_FCP_CMND || (f->kind == FC_FCP_DATA && !exchange_of(np, f->ox_id)))
        target_rx(np, f);
    else
        initiator_rx(np, f);
    fabric_frame_free(np->t->fab, f);
}

/* Reconcile */

struct tuner *tuner_new(engine_t *e, struct fabric *fab)
{
    struct tuner *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    t->e = e;
    t->fab = fab;
    return t;
}

static void cmd_stop(struct cmd *c)
{
    for (int i = 0; i < TUNER_OUTSTANDING_MAX; i++)
        if (c->ex[i].timer)
            engine_cancel(c->np->t->e, c->ex[i].timer);
    if (c->retry)
        engine_cancel(c->np->t->e, c->retry);
    free(c);
}

static void nport_free(struct nport *np)
{
    for (int i = 0; i < np->ncmd; i++)
        cmd_stop(np->cmds[i]);
    free(np->cmds);
    while (np->serves)
        serve_end(np->serves);
    fabric_logout(np->t->fab, np->conf.sw, np->conf.vsan, np->fcid);
    free(np);
}

void tuner_free(struct tuner *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n; i++)
        nport_free(t->np[i]);
    free(t->np);
    while (t->patterns) {
        struct pattern *p = t->patterns;
        t->patterns = p->next;
        free(p->bytes);
        free(p);
    }
    free(t);
}

static struct nport *find(struct tuner *t, int sw, const uint8_t pwwn[8], int vsan)
{
    for (int i = 0; i < t->n; i++)
        if (t->np[i]->conf.sw == sw && t->np[i]->conf.vsan == vsan && memcmp(t->np[i]->conf.pwwn, pwwn, 8) == 0)
            return t->np[i];
    return NULL;
}

void tuner_begin(struct tuner *t)
{
    for (int i = 0; i < t->n; i++) {
        t->np[i]->seen = false;
        for (int k = 0; k < t->np[i]->ncmd; k++)
            t->np[i]->cmds[k]->seen = false;
    }
}

/* For the name server: the GE port it sits on, an initiator (mds-cli §10). */
static void describe(struct nport *np)
{
    char ifname[32];
    snprintf(ifname, sizeof ifname, "GigabitEthernet%d/%d", np->conf.slot, np->conf.port);
    fabric_port_describe(np->t->fab, np->conf.sw, np->fcid, np->conf.nwwn, ifname, "scsi-fcp:init");
}

void tuner_nport(struct tuner *t, const struct tuner_nport_conf *c)
{
    struct nport *np = find(t, c->sw, c->pwwn, c->vsan);
    if (np) {
        np->seen = true;
        np->conf = *c;
        describe(np);
        return;
    }
    struct nport **v = realloc(t->np, sizeof *v * (size_t)(t->n + 1));
    np = calloc(1, sizeof *np);
    if (!v || !np)
        abort();
    t->np = v;
    t->np[t->n++] = np;
    np->t = t;
    np->uid = ++t->last_uid;
    np->conf = *c;
    np->seen = true;
    np->fcid = fabric_login(t->fab, c->sw, c->vsan, c->pwwn, nport_rx, np);
    describe(np);
    np->s.sec = now(t) / ENGINE_NS_PER_SEC;
}

void tuner_cmd(struct tuner *t, int sw, const uint8_t pwwn[8], int vsan, const struct tuner_cmd_conf *c)
{
    struct nport *np = find(t, sw, pwwn, vsan);
    if (!np)
        return;
    struct cmd *cmd = NULL;
    int i = 0;
    while (i < np->ncmd && np->cmds[i]->conf.id != c->id)
        i++;
    if (i < np->ncmd && np->cmds[i]->conf.start == c->start) {
        np->cmds[i]->seen = true;
        return; /* running as it was */
    }
    if (i < np->ncmd) { /* started again: a new command under the same id */
        cmd_stop(np->cmds[i]);
        np->cmds[i] = np->cmds[--np->ncmd];
    }
    struct cmd **v = realloc(np->cmds, sizeof *v * (size_t)(np->ncmd + 1));
    cmd = calloc(1, sizeof *cmd);
    if (!v || !cmd)
        abort();
    np->cmds = v;
    np->cmds[np->ncmd++] = cmd;
    cmd->conf = *c;
    if (cmd->conf.outstanding > TUNER_OUTSTANDING_MAX)
        cmd->conf.outstanding = TUNER_OUTSTANDING_MAX;
    cmd->np = np;
    cmd->seen = true;
    for (int k = 0; k < cmd->conf.outstanding; k++)
        issue(cmd, &cmd->ex[k]);
}

void tuner_end(struct tuner *t)
{
    int k = 0;
    for (int i = 0; i < t->n; i++) {
        struct nport *np = t->np[i];
        if (!np->seen) {
            nport_free(np);
            continue;
        }
        int m = 0;
        for (int j = 0; j < np->ncmd; j++)
            if (np->cmds[j]->seen)
                np->cmds[m++] = np->cmds[j];
            else
                cmd_stop(np->cmds[j]);
        np->ncmd = m;
        t->np[k++] = np;
    }
    t->n = k;
}

void tuner_counters(struct tuner *t, int sw, const uint8_t pwwn[8], int vsan, struct tuner_counters *out)
{
    struct nport *np = find(t, sw, pwwn, vsan);
    memset(out, 0, sizeof *out);
    if (!np)
        return;
    roll(np);
    *out = np->c;
    out->found = true;
    out->fcid = np->fcid;
    out->ios_per_sec = np->s.last_ios;
    out->egress_bytes_per_s = np->s.last_egress;
    out->ingress_bytes_per_s = np->s.last_ingress;
    for (int i = 0; i < np->ncmd; i++) {
        struct cmd *c = np->cmds[i];
        out->in_flight += live(c);
        out->running |= !c->conf.transactions || c->completed < c->conf.transactions;
    }
}

/* The counters as tuner_counters gives them, without rolling the second:
 * an observer that reads (the sampler) must leave every N port as it was,
 * or a later `(Max - x)` could differ. */
static void peek(const struct nport *np, struct tuner_counters *out)
{
    uint64_t sec = now(np->t) / ENGINE_NS_PER_SEC;
    *out = np->c;
    out->found = true;
    out->fcid = np->fcid;
    if (sec == np->s.sec) {
        out->ios_per_sec = np->s.last_ios;
        out->egress_bytes_per_s = np->s.last_egress;
        out->ingress_bytes_per_s = np->s.last_ingress;
    } else if (sec == np->s.sec + 1) {
        out->ios_per_sec = np->s.ios;
        out->egress_bytes_per_s = np->s.egress;
        out->ingress_bytes_per_s = np->s.ingress;
    } else {
        out->ios_per_sec = out->egress_bytes_per_s = out->ingress_bytes_per_s = 0;
    }
}

void tuner_nports_each(struct tuner *t, tuner_nport_fn fn, void *ctx)
{
    for (int i = 0; i < t->n; i++) {
        struct tuner_counters c;
        peek(t->np[i], &c);
        fn(ctx, &t->np[i]->conf, &c);
    }
}

void tuner_clear(struct tuner *t, int sw, const uint8_t pwwn[8], int vsan)
{
    struct nport *np = find(t, sw, pwwn, vsan);
    if (!np)
        return;
    memset(&np->c, 0, sizeof np->c);
    memset(&np->s, 0, sizeof np->s);
    np->s.sec = now(t) / ENGINE_NS_PER_SEC;
}
