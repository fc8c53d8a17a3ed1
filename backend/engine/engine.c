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

struct engine {
    uint64_t now;
    uint64_t seed;
    uint64_t seq;
    uint64_t events_run;
    uint64_t trace;
    heap_ent *heap;
    uint32_t heap_len, heap_cap;
    uint32_t cancelled; /* keys still in the heap whose node was cancelled */
    node *nodes;
    uint32_t nodes_len, nodes_cap;
    uint32_t free_head;
    bool running;
};

engine_t *engine_new(uint64_t seed)
{
    engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->seed = seed;
    e->free_head = NO_NODE;
    e->trace = 0xcbf29ce484222325ULL;
    return e;
}

void engine_free(engine_t *e)
{
    if (!e)
        return;
    free(e->heap);
    free(e->nodes);
    free(e);
}

uint64_t engine_now(const engine_t *e) { return e->now; }
uint64_t engine_seed(const engine_t *e) { return e->seed; }
void engine_set_seed(engine_t *e, uint64_t seed) { e->seed = seed; }
uint64_t engine_events_run(const engine_t *e) { return e->events_run; }
size_t engine_pending(const engine_t *e) { return e->heap_len - e->cancelled; }
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

static bool ent_less(const heap_ent *a, const heap_ent *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void sift_up(engine_t *e, uint32_t pos, heap_ent ent)
{
    while (pos > 0) {
        uint32_t parent = (pos - 1) / 2;
        if (!ent_less(&ent, &e->heap[parent]))
            break;
        e->heap[pos] = e->heap[parent];
        pos = parent;
    }
    e->heap[pos] = ent;
}

static void sift_down(engine_t *e, uint32_t pos, heap_ent ent)
{
    uint32_t n = e->heap_len;
    for (;;) {
        uint32_t child = 2 * pos + 1;
        if (child >= n)
            break;
        if (child + 1 < n && ent_less(&e->heap[child + 1], &e->heap[child]))
            child++;
        if (!ent_less(&e->heap[child], &ent))
            break;
        e->heap[pos] = e->heap[child];
        pos = child;
    }
    e->heap[pos] = ent;
}

static void heap_pop(engine_t *e)
{
    heap_ent last = e->heap[--e->heap_len];
    if (e->heap_len > 0)
        sift_down(e, 0, last);
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

/* ---- scheduling ---------------------------------------------------- */

engine_timer_id engine_at(engine_t *e, uint64_t when_ns, engine_fn fn, void *arg)
{
    if (e->heap_len == e->heap_cap &&
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
    sift_up(e, e->heap_len++, ent);
    return ((uint64_t)n->gen << 32) | idx;
}

engine_timer_id engine_after(engine_t *e, uint64_t delay_ns, engine_fn fn, void *arg)
{
    uint64_t when = e->now + delay_ns;
    if (when < e->now)
        when = ENGINE_TIME_NEVER;
    return engine_at(e, when, fn, arg);
}

/* Keeps the invariant that the top key is a live event, so peeking at
 * heap[0] (next time, run loops) never sees a cancelled one. With no
 * cancelled key in the heap it does not read the node pool (with many
 * events pending that read was a cache miss per event run). */
static void drop_cancelled_top(engine_t *e)
{
    while (e->cancelled && e->heap_len && e->nodes[e->heap[0].node].state == NODE_CANCELLED) {
        uint32_t idx = e->heap[0].node;
        heap_pop(e);
        node_release(e, idx);
        e->cancelled--;
    }
}

/* When most keys are dead, rebuild the heap from the live ones, so a
 * pattern of far-future timers cancelled again and again cannot grow it. */
static void compact(engine_t *e)
{
    uint32_t live = 0;
    for (uint32_t i = 0; i < e->heap_len; i++) {
        uint32_t idx = e->heap[i].node;
        if (e->nodes[idx].state == NODE_CANCELLED)
            node_release(e, idx);
        else
            e->heap[live++] = e->heap[i];
    }
    e->heap_len = live;
    e->cancelled = 0;
    for (uint32_t i = live / 2; i-- > 0;)
        sift_down(e, i, e->heap[i]);
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
    if (e->cancelled > 64 && e->cancelled > e->heap_len / 2)
        compact(e);
    else
        drop_cancelled_top(e);
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
    drop_cancelled_top(e);
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

uint64_t engine_run_until(engine_t *e, uint64_t t)
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
        if (e->heap_len == 0 || e->heap[0].time > limit_ns)
            break;
        run_top(e);
    }
    e->running = false;
    if (!stopped_by_pred && limit_ns > e->now)
        e->now = limit_ns;
    return stopped_by_pred;
}
