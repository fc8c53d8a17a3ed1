/* The walk over every feature's records (record.h). */
#include "record.h"
#include "feature.h"
#include "lab/lab.h"

struct walk {
    const struct record_type *type;
    record_walk_fn fn;
    void *ctx;
};

static void one(void *ctx, const char *key, const void *rec)
{
    struct walk *w = ctx;
    w->fn(w->ctx, w->type, key, rec);
}

void record_walk(struct lab *lab, struct ipnet *net, record_walk_fn fn, void *ctx)
{
    for (const struct feature *const *f = features; *f; f++)
        for (const struct record_type *const *t = (*f)->records; t && *t; t++) {
            struct walk w = {*t, fn, ctx};
            (*t)->each(lab, net, lab_feature_state(lab, *f), one, &w);
        }
}
