/* The array's FC port: a target N port in the fabric whose FCP exchanges
 * the model serves (array_model.h). Frames as the tuner's target sends
 * them (backend/sanext/tuner.h): 2048-byte data frames, XFER_RDY for a
 * write, FCP_RSP at the end. */
#include "array_int.h"
#include <stdlib.h>
#include <string.h>

#define FC_DATA_FRAME 2048u
#define FC_XFER_RDY_BYTES 12u
#define FC_RSP_BYTES 24u

/* One exchange the port serves. */
struct fc_serve {
    struct array *a;
    uint32_t initiator;
    uint16_t ox_id;
    bool write, started;
    uint32_t size, got;
    uint64_t off;
    engine_timer_id timer;
    struct fc_serve *next;
};

static struct fc_frame *frame(struct array *a, uint32_t d_id, uint8_t kind, uint16_t ox_id, uint32_t payload)
{
    struct fc_frame *f = fabric_frame_new(a->fab);
    f->kind = kind;
    f->vsan = (uint16_t)a->vsan;
    f->s_id = a->fcid;
    f->d_id = d_id;
    f->ox_id = ox_id;
    f->payload = payload;
    return f;
}

static void serve_end(struct fc_serve *sv)
{
    struct array *a = sv->a;
    for (struct fc_serve **pp = &a->serves; *pp; pp = &(*pp)->next)
        if (*pp == sv) {
            *pp = sv->next;
            break;
        }
    if (sv->timer)
        engine_cancel(a->e, sv->timer);
    free(sv);
}

static void io_done(void *ctx, uint64_t latency_ns);

/* The exchanges go, and the model's I/Os that would answer them. */
void array_fc_free_serves(struct array *a)
{
    for (struct pending **pp = &a->pending; *pp;) {
        struct pending *p = *pp;
        if (p->done != io_done) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        engine_cancel(a->e, p->timer);
        free(p);
    }
    while (a->serves)
        serve_end(a->serves);
}

/* The model finished the I/O: a read's data then its status; a write's
 * status. The exchange may be gone (the port logged out): ctx names it by
 * pointer only while it is listed. */
static void io_done(void *ctx, uint64_t latency_ns)
{
    (void)latency_ns;
    struct fc_serve *sv = ctx;
    struct array *a = sv->a;
    if (!sv->write)
        for (uint32_t off = 0; off < sv->size; off += FC_DATA_FRAME) {
            uint32_t n = sv->size - off < FC_DATA_FRAME ? sv->size - off : FC_DATA_FRAME;
            struct fc_frame *f = frame(a, sv->initiator, FC_FCP_DATA, sv->ox_id, n);
            f->fcp_dl = sv->size;
            f->rel_off = off;
            f->seq_cnt = (uint16_t)(off / FC_DATA_FRAME);
            fabric_send(a->fab, a->sw, f);
        }
    fabric_send(a->fab, a->sw, frame(a, sv->initiator, FC_FCP_RSP, sv->ox_id, FC_RSP_BYTES));
    serve_end(sv);
}

/* Where the initiator's next read or write goes: its own sequential
 * stream, wrapping at the drive's end. */
static uint64_t stream_offset(struct array *a, uint32_t initiator, bool write, uint32_t size)
{
    struct fc_stream *s = &a->streams[0];
    for (int i = 0; i < ARRAY_FC_STREAMS; i++) {
        if (a->streams[i].initiator == initiator && a->streams[i].used) {
            s = &a->streams[i];
            break;
        }
        if (a->streams[i].used < s->used)
            s = &a->streams[i];
    }
    if (s->initiator != initiator || !s->used)
        *s = (struct fc_stream){.initiator = initiator};
    s->used = ++a->stream_clock;
    uint64_t cap = (uint64_t)a->ld[0].conf.capacity_gb << 30, off = s->next[write];
    if (off + size > cap)
        off = 0;
    s->next[write] = off + size;
    return off;
}

/* A command the model cannot take (no drive, no controller) gets no
 * answer: the initiator times out, as against a dead target. */
static void start_io(struct fc_serve *sv)
{
    sv->started = true;
    if (!array_io(sv->a, 0, sv->write, sv->off, sv->size, io_done, sv))
        serve_end(sv);
}

static void xfer_rdy(engine_t *e, void *arg)
{
    (void)e;
    struct fc_serve *sv = arg;
    sv->timer = 0;
    struct fc_frame *x = frame(sv->a, sv->initiator, FC_FCP_XFER_RDY, sv->ox_id, FC_XFER_RDY_BYTES);
    x->fcp_dl = sv->size;
    fabric_send(sv->a->fab, sv->a->sw, x);
}

static void on_cmnd(struct array *a, const struct fc_frame *f)
{
    if (!f->fcp_dl || f->fcp_dl > (1u << 24))
        return; /* bounded: the tuner's largest transfer is far below */
    struct fc_serve *sv = calloc(1, sizeof *sv);
    if (!sv)
        abort();
    *sv = (struct fc_serve){.a = a, .initiator = f->s_id, .ox_id = f->ox_id, .write = f->fcp_write,
                            .size = f->fcp_dl, .next = a->serves};
    sv->off = stream_offset(a, f->s_id, f->fcp_write, f->fcp_dl);
    a->serves = sv;
    if (sv->write) /* the controller has the buffer: ask for the data */
        sv->timer = engine_after(a->e, ARRAY_CTRL_NS, xfer_rdy, sv);
    else
        start_io(sv);
}

static void on_data(struct array *a, const struct fc_frame *f)
{
    for (struct fc_serve *sv = a->serves; sv; sv = sv->next)
        if (sv->initiator == f->s_id && sv->ox_id == f->ox_id && sv->write) {
            if ((sv->got += f->payload) >= sv->size && !sv->timer && !sv->started)
                start_io(sv);
            return;
        }
}

static void fc_rx(void *ctx, struct fc_frame *f)
{
    struct array *a = ctx;
    if (f->kind == FC_ELS_ECHO) { /* fcping */
        f->kind = FC_ELS_ECHO_ACC;
        f->d_id = f->s_id;
        f->s_id = a->fcid;
        fabric_send(a->fab, a->sw, f);
        return;
    }
    if (f->kind == FC_FCP_CMND)
        on_cmnd(a, f);
    else if (f->kind == FC_FCP_DATA)
        on_data(a, f);
    fabric_frame_free(a->fab, f);
}

void array_fc_attach(struct array *a, struct fabric *fab, int sw, int vsan, const uint8_t pwwn[8],
                     const uint8_t nwwn[8], const char *ifname)
{
    if (a->fcid && a->fab == fab && a->sw == sw && a->vsan == vsan && memcmp(a->pwwn, pwwn, 8) == 0)
        return;
    array_fc_detach(a);
    a->fab = fab;
    a->sw = sw;
    a->vsan = vsan;
    memcpy(a->pwwn, pwwn, 8);
    strncpy(a->ifname, ifname, sizeof a->ifname - 1);
    a->fcid = fabric_login(fab, sw, vsan, pwwn, fc_rx, a);
    fabric_port_describe(fab, sw, a->fcid, nwwn, a->ifname, "scsi-fcp:target");
}

void array_fc_detach(struct array *a)
{
    if (!a->fcid)
        return;
    array_fc_free_serves(a);
    fabric_logout(a->fab, a->sw, a->vsan, a->fcid);
    a->fcid = 0;
}

uint32_t array_fc_fcid(const struct array *a) { return a->fcid; }
