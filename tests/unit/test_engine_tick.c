/* The clock's observer (engine_on_tick, the time series' sampler): with
 * it on, the engine runs the same events in the same order (equal trace
 * hashes), and it is called at each boundary after the events due by then
 * and before any later one. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "engine/rng.h"

#define SEC ENGINE_NS_PER_SEC

struct load {
    rng_t r;
    uint64_t last_ns; /* time of the last event run */
    int left;
};

/* An event that schedules the next one a random delay later, some of them
 * exactly on a second. */
static void step(engine_t *e, void *arg)
{
    struct load *l = arg;
    l->last_ns = engine_now(e);
    if (--l->left <= 0)
        return;
    uint64_t d = rng_below(&l->r, 3) == 0 ? SEC - engine_now(e) % SEC : 1 + rng_below(&l->r, 700 * ENGINE_NS_PER_MS);
    engine_after(e, d, step, l);
    engine_trace_mix(e, rng_below(&l->r, 1000));
}

struct ticks {
    int n;
    uint64_t at[64];
    struct load *l;
    bool ordered; /* every tick after the events due by it, before later ones */
};

static void on_tick(engine_t *e, uint64_t at_ns, void *ctx)
{
    struct ticks *t = ctx;
    t->at[t->n++] = at_ns;
    t->ordered &= engine_now(e) == at_ns && t->l->last_ns <= at_ns && engine_next_time(e) > at_ns;
}

static engine_t *loaded(struct load *l, int events)
{
    engine_t *e = engine_new(7);
    engine_rng_stream(e, &l->r, "tick-test");
    l->left = events;
    l->last_ns = 0;
    engine_after(e, 1, step, l);
    return e;
}

static bool never(void *ctx) { return ctx != NULL; }

START_TEST(test_same_events_with_ticks)
{
    struct load a, b;
    engine_t *plain = loaded(&a, 200), *ticked = loaded(&b, 200);
    struct ticks t = {.l = &b, .ordered = true};
    engine_on_tick(ticked, SEC, on_tick, &t);
    engine_run_until(plain, 20 * SEC + 5);
    engine_run_until(ticked, 7 * SEC + 3); /* in pieces, one of them by run_while */
    engine_run_while(ticked, never, &t, 12 * SEC);
    engine_run_until(ticked, 20 * SEC + 5);
    ck_assert_uint_eq(engine_trace_hash(plain), engine_trace_hash(ticked));
    ck_assert_uint_eq(engine_events_run(plain), engine_events_run(ticked));
    ck_assert_uint_eq(engine_now(plain), engine_now(ticked));
    ck_assert_int_eq(t.n, 20);
    for (int i = 0; i < t.n; i++)
        ck_assert_uint_eq(t.at[i], (uint64_t)(i + 1) * SEC);
    ck_assert(t.ordered);
    engine_free(plain);
    engine_free(ticked);
}
END_TEST

START_TEST(test_off_costs_nothing_and_stops)
{
    struct load a;
    engine_t *e = loaded(&a, 50);
    struct ticks t = {.l = &a, .ordered = true};
    engine_on_tick(e, SEC, on_tick, &t);
    engine_run_until(e, 3 * SEC);
    engine_on_tick(e, 0, NULL, NULL);
    engine_run_until(e, 9 * SEC);
    ck_assert_int_eq(t.n, 3);
    engine_free(e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("engine_tick");
    TCase *k = tcase_create("tick");
    tcase_add_test(k, test_same_events_with_ticks);
    tcase_add_test(k, test_off_costs_nothing_and_stops);
    suite_add_tcase(s, k);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
