#include "pool.h"
#include <stdlib.h>

enum { POOL_SLAB = 256 };

void pool_init(struct pool *p, size_t size)
{
    *p = (struct pool){.size = size < sizeof(void *) ? sizeof(void *) : size};
}

void pool_destroy(struct pool *p)
{
    for (int i = 0; i < p->nslabs; i++)
        free(p->slabs[i]);
    free(p->slabs);
    *p = (struct pool){.size = p->size};
}

void *pool_get(struct pool *p)
{
    if (!p->free) {
        char *slab = calloc(POOL_SLAB, p->size);
        void **slabs = realloc(p->slabs, sizeof *slabs * (size_t)(p->nslabs + 1));
        if (!slab || !slabs)
            abort();
        p->slabs = slabs;
        p->slabs[p->nslabs++] = slab;
        for (int i = POOL_SLAB - 1; i >= 0; i--) {
            *(void **)(slab + p->size * (size_t)i) = p->free;
            p->free = slab + p->size * (size_t)i;
        }
    }
    void *o = p->free;
    p->free = *(void **)o;
    *(void **)o = NULL;
    return o;
}

void pool_put(struct pool *p, void *o)
{
    *(void **)o = p->free;
    p->free = o;
}

void pool_each(struct pool *p, void (*fn)(void *ctx, void *o), void *ctx)
{
    for (int s = 0; s < p->nslabs; s++)
        for (int i = 0; i < POOL_SLAB; i++)
            fn(ctx, (char *)p->slabs[s] + p->size * (size_t)i);
}
