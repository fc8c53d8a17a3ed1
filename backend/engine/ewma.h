/* A rate as an exponentially weighted average (`5 minutes input rate`):
 * amounts within EWMA_BATCH_NS of each other are added up and decayed
 * together, so a saturated port pays one exp() a millisecond, not one a
 * frame (the error: a millisecond of age against a 300 s time constant). */
#ifndef MDSIM_ENGINE_EWMA_H
#define MDSIM_ENGINE_EWMA_H
#include <math.h>
#include <stdint.h>

#define EWMA_BATCH_NS 1000000u
#define EWMA_5MIN_TAU_S 300.0 /* the time constant of `5 minutes` rates */

struct ewma {
    double rate;    /* per second, as of `at` */
    double pending; /* added since `at`, not decayed yet */
    uint64_t at;
};

static inline void ewma_add(struct ewma *w, uint64_t now, double amount, double tau_s)
{
    w->pending += amount;
    if (now - w->at < EWMA_BATCH_NS)
        return;
    w->rate = w->rate * exp(-(double)(now - w->at) / 1e9 / tau_s) + w->pending / tau_s;
    w->pending = 0;
    w->at = now;
}

static inline uint64_t ewma_read(const struct ewma *w, uint64_t now, double tau_s)
{
    return (uint64_t)llround((w->rate + w->pending / tau_s) * exp(-(double)(now - w->at) / 1e9 / tau_s));
}

/* One direction of a port's `5 minutes` rate: its bits and its frames. */
struct ewma_rate {
    struct ewma bits, frames;
};

static inline void ewma_rate_add(struct ewma_rate *r, uint64_t now, double bytes)
{
    ewma_add(&r->bits, now, bytes * 8.0, EWMA_5MIN_TAU_S);
    ewma_add(&r->frames, now, 1.0, EWMA_5MIN_TAU_S);
}

static inline uint64_t ewma_rate_bps(const struct ewma_rate *r, uint64_t now)
{
    return ewma_read(&r->bits, now, EWMA_5MIN_TAU_S);
}

static inline uint64_t ewma_rate_fps(const struct ewma_rate *r, uint64_t now)
{
    return ewma_read(&r->frames, now, EWMA_5MIN_TAU_S);
}

#endif
