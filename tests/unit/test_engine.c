/* Unit tests of the discrete-event kernel and the rng streams. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/rng.h"

/* ---- a recorder: each event appends its tag and the time it ran ---- */

#define LOG_MAX 200000

typedef struct rec {
    int n;
    int tag[LOG_MAX];
    uint64_t when[LOG_MAX];
} rec;

typedef struct ev {
    rec *log;
    int tag;
} ev;

static void record(engine_t *e, void *arg)
{
    ev *x = arg;
    ck_assert_int_lt(x->log->n, LOG_MAX);
    x->log->tag[x->log->n] = x->tag;
    x->log->when[x->log->n] = engine_now(e);
    x->log->n++;
}

static rec *rec_new(void)
{
    rec *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    return r;
}

START_TEST(test_orders_by_time)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    uint64_t times[] = { 30, 10, 20, 5, 1000000000000ULL, 0 };
    ev evs[6];
    for (int i = 0; i < 6; i++) {
        evs[i] = (ev){ log, i };
        ck_assert_uint_ne(engine_at(e, times[i], record, &evs[i]), 0);
    }
    ck_assert_uint_eq(engine_next_time(e), 0);
    ck_assert_uint_eq(engine_run_until(e, ENGINE_TIME_NEVER - 1), 6);
    int want[] = { 5, 3, 1, 2, 0, 4 };
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(log->tag[i], want[i]);
        ck_assert_uint_eq(log->when[i], times[want[i]]);
    }
    ck_assert_uint_eq(engine_events_run(e), 6);
    free(log);
    engine_free(e);
}
END_TEST

START_TEST(test_same_time_is_fifo)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    static ev evs[500];
    for (int i = 0; i < 500; i++) {
        evs[i] = (ev){ log, i };
        /* Interleave times so equal keys are spread through the heap. */
        engine_at(e, (uint64_t)(i % 5) * 100, record, &evs[i]);
    }
    engine_run_until(e, 1000);
    ck_assert_int_eq(log->n, 500);
    for (int i = 1; i < 500; i++) {
        ck_assert_uint_le(log->when[i - 1], log->when[i]);
        if (log->when[i - 1] == log->when[i])
            ck_assert_int_lt(log->tag[i - 1], log->tag[i]);
    }
    ck_assert_int_eq(log->tag[0], 0);
    ck_assert_int_eq(log->tag[1], 5);
    ck_assert_int_eq(log->tag[100], 1);
    free(log);
    engine_free(e);
}
END_TEST

/* An event scheduled for "now" from inside an event runs after the events
 * already queued for the same instant: insertion order wins. */
typedef struct chain {
    rec *log;
    ev late;
} chain;

static void schedule_late(engine_t *e, void *arg)
{
    chain *c = arg;
    record(e, &(ev){ c->log, 100 });
    engine_at(e, engine_now(e), record, &c->late);
}

START_TEST(test_reentrant_schedule_same_time)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    chain c = { log, { log, 200 } };
    ev after = { log, 150 };
    engine_at(e, 10, schedule_late, &c);
    engine_at(e, 10, record, &after);
    engine_run_until(e, 10);
    ck_assert_int_eq(log->n, 3);
    ck_assert_int_eq(log->tag[0], 100);
    ck_assert_int_eq(log->tag[1], 150);
    ck_assert_int_eq(log->tag[2], 200);
    free(log);
    engine_free(e);
}
END_TEST

START_TEST(test_cancel)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    enum { N = 2000 };
    static ev evs[N];
    static engine_timer_id ids[N];
    static bool cancelled[N];
    rng_t r;
    rng_seed(&r, 7);
    for (int i = 0; i < N; i++) {
        evs[i] = (ev){ log, i };
        ids[i] = engine_at(e, rng_below(&r, 1000), record, &evs[i]);
        cancelled[i] = false;
    }
    int n_cancel = 0;
    for (int i = 0; i < N; i++) {
        if (rng_below(&r, 2)) {
            ck_assert(engine_cancel(e, ids[i]));
            ck_assert(!engine_cancel(e, ids[i]));   /* twice: stale */
            cancelled[i] = true;
            n_cancel++;
        }
    }
    ck_assert_uint_eq(engine_pending(e), (size_t)(N - n_cancel));
    engine_run_until(e, 1000);
    ck_assert_int_eq(log->n, N - n_cancel);
    for (int i = 0; i < log->n; i++) {
        ck_assert(!cancelled[log->tag[i]]);
        if (i > 0) {
            ck_assert_uint_le(log->when[i - 1], log->when[i]);
            if (log->when[i - 1] == log->when[i])
                ck_assert_int_lt(log->tag[i - 1], log->tag[i]);
        }
    }
    /* Ran events and the null handle cannot be cancelled. */
    ck_assert(!engine_cancel(e, ids[log->tag[0]]));
    ck_assert(!engine_cancel(e, 0));
    free(log);
    engine_free(e);
}
END_TEST

/* A stale handle must not cancel the event that now reuses its slot. */
START_TEST(test_cancel_stale_handle_after_reuse)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    ev a = { log, 1 }, b = { log, 2 };
    engine_timer_id ida = engine_at(e, 5, record, &a);
    ck_assert(engine_cancel(e, ida));
    engine_timer_id idb = engine_at(e, 6, record, &b);
    ck_assert_uint_ne(ida, idb);
    ck_assert(!engine_cancel(e, ida));
    engine_run_until(e, 10);
    ck_assert_int_eq(log->n, 1);
    ck_assert_int_eq(log->tag[0], 2);
    free(log);
    engine_free(e);
}
END_TEST

START_TEST(test_run_until_semantics)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    ev a = { log, 1 }, b = { log, 2 }, c = { log, 3 };
    engine_at(e, 100, record, &a);
    engine_at(e, 200, record, &b);
    engine_at(e, 201, record, &c);
    ck_assert_uint_eq(engine_run_until(e, 200), 2);   /* inclusive bound */
    ck_assert_uint_eq(engine_now(e), 200);
    ck_assert_uint_eq(engine_pending(e), 1);
    /* Never backwards. */
    ck_assert_uint_eq(engine_run_until(e, 50), 0);
    ck_assert_uint_eq(engine_now(e), 200);
    /* An empty stretch still advances the clock. */
    ck_assert_uint_eq(engine_run_until(e, 10000), 1);
    ck_assert_uint_eq(engine_now(e), 10000);
    /* The past is clamped to now; after is relative to now. */
    ev d = { log, 4 }, f = { log, 5 };
    engine_at(e, 3, record, &d);
    engine_after(e, 7, record, &f);
    ck_assert_uint_eq(engine_next_time(e), 10000);
    engine_run_until(e, 20000);
    ck_assert_int_eq(log->n, 5);
    ck_assert_uint_eq(log->when[3], 10000);
    ck_assert_uint_eq(log->when[4], 10007);
    ck_assert_uint_eq(engine_next_time(e), ENGINE_TIME_NEVER);
    free(log);
    engine_free(e);
}
END_TEST

/* A periodic event that reschedules itself: run_until picks up events
 * scheduled during the run as long as they fall at or before the bound. */
typedef struct ticker {
    uint64_t period;
    int count;
} ticker;

static void tick(engine_t *e, void *arg)
{
    ticker *t = arg;
    t->count++;
    engine_after(e, t->period, tick, t);
}

START_TEST(test_run_until_with_rescheduling)
{
    engine_t *e = engine_new(1);
    ticker t = { 10 * ENGINE_NS_PER_MS, 0 };
    engine_at(e, 0, tick, &t);
    engine_run_until(e, ENGINE_NS_PER_SEC);
    ck_assert_int_eq(t.count, 101);  /* 0, 10 ms, ..., 1000 ms */
    ck_assert_uint_eq(engine_now(e), ENGINE_NS_PER_SEC);
    ck_assert_uint_eq(engine_pending(e), 1);
    engine_free(e);
}
END_TEST

static void nested_run(engine_t *e, void *arg)
{
    uint64_t *result = arg;
    *result = engine_run_until(e, 1000000);
}

START_TEST(test_nested_run_is_refused)
{
    engine_t *e = engine_new(1);
    uint64_t nested = 99;
    ticker t = { 1, 0 };
    engine_at(e, 1, nested_run, &nested);
    engine_at(e, 2, tick, &t);
    engine_run_until(e, 1);
    ck_assert_uint_eq(nested, 0);
    ck_assert_uint_eq(engine_now(e), 1);
    ck_assert_int_eq(t.count, 0);
    engine_free(e);
}
END_TEST

static bool below(void *arg)
{
    ticker *t = arg;
    return t->count < 5;
}

START_TEST(test_run_while)
{
    engine_t *e = engine_new(1);
    ticker t = { 100, 0 };
    engine_at(e, 1000, tick, &t);
    /* Stops on the predicate: now is the time of the 5th tick. */
    ck_assert(engine_run_while(e, below, &t, 1000000));
    ck_assert_int_eq(t.count, 5);
    ck_assert_uint_eq(engine_now(e), 1400);
    /* Already false: nothing runs. */
    ck_assert(engine_run_while(e, below, &t, 1000000));
    ck_assert_int_eq(t.count, 5);
    /* Stops on the limit: events at the limit have run, now = limit. */
    t.count = 0;
    ck_assert(!engine_run_while(e, below, &t, 1700));
    ck_assert_int_eq(t.count, 3);       /* 1500, 1600, 1700 */
    ck_assert_uint_eq(engine_now(e), 1700);
    engine_free(e);
}
END_TEST

static bool always(void *arg)
{
    (void)arg;
    return true;
}

START_TEST(test_run_while_empty_jumps_to_limit)
{
    engine_t *e = engine_new(1);
    ck_assert(!engine_run_while(e, always, NULL, 5 * ENGINE_NS_PER_SEC));
    ck_assert_uint_eq(engine_now(e), 5 * ENGINE_NS_PER_SEC);
    ck_assert(engine_step(e) == false);
    engine_free(e);
}
END_TEST

/* Random workload: many self-rescheduling actors with random delays and
 * random cancellations. Same seed -> same trace; other seed -> other. */
typedef struct actor {
    rng_t r;
    engine_timer_id victim;
    int fired;
} actor;

static void actor_fire(engine_t *e, void *arg)
{
    actor *a = arg;
    a->fired++;
    engine_trace_mix(e, (uint64_t)a->fired);
    if (a->victim && rng_below(&a->r, 4) == 0)
        engine_cancel(e, a->victim);
    a->victim = engine_after(e, rng_below(&a->r, 1000), actor_fire, a);
    engine_after(e, rng_below(&a->r, 50000), actor_fire, a);
}

static uint64_t run_actors(uint64_t seed, uint64_t *events)
{
    engine_t *e = engine_new(seed);
    static actor actors[16];
    char name[32];
    for (int i = 0; i < 16; i++) {
        memset(&actors[i], 0, sizeof actors[i]);
        snprintf(name, sizeof name, "actor%d", i);
        engine_rng_stream(e, &actors[i].r, name);
        engine_at(e, 0, actor_fire, &actors[i]);
    }
    /* Cap the population: each fire adds up to 2 events. */
    while (engine_pending(e) < 20000 && engine_step(e))
        ;
    engine_run_until(e, engine_now(e) + 1000);
    uint64_t h = engine_trace_hash(e);
    *events = engine_events_run(e);
    engine_free(e);
    return h;
}

START_TEST(test_determinism)
{
    uint64_t n1, n2, n3;
    uint64_t h1 = run_actors(1, &n1);
    uint64_t h2 = run_actors(1, &n2);
    uint64_t h3 = run_actors(2, &n3);
    ck_assert_uint_gt(n1, 10000);
    ck_assert_uint_eq(h1, h2);
    ck_assert_uint_eq(n1, n2);
    ck_assert_uint_ne(h1, h3);
}
END_TEST

/* Large random heap: popping order equals sorting by (time, seq). */
START_TEST(test_heap_matches_sort)
{
    enum { N = 100000 };
    engine_t *e = engine_new(3);
    rec *log = rec_new();
    ev *evs = malloc(N * sizeof *evs);
    engine_timer_id *ids = malloc(N * sizeof *ids);
    rng_t r;
    rng_seed(&r, 11);
    for (int i = 0; i < N; i++) {
        evs[i] = (ev){ log, i };
        ids[i] = engine_at(e, rng_below(&r, 5000), record, &evs[i]);
    }
    int kept = N;
    for (int i = 0; i < N; i += 3) {
        ck_assert(engine_cancel(e, ids[i]));
        kept--;
    }
    engine_run_until(e, 5000);
    ck_assert_int_eq(log->n, kept);
    for (int i = 1; i < log->n; i++) {
        bool ordered = log->when[i - 1] < log->when[i] ||
                       (log->when[i - 1] == log->when[i] && log->tag[i - 1] < log->tag[i]);
        ck_assert_msg(ordered, "out of order at %d", i);
        ck_assert_int_ne(log->tag[i] % 3, 0);
    }
    free(ids);
    free(evs);
    free(log);
    engine_free(e);
}
END_TEST

/* ---- edge cases against a reference model -------------------------- */

/* A reference model: pending events in an array, the earliest found by a
 * linear search on (time, seq). The engine must run exactly the same
 * events in the same order through a random mix of scheduling (equal
 * times, the present, the far future, ENGINE_TIME_NEVER), cancelling
 * (the head, random ones, stale handles), peeking and running. */
typedef struct ref_ev {
    uint64_t time, seq;
    engine_timer_id id;
    int tag;
    bool live;
} ref_ev;

typedef struct ref_model {
    ref_ev *ev;
    int n;
    uint64_t seq;
    int ran_tag[4096];
    int n_ran;
} ref_model;

typedef struct ref_arg {
    ref_model *m;
    int tag;
} ref_arg;

static void ref_fire(engine_t *e, void *arg)
{
    (void)e;
    ref_arg *a = arg;
    a->m->ran_tag[a->m->n_ran++] = a->tag;
}

static int ref_min(const ref_model *m)
{
    int best = -1;
    for (int i = 0; i < m->n; i++) {
        const ref_ev *x = &m->ev[i];
        if (!x->live)
            continue;
        if (best < 0 || x->time < m->ev[best].time ||
            (x->time == m->ev[best].time && x->seq < m->ev[best].seq))
            best = i;
    }
    return best;
}

static void ref_workout(uint64_t seed)
{
    enum { OPS = 20000 };
    engine_t *e = engine_new(1);
    ref_model *m = calloc(1, sizeof *m);
    m->ev = calloc(OPS, sizeof *m->ev);
    ref_arg *args = calloc(OPS, sizeof *args);
    rng_t r;
    rng_seed(&r, seed);
    int tag = 0;
    for (int op = 0; op < OPS; op++) {
        uint32_t what = rng_below(&r, 10);
        uint64_t now = engine_now(e);
        if (what < 5 && tag < OPS) {
            uint64_t when;
            switch (rng_below(&r, 6)) {
            case 0: when = now; break;
            case 1: when = now + rng_below(&r, 4); break;
            case 2: when = now + rng_below(&r, 1000000); break;
            case 3: when = ENGINE_TIME_NEVER - rng_below(&r, 3); break;
            case 4: when = now > 10 ? now - 10 : 0; break;  /* clamped */
            default: when = now + ((uint64_t)1 << rng_below(&r, 63)); break;
            }
            if (when < now && rng_below(&r, 2) == 0)
                when = ENGINE_TIME_NEVER;    /* overflowed sum */
            args[tag] = (ref_arg){ m, tag };
            engine_timer_id id = engine_at(e, when, ref_fire, &args[tag]);
            ck_assert_uint_ne(id, 0);
            m->ev[m->n++] = (ref_ev){ when < now ? now : when, m->seq++, id, tag, true };
            tag++;
        } else if (what < 7 && m->n > 0) {
            /* Cancel the head half of the time, else any (maybe stale). */
            int i = rng_below(&r, 2) ? ref_min(m) : (int)rng_below(&r, (uint32_t)m->n);
            if (i < 0)
                continue;
            bool was_live = m->ev[i].live;
            ck_assert(engine_cancel(e, m->ev[i].id) == was_live);
            m->ev[i].live = false;
        } else if (what < 8) {
            int i = ref_min(m);
            ck_assert_uint_eq(engine_next_time(e), i < 0 ? ENGINE_TIME_NEVER : m->ev[i].time);
        } else {
            /* Run a few events, checking each against the model. */
            int k = (int)rng_below(&r, 4);
            while (k-- > 0) {
                int i = ref_min(m);
                m->n_ran = 0;
                bool ran = engine_step(e);
                ck_assert(ran == (i >= 0));
                if (!ran)
                    break;
                ck_assert_int_eq(m->n_ran, 1);
                ck_assert_int_eq(m->ran_tag[0], m->ev[i].tag);
                ck_assert_uint_eq(engine_now(e), m->ev[i].time);
                m->ev[i].live = false;
                ck_assert(!engine_cancel(e, m->ev[i].id));  /* ran: stale */
            }
        }
        size_t live = 0;
        for (int i = 0; i < m->n; i++)
            live += m->ev[i].live;
        ck_assert_uint_eq(engine_pending(e), live);
    }
    /* Drain: the rest runs in model order, ENGINE_TIME_NEVER included. */
    for (int i; (i = ref_min(m)) >= 0;) {
        m->n_ran = 0;
        ck_assert(engine_step(e));
        ck_assert_int_eq(m->ran_tag[0], m->ev[i].tag);
        ck_assert_uint_eq(engine_now(e), m->ev[i].time);
        m->ev[i].live = false;
    }
    ck_assert(!engine_step(e));
    ck_assert_uint_eq(engine_pending(e), 0);
    ck_assert_uint_eq(engine_next_time(e), ENGINE_TIME_NEVER);
    free(args);
    free(m->ev);
    free(m);
    engine_free(e);
}

START_TEST(test_matches_reference_model)
{
    ref_workout(21);
    ref_workout(22);
}
END_TEST

/* ---- the large-queue path against a faster reference ---------------- */

/* engine.c keeps a plain heap up to 512 keys and a calendar queue in
 * front of it above that (back to the heap below 128). The linear
 * reference above is too slow for 20 000+ pending events, so this one
 * keeps a sorted array of tags plus a small unsorted staging area, merged
 * by qsort when it fills: simple enough to be obviously right. */
typedef struct big_ev {
    uint64_t time, seq;
    engine_timer_id id;
    bool live;
} big_ev;

typedef struct big_model {
    engine_t *e;
    big_ev *ev;         /* indexed by tag */
    int n, cap;
    uint64_t seq;
    int *sorted, n_sorted, head;
    int stage[256], n_stage;
    size_t live;
    rng_t r;
    int *ran;           /* tags in the order the engine ran them */
    int n_ran;
    int chain;          /* events that reschedule themselves when run */
} big_model;

static big_model *g_big;    /* qsort has no context argument */

static int big_cmp(const void *a, const void *b)
{
    const big_ev *x = &g_big->ev[*(const int *)a], *y = &g_big->ev[*(const int *)b];
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool big_before(const big_model *m, int a, int b)
{
    return m->ev[a].time < m->ev[b].time ||
           (m->ev[a].time == m->ev[b].time && m->ev[a].seq < m->ev[b].seq);
}

static void big_merge(big_model *m)
{
    int n = 0;
    for (int i = m->head; i < m->n_sorted; i++)
        if (m->ev[m->sorted[i]].live)
            m->sorted[n++] = m->sorted[i];
    for (int i = 0; i < m->n_stage; i++)
        if (m->ev[m->stage[i]].live)
            m->sorted[n++] = m->stage[i];
    g_big = m;
    qsort(m->sorted, (size_t)n, sizeof *m->sorted, big_cmp);
    m->n_sorted = n;
    m->head = 0;
    m->n_stage = 0;
}

static int big_min(big_model *m)
{
    while (m->head < m->n_sorted && !m->ev[m->sorted[m->head]].live)
        m->head++;
    int best = m->head < m->n_sorted ? m->sorted[m->head] : -1;
    for (int i = 0; i < m->n_stage; i++) {
        int t = m->stage[i];
        if (m->ev[t].live && (best < 0 || big_before(m, t, best)))
            best = t;
    }
    return best;
}

static void big_fire(engine_t *e, void *arg);

/* Schedule in the engine and in the model, in the same order. */
static void big_add(big_model *m, uint64_t when)
{
    ck_assert_int_lt(m->n, m->cap);
    uint64_t now = engine_now(m->e);
    int tag = m->n++;
    engine_timer_id id = engine_at(m->e, when, big_fire, (void *)(intptr_t)tag);
    ck_assert_uint_ne(id, 0);
    m->ev[tag] = (big_ev){ when < now ? now : when, m->seq++, id, true };
    m->live++;
    if (m->n_stage == (int)(sizeof m->stage / sizeof m->stage[0]))
        big_merge(m);
    m->stage[m->n_stage++] = tag;
}

/* A time from a mix meant to hit every part of the calendar: dense
 * hold-model traffic, equal times (chunks of one bucket overflow), the
 * present, sparse jumps (empty buckets, the far heap), the top of the
 * range. */
static uint64_t big_when(big_model *m)
{
    uint64_t now = engine_now(m->e);
    rng_t *r = &m->r;
    switch (rng_below(r, 16)) {
    case 0: return now;
    case 1: return now + rng_below(r, 4);
    case 2: return now + 1000 * rng_below(r, 8);       /* clusters */
    case 3: return now + rng_below(r, 1000000000);
    case 4: return ENGINE_TIME_NEVER - rng_below(r, 3);
    case 5: return now + ((uint64_t)1 << rng_below(r, 64));     /* may wrap */
    case 6: return now > 50 ? now - rng_below(r, 50) : 0;       /* clamped */
    default: return now + 1 + rng_below(r, 1000000);
    }
}

static void big_fire(engine_t *e, void *arg)
{
    big_model *m = g_big;
    int tag = (int)(intptr_t)arg;
    ck_assert_ptr_eq(e, m->e);
    m->ran[m->n_ran++] = tag;
    /* Some events schedule from inside the kernel (the hold model). */
    if (m->chain && rng_below(&m->r, 2) == 0 && m->n < m->cap) {
        uint64_t when = big_when(m);
        if (when < engine_now(e))
            when = ENGINE_TIME_NEVER;
        big_add(m, when);
    }
}

static void big_step(big_model *m)
{
    int want = big_min(m);
    m->n_ran = 0;
    bool ran = engine_step(m->e);
    ck_assert(ran == (want >= 0));
    if (!ran)
        return;
    ck_assert_int_ge(m->n_ran, 1);
    ck_assert_int_eq(m->ran[0], want);
    ck_assert_uint_eq(engine_now(m->e), m->ev[want].time);
    m->ev[want].live = false;
    m->live--;
}

static void big_run_until(big_model *m, uint64_t t)
{
    /* Events scheduled by the events run join the model as they come, so
     * check one by one: each run event must be the model's minimum. */
    m->n_ran = 0;
    uint64_t n = engine_run_until(m->e, t);
    ck_assert_uint_eq(n, (uint64_t)m->n_ran);
    /* Replay: the model's order, with the chained additions already in
     * it, must give the same sequence. Chained events are later than
     * their parent (or equal time, later seq), so the replay is sound. */
    for (int i = 0; i < m->n_ran; i++) {
        int want = big_min(m);
        ck_assert_int_ge(want, 0);
        ck_assert_int_eq(m->ran[i], want);
        ck_assert_uint_le(m->ev[want].time, t);
        m->ev[want].live = false;
        m->live--;
    }
    int next = big_min(m);
    ck_assert(next < 0 || m->ev[next].time > t);
}

static void big_cancel(big_model *m)
{
    int i;
    if (rng_below(&m->r, 4) == 0) {
        i = big_min(m);             /* the head */
        if (i < 0)
            return;
    } else {
        i = (int)rng_below(&m->r, (uint32_t)m->n);  /* maybe stale */
    }
    bool was_live = m->ev[i].live;
    ck_assert(engine_cancel(m->e, m->ev[i].id) == was_live);
    if (was_live)
        m->live--;
    m->ev[i].live = false;
}

static void big_workout(uint64_t seed, int cycles, size_t high, size_t low)
{
    big_model *m = calloc(1, sizeof *m);
    m->cap = 400000;
    m->e = engine_new(1);
    m->ev = calloc((size_t)m->cap, sizeof *m->ev);
    m->sorted = calloc((size_t)m->cap + 1, sizeof *m->sorted);
    m->ran = calloc((size_t)m->cap, sizeof *m->ran);
    rng_seed(&m->r, seed);
    g_big = m;
    for (int c = 0; c < cycles; c++) {
        /* Up to `high` pending (large mode), then down below `low`. */
        for (int up = 1; up >= 0; up--) {
            while (up ? m->live < high : m->live > low) {
                ck_assert_int_lt(m->n, m->cap - 64);
                uint32_t what = rng_below(&m->r, 100);
                m->chain = what & 1;
                if (what < (up ? 60u : 15u)) {
                    big_add(m, big_when(m));
                } else if (what < (up ? 70u : 25u)) {
                    big_cancel(m);
                } else if (what < (up ? 72u : 27u)) {
                    int i = big_min(m);
                    ck_assert_uint_eq(engine_next_time(m->e),
                                      i < 0 ? ENGINE_TIME_NEVER : m->ev[i].time);
                } else if (what < (up ? 73u : 29u) && m->live > 0) {
                    uint64_t now = engine_now(m->e);
                    big_run_until(m, now + rng_below(&m->r, 3000));
                } else {
                    big_step(m);
                }
                ck_assert_uint_eq(engine_pending(m->e), m->live);
            }
        }
    }
    /* Drain, ENGINE_TIME_NEVER included. */
    m->chain = 0;
    while (m->live > 0)
        big_step(m);
    ck_assert(!engine_step(m->e));
    ck_assert_uint_eq(engine_pending(m->e), 0);
    ck_assert_uint_eq(engine_next_time(m->e), ENGINE_TIME_NEVER);
    engine_free(m->e);
    free(m->ran);
    free(m->sorted);
    free(m->ev);
    free(m);
    g_big = NULL;
}

/* 25 000 pending and back down to 50, twice: the heap -> calendar
 * and calendar -> heap switches both ways, with cancels (head, random,
 * stale), equal times, the present, far-future and NEVER times, and
 * events scheduling from inside the kernel. */
START_TEST(test_large_matches_reference)
{
    big_workout(31, 2, 25000, 50);
}
END_TEST

/* Hovering around the switch thresholds (512 up, 128 down) crosses them
 * many times. */
START_TEST(test_switch_thresholds_matches_reference)
{
    big_workout(32, 20, 520, 120);
    big_workout(33, 10, 600, 100);
    big_workout(34, 2, 5000, 127);
}
END_TEST

/* Pops in (time, seq) order right at the queue sizes where the kernel
 * switches structure, and at the bucket chunk size (5 keys) with runs of
 * equal times of every length up to 12. */
START_TEST(test_resize_boundaries)
{
    static const int sizes[] = { 1, 5, 6, 127, 128, 129, 511, 512, 513, 514,
                                 1023, 1024, 1025, 4096, 4097, 65536 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        for (int pattern = 0; pattern < 3; pattern++) {
            engine_t *e = engine_new(1);
            rec *log = rec_new();
            ev *evs = malloc((size_t)n * sizeof *evs);
            rng_t r;
            rng_seed(&r, (uint64_t)n * 3 + (uint64_t)pattern);
            uint64_t t = 0;
            for (int i = 0; i < n; i++) {
                evs[i] = (ev){ log, i };
                uint64_t when;
                if (pattern == 0) {
                    when = rng_below(&r, 1000000);
                } else if (pattern == 1) {
                    /* runs of equal times of length 1..12, in random
                     * order of runs */
                    if (i % 78 == 0)
                        t = rng_below(&r, 100000) * 13;
                    when = t + (uint64_t)(i % 78 < 12 ? 0 : (i % 78) / 6);
                } else {
                    /* dense now, sparse later, the top of the range */
                    when = i % 7 == 0 ? ENGINE_TIME_NEVER - (uint64_t)(i % 3)
                         : i % 3 == 0 ? (uint64_t)i * 1000000007ULL
                                      : (uint64_t)i;
                }
                ck_assert_uint_ne(engine_at(e, when, record, &evs[i]), 0);
            }
            ck_assert_uint_eq(engine_pending(e), (size_t)n);
            size_t left = (size_t)n;
            while (engine_step(e)) {
                left--;
                ck_assert_uint_eq(engine_pending(e), left);
            }
            ck_assert_int_eq(log->n, n);
            for (int i = 1; i < n; i++) {
                bool ordered = log->when[i - 1] < log->when[i] ||
                               (log->when[i - 1] == log->when[i] && log->tag[i - 1] < log->tag[i]);
                ck_assert_msg(ordered, "size %d pattern %d: out of order at %d", n, pattern, i);
            }
            free(evs);
            free(log);
            engine_free(e);
        }
    }
}
END_TEST

/* A large queue that empties at once (every event in one bucket) must
 * still see events scheduled afterwards, near or far, and so must one
 * emptied by cancelling. */
START_TEST(test_large_queue_emptied_then_reused)
{
    for (int how = 0; how < 2; how++) {
        engine_t *e = engine_new(1);
        rec *log = rec_new();
        static ev evs[2000];
        static engine_timer_id ids[2000];
        for (int i = 0; i < 2000; i++) {
            evs[i] = (ev){ log, i };
            ids[i] = engine_at(e, 1000, record, &evs[i]);
        }
        if (how == 0) {
            ck_assert_uint_eq(engine_run_until(e, 1000), 2000);
        } else {
            for (int i = 0; i < 2000; i++)
                ck_assert(engine_cancel(e, ids[i]));
        }
        ck_assert_uint_eq(engine_pending(e), 0);
        ck_assert_uint_eq(engine_next_time(e), ENGINE_TIME_NEVER);
        ev a = { log, 5000 }, b = { log, 5001 };
        engine_at(e, 5 * ENGINE_NS_PER_SEC, record, &a);
        ck_assert_uint_eq(engine_next_time(e), 5 * ENGINE_NS_PER_SEC);
        engine_at(e, 2000, record, &b);
        ck_assert_uint_eq(engine_next_time(e), 2000);
        ck_assert_uint_eq(engine_pending(e), 2);
        ck_assert(engine_step(e));
        ck_assert_int_eq(log->tag[log->n - 1], 5001);
        ck_assert(engine_step(e));
        ck_assert_int_eq(log->tag[log->n - 1], 5000);
        ck_assert(!engine_step(e));
        free(log);
        engine_free(e);
    }
}
END_TEST

/* Cancelling most of a large queue compacts it (calendar included), and
 * the survivors still run in order; so do events scheduled afterwards. */
START_TEST(test_large_cancel_compacts)
{
    enum { N = 30000 };
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    ev *evs = malloc(N * sizeof *evs);
    engine_timer_id *ids = malloc(N * sizeof *ids);
    rng_t r;
    rng_seed(&r, 5);
    for (int i = 0; i < N; i++) {
        evs[i] = (ev){ log, i };
        uint64_t when = i % 100 == 0 ? ENGINE_TIME_NEVER : rng_below(&r, 10000000);
        ids[i] = engine_at(e, when, record, &evs[i]);
    }
    int kept = 0;
    for (int i = 0; i < N; i++) {
        if (i % 10 == 3)
            kept++;
        else
            ck_assert(engine_cancel(e, ids[i]));
        ck_assert_uint_eq(engine_pending(e), (size_t)(kept + (N - 1 - i)));
    }
    for (int i = 0; i < N; i++)
        if (i % 10 != 3)
            ck_assert(!engine_cancel(e, ids[i]));
    ck_assert_uint_eq(engine_run_until(e, ENGINE_TIME_NEVER), (uint64_t)kept);
    for (int i = 1; i < log->n; i++) {
        bool ordered = log->when[i - 1] < log->when[i] ||
                       (log->when[i - 1] == log->when[i] && log->tag[i - 1] < log->tag[i]);
        ck_assert_msg(ordered, "out of order at %d", i);
    }
    free(ids);
    free(evs);
    free(log);
    engine_free(e);
}
END_TEST

/* Peeking must not commit the kernel to the peeked event: an event
 * scheduled afterwards for an earlier time (now) still runs first. */
START_TEST(test_peek_then_schedule_earlier)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    ev a = { log, 1 }, b = { log, 2 }, c = { log, 3 };
    engine_at(e, 1000, record, &a);
    engine_run_until(e, 10);
    ck_assert_uint_eq(engine_next_time(e), 1000);
    engine_at(e, 10, record, &b);           /* now: before the peeked one */
    ck_assert_uint_eq(engine_next_time(e), 10);
    engine_at(e, 5, record, &c);            /* the past: clamped to now */
    ck_assert_uint_eq(engine_run_until(e, 1000), 3);
    ck_assert_int_eq(log->tag[0], 2);
    ck_assert_int_eq(log->tag[1], 3);
    ck_assert_int_eq(log->tag[2], 1);
    ck_assert_uint_eq(log->when[1], 10);
    free(log);
    engine_free(e);
}
END_TEST

/* Cancelling the head exposes the next event; cancelling everything
 * leaves nothing, even with keys spread over many buckets. */
START_TEST(test_cancel_head_and_all)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    static ev evs[300];
    static engine_timer_id ids[300];
    for (int i = 0; i < 300; i++) {
        evs[i] = (ev){ log, i };
        ids[i] = engine_at(e, (uint64_t)i * 1000003, record, &evs[i]);
    }
    ck_assert(engine_cancel(e, ids[0]));
    ck_assert_uint_eq(engine_next_time(e), 1000003);
    ck_assert(engine_cancel(e, ids[1]));
    ck_assert_uint_eq(engine_next_time(e), 2 * 1000003);
    ck_assert_uint_eq(engine_run_until(e, 2 * 1000003), 1);
    for (int i = 3; i < 300; i++)
        ck_assert(engine_cancel(e, ids[i]));
    ck_assert_uint_eq(engine_pending(e), 0);
    ck_assert_uint_eq(engine_next_time(e), ENGINE_TIME_NEVER);
    ck_assert(!engine_step(e));
    ck_assert(!engine_cancel(e, ids[2]));   /* ran */
    free(log);
    engine_free(e);
}
END_TEST

/* Times at the very top of the range: ENGINE_TIME_NEVER is a valid time,
 * equal keys there stay FIFO, and engine_after saturates. */
START_TEST(test_far_future_times)
{
    engine_t *e = engine_new(1);
    rec *log = rec_new();
    ev a = { log, 1 }, b = { log, 2 }, c = { log, 3 }, d = { log, 4 }, f = { log, 5 };
    engine_at(e, ENGINE_TIME_NEVER, record, &a);
    engine_at(e, ENGINE_TIME_NEVER - 1, record, &b);
    engine_at(e, 1, record, &c);
    engine_at(e, (uint64_t)1 << 63, record, &d);
    ck_assert_uint_eq(engine_run_until(e, ENGINE_TIME_NEVER - 1), 3);
    engine_after(e, 5, record, &f);         /* overflows: clamps to NEVER */
    ck_assert_uint_eq(engine_next_time(e), ENGINE_TIME_NEVER);
    ck_assert_uint_eq(engine_run_until(e, ENGINE_TIME_NEVER), 2);
    int want[] = { 3, 4, 2, 1, 5 };
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(log->tag[i], want[i]);
    ck_assert_uint_eq(log->when[4], ENGINE_TIME_NEVER);
    ck_assert_uint_eq(engine_now(e), ENGINE_TIME_NEVER);
    free(log);
    engine_free(e);
}
END_TEST

/* ---- rng ----------------------------------------------------------- */

/* Known answers pin the generator: changing it changes every lab's
 * results, which must be a deliberate decision. Values from an independent
 * Python transcription of splitmix64 + xoshiro256**. */
START_TEST(test_rng_known_answers)
{
    rng_t r;
    rng_seed(&r, 1);
    ck_assert_uint_eq(rng_u64(&r), 0xb3f2af6d0fc710c5ULL);
    ck_assert_uint_eq(rng_u64(&r), 0x853b559647364ceaULL);
    ck_assert_uint_eq(rng_u64(&r), 0x92f89756082a4514ULL);
    /* rng_below is the high word of x * n (Lemire). */
    rng_seed(&r, 1);
    ck_assert_uint_eq(rng_below(&r, 10000), 7029);
    ck_assert_uint_eq(rng_below(&r, 10000), 5204);
    ck_assert_uint_eq(rng_below(&r, 10000), 5741);
    rng_seed_stream(&r, 42, "netsim:test");
    ck_assert_uint_eq(rng_u64(&r), 0x7488c8873188ce8cULL);
    ck_assert_uint_eq(rng_u64(&r), 0x3b3d10c2140997fbULL);
}
END_TEST

START_TEST(test_rng_streams_independent)
{
    rng_t a1, a2, b;
    rng_seed_stream(&a1, 5, "netsim:A");
    rng_seed_stream(&a2, 5, "netsim:A");
    rng_seed_stream(&b, 5, "netsim:B");
    int same_as_b = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_u64(&a1);
        /* Drawing from b in between must not move stream a. */
        uint64_t y = rng_u64(&b);
        rng_u64(&b);
        ck_assert_uint_eq(x, rng_u64(&a2));
        same_as_b += x == y;
    }
    ck_assert_int_eq(same_as_b, 0);
    /* Same name, other lab seed: another stream. */
    rng_t c;
    rng_seed_stream(&c, 6, "netsim:A");
    rng_seed_stream(&a1, 5, "netsim:A");
    ck_assert_uint_ne(rng_u64(&a1), rng_u64(&c));
}
END_TEST

START_TEST(test_rng_below_uniform)
{
    rng_t r;
    rng_seed(&r, 99);
    enum { K = 10, N = 200000 };
    int hist[K] = { 0 };
    for (int i = 0; i < N; i++) {
        uint64_t x = rng_below(&r, K);
        ck_assert_uint_lt(x, K);
        hist[x]++;
    }
    /* Chi-square with 9 degrees of freedom; 27.9 is the 0.1 % tail. */
    double chi = 0;
    for (int k = 0; k < K; k++) {
        double d = hist[k] - N / (double)K;
        chi += d * d / (N / (double)K);
    }
    ck_assert_double_lt(chi, 27.9);
    ck_assert_uint_eq(rng_below(&r, 0), 0);
    ck_assert_uint_eq(rng_below(&r, 1), 0);
    /* A bound near 2^64 exercises the rejection threshold. */
    uint64_t big = (1ULL << 63) + 12345;
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_lt(rng_below(&r, big), big);
}
END_TEST

START_TEST(test_rng_unit_range)
{
    rng_t r;
    rng_seed(&r, 123);
    double sum = 0;
    enum { N = 100000 };
    for (int i = 0; i < N; i++) {
        double u = rng_unit(&r);
        ck_assert(u >= 0.0 && u < 1.0);
        sum += u;
    }
    /* Mean of U(0,1): sd of the mean = 0.2887/sqrt(N) ~ 0.0009; 4 sigma. */
    ck_assert_double_lt(sum / N - 0.5, 0.0037);
    ck_assert_double_gt(sum / N - 0.5, -0.0037);
}
END_TEST

START_TEST(test_engine_seed)
{
    engine_t *e = engine_new(77);
    ck_assert_uint_eq(engine_seed(e), 77);
    rng_t a, b;
    engine_rng_stream(e, &a, "x");
    rng_seed_stream(&b, 77, "x");
    ck_assert_uint_eq(rng_u64(&a), rng_u64(&b));
    engine_set_seed(e, 78);
    ck_assert_uint_eq(engine_seed(e), 78);
    engine_rng_stream(e, &a, "x");
    rng_seed_stream(&b, 77, "x");
    ck_assert_uint_ne(rng_u64(&a), rng_u64(&b));
    engine_free(e);
}
END_TEST

static Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *k = tcase_create("kernel");
    tcase_set_timeout(k, 300); /* the reference-model runs take ~40 s under ASan */
    tcase_add_test(k, test_orders_by_time);
    tcase_add_test(k, test_same_time_is_fifo);
    tcase_add_test(k, test_reentrant_schedule_same_time);
    tcase_add_test(k, test_cancel);
    tcase_add_test(k, test_cancel_stale_handle_after_reuse);
    tcase_add_test(k, test_run_until_semantics);
    tcase_add_test(k, test_run_until_with_rescheduling);
    tcase_add_test(k, test_nested_run_is_refused);
    tcase_add_test(k, test_run_while);
    tcase_add_test(k, test_run_while_empty_jumps_to_limit);
    tcase_add_test(k, test_determinism);
    tcase_add_test(k, test_heap_matches_sort);
    tcase_add_test(k, test_engine_seed);
    tcase_add_test(k, test_matches_reference_model);
    tcase_add_test(k, test_peek_then_schedule_earlier);
    tcase_add_test(k, test_cancel_head_and_all);
    tcase_add_test(k, test_far_future_times);
    tcase_add_test(k, test_large_matches_reference);
    tcase_add_test(k, test_switch_thresholds_matches_reference);
    tcase_add_test(k, test_resize_boundaries);
    tcase_add_test(k, test_large_cancel_compacts);
    tcase_add_test(k, test_large_queue_emptied_then_reused);
    suite_add_tcase(s, k);
    TCase *r = tcase_create("rng");
    tcase_add_test(r, test_rng_known_answers);
    tcase_add_test(r, test_rng_streams_independent);
    tcase_add_test(r, test_rng_below_uniform);
    tcase_add_test(r, test_rng_unit_range);
    suite_add_tcase(s, r);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(engine_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
