/* The array's latency model (array_model.h, docs/array.md). */
#include "array_int.h"
#include <stdlib.h>
#include <string.h>

struct array *array_new(engine_t *e)
{
    struct array *a = calloc(1, sizeof *a);
    if (!a)
        abort();
    a->e = e;
    return a;
}

void array_free(struct array *a)
{
    if (!a)
        return;
    array_fc_detach(a);
    while (a->pending) {
        struct pending *p = a->pending;
        a->pending = p->next;
        engine_cancel(a->e, p->timer);
        free(p);
    }
    free(a);
}

void array_configure(struct array *a, const struct array_conf *c)
{
    for (int i = 0; i < c->nld; i++) {
        struct ld *d = &a->ld[i];
        bool same = i < a->conf.nld && d->conf.raid == c->ld[i].raid && d->conf.disks == c->ld[i].disks;
        if (!same)
            memset(d, 0, sizeof *d);
        d->conf = c->ld[i];
    }
    for (int i = c->nld; i < a->conf.nld; i++)
        memset(&a->ld[i], 0, sizeof a->ld[i]);
    a->conf = *c;
}

int array_ld_controller(const struct array *a, int ld)
{
    int own = a->ld[ld].conf.owner & 1, other = own ^ 1;
    if (own < a->conf.controllers && a->conf.online[own])
        return own;
    return other < a->conf.controllers && a->conf.online[other] ? other : -1;
}

enum array_write_mode array_write_mode(const struct array *a, int ld)
{
    const struct array_ld_conf *c = &a->ld[ld].conf;
    bool partner = a->conf.controllers == 2 && a->conf.online[0] && a->conf.online[1];
    if (!c->write_cache || (c->mirror_cache && !partner)) /* mirroring with no partner: suspended */
        return ARRAY_WRITE_THROUGH;
    return c->mirror_cache ? ARRAY_WRITE_BACK_MIRRORED : ARRAY_WRITE_BACK;
}

/* ---- disks ---------------------------------------------------------------- */

static uint64_t xfer_ns(uint64_t bytes, uint64_t mbps) { return bytes * 1000u / mbps; }

/* One operation on a disk's FIFO, not before t: its end. A disk whose
 * head is where the operation starts only transfers; one a little behind
 * (a parity segment RAID 5 skips) passes over the gap at its media rate. */
/* The disk's head is at doff or a little behind it. */
static bool head_near(const struct ld *d, int disk, uint64_t doff)
{
    return doff >= d->head[disk] && doff - d->head[disk] <= ARRAY_PASS_OVER;
}

static uint64_t disk_op(struct ld *d, int disk, uint64_t doff, uint32_t bytes, uint64_t t)
{
    uint64_t start = t > d->disk_free[disk] ? t : d->disk_free[disk];
    uint64_t svc = xfer_ns(bytes, ARRAY_DISK_MBPS);
    if (head_near(d, disk, doff))
        svc += xfer_ns(doff - d->head[disk], ARRAY_DISK_MBPS);
    else
        svc += ARRAY_SEEK_NS + ARRAY_ROTATION_NS;
    d->disk_free[disk] = start + svc;
    d->head[disk] = doff + bytes;
    d->st.disk_ops++;
    return start + svc;
}

static uint64_t max64(uint64_t x, uint64_t y) { return x > y ? x : y; }

/* Where a piece of the drive lies: its data disk, its mirror or parity
 * disk, and the offset on them. RAID 10 stripes over mirrored pairs;
 * RAID 5 rotates parity (left-asymmetric). */
struct place {
    int data, other;
    uint64_t doff;
    uint64_t poff; /* RAID 5: where a full-stripe write's share of parity for this piece goes */
};

static struct place place_of(const struct ld *d, uint64_t off)
{
    uint64_t seg = off / ARRAY_SEGMENT, in = off % ARRAY_SEGMENT;
    int n = d->conf.disks;
    if (d->conf.raid == ARRAY_RAID10) {
        int pairs = n / 2, pair = (int)(seg % (uint64_t)pairs);
        return (struct place){2 * pair, 2 * pair + 1, seg / (uint64_t)pairs * ARRAY_SEGMENT + in, 0};
    }
    uint64_t stripe = seg / (uint64_t)(n - 1);
    int pos = (int)(seg % (uint64_t)(n - 1)), parity = n - 1 - (int)(stripe % (uint64_t)n);
    return (struct place){pos < parity ? pos : pos + 1, parity, stripe * ARRAY_SEGMENT + in,
                          stripe * ARRAY_SEGMENT + ((uint64_t)pos * ARRAY_SEGMENT + in) / (uint64_t)(n - 1)};
}

/* Each piece of [off, off + bytes) within one segment, in turn. */
typedef uint64_t (*piece_fn)(struct ld *d, struct place p, uint32_t bytes, uint64_t t);

static uint64_t each_piece(struct ld *d, uint64_t off, uint32_t bytes, uint64_t t, piece_fn fn)
{
    uint64_t end = t;
    while (bytes) {
        uint32_t n = (uint32_t)(ARRAY_SEGMENT - off % ARRAY_SEGMENT);
        n = n < bytes ? n : bytes;
        end = max64(end, fn(d, place_of(d, off), n, t));
        off += n;
        bytes -= n;
    }
    return end;
}

/* A read from the less busy copy (RAID 10) or the data disk (RAID 5). */
static uint64_t read_piece(struct ld *d, struct place p, uint32_t bytes, uint64_t t)
{
    int disk = p.data;
    if (d->conf.raid == ARRAY_RAID10) { /* the copy whose head is there, else the one free first */
        bool hd = head_near(d, p.data, p.doff), ho = head_near(d, p.other, p.doff);
        if ((ho && !hd) || (ho == hd && max64(t, d->disk_free[p.other]) < max64(t, d->disk_free[p.data])))
            disk = p.other;
    }
    return disk_op(d, disk, p.doff, bytes, t);
}

/* RAID 10: both copies. RAID 5: read the old data and parity, then write
 * both (the write penalty of 4); a write that continues where its data
 * disk's head is (or a little ahead) belongs to a sequential stream the
 * cache gathers into full stripes: no reads, its share of the parity
 * written in passing. */
static uint64_t write_piece(struct ld *d, struct place p, uint32_t bytes, uint64_t t)
{
    if (d->conf.raid == ARRAY_RAID10)
        return max64(disk_op(d, p.data, p.doff, bytes, t), disk_op(d, p.other, p.doff, bytes, t));
    if (head_near(d, p.data, p.doff)) /* sequential: joins a full-stripe write, parity from the cache */
        return max64(disk_op(d, p.data, p.doff, bytes, t),
                     disk_op(d, p.other, p.poff, bytes / (uint32_t)(d->conf.disks - 1), t));
    uint64_t r = max64(disk_op(d, p.data, p.doff, bytes, t), disk_op(d, p.other, p.doff, bytes, t));
    return max64(disk_op(d, p.data, p.doff, bytes, r), disk_op(d, p.other, p.doff, bytes, r));
}

/* ---- cache ---------------------------------------------------------------- */

static uint64_t chunk_key(int ld, uint64_t chunk) { return ((uint64_t)ld << 48 | chunk) + 1; }

static bool cache_has(const struct array *a, int ctrl, int ld, uint64_t off, uint32_t bytes)
{
    for (uint64_t c = off / ARRAY_CACHE_CHUNK; c <= (off + bytes - 1) / ARRAY_CACHE_CHUNK; c++)
        if (a->cache[ctrl][c % ARRAY_CACHE_CHUNKS] != chunk_key(ld, c))
            return false;
    return true;
}

static void cache_put(struct array *a, int ctrl, int ld, uint64_t off, uint32_t bytes)
{
    for (uint64_t c = off / ARRAY_CACHE_CHUNK; c <= (off + bytes - 1) / ARRAY_CACHE_CHUNK; c++)
        a->cache[ctrl][c % ARRAY_CACHE_CHUNKS] = chunk_key(ld, c);
}

/* ---- I/O ------------------------------------------------------------------ */

static void count(struct array_stats *s, const struct pending *p)
{
    s->ios++;
    s->reads += !p->write;
    s->read_hits += !p->write && p->hit;
    s->bytes += p->bytes;
}

static void completed(engine_t *e, void *arg)
{
    struct pending *p = arg;
    struct array *a = p->a;
    for (struct pending **pp = &a->pending; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    count(&a->ld[p->ld].st, p);
    count(&a->ctrl[p->ctrl], p);
    p->done(p->ctx, engine_now(e) - p->started);
    free(p);
}

/* When a write completes: in cache (and the partner's), its destage
 * queued behind; or on the disks. */
static uint64_t write_done(struct array *a, int ld, uint64_t off, uint32_t bytes, uint64_t now)
{
    struct ld *d = &a->ld[ld];
    enum array_write_mode m = array_write_mode(a, ld);
    uint64_t in_cache = now + ARRAY_CTRL_NS + xfer_ns(bytes, ARRAY_CACHE_MBPS);
    if (m == ARRAY_WRITE_THROUGH)
        return each_piece(d, off, bytes, in_cache, write_piece);
    if (m == ARRAY_WRITE_BACK_MIRRORED)
        in_cache += ARRAY_MIRROR_NS + xfer_ns(bytes, ARRAY_MIRROR_MBPS);
    uint64_t destaged = each_piece(d, off, bytes, in_cache, write_piece);
    return max64(in_cache, destaged > ARRAY_DIRTY_NS ? destaged - ARRAY_DIRTY_NS : 0);
}

bool array_io(struct array *a, int ld, bool write, uint64_t off, uint32_t bytes, array_done_fn done, void *ctx)
{
    if (ld < 0 || ld >= a->conf.nld || !bytes)
        return false;
    struct ld *d = &a->ld[ld];
    int ctrl = array_ld_controller(a, ld);
    if (ctrl < 0 || off + bytes > (uint64_t)d->conf.capacity_gb << 30)
        return false;
    uint64_t now = engine_now(a->e), end;
    bool hit = false;
    if (write) {
        end = write_done(a, ld, off, bytes, now);
    } else if ((hit = d->conf.read_cache && cache_has(a, ctrl, ld, off, bytes))) {
        end = now + ARRAY_CTRL_NS + xfer_ns(bytes, ARRAY_CACHE_MBPS);
    } else {
        end = each_piece(d, off, bytes, now + ARRAY_CTRL_NS, read_piece) + xfer_ns(bytes, ARRAY_CACHE_MBPS);
    }
    if (write || d->conf.read_cache)
        cache_put(a, ctrl, ld, off, bytes);
    struct pending *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    *p = (struct pending){a, done, ctx, now, 0, ld, ctrl, write, hit, bytes, a->pending};
    a->pending = p;
    p->timer = engine_after(a->e, end - now, completed, p);
    return true;
}

void array_cancel(struct array *a, void *ctx)
{
    for (struct pending **pp = &a->pending; *pp;) {
        struct pending *p = *pp;
        if (p->ctx != ctx) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        engine_cancel(a->e, p->timer);
        free(p);
    }
}

void array_ld_stats(const struct array *a, int ld, struct array_stats *out)
{
    memset(out, 0, sizeof *out);
    if (ld >= 0 && ld < a->conf.nld)
        *out = a->ld[ld].st;
}

void array_ctrl_stats(const struct array *a, int ctrl, struct array_stats *out)
{
    memset(out, 0, sizeof *out);
    if (ctrl == 0 || ctrl == 1)
        *out = a->ctrl[ctrl];
}
