/* What a session needs of the lab it runs in, handed to the parser by the
 * program (session_use_host), so that parser/ includes nothing from
 * backend/: the lock every command runs under, its savepoint, the feature
 * gates, the host name for the prompt, and the clock for commands that
 * last. The lab stays an opaque struct here. */
#ifndef MDSIM_SESSION_HOST_H
#define MDSIM_SESSION_HOST_H
#include <stdbool.h>
#include <stdint.h>
#include "grammar.h"

struct lab;

/* What the lab knows for a variable naming a value source in the grammar
 * (`<pid:1-255@fcip-profile>`): list calls add for its values (those
 * starting with prefix may be all it sends) until add returns false.
 * so_far holds the words before the variable (`nport pwwn W vsan <TAB>`:
 * the pWWN). Runs under the lab lock; completion offers, the grammar still
 * takes any value of the type. */
struct value_source {
    const char *name;
    const char *help; /* beside each value in `?` */
    void (*list)(struct lab *lab, int sw, const struct cmd_args *so_far, const char *prefix,
                 bool (*add)(void *ctx, const char *value), void *ctx);
};

/* The object a sub-mode is about (a profile, an fcip interface, an N
 * port) may be deleted by another session: ok says whether the session's
 * one still exists, writing the error (cmd_error) when not. Run under the
 * lab lock before each command of the mode's own (docs/mode-context.md). */
struct mode_check {
    const struct mode_info *mode;
    const struct iftype *iftype; /* MODE_IF: the interface type checked; else NULL */
    bool (*ok)(struct session *s);
};

struct session_host {
    void (*lock)(struct lab *lab);
    void (*unlock)(struct lab *lab);
    /* A command's writes between txn_begin and txn_end (false: the store
     * refused the commit; store_error says why). */
    void (*txn_begin)(struct lab *lab);
    bool (*txn_end)(struct lab *lab, bool commit);
    const char *(*store_error)(const struct lab *lab);
    /* Before a command that frees space (CMD_FREES): a full disk gives
     * back the lab's reserve so that it can commit. */
    void (*make_room)(struct lab *lab);
    bool (*gate_enabled)(const struct lab *lab, int sw, const struct gate *gate);
    const char *(*hostname)(const struct lab *lab, int sw);
    /* The mode a session on node sw starts in when it is not a switch: a
     * lab host's shell (docs/hosts.md), a storage array's (docs/array.md);
     * NULL: exec. The hook NULL: every node is a switch. */
    const struct mode_info *(*node_mode)(const struct lab *lab, int sw);
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
    /* The features' value sources and mode checks, by name and by mode
     * (NULL: none). */
    const struct value_source *(*value_source)(const char *name);
    const struct mode_check *(*mode_check)(const struct mode_info *m, const struct iftype *iftype);
};

/* Given once before the first session; the first call wins. */
void session_use_host(const struct session_host *host);

#endif
