#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

/* Pending events are kept in a radix heap (Ahuja, Mehlhorn, Orlin and
 * Tarjan, 1990), which works because a discrete-event kernel's keys are
 * monotone: an event is never scheduled before the last one popped.
 *
 * Key = (time, seq), 96 bits: the 64-bit time and a 32-bit insertion
 * sequence number. `last` is the key of the last event popped to run; every
 * pending key is greater (later time, or same time and later seq) and each
 * lives in bucket 1 + (index of the highest bit in which it differs from
 * `last`), bits 0-31 being seq and 32-95 time. So every key of bucket b is
 * smaller than every key of a bucket above b, and the minimum is in the
 * lowest non-empty bucket. Popping it sets `last` to it and moves the rest
 * of that bucket into lower buckets (each key falls at least one bucket, so
 * at most 96 moves per key; in practice a few). Inserting is an append.
 * Buckets are arrays scanned and appended sequentially, which with 100,000
 * events pending costs a few cache lines per event where a binary heap
 * pays a dependent miss per level.
 *
 * `last` only moves when an event is about to run (its time becomes now),
 * never when peeking: a peek finds the minimum of the lowest bucket and
 * caches its place, so engine_at(now) between runs stays >= `last`.
 *
 * An entry is 32 bytes: the time, seq << 32 | node, and the callback and
 * its argument, so running an event reads nothing but its entry. `node`
 * indexes a pool slot that exists for engine_cancel only: it records the
 * event's key, its handle tag and whether it was cancelled. Running an
 * event does not touch its slot (it would be a cache miss per event with
 * many events pending): the slot index goes on a free stack, and a handle
 * whose key is not after `last` has run. Scheduling writes the slot
 * without reading it and tags the handle with a global 32-bit counter, so
 * a stale handle misses unless exactly a multiple of 2^32 schedulings later
 * reused its slot. Pool, free stack and buckets only grow, so scheduling
 * does not malloc once they reached the peak.
 *
 * Cancelling is lazy: the slot is marked, and a cancelled key is dropped
 * when it is found to be the minimum (so the minimum a peek reports is
 * always a live event) or when dead keys are most of the heap (then every
 * bucket is compacted). The seq wraps after 2^32 schedulings; before it
 * does, the keys are sorted, renumbered from 1 in that order and
 * re-bucketed, which keeps every pending event's relative order. */
typedef struct heap_ent {
    uint64_t time;
    uint64_t sn;        /* seq << 32 | node */
    engine_fn fn;
    void *arg;
} heap_ent;

typedef struct bucket {
    heap_ent *v;
    uint32_t len, cap;
} bucket;

#define NO_NODE UINT32_MAX
#define NBUCKETS 97     /* 0: equal to last (unused: keys are unique); 1..96 */
#define SEQ_WRAP ((uint64_t)UINT32_MAX + 1)

/* A slot whose event ran stays NODE_SCHEDULED (its key is then not after
 * `last`) until it is reused. */
enum node_state { NODE_FREE, NODE_SCHEDULED, NODE_CANCELLED };

typedef struct node {
    uint64_t time;      /* key of the slot's event */
    uint32_t seq;
    uint32_t tag;       /* high half of its handle */
    uint32_t state;     /* enum node_state */
} node;

struct engine {
    uint64_t now;
    uint64_t seed;
    uint64_t seq_limit; /* next_seq reaching it renumbers (tests lower it) */
    uint64_t next_seq;
    uint64_t events_run;
    uint64_t trace;
    uint64_t last_time; /* key of the last event popped */
    uint32_t last_seq;
    uint64_t mask[2];   /* non-empty buckets */
    uint32_t count;     /* keys in the buckets, cancelled ones included */
    uint32_t cancelled; /* keys still in a bucket whose node was cancelled */
    bool min_valid;     /* min_b/min_i locate the smallest key */
    uint8_t min_b;
    uint32_t min_i;
    bucket bk[NBUCKETS];
    node *nodes;
    uint32_t *free_stack;
    uint32_t nodes_len, nodes_cap, n_free;
    uint32_t tag;       /* last handle tag given, never 0 */
    bool running;
};

static bool live_min(engine_t *e);

engine_t *engine_new(uint64_t seed)
{
    engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->seed = seed;
    e->seq_limit = SEQ_WRAP;
    e->next_seq = 1;
    e->trace = 0xcbf29ce484222325ULL;
    return e;
}

void engine_free(engine_t *e)
{
    if (!e)
        return;
    for (int b = 0; b < NBUCKETS; b++)
        free(e->bk[b].v);
    free(e->nodes);
    free(e->free_stack);
    free(e);
}

uint64_t engine_now(const engine_t *e) { return e->now; }
uint64_t engine_seed(const engine_t *e) { return e->seed; }
void engine_set_seed(engine_t *e, uint64_t seed) { e->seed = seed; }
uint64_t engine_events_run(const engine_t *e) { return e->events_run; }
size_t engine_pending(const engine_t *e) { return e->count - e->cancelled; }
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

/* Peeking may drop cancelled keys and cache the minimum's place; neither
 * changes what the engine holds, and an engine_t is never a const object. */
uint64_t engine_next_time(const engine_t *e)
{
    engine_t *m = (engine_t *)e;
    return live_min(m) ? m->bk[m->min_b].v[m->min_i].time : ENGINE_TIME_NEVER;
}

/* ---- radix heap ---------------------------------------------------- */

static inline bool ent_less(const heap_ent *a, const heap_ent *b)
{
    return a->time < b->time || (a->time == b->time && a->sn < b->sn);
}

static inline uint32_t ent_node(const heap_ent *a)
{
    return (uint32_t)a->sn;
}

static inline unsigned bucket_of(uint64_t last_time, uint32_t last_seq, const heap_ent *a)
{
    uint64_t dt = a->time ^ last_time;
    if (dt)
        return 33 + 63 - (unsigned)__builtin_clzll(dt);
    uint32_t ds = (uint32_t)(a->sn >> 32) ^ last_seq;
    return ds ? 1 + 31 - (unsigned)__builtin_clz(ds) : 0;
}

static inline void mask_set(engine_t *e, unsigned b) { e->mask[b >> 6] |= 1ULL << (b & 63); }
static inline void mask_clear(engine_t *e, unsigned b) { e->mask[b >> 6] &= ~(1ULL << (b & 63)); }

static int lowest_bucket(const engine_t *e)
{
    if (e->mask[0])
        return __builtin_ctzll(e->mask[0]);
    if (e->mask[1])
        return 64 + __builtin_ctzll(e->mask[1]);
    return -1;
}

/* Room for `more` keys in bucket k. */
static bool bucket_reserve(bucket *k, uint32_t more)
{
    if (k->cap - k->len >= more)
        return true;
    uint64_t ncap = k->cap ? (uint64_t)k->cap * 2 : 16;
    if (ncap < (uint64_t)k->len + more)
        ncap = (uint64_t)k->len + more;
    if (ncap > UINT32_MAX)
        return false;
    heap_ent *v = realloc(k->v, (size_t)ncap * sizeof *v);
    if (!v)
        return false;
    k->v = v;
    k->cap = (uint32_t)ncap;
    return true;
}

/* Append (space reserved); returns the index. */
static inline uint32_t bucket_put(engine_t *e, unsigned b, heap_ent ent)
{
    bucket *k = &e->bk[b];
    uint32_t i = k->len++;
    k->v[i] = ent;
    mask_set(e, b);
    return i;
}

static void bucket_remove(engine_t *e, unsigned b, uint32_t i)
{
    bucket *k = &e->bk[b];
    k->v[i] = k->v[--k->len];
    if (k->len == 0)
        mask_clear(e, b);
}

/* Locate the smallest key (cancelled or not) in the lowest bucket. */
static bool find_min(engine_t *e)
{
    if (e->min_valid)
        return true;
    int b = lowest_bucket(e);
    if (b < 0)
        return false;
    const bucket *k = &e->bk[b];
    uint32_t m = 0;
    for (uint32_t i = 1; i < k->len; i++)
        if (ent_less(&k->v[i], &k->v[m]))
            m = i;
    e->min_b = (uint8_t)b;
    e->min_i = m;
    e->min_valid = true;
    return true;
}

static void node_free(engine_t *e, uint32_t idx)
{
    e->nodes[idx].state = NODE_FREE;
    e->free_stack[e->n_free++] = idx;
}

/* Locate the earliest live event, dropping cancelled keys found first.
 * With no cancelled key pending it does not read the node pool. */
static bool live_min(engine_t *e)
{
    while (find_min(e)) {
        if (!e->cancelled)
            return true;
        uint32_t idx = ent_node(&e->bk[e->min_b].v[e->min_i]);
        if (e->nodes[idx].state != NODE_CANCELLED)
            return true;
        bucket_remove(e, e->min_b, e->min_i);
        e->min_valid = false;
        e->count--;
        e->cancelled--;
        node_free(e, idx);
    }
    return false;
}

/* Remove the minimum (located by find_min) into *out and make it `last`:
 * the rest of its bucket moves down, and the smallest of them, if any, is
 * the next minimum (every other bucket lies above). If a target bucket
 * cannot grow, the moves done so far are undone (each was an append, so
 * removing them in reverse order restores every bucket) and it returns
 * false with nothing changed. */
static bool pop_min(engine_t *e, heap_ent *out)
{
    unsigned b = e->min_b;
    uint32_t mi = e->min_i;
    bucket *k = &e->bk[b];
    heap_ent *v = k->v;
    heap_ent top = v[mi];
    uint64_t lt = top.time;
    uint32_t ls = (uint32_t)(top.sn >> 32);
    uint32_t n = k->len - 1;
    v[mi] = v[n];
    if (b == 0 || n == 0) {
        k->len = n;
        if (n == 0)
            mask_clear(e, b);
    } else {
        k->len = 0;
        mask_clear(e, b);
        heap_ent best = v[0];
        unsigned best_b = 0;
        uint32_t best_i = 0;
        for (uint32_t i = 0; i < n; i++) {
            unsigned nb = bucket_of(lt, ls, &v[i]);
            bucket *t = &e->bk[nb];
            if (t->len == t->cap && !bucket_reserve(t, 1)) {
                while (i-- > 0) {
                    nb = bucket_of(lt, ls, &v[i]);
                    if (--e->bk[nb].len == 0)
                        mask_clear(e, nb);
                }
                v[n] = v[mi];
                v[mi] = top;
                k->len = n + 1;
                mask_set(e, b);
                return false;
            }
            uint32_t j = bucket_put(e, nb, v[i]);
            if (i == 0 || ent_less(&v[i], &best)) {
                best = v[i];
                best_b = nb;
                best_i = j;
            }
        }
        e->min_b = (uint8_t)best_b;
        e->min_i = best_i;
    }
    *out = top;
    e->count--;
    e->last_time = lt;
    e->last_seq = ls;
    e->min_valid = n > 0 && b != 0;
    return true;
}

static int ent_cmp(const void *a, const void *b)
{
    const heap_ent *x = a, *y = b;
    return ent_less(x, y) ? -1 : ent_less(y, x) ? 1 : 0;
}

/* Sequence numbers about to wrap: sort the keys, number them 1.. in that
 * order, make last (last time, 0) and re-bucket them. All memory is
 * obtained before anything changes; false (nothing changed) if it fails. */
static bool renumber(engine_t *e)
{
    heap_ent *all = malloc(((size_t)e->count + 1) * sizeof *all);
    if (!all)
        return false;
    uint32_t n = 0;
    for (int b = 0; b < NBUCKETS; b++)
        for (uint32_t i = 0; i < e->bk[b].len; i++)
            all[n++] = e->bk[b].v[i];
    qsort(all, n, sizeof *all, ent_cmp);
    uint32_t need[NBUCKETS] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        heap_ent x = all[i];
        x.sn = (uint64_t)(i + 1) << 32;
        need[bucket_of(e->last_time, 0, &x)]++;
    }
    for (int b = 0; b < NBUCKETS; b++) {
        bucket *k = &e->bk[b];
        if (need[b] > k->cap && !bucket_reserve(k, need[b] - k->len)) {
            free(all);
            return false;
        }
    }
    for (int b = 0; b < NBUCKETS; b++)
        e->bk[b].len = 0;
    e->mask[0] = e->mask[1] = 0;
    e->last_seq = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t idx = ent_node(&all[i]);
        all[i].sn = (uint64_t)(i + 1) << 32 | idx;
        e->nodes[idx].seq = i + 1;
        bucket_put(e, bucket_of(e->last_time, 0, &all[i]), all[i]);
    }
    free(all);
    /* Slots of events that ran keep their old seq: mark them free, or a
     * stale handle could compare as after the new `last`. */
    for (uint32_t i = 0; i < e->n_free; i++)
        e->nodes[e->free_stack[i]].state = NODE_FREE;
    e->next_seq = (uint64_t)n + 1;
    e->min_valid = false;
    return true;
}

void engine_debug_seq_limit(engine_t *e, uint32_t limit)
{
    e->seq_limit = limit ? limit : SEQ_WRAP;
}

/* ---- node pool ----------------------------------------------------- */

static uint32_t node_alloc(engine_t *e)
{
    if (e->n_free)
        return e->free_stack[--e->n_free];
    if (e->nodes_len == e->nodes_cap) {
        uint32_t ncap = e->nodes_cap ? e->nodes_cap * 2 : 64;
        if (ncap <= e->nodes_cap)
            return NO_NODE;
        node *nn = realloc(e->nodes, (size_t)ncap * sizeof *nn);
        if (!nn)
            return NO_NODE;
        e->nodes = nn;
        uint32_t *fs = realloc(e->free_stack, (size_t)ncap * sizeof *fs);
        if (!fs)
            return NO_NODE;
        e->free_stack = fs;
        e->nodes_cap = ncap;
    }
    if (e->nodes_len == NO_NODE)
        return NO_NODE;
    return e->nodes_len++;
}

/* ---- scheduling ---------------------------------------------------- */

engine_timer_id engine_at(engine_t *e, uint64_t when_ns, engine_fn fn, void *arg)
{
    if (e->next_seq >= e->seq_limit && !renumber(e))
        return 0;
    if (e->count == UINT32_MAX)
        return 0;
    heap_ent ent = { when_ns < e->now ? e->now : when_ns, e->next_seq << 32, fn, arg };
    unsigned b = bucket_of(e->last_time, e->last_seq, &ent);
    if (!bucket_reserve(&e->bk[b], 1))
        return 0;
    uint32_t idx = node_alloc(e);
    if (idx == NO_NODE)
        return 0;
    if (++e->tag == 0)
        e->tag = 1;
    /* Written, not read: with many events pending the slot is cold. */
    e->nodes[idx] = (node){ ent.time, (uint32_t)e->next_seq, e->tag, NODE_SCHEDULED };
    e->next_seq++;
    ent.sn |= idx;
    uint32_t i = bucket_put(e, b, ent);
    e->count++;
    /* Keep a cached minimum right: the new key is later than every key
     * scheduled before at the same time, so it only wins on time. */
    if (e->min_valid && ent.time < e->bk[e->min_b].v[e->min_i].time) {
        e->min_b = (uint8_t)b;
        e->min_i = i;
    }
    return ((uint64_t)e->tag << 32) | idx;
}

engine_timer_id engine_after(engine_t *e, uint64_t delay_ns, engine_fn fn, void *arg)
{
    uint64_t when = e->now + delay_ns;
    if (when < e->now)
        when = ENGINE_TIME_NEVER;
    return engine_at(e, when, fn, arg);
}

/* When most keys are dead, drop them from every bucket, so a pattern of
 * far-future timers cancelled again and again cannot grow the heap. */
static void compact(engine_t *e)
{
    for (unsigned b = 0; b < NBUCKETS; b++) {
        bucket *k = &e->bk[b];
        uint32_t live = 0;
        for (uint32_t i = 0; i < k->len; i++) {
            uint32_t idx = ent_node(&k->v[i]);
            if (e->nodes[idx].state == NODE_CANCELLED)
                node_free(e, idx);
            else
                k->v[live++] = k->v[i];
        }
        if (live == 0 && k->len)
            mask_clear(e, b);
        k->len = live;
    }
    e->count -= e->cancelled;
    e->cancelled = 0;
    e->min_valid = false;
}

bool engine_cancel(engine_t *e, engine_timer_id id)
{
    uint32_t idx = (uint32_t)id;
    uint32_t tag = (uint32_t)(id >> 32);
    if (id == 0 || idx >= e->nodes_len)
        return false;
    node *n = &e->nodes[idx];
    if (n->tag != tag || n->state != NODE_SCHEDULED)
        return false;
    /* Not after `last`: it has run (its slot was not touched then). */
    if (n->time < e->last_time || (n->time == e->last_time && n->seq <= e->last_seq))
        return false;
    n->state = NODE_CANCELLED;
    e->cancelled++;
    if (e->cancelled > 64 && e->cancelled > e->count / 2)
        compact(e);
    return true;
}

/* ---- running ------------------------------------------------------- */

/* Pop the earliest event (live_min has located it), free its slot before
 * calling it (so the callback may reuse the slot and its own handle reads
 * as stale), run it. With many events pending the next event's argument
 * and slot are cache misses, so they are prefetched to overlap with this
 * callback. False if the heap could not grow to move keys down (out of
 * memory). */
static bool run_top(engine_t *e)
{
    heap_ent top;
    if (!pop_min(e, &top))
        return false;
    e->free_stack[e->n_free++] = ent_node(&top);
    if (e->min_valid) {
        const heap_ent *nx = &e->bk[e->min_b].v[e->min_i];
        __builtin_prefetch(nx->arg);
        __builtin_prefetch(&e->nodes[ent_node(nx)], 1);
    }
    e->now = top.time;
    e->events_run++;
    engine_trace_mix(e, top.time);
    top.fn(e, top.arg);
    return true;
}

static inline uint64_t min_time(const engine_t *e)
{
    return e->bk[e->min_b].v[e->min_i].time;
}

bool engine_step(engine_t *e)
{
    if (e->running || !live_min(e))
        return false;
    e->running = true;
    bool ran = run_top(e);
    e->running = false;
    return ran;
}

uint64_t engine_run_until(engine_t *e, uint64_t t)
{
    if (e->running)
        return 0;
    uint64_t before = e->events_run;
    e->running = true;
    while (live_min(e) && min_time(e) <= t)
        if (!run_top(e))
            break;
    e->running = false;
    if (t > e->now)
        e->now = t;
    return e->events_run - before;
}

bool engine_run_while(engine_t *e, bool (*pred)(void *ctx), void *ctx, uint64_t limit_ns)
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
        if (!live_min(e) || min_time(e) > limit_ns)
            break;
        if (!run_top(e))
            break;
    }
    e->running = false;
    if (!stopped_by_pred && limit_ns > e->now)
        e->now = limit_ns;
    return stopped_by_pred;
}
