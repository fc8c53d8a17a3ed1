/* engine: the discrete-event kernel shared by every switch of a lab.
 *
 * Time is an unsigned 64-bit count of nanoseconds since the lab started
 * (584 years of range). Events run in (time, seq) order, seq being a global
 * insertion counter, so events due at the same instant run in the order
 * they were scheduled. Nothing here reads a wall clock: the front-end
 * decides how far to advance (engine_run_until / engine_run_while).
 *
 * Single-threaded: callers serialise access (the lab lock).
 */
#ifndef MDSIM_ENGINE_ENGINE_H
#define MDSIM_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/rng.h"

#define ENGINE_NS_PER_US 1000ULL
#define ENGINE_NS_PER_MS 1000000ULL
#define ENGINE_NS_PER_SEC 1000000000ULL
#define ENGINE_TIME_NEVER UINT64_MAX

typedef struct engine engine_t;

/* Handle of a scheduled event; 0 is never a valid handle. A handle stays
 * safe to cancel after its event ran or was cancelled (it is then stale). */
typedef uint64_t engine_timer_id;

typedef void (*engine_fn)(engine_t *e, void *arg);

/* NULL on allocation failure. */
engine_t *engine_new(uint64_t seed);
void engine_free(engine_t *e);

/* The current time is the first member of struct engine (engine.c checks
 * it), read inline: every packet of the data plane asks for it. */
static inline uint64_t engine_now(const engine_t *e)
{
    return *(const uint64_t *)(const void *)e;
}

/* Lab seed. Changing it affects only streams seeded afterwards. */
uint64_t engine_seed(const engine_t *e);
void engine_set_seed(engine_t *e, uint64_t seed);
/* Seed `r` as stream `name` of this lab (see rng_seed_stream). */
void engine_rng_stream(const engine_t *e, rng_t *r, const char *name);

/* Schedule fn(e, arg) at absolute time when_ns; a time in the past is
 * clamped to now (the kernel never runs time backwards). Returns 0 only on
 * allocation failure. May be called from inside an event. */
engine_timer_id engine_at(engine_t *e, uint64_t when_ns, engine_fn fn, void *arg);
engine_timer_id engine_after(engine_t *e, uint64_t delay_ns, engine_fn fn, void *arg);

/* Remove a pending event in O(log n). Returns false if it already ran,
 * was already cancelled, or the handle is 0. */
bool engine_cancel(engine_t *e, engine_timer_id id);

/* Run every event with time <= t (including events they schedule at or
 * before t), then set now = max(now, t). Returns the number of events run.
 * Called from inside an event it does nothing and returns 0. */
uint64_t engine_run_until(engine_t *e, uint64_t t);

/* Run events in order while pred(ctx) holds and the next event is due at
 * or before limit_ns. pred is checked before every event. Returns true if
 * it stopped because pred became false (now = time of the last event run,
 * or unchanged); false if the limit was reached first (now = limit_ns,
 * events due exactly at limit_ns have run). Typical use: a ping advances
 * "until its replies arrive", capped by its timeout. */
bool engine_run_while(engine_t *e, bool (*pred)(void *ctx), void *ctx, uint64_t limit_ns);

/* An observer of the clock (the sampler, docs/series.md): fn(e, at_ns,
 * ctx) each time engine_run_until or engine_run_while carries the clock
 * over a multiple of period_ns, after every event due at or before it and
 * before any later one. It is not an event: it takes no sequence number,
 * leaves the trace hash alone, and must only read; a run to t1 then t2
 * runs the same events in the same order as a run to t2. fn NULL: off,
 * which costs a run one test. engine_step does not call it. */
typedef void (*engine_tick_fn)(engine_t *e, uint64_t at_ns, void *ctx);
void engine_on_tick(engine_t *e, uint64_t period_ns, engine_tick_fn fn, void *ctx);

/* Run the single next event, if any; returns false when none is pending. */
bool engine_step(engine_t *e);

/* Time of the next pending event, ENGINE_TIME_NEVER when none. */
uint64_t engine_next_time(const engine_t *e);
size_t engine_pending(const engine_t *e);
uint64_t engine_events_run(const engine_t *e);

/* Running hash of the times of all events run and of every value passed to
 * engine_trace_mix: two runs are identical iff their hashes match (with
 * overwhelming probability). For regression and determinism tests. */
uint64_t engine_trace_hash(const engine_t *e);
void engine_trace_mix(engine_t *e, uint64_t value);

#endif
