#include "engine/engine.h"

#include <stdlib.h>

/* The heap holds small (time, seq, node) keys so that sifting touches one
 * cache-friendly array; callbacks live in a node pool whose slots are
 * recycled through a free list, so scheduling an event does not malloc once
 * the pool has grown to the peak number of pending events. Cancelling is
 * lazy: the node is marked and its key dropped when it reaches the top, so
 * sifting never writes to the node pool (that write, a cache miss per level
 * with many events pending, halved the event rate). */
typedef struct heap_ent {
    uint64_t time;
    uint64_t seq;
    uint32_t node;
} heap_ent;

#define NO_NODE UINT32_MAX

enum node_state { NODE_FREE, NODE_PENDING, NODE_CANCELLED };

typedef struct node {
    engine_fn fn;
    void *arg;
    uint32_t state;     /* enum node_state */
    uint32_t gen;       /* bumped on release so stale handles miss */
    uint32_t next_free;
} node;

/* Large mode (more than CAL_HIGH keys; back to the plain heap below
 * CAL_LOW): a calendar queue (R. Brown 1988) in front of the heap.
 * Bucket b holds the events with time >> shift == b, for b in
 * (cur, cur + nb); the heap ("near") holds those with time >> shift <=
 * cur, and a second heap ("far") those at or beyond cur + nb. When the
 * near heap runs empty, cur moves to the next non-empty bucket, far keys
 * now inside the window move in, and the bucket's events are heapified
 * into the near heap. Run order is still decided by (time, seq) in the
 * near heap; the calendar only decides when an event enters it, and every
 * event in a bucket is later than every event in the near heap. */
#define CAL_HIGH 512u
#define CAL_LOW 128u
#define CAL_PER_BUCKET 8u      /* target events per bucket */

/* A bucket is a list of chunks of keys, newest first; chunks are
 * recycled through a free list. Keys, not node links: moving a bucket into
 * the near heap reads consecutive keys and prefetches their nodes, instead
 * of following a chain of cache misses through the node pool. */
#define CHUNK_KEYS 5
typedef struct chunk {
    heap_ent k[CHUNK_KEYS];
    uint32_t next;
} chunk;

/* The fill count of the newest chunk lives here, not in the chunk, so
 * adding a key only writes to the (usually cold) chunk: a store, which
 * does not stall the way a load would. Older chunks are full. */
typedef struct bucket_head {
    uint32_t c;
    uint32_t n;
} bucket_head;

struct engine {
    uint64_t now;
    uint64_t seed;
    uint64_t seq;
    uint64_t events_run;
    uint64_t trace;
    heap_ent *heap;
    uint32_t heap_len, heap_cap;
    uint32_t cancelled; /* keys anywhere whose node was cancelled */
    node *nodes;
    uint32_t nodes_len, nodes_cap;
    uint32_t free_head;
    bool running;
    bool large;
    /* calendar (large mode) */
    unsigned shift;
    uint32_t nb, nb_cap;        /* buckets (power of two), allocated */
    bucket_head *bucket;
    chunk *chunks;
    uint32_t chunks_len, chunks_cap, chunk_free;
    uint32_t cal_count;         /* keys in buckets */
    uint64_t cur;               /* current bucket number */
    uint64_t tune_from;         /* cur when parameters were last chosen */
    uint64_t tune_moved;        /* keys moved from buckets since */
    uint64_t tune_far;          /* keys moved in from the far heap since */
    heap_ent *far;
    uint32_t far_len, far_cap;
    /* the observer of engine_on_tick, and the next boundary it is due at */
    engine_tick_fn tick_fn;
    void *tick_ctx;
    uint64_t tick_period, tick_next;
};

/* engine_now (engine.h) reads the time as the struct's first member. */
_Static_assert(offsetof(struct engine, now) == 0, "now must come first");

engine_t *engine_new(uint64_t seed)
{
    engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->seed = seed;
    e->free_head = NO_NODE;
    e->chunk_free = NO_NODE;
    e->trace = 0xcbf29ce484222325ULL;
    return e;
}

void engine_free(engine_t *e)
{
    if (!e)
        return;
    free(e->heap);
    free(e->far);
    free(e->bucket);
    free(e->chunks);
    free(e->nodes);
    free(e);
}

uint64_t engine_seed(const engine_t *e) { return e->seed; }
void engine_set_seed(engine_t *e, uint64_t seed) { e->seed = seed; }
uint64_t engine_events_run(const engine_t *e) { return e->events_run; }
size_t engine_pending(const engine_t *e)
{
    return (size_t)e->heap_len + e->cal_count + e->far_len - e->cancelled;
}
uint64_t engine_trace_hash(const engine_t *e) { return e->trace; }

void engine_rng_stream(const engine_t *e, rng_t *r, const char *name)
{
    rng_seed_stream(r, e->seed, name);
}

void engine_trace_mix(engine_t *e, uint64_t value)
{
    uint64_t h = (e->trace ^ value) * 0x9e3779b97f4a7c15ULL;
    e->trace = h ^ (h >> 29);
}

uint64_t engine_next_time(const engine_t *e)
{
    return e->heap_len ? e->heap[0].time : ENGINE_TIME_NEVER;
}

/* ---- heap ---------------------------------------------------------- */

/* The sifts are used from several places; left to itself gcc then calls
 * them out of line, which cost the 3-event netsim case about 25 %. */
#if defined(__GNUC__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

static bool ent_less(const heap_ent *a, const heap_ent *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static HOT_INLINE void sift_up(heap_ent *h, uint32_t pos, heap_ent ent)
{
    while (pos > 0) {
        uint32_t parent = (pos - 1) / 2;
        if (!ent_less(&ent, &h[parent]))
            break;
        h[pos] = h[parent];
        pos = parent;
    }
    h[pos] = ent;
}

static HOT_INLINE void sift_down(heap_ent *h, uint32_t n, uint32_t pos, heap_ent ent)
{
    for (;;) {
        uint32_t child = 2 * pos + 1;
        if (child >= n)
            break;
        if (child + 1 < n && ent_less(&h[child + 1], &h[child]))
            child++;
        if (!ent_less(&h[child], &ent))
            break;
        h[pos] = h[child];
        pos = child;
    }
    h[pos] = ent;
}

static void heapify(heap_ent *h, uint32_t n)
{
    for (uint32_t i = n / 2; i-- > 0;)
        sift_down(h, n, i, h[i]);
}

static void heap_pop(engine_t *e)
{
    heap_ent last = e->heap[--e->heap_len];
    if (e->heap_len > 0)
        sift_down(e->heap, e->heap_len, 0, last);
}

static bool grow(void **buf, uint32_t *cap, size_t elem)
{
    uint32_t ncap = *cap ? *cap * 2 : 64;
    if (ncap <= *cap)
        return false;
    void *p = realloc(*buf, (size_t)ncap * elem);
    if (!p)
        return false;
    *buf = p;
    *cap = ncap;
    return true;
}

static bool reserve(heap_ent **buf, uint32_t *cap, uint64_t need)
{
    while (*cap < need)
        if (!grow((void **)buf, cap, sizeof(heap_ent)))
            return false;
    return true;
}

/* ---- node pool ----------------------------------------------------- */

static uint32_t node_alloc(engine_t *e)
{
    if (e->free_head != NO_NODE) {
        uint32_t idx = e->free_head;
        e->free_head = e->nodes[idx].next_free;
        return idx;
    }
    if (e->nodes_len == e->nodes_cap &&
        !grow((void **)&e->nodes, &e->nodes_cap, sizeof(node)))
        return NO_NODE;
    if (e->nodes_len == NO_NODE)
        return NO_NODE;
    uint32_t idx = e->nodes_len++;
    e->nodes[idx].gen = 1;
    return idx;
}

static void node_release(engine_t *e, uint32_t idx)
{
    node *n = &e->nodes[idx];
    n->state = NODE_FREE;
    if (++n->gen == 0)
        n->gen = 1;
    n->next_free = e->free_head;
    e->free_head = idx;
}

/* ---- calendar (large mode) ------------------------------------------ */

static uint32_t keys_total(const engine_t *e)
{
    return e->heap_len + e->cal_count + e->far_len;
}

/* Room for every chunk the calendar can need: one partly filled chunk
 * per bucket plus full ones for every key. Checked when a key is added,
 * so moving keys around later never allocates. */
static bool chunks_reserve(engine_t *e)
{
    uint64_t need = (uint64_t)e->nb + keys_total(e) / CHUNK_KEYS + 2;
    while (e->chunks_cap < need)
        if (!grow((void **)&e->chunks, &e->chunks_cap, sizeof(chunk)))
            return false;
    return true;
}

static void chunk_release(engine_t *e, uint32_t c)
{
    e->chunks[c].next = e->chunk_free;
    e->chunk_free = c;
}

/* Place a key that is not in the near heap's range (time >> shift > cur):
 * a bucket of the window, or the far heap. */
static bool cal_place(engine_t *e, heap_ent k)
{
    uint64_t b = k.time >> e->shift;
    if (b - e->cur < e->nb) {
        bucket_head *head = &e->bucket[b & (e->nb - 1)];
        if (head->c == NO_NODE || head->n == CHUNK_KEYS) {
            uint32_t nc = e->chunk_free;
            if (nc != NO_NODE)
                e->chunk_free = e->chunks[nc].next;
            else
                nc = e->chunks_len++;   /* capacity: chunks_reserve */
            e->chunks[nc].next = head->c;
            head->c = nc;
            head->n = 0;
        }
        e->chunks[head->c].k[head->n++] = k;
        e->cal_count++;
        return true;
    }
    if (e->far_len == e->far_cap &&
        !grow((void **)&e->far, &e->far_cap, sizeof(heap_ent)))
        return false;
    sift_up(e->far, e->far_len++, k);
    return true;
}

/* Appends k to the heap array, or releases its node when it was cancelled. */
static void keep_live(engine_t *e, heap_ent k, uint32_t *n)
{
    if (e->nodes[k.node].state == NODE_CANCELLED) {
        node_release(e, k.node);
        e->cancelled--;
    } else {
        e->heap[(*n)++] = k;
    }
}

/* Leave large mode: every live key back into the one heap (cancelled
 * ones are released on the way). The heap array must hold them all. */
static void go_small(engine_t *e)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < e->heap_len; i++)
        keep_live(e, e->heap[i], &n);
    if (e->cal_count) {
        for (uint32_t b = 0; b < e->nb; b++) {
            uint32_t c = e->bucket[b].c, cn = e->bucket[b].n;
            e->bucket[b] = (bucket_head){ NO_NODE, 0 };
            for (; c != NO_NODE; cn = CHUNK_KEYS) {
                chunk *ch = &e->chunks[c];
                for (uint32_t i = 0; i < cn; i++)
                    keep_live(e, ch->k[i], &n);
                uint32_t next = ch->next;
                chunk_release(e, c);
                c = next;
            }
        }
    }
    for (uint32_t i = 0; i < e->far_len; i++)
        keep_live(e, e->far[i], &n);
    e->heap_len = n;
    e->cal_count = 0;
    e->far_len = 0;
    e->large = false;
    heapify(e->heap, n);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static unsigned log2_floor(uint64_t x)
{
    unsigned r = 0;
    while (x >>= 1)
        r++;
    return r;
}

/* Enter large mode from a heap holding every key (in heap order, no
 * cancelled key on top). Bucket width and count come from a sample of the
 * pending times: the width spreads the earliest quarter of the events at
 * about CAL_PER_BUCKET per bucket, the window reaches the 15/16 quantile.
 * They only affect speed, never the run order. On allocation failure it
 * stays small (still correct). */
static void go_large(engine_t *e)
{
    enum { SMAX = 256 };
    uint64_t t[SMAX];
    uint32_t n = e->heap_len;
    uint32_t S = n < SMAX ? n : SMAX;
    if (n < 16)
        return;
    for (uint32_t i = 0; i < S; i++)
        t[i] = e->heap[(uint64_t)i * n / S].time;
    qsort(t, S, sizeof t[0], cmp_u64);
    uint64_t lo = e->heap[0].time;
    uint64_t quarter = t[S / 4] - lo;
    uint64_t gap = quarter / (n / 4);
    uint64_t width = gap > UINT64_MAX / CAL_PER_BUCKET ? UINT64_MAX : gap * CAL_PER_BUCKET;
    if (width == 0)
        width = quarter * CAL_PER_BUCKET / (n / 4);     /* quarter < n / 4 */
    unsigned shift = width ? log2_floor(width) : 0;
    uint64_t span = ((t[S * 15 / 16] - lo) >> shift) + 1;
    uint64_t nb = 64;
    while (nb < span && nb < 2ull * n && nb < (1u << 24))
        nb *= 2;
    if (nb > e->nb_cap) {
        bucket_head *p = realloc(e->bucket, nb * sizeof *p);
        if (!p)
            return;
        e->bucket = p;
        e->nb_cap = (uint32_t)nb;
    }
    e->nb = (uint32_t)nb;
    for (uint32_t b = 0; b < e->nb; b++)
        e->bucket[b] = (bucket_head){ NO_NODE, 0 };
    e->shift = shift;
    e->cur = lo >> shift;
    e->tune_from = e->cur;
    e->tune_moved = 0;
    e->tune_far = 0;
    e->cal_count = 0;
    e->far_len = 0;
    /* Keys of bucket cur stay in the near heap; the far heap cannot need
     * more room than the keys moved out, so reserve that first. */
    if (!reserve(&e->far, &e->far_cap, n) || !chunks_reserve(e))
        return;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < n; i++) {
        heap_ent k = e->heap[i];
        if ((k.time >> shift) <= e->cur)
            e->heap[keep++] = k;
        else
            cal_place(e, k);
    }
    e->heap_len = keep;
    heapify(e->heap, keep);
    e->large = true;
}

/* Large mode, near heap empty: move the next non-empty bucket in. */
static void refill(engine_t *e)
{
    while (e->heap_len == 0) {
        /* Few keys left (maybe none, maybe only cancelled ones): back to
         * the plain heap. Staying large with an empty near heap would hide
         * the events scheduled next into buckets. */
        uint32_t total = e->cal_count + e->far_len;
        if (total - (total < e->cancelled ? total : e->cancelled) < CAL_LOW) {
            go_small(e);
            return;
        }
        if (e->cur - e->tune_from >= e->nb) {
            /* A window's worth of buckets passed: re-choose the width if
             * the buckets held far more or far fewer events than meant,
             * or if most keys came through the far heap. A rebuild costs
             * O(keys), so it waits until as many keys have moved through
             * (O(1) per event whatever the pattern). */
            uint64_t per = e->tune_moved / (e->cur - e->tune_from);
            bool off = per > 4 * CAL_PER_BUCKET || per < CAL_PER_BUCKET / 4 ||
                       e->tune_far > e->tune_moved / 2;
            if (!off) {
                e->tune_from = e->cur;
                e->tune_moved = 0;
                e->tune_far = 0;
            } else if (e->tune_moved + e->tune_far >= keys_total(e) / 2) {
                go_small(e);
                go_large(e);
                continue;
            }
        }
        if (e->cal_count == 0)
            e->cur = e->far[0].time >> e->shift;
        else
            e->cur++;
        while (e->far_len && (e->far[0].time >> e->shift) - e->cur < e->nb) {
            heap_ent k = e->far[0];
            heap_ent last = e->far[--e->far_len];
            if (e->far_len)
                sift_down(e->far, e->far_len, 0, last);
            if (e->nodes[k.node].state == NODE_CANCELLED) {
                node_release(e, k.node);
                e->cancelled--;
                continue;
            }
            e->tune_far++;
            if ((k.time >> e->shift) == e->cur) {
                e->heap[e->heap_len++] = k;     /* heapified below */
            } else {
                cal_place(e, k);
            }
        }
        bucket_head *head = &e->bucket[e->cur & (e->nb - 1)];
        uint32_t c = head->c, cn = head->n;
        *head = (bucket_head){ NO_NODE, 0 };
        /* Cancelled keys come along; fix_top drops them at the top. */
        for (; c != NO_NODE; cn = CHUNK_KEYS) {
            chunk *ch = &e->chunks[c];
            for (uint32_t i = 0; i < cn; i++) {
                heap_ent k = ch->k[i];
#if defined(__GNUC__)
                __builtin_prefetch(&e->nodes[k.node]);
#endif
                e->heap[e->heap_len++] = k;
            }
            e->cal_count -= cn;
            e->tune_moved += cn;
            uint32_t next = ch->next;
            chunk_release(e, c);
            c = next;
        }
        heapify(e->heap, e->heap_len);
    }
}

/* ---- scheduling ---------------------------------------------------- */

engine_timer_id engine_at(engine_t *e, uint64_t when_ns, engine_fn fn, void *arg)
{
    /* The heap array always has room for every key, so moving keys back
     * into it (refill, go_small) never allocates. */
    if (keys_total(e) >= e->heap_cap &&
        !grow((void **)&e->heap, &e->heap_cap, sizeof(heap_ent)))
        return 0;
    uint32_t idx = node_alloc(e);
    if (idx == NO_NODE)
        return 0;
    node *n = &e->nodes[idx];
    n->fn = fn;
    n->arg = arg;
    n->state = NODE_PENDING;
    heap_ent ent = { when_ns < e->now ? e->now : when_ns, e->seq++, idx };
    engine_timer_id id = ((uint64_t)n->gen << 32) | idx;
    if (!e->large) {
        sift_up(e->heap, e->heap_len++, ent);
        if (e->heap_len > CAL_HIGH)
            go_large(e);
    } else if ((ent.time >> e->shift) <= e->cur) {
        sift_up(e->heap, e->heap_len++, ent);
    } else if (!chunks_reserve(e) || !cal_place(e, ent)) {
        node_release(e, idx);
        e->seq--;
        return 0;
    }
    return id;
}

engine_timer_id engine_after(engine_t *e, uint64_t delay_ns, engine_fn fn, void *arg)
{
    uint64_t when = e->now + delay_ns;
    if (when < e->now)
        when = ENGINE_TIME_NEVER;
    return engine_at(e, when, fn, arg);
}

/* Keeps the invariant that the top key is a live event, so peeking at
 * heap[0] (next time, run loops) never sees a cancelled one, and in large
 * mode that the near heap is not empty while anything is pending. With
 * no cancelled key anywhere it does not read the node pool (with many
 * events pending that read was a cache miss per event run). */
static void fix_top(engine_t *e)
{
    for (;;) {
        while (e->cancelled && e->heap_len &&
               e->nodes[e->heap[0].node].state == NODE_CANCELLED) {
            uint32_t idx = e->heap[0].node;
            heap_pop(e);
            node_release(e, idx);
            e->cancelled--;
        }
        if (e->heap_len || !e->large)
            return;
        refill(e);
        if (e->heap_len == 0)
            return;
    }
}

/* When most keys are dead, rebuild from the live ones, so a pattern of
 * far-future timers cancelled again and again cannot grow the heap. */
static void compact(engine_t *e)
{
    go_small(e);
    if (e->heap_len > CAL_HIGH)
        go_large(e);
}

bool engine_cancel(engine_t *e, engine_timer_id id)
{
    uint32_t idx = (uint32_t)id;
    uint32_t gen = (uint32_t)(id >> 32);
    if (id == 0 || idx >= e->nodes_len)
        return false;
    node *n = &e->nodes[idx];
    if (n->gen != gen || n->state != NODE_PENDING)
        return false;
    n->state = NODE_CANCELLED;
    e->cancelled++;
    if (e->cancelled > 64 && e->cancelled > keys_total(e) / 2)
        compact(e);
    fix_top(e);
    return true;
}

/* ---- running ------------------------------------------------------- */

/* Pop the earliest event, release its slot before calling it (so the
 * callback may reuse the slot and its own handle reads as stale), run it. */
static void run_top(engine_t *e)
{
    heap_ent top = e->heap[0];
    node *n = &e->nodes[top.node];
    engine_fn fn = n->fn;
    void *arg = n->arg;
    heap_pop(e);
    node_release(e, top.node);
    if (e->cancelled || (e->large && e->heap_len == 0))
        fix_top(e);
    e->now = top.time;
    e->events_run++;
    engine_trace_mix(e, top.time);
    fn(e, arg);
}

bool engine_step(engine_t *e)
{
    if (e->running || e->heap_len == 0)
        return false;
    e->running = true;
    run_top(e);
    e->running = false;
    return true;
}

static uint64_t run_until(engine_t *e, uint64_t t)
{
    if (e->running)
        return 0;
    uint64_t before = e->events_run;
    e->running = true;
    while (e->heap_len && e->heap[0].time <= t)
        run_top(e);
    e->running = false;
    if (t > e->now)
        e->now = t;
    return e->events_run - before;
}

static bool run_while(engine_t *e, bool (*pred)(void *ctx), void *ctx, uint64_t limit_ns)
{
    if (e->running)
        return !pred(ctx);
    e->running = true;
    bool stopped_by_pred = false;
    for (;;) {
        if (!pred(ctx)) {
            stopped_by_pred = true;
            break;
        }
        if (e->heap_len == 0 || e->heap[0].time > limit_ns)
            break;
        run_top(e);
    }
    e->running = false;
    if (!stopped_by_pred && limit_ns > e->now)
        e->now = limit_ns;
    return stopped_by_pred;
}

void engine_on_tick(engine_t *e, uint64_t period_ns, engine_tick_fn fn, void *ctx)
{
    e->tick_fn = period_ns ? fn : NULL;
    e->tick_ctx = ctx;
    e->tick_period = period_ns;
    e->tick_next = period_ns ? (e->now / period_ns + 1) * period_ns : ENGINE_TIME_NEVER;
}

/* The clock stops at each boundary on the way: the events due up to it
 * have run, none after it has. Running is set meanwhile, so an observer
 * that tried to run the engine would do nothing. */
static void tick(engine_t *e)
{
    uint64_t at = e->tick_next;
    e->tick_next += e->tick_period;
    e->running = true;
    e->tick_fn(e, at, e->tick_ctx);
    e->running = false;
}

uint64_t engine_run_until(engine_t *e, uint64_t t)
{
    if (!e->tick_fn || e->running)
        return run_until(e, t);
    uint64_t n = 0;
    while (e->tick_next <= t) {
        n += run_until(e, e->tick_next);
        tick(e);
    }
    return n + run_until(e, t);
}

bool engine_run_while(engine_t *e, bool (*pred)(void *ctx), void *ctx, uint64_t limit_ns)
{
    if (!e->tick_fn || e->running)
        return run_while(e, pred, ctx, limit_ns);
    while (e->tick_next <= limit_ns) {
        if (run_while(e, pred, ctx, e->tick_next))
            return true; /* stopped before the boundary: not sampled yet */
        tick(e);
    }
    return run_while(e, pred, ctx, limit_ns);
}
