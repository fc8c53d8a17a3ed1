/* A pool of fixed-size objects in slabs, recycled through a free list: the
 * engine moves tens of thousands of packets and frames a second and none
 * of them is malloc'ed one by one. New objects are zeroed; a freed object
 * keeps its bytes but the first pointer-sized word (the free-list link),
 * so an owner can mark live objects with a field past that word and find
 * them with pool_each (the lab closing with objects still in flight). */
#ifndef MDSIM_ENGINE_POOL_H
#define MDSIM_ENGINE_POOL_H
#include <stddef.h>

struct pool {
    size_t size;
    void *free;
    void **slabs;
    int nslabs;
};

/* A pool of objects of `size` bytes (at least a pointer). */
void pool_init(struct pool *p, size_t size);
void pool_destroy(struct pool *p);
void *pool_get(struct pool *p);
void pool_put(struct pool *p, void *o);
/* Calls fn on every object ever handed out, live or free. */
void pool_each(struct pool *p, void (*fn)(void *ctx, void *o), void *ctx);

#endif
