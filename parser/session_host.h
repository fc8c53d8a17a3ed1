/* What a session needs of the lab it runs in, handed to the parser by the
 * program (session_use_host), so that parser/ includes nothing from
 * backend/: the lock every command runs under, its savepoint, the feature
 * gates, the host name for the prompt, and the clock for commands that
 * last. The lab stays an opaque struct here. */
#ifndef MDSIM_SESSION_HOST_H
#define MDSIM_SESSION_HOST_H
#include <stdbool.h>
#include <stdint.h>

struct lab;

struct session_host {
    void (*lock)(struct lab *lab);
    void (*unlock)(struct lab *lab);
    /* A command's writes between txn_begin and txn_end (false: the store
     * refused the commit; store_error says why). */
    void (*txn_begin)(struct lab *lab);
    bool (*txn_end)(struct lab *lab, bool commit);
    const char *(*store_error)(const struct lab *lab);
    bool (*gate_enabled)(const struct lab *lab, int sw, int gate);
    const char *(*hostname)(const struct lab *lab, int sw);
    /* The clock: catch up with the wall, lab time now, wall time until lab
     * time t, real or virtual, run the engine to t. */
    void (*tick)(struct lab *lab);
    uint64_t (*now)(const struct lab *lab);
    uint64_t (*wall_until)(const struct lab *lab, uint64_t t);
    bool (*realtime)(const struct lab *lab);
    void (*advance_to)(struct lab *lab, uint64_t t);
    uint64_t time_max_ns; /* the lab's clock goes no further */
    /* A command that waits releases the lab and takes it back. */
    int (*pause)(struct lab *lab);
    void (*resume)(struct lab *lab, int depth);
};

/* Given once before the first session; the first call wins. */
void session_use_host(const struct session_host *host);

#endif
