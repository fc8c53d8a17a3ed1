#include "tape.h"
#include <stdlib.h>
#include <string.h>

#define RSP_BYTES 24u /* FCP_RSP with good status */

/* A read-ahead block on its way to, or held by, the host end. */
struct block {
    uint16_t ox_id;
    bool done;
    uint32_t size, got, frame; /* frame: the largest data frame it came in */
    const struct fc_pattern *pattern;
    void (*sent)(void *origin, const struct fc_frame *f); /* the target's egress count */
    void *origin;
    uint64_t tag;
};

/* A write the host end saw start and has not seen the status of. */
struct hwrite {
    uint16_t ox_id;
    bool proxied;
    uint32_t size, got;
    uint64_t at; /* when its command came */
};

/* Host end: one initiator and tape drive. */
struct hsess {
    uint32_t initiator, target;
    uint16_t vsan;
    uint32_t size; /* the read block size the read-ahead was asked for */
    int inflight;  /* read-ahead blocks asked for and not complete */
    struct block blocks[FCIP_TAPE_AHEAD_MAX];
    int nblocks;
    uint16_t parked[FCIP_TAPE_AHEAD_MAX]; /* host reads waiting for a block */
    int nparked;
    uint16_t e2e[FCIP_TAPE_AHEAD_MAX]; /* host reads that went to the drive */
    int ne2e;
    struct hwrite *writes;
    int nwrites, capwrites;
    uint64_t buffered; /* bytes of proxied writes without status */
    struct fc_frame *held[FCIP_TAPE_AHEAD_MAX]; /* write commands waiting for buffer room */
    int nheld;
};

/* Target end: the read-aheads it has open for one session. */
struct tsess {
    uint32_t initiator, target;
    uint16_t vsan;
    uint32_t size;
    uint16_t open[FCIP_TAPE_AHEAD_MAX];
    int nopen;
};

/* Something the host end answers locally, after the frame that caused it
 * has crossed (so the host's next command follows its data). */
struct answer {
    bool read; /* a cached read's data and status, else a proxied status */
    struct hsess *s;
    uint16_t ox_id;
    struct block b;
    struct answer *next;
};

struct fcip_tape {
    struct fcip_tape_link link;
    struct hsess *host[FCIP_TAPE_SESSIONS_MAX];
    struct tsess *targ[FCIP_TAPE_SESSIONS_MAX];
    int nhost, ntarg;
    uint16_t next_ox;
    struct answer *head, *tail;
    engine_timer_id answering;
    struct fcip_tape_stats st;
};

struct fcip_tape *fcip_tape_new(const struct fcip_tape_link *link)
{
    struct fcip_tape *tp = calloc(1, sizeof *tp);
    if (!tp)
        abort();
    tp->link = *link;
    return tp;
}

void fcip_tape_reset(struct fcip_tape *tp)
{
    if (tp->answering)
        engine_cancel(tp->link.e, tp->answering);
    tp->answering = 0;
    while (tp->head) {
        struct answer *a = tp->head;
        tp->head = a->next;
        free(a);
    }
    tp->tail = NULL;
    for (int i = 0; i < tp->nhost; i++) {
        for (int k = 0; k < tp->host[i]->nheld; k++)
            fabric_frame_free(tp->link.fab, tp->host[i]->held[k]);
        free(tp->host[i]->writes);
        free(tp->host[i]);
    }
    for (int i = 0; i < tp->ntarg; i++)
        free(tp->targ[i]);
    tp->nhost = tp->ntarg = 0;
}

void fcip_tape_free(struct fcip_tape *tp)
{
    if (!tp)
        return;
    fcip_tape_reset(tp);
    free(tp);
}

static uint64_t buf_bytes(const struct fcip_tape *tp) { return tp->link.buf_bytes(tp->link.ctx); }

/* Read-ahead blocks of `size` the buffer holds. */
static int depth(const struct fcip_tape *tp, uint32_t size)
{
    uint64_t n = size ? buf_bytes(tp) / size : 1;
    return n < 1 ? 1 : n > FCIP_TAPE_AHEAD_MAX ? FCIP_TAPE_AHEAD_MAX : (int)n;
}

/* Sessions */

static struct hsess *host_find(struct fcip_tape *tp, uint32_t initiator, uint32_t target, uint16_t vsan,
                               bool create)
{
    for (int i = 0; i < tp->nhost; i++) {
        struct hsess *s = tp->host[i];
        if (s->initiator == initiator && s->target == target && s->vsan == vsan)
            return s;
    }
    if (!create || tp->nhost == FCIP_TAPE_SESSIONS_MAX)
        return NULL;
    struct hsess *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    *s = (struct hsess){.initiator = initiator, .target = target, .vsan = vsan};
    tp->host[tp->nhost++] = s;
    return s;
}

static struct tsess *targ_find(struct fcip_tape *tp, uint32_t initiator, uint32_t target, uint16_t vsan,
                               bool create)
{
    for (int i = 0; i < tp->ntarg; i++) {
        struct tsess *s = tp->targ[i];
        if (s->initiator == initiator && s->target == target && s->vsan == vsan)
            return s;
    }
    if (!create || tp->ntarg == FCIP_TAPE_SESSIONS_MAX)
        return NULL;
    struct tsess *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    *s = (struct tsess){.initiator = initiator, .target = target, .vsan = vsan};
    tp->targ[tp->ntarg++] = s;
    return s;
}

/* Local answers */

static struct fc_frame *frame(struct fcip_tape *tp, const struct hsess *s, uint8_t kind, uint16_t ox_id,
                              uint32_t payload)
{
    struct fc_frame *f = fabric_frame_new(tp->link.fab);
    f->kind = kind;
    f->vsan = s->vsan;
    f->s_id = s->target;
    f->d_id = s->initiator;
    f->ox_id = ox_id;
    f->payload = payload;
    return f;
}

static void answer_read(struct fcip_tape *tp, const struct answer *a)
{
    const struct block *b = &a->b;
    uint32_t step = b->frame ? b->frame : FC_PAYLOAD_MAX;
    for (uint32_t off = 0; off < b->size; off += step) {
        uint32_t n = b->size - off < step ? b->size - off : step;
        struct fc_frame *f = frame(tp, a->s, FC_FCP_DATA, a->ox_id, n);
        f->fcp_dl = b->size;
        f->rel_off = off;
        f->seq_cnt = (uint16_t)(off / step);
        f->pattern = b->pattern;
        f->sent = b->sent;
        f->origin = b->origin;
        f->tag = b->tag;
        fabric_send(tp->link.fab, tp->link.sw, f);
    }
    fabric_send(tp->link.fab, tp->link.sw, frame(tp, a->s, FC_FCP_RSP, a->ox_id, RSP_BYTES));
}

static void answer_event(engine_t *e, void *arg)
{
    (void)e;
    struct fcip_tape *tp = arg;
    tp->answering = 0;
    struct answer *list = tp->head;
    tp->head = tp->tail = NULL;
    while (list) { /* what these answers cause queues behind them */
        struct answer *a = list;
        list = a->next;
        if (a->read)
            answer_read(tp, a);
        else
            fabric_send(tp->link.fab, tp->link.sw, frame(tp, a->s, FC_FCP_RSP, a->ox_id, RSP_BYTES));
        free(a);
    }
}

static void answer(struct fcip_tape *tp, struct hsess *s, uint16_t ox_id, const struct block *b)
{
    struct answer *a = calloc(1, sizeof *a);
    if (!a)
        abort();
    *a = (struct answer){.read = b != NULL, .s = s, .ox_id = ox_id};
    if (b)
        a->b = *b;
    if (tp->tail)
        tp->tail->next = a;
    else
        tp->head = a;
    tp->tail = a;
    if (!tp->answering)
        tp->answering = engine_after(tp->link.e, 0, answer_event, tp);
}

/* Host end: writes */

static struct hwrite *write_find(struct hsess *s, uint16_t ox_id)
{
    for (int i = 0; i < s->nwrites; i++)
        if (s->writes[i].ox_id == ox_id)
            return &s->writes[i];
    return NULL;
}


static void write_forget(struct hsess *s, struct hwrite *w) { *w = s->writes[--s->nwrites]; }

/* A write whose data stopped coming (its host gave up on it: a stopped
 * command, an abort) gives its buffer back after R_A_TOV. */
static void forget_abandoned(struct fcip_tape *tp, struct hsess *s)
{
    uint64_t now = engine_now(tp->link.e);
    for (int i = 0; i < s->nwrites;) {
        struct hwrite *w = &s->writes[i];
        if (w->got < w->size && now - w->at > FCIP_TAPE_ABANDON_NS) {
            s->buffered -= w->proxied ? w->size : 0;
            write_forget(s, w);
        } else
            i++;
    }
}

static void not_proxied(struct fcip_tape *tp, struct fc_frame *f)
{
    f->ta = FC_TA_NO_PROXY;
    tp->st.not_proxied++;
}

/* A write command: proxied while the buffer has room for its data; else
 * held (the host waits for its XFER_RDY) until a status frees room. A
 * write larger than the whole buffer runs end to end. True: held. */
static bool host_write(struct fcip_tape *tp, struct hsess *s, struct fc_frame *f)
{
    uint64_t room = buf_bytes(tp);
    if (f->fcp_dl > room || s->nwrites >= 4096) { /* 4096: a runaway host gets no more proxying */
        not_proxied(tp, f);
        return false;
    }
    if (s->buffered + f->fcp_dl > room || s->nheld) {
        if (s->nheld == FCIP_TAPE_AHEAD_MAX) {
            not_proxied(tp, f);
            return false;
        }
        s->held[s->nheld++] = f;
        return true;
    }
    if (s->nwrites == s->capwrites) {
        s->capwrites = s->capwrites ? s->capwrites * 2 : 8;
        s->writes = realloc(s->writes, sizeof *s->writes * (size_t)s->capwrites);
        if (!s->writes)
            abort();
    }
    tp->st.writes++;
    s->writes[s->nwrites++] = (struct hwrite){.ox_id = f->ox_id, .proxied = true, .size = f->fcp_dl,
                                               .at = engine_now(tp->link.e)};
    s->buffered += f->fcp_dl;
    return false;
}

/* Room again: the held commands that fit cross now, proxied. */
static void release_held(struct fcip_tape *tp, struct hsess *s)
{
    uint64_t room = buf_bytes(tp);
    while (s->nheld && s->buffered + s->held[0]->fcp_dl <= room) {
        struct fc_frame *f = s->held[0];
        memmove(&s->held[0], &s->held[1], sizeof s->held[0] * (size_t)--s->nheld);
        tp->link.cross(tp->link.ctx, f); /* through fcip_tape_outbound again: it fits */
    }
}

/* The host's data: all of a proxied write's is in, so is its status. */
static void host_write_data(struct fcip_tape *tp, struct fc_frame *f)
{
    struct hsess *s = host_find(tp, f->s_id, f->d_id, f->vsan, false);
    struct hwrite *w = s ? write_find(s, f->ox_id) : NULL;
    if (!w || w->got >= w->size)
        return;
    w->got += f->payload;
    if (w->got >= w->size && w->proxied) {
        tp->st.proxy_status++;
        answer(tp, s, w->ox_id, NULL);
    }
}

/* The drive's status of a read that went to it: on to the host. */
static void host_read_status(struct fcip_tape *tp, struct hsess *s, uint16_t ox_id)
{
    for (int i = 0; i < s->ne2e; i++)
        if (s->e2e[i] == ox_id) {
            tp->st.read_status++;
            s->e2e[i] = s->e2e[--s->ne2e];
            return;
        }
}

/* The drive's status: a write's is kept from the host if it had one. */
static bool host_status(struct fcip_tape *tp, struct fc_frame *f)
{
    struct hsess *s = host_find(tp, f->d_id, f->s_id, f->vsan, false);
    struct hwrite *w = s ? write_find(s, f->ox_id) : NULL;
    if (s && !w)
        host_read_status(tp, s, f->ox_id);
    if (!w)
        return false;
    tp->st.good_status++;
    bool proxied = w->proxied;
    if (proxied)
        s->buffered -= w->size;
    write_forget(s, w);
    if (!proxied)
        return false;
    fabric_frame_free(tp->link.fab, f);
    release_held(tp, s);
    return true;
}

/* Host end: reads */

static void serve_parked(struct fcip_tape *tp, struct hsess *s)
{
    while (s->nparked && s->nblocks && s->blocks[0].done) {
        tp->st.cached_reads++;
        answer(tp, s, s->parked[0], &s->blocks[0]);
        memmove(&s->parked[0], &s->parked[1], sizeof s->parked[0] * (size_t)--s->nparked);
        memmove(&s->blocks[0], &s->blocks[1], sizeof s->blocks[0] * (size_t)--s->nblocks);
    }
}

/* A read: answered from the cache (now, or when the next block is in)
 * while the read-ahead runs, else it starts one. */
static void host_read(struct fcip_tape *tp, struct hsess *s, struct fc_frame *f)
{
    tp->st.reads++;
    while (s->nblocks && s->blocks[0].done && s->blocks[0].size != f->fcp_dl) /* another block size */
        memmove(&s->blocks[0], &s->blocks[1], sizeof s->blocks[0] * (size_t)--s->nblocks);
    bool ahead = s->size == f->fcp_dl && (s->inflight || s->nblocks);
    if (ahead && s->nparked < FCIP_TAPE_AHEAD_MAX && s->inflight < FCIP_TAPE_AHEAD_MAX) {
        s->parked[s->nparked++] = f->ox_id;
        f->ta = FC_TA_READ_MORE; /* the host's command goes on only to keep the read-ahead going */
        s->inflight++;
        serve_parked(tp, s);
        return;
    }
    if (s->ne2e == FCIP_TAPE_AHEAD_MAX) /* the oldest's status was lost with the link: forget it */
        memmove(&s->e2e[0], &s->e2e[1], sizeof s->e2e[0] * (size_t)--s->ne2e);
    s->e2e[s->ne2e++] = f->ox_id;
    if (ahead)
        return; /* more reads than the read-ahead holds: this one runs end to end */
    s->size = f->fcp_dl;
    f->ta = FC_TA_READ_START;
    f->ta_ahead = (uint8_t)depth(tp, f->fcp_dl);
    s->inflight += f->ta_ahead;
}

/* Data and status of a read-ahead, into the cache. */
static void host_ahead(struct fcip_tape *tp, struct fc_frame *f)
{
    struct hsess *s = host_find(tp, f->d_id, f->s_id, f->vsan, false);
    if (!s)
        return;
    struct block *b = NULL;
    for (int i = 0; i < s->nblocks && !b; i++)
        if (s->blocks[i].ox_id == f->ox_id && !s->blocks[i].done)
            b = &s->blocks[i];
    if (!b && s->nblocks < FCIP_TAPE_AHEAD_MAX) {
        b = &s->blocks[s->nblocks++];
        *b = (struct block){.ox_id = f->ox_id};
    }
    if (!b)
        return;
    if (f->kind == FC_FCP_DATA) {
        b->got += f->payload;
        b->size = f->fcp_dl;
        b->frame = f->payload > b->frame ? f->payload : b->frame;
        b->pattern = f->pattern;
        if (f->sent) {
            b->sent = f->sent, b->origin = f->origin, b->tag = f->tag;
            f->sent = NULL; /* it counts when the host gets it */
        }
        return;
    }
    b->done = true;
    s->inflight -= s->inflight > 0;
    serve_parked(tp, s);
}

/* Target end */

static void read_ahead(struct fcip_tape *tp, struct tsess *s)
{
    if (s->nopen == FCIP_TAPE_AHEAD_MAX)
        return;
    if (++tp->next_ox < FC_OX_ID_SWITCH_FIRST || tp->next_ox == 0xFFFF)
        tp->next_ox = FC_OX_ID_SWITCH_FIRST;
    struct fc_frame *f = fabric_frame_new(tp->link.fab);
    f->kind = FC_FCP_CMND;
    f->vsan = s->vsan;
    f->s_id = s->initiator; /* on the host's behalf: the drive answers it, and this end catches that */
    f->d_id = s->target;
    f->ox_id = tp->next_ox;
    f->payload = 32;
    f->fcp_dl = s->size;
    f->fcp_tape = true;
    s->open[s->nopen++] = f->ox_id;
    tp->st.ahead_reads++;
    fabric_send(tp->link.fab, tp->link.sw, f);
}

static void targ_read(struct fcip_tape *tp, struct fc_frame *f, int n)
{
    struct tsess *s = targ_find(tp, f->s_id, f->d_id, f->vsan, true);
    if (!s)
        return;
    s->size = f->fcp_dl;
    while (n-- > 0)
        read_ahead(tp, s);
}

/* The drive's answer to a read-ahead: marked for the host end's cache. */
static void targ_mark(struct fcip_tape *tp, struct fc_frame *f)
{
    struct tsess *s = targ_find(tp, f->d_id, f->s_id, f->vsan, false);
    for (int i = 0; s && i < s->nopen; i++)
        if (s->open[i] == f->ox_id) {
            f->ta = FC_TA_AHEAD;
            if (f->kind == FC_FCP_RSP)
                s->open[i] = s->open[--s->nopen];
            return;
        }
}

/* The hooks */

bool fcip_tape_outbound(struct fcip_tape *tp, struct fc_frame *f)
{
    if (f->kind == FC_FCP_CMND && f->fcp_tape) {
        struct hsess *s = host_find(tp, f->s_id, f->d_id, f->vsan, true);
        if (s)
            forget_abandoned(tp, s);
        if (s && f->fcp_write)
            return host_write(tp, s, f);
        if (s)
            host_read(tp, s, f);
    } else if (f->kind == FC_FCP_DATA && f->fcp_write)
        host_write_data(tp, f);
    else if ((f->kind == FC_FCP_DATA || f->kind == FC_FCP_RSP) && f->ox_id >= FC_OX_ID_SWITCH_FIRST)
        targ_mark(tp, f);
    return false;
}

bool fcip_tape_inbound(struct fcip_tape *tp, struct fc_frame *f)
{
    uint8_t mark = f->ta;
    f->ta = FC_TA_NONE; /* it is this link's word only */
    if (mark == FC_TA_AHEAD) {
        host_ahead(tp, f);
        fabric_frame_free(tp->link.fab, f);
        return true;
    }
    if (mark == FC_TA_READ_MORE) {
        targ_read(tp, f, 1);
        fabric_frame_free(tp->link.fab, f);
        return true;
    }
    if (mark == FC_TA_READ_START) {
        /* the host's read goes on to the drive first; the read-ahead follows it */
        struct fc_frame copy = *f;
        fabric_send(tp->link.fab, tp->link.sw, f);
        targ_read(tp, &copy, copy.ta_ahead);
        return true;
    }
    if (f->kind == FC_FCP_RSP)
        return host_status(tp, f);
    return false;
}

/* Shows */

void fcip_tape_stats(const struct fcip_tape *tp, struct fcip_tape_stats *out)
{
    *out = tp->st;
    out->host_sessions = (uint64_t)tp->nhost;
    out->target_sessions = (uint64_t)tp->ntarg;
    out->write_buf_writes = out->write_buf_bytes = out->read_buf_reads = out->read_buf_bytes = 0;
    for (int i = 0; i < tp->nhost; i++) {
        const struct hsess *s = tp->host[i];
        for (int k = 0; k < s->nwrites; k++)
            out->write_buf_writes += s->writes[k].proxied;
        out->write_buf_bytes += s->buffered;
        for (int k = 0; k < s->nblocks; k++)
            if (s->blocks[k].done) {
                out->read_buf_reads++;
                out->read_buf_bytes += s->blocks[k].size;
            }
    }
}

void fcip_tape_clear_stats(struct fcip_tape *tp)
{
    memset(&tp->st, 0, sizeof tp->st);
}

void fcip_tape_sessions(const struct fcip_tape *tp, bool host_end,
                        void (*fn)(void *ctx, const struct fcip_tape_session *s), void *ctx)
{
    for (int i = 0; host_end && i < tp->nhost; i++) {
        const struct hsess *h = tp->host[i];
        struct fcip_tape_session s = {true, h->initiator, h->target, h->vsan, 0, 0, 0, 0};
        for (int k = 0; k < h->nwrites; k++)
            s.outstanding_writes += h->writes[k].proxied;
        s.outstanding_exchanges = (uint32_t)h->nwrites + (uint32_t)h->nparked + (uint32_t)h->ne2e;
        for (int k = 0; k < h->nblocks; k++)
            s.read_buf_bytes += h->blocks[k].done ? h->blocks[k].size : 0;
        s.max_read_blocks = h->size ? depth(tp, h->size) : 0;
        fn(ctx, &s);
    }
    for (int i = 0; !host_end && i < tp->ntarg; i++) {
        const struct tsess *t = tp->targ[i];
        struct fcip_tape_session s = {false, t->initiator, t->target, t->vsan, 0, (uint32_t)t->nopen, 0,
                                      t->size ? depth(tp, t->size) : 0};
        fn(ctx, &s);
    }
}
