/* rng: one seeded pseudo-random stream per engine component.
 *
 * Every consumer (a netsim direction, a TCP connection, ...) owns an rng_t
 * seeded from the lab seed and its own name, so adding or removing one
 * consumer never shifts the draws of another. Generator: xoshiro256**,
 * state filled by splitmix64 from hash(lab_seed, name).
 */
#ifndef MDSIM_ENGINE_RNG_H
#define MDSIM_ENGINE_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng_t;

/* Seed from a raw 64-bit value (tests, or a caller with its own naming). */
void rng_seed(rng_t *r, uint64_t seed);

/* Seed the stream named `component_name` (e.g. "netsim:GigabitEthernet2/3")
 * of the lab whose seed is `lab_seed`. Same pair -> same sequence. */
void rng_seed_stream(rng_t *r, uint64_t lab_seed, const char *component_name);

/* Next 64 uniformly distributed bits. */
uint64_t rng_u64(rng_t *r);

/* Uniform integer in [0, n), without modulo bias. Returns 0 when n == 0. */
uint64_t rng_below(rng_t *r, uint64_t n);

/* Uniform double in [0, 1) with 53 bits of resolution. */
double rng_unit(rng_t *r);

#endif
