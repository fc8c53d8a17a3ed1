/*
 * The read model (DESIGN.md rule 9): each feature offers its live state as
 * typed records, C structs whose field names carry their units (tx_bytes,
 * srtt_us, queue_bytes, egress_bytes_per_s, in_rate_bits_per_s). The text
 * shows render from the structs; the time series, the exports and the
 * browser's page walk them through each record type's field table, so
 * every figure has one source and one name.
 *
 * A record type is registered by its feature (struct feature's `records`)
 * and enumerates its records through `each`, which only reads: it runs
 * between engine events and never reconciles, so observing changes no
 * event and no order (docs/read-model.md).
 */
#ifndef MDSIM_RECORD_H
#define MDSIM_RECORD_H
#include <stddef.h>
#include <stdint.h>

struct lab;
struct ipnet;

/* How a numeric field moves: a counter only grows (until a clear), a
 * gauge is a level now. */
enum record_kind { RECORD_COUNTER, RECORD_GAUGE };

/* A uint64_t field of a record, named as in the C struct: the field's
 * name is the series' name, so it must say its unit. */
struct record_field {
    const char *name;
    enum record_kind kind;
    size_t offset;
};
/* A field must be a uint64_t: anything else fails to compile here. */
#define RECORD_IS_U64(type, member) __builtin_types_compatible_p(__typeof__(((type *)0)->member), uint64_t)
#define RECORD_FIELD(type, member, kind)                                                                     \
    { #member, kind, offsetof(type, member) + 0 * sizeof(char[RECORD_IS_U64(type, member) ? 1 : -1]) }

/* One record: its key names the object ("MDS1.fcip1", "MDS1.netsim.
 * GigabitEthernet2/1"), rec points to the feature's struct, valid during
 * the call. */
typedef void (*record_fn)(void *ctx, const char *key, const void *rec);

struct record_type {
    const char *name;                  /* what its records are, e.g. "fcip tunnel end" */
    const struct record_field *fields; /* its numeric fields, ending with {NULL} */
    /* Every record of the type now, in a fixed order; state is the
     * feature's engine state (NULL when the lab has no engine part). */
    void (*each)(struct lab *lab, struct ipnet *net, void *state, record_fn fn, void *ctx);
};

static inline uint64_t record_value(const void *rec, const struct record_field *f)
{
    uint64_t v;
    __builtin_memcpy(&v, (const char *)rec + f->offset, sizeof v);
    return v;
}

/* Every record of every feature's types, in the registry's order. */
typedef void (*record_walk_fn)(void *ctx, const struct record_type *t, const char *key, const void *rec);
void record_walk(struct lab *lab, struct ipnet *net, record_walk_fn fn, void *ctx);

#endif
