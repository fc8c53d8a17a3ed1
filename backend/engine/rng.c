#include "engine/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* FNV-1a: stable across platforms and builds, unlike pointer or
 * library hashes, so a stream name always maps to the same stream. */
static uint64_t fnv1a64(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; s && *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

void rng_seed(rng_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    /* xoshiro's only bad state; splitmix practically never yields it. */
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1;
}

void rng_seed_stream(rng_t *r, uint64_t lab_seed, const char *component_name)
{
    /* Mix the name hash through splitmix before combining so that
     * nearby seeds and similar names do not give correlated states. */
    uint64_t n = fnv1a64(component_name);
    uint64_t mixed = splitmix64(&n);
    rng_seed(r, lab_seed ^ mixed);
}

uint64_t rng_u64(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Full 128-bit product of two 64-bit values, as (high, low). */
static uint64_t mul128(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    u128 m = (u128)a * b;
    *lo = (uint64_t)m;
    return (uint64_t)(m >> 64);
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* Lemire's multiply-and-reject: the high word of x * n is uniform in
 * [0, n) once the low words below (2^64 mod n) are rejected. The division
 * runs only in the rare near-rejection case, which matters because a
 * random drop draws once per packet. Same results with or without a
 * native 128-bit type. */
uint64_t rng_below(rng_t *r, uint64_t n)
{
    if (n == 0)
        return 0;
    uint64_t lo;
    uint64_t hi = mul128(rng_u64(r), n, &lo);
    if (lo < n) {
        uint64_t threshold = (0 - n) % n;
        while (lo < threshold)
            hi = mul128(rng_u64(r), n, &lo);
    }
    return hi;
}

double rng_unit(rng_t *r)
{
    return (double)(rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}
