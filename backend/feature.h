/*
 * The feature registry. A feature is a folder under backend/ and one entry
 * in the ordered list of backend/features.c: its command table, its gate
 * (`feature fcip`, `san-ext-tuner enable`) and the line running-config
 * prints for it, its running-config sections, the store tables it owns and
 * its engine part. Adding a feature is a folder and a line in that list.
 *
 * The list order is the reconcile order (interfaces and data plane, then
 * netsim, fcip, fabric, tuner) and, inside each running-config section, the
 * order in which features print.
 */
#ifndef MDSIM_FEATURE_H
#define MDSIM_FEATURE_H
#include "grammar.h"
#include "strbuf.h"
#include "session_host.h"
#include "engine/engine.h"

struct lab;
struct ipnet;
struct session;
struct record_type;

/* A gate: what `feature X` (or its SAN-OS spelling) turns on, declared in
 * the folder of the feature that owns it. Commands of a gated-off feature
 * are invalid commands (cmd_def.gate names the gate). */
struct gate {
    const char *name; /* its row in the store's `feature` table, its name in `show feature` */
    const char *line; /* its running-config line, e.g. "feature fcip" */
};

/* Sections of the running configuration, in the order NX-OS prints them
 * (mds-cli.md §2.7); the gates' lines come first, before all of them. */
enum config_section {
    SECTION_GLOBAL,     /* username, fcip profile, vsan database, zone ... */
    SECTION_SWITCHNAME,
    SECTION_INTERFACES, /* one block per configured interface */
    SECTION_LINES,      /* line console / line vty */
    SECTION_COUNT
};

/* A store table whose rows (per switch_id) belong to the feature: cleared
 * by reload, factory reset and turning the gate off, except the rows
 * matching `keep` (an SQL condition, NULL for none). */
struct owned_table {
    const char *name;
    const char *keep;
};

struct feature {
    const char *name;           /* its folder */
    const struct cmd_def *cmds; /* NULL-terminated by a zeroed entry; NULL for none */
    /* The gate it sits behind (its own, or another's: netsim behind
     * san-ext-tuner's): off, its commands are invalid and its tables are
     * cleared. NULL: always on. */
    const struct gate *gate;
    /* The gate it declares, if it owns one: `show feature` lists it and
     * running-config prints its line, in list order. */
    const struct gate *declares;
    void (*render[SECTION_COUNT])(struct lab *lab, int sw, strbuf *out);
    /* The same with its defaults spelled out, for `show running-config
     * all`; NULL where it prints as render does. */
    void (*render_all[SECTION_COUNT])(struct lab *lab, int sw, strbuf *out);
    const struct owned_table *tables; /* ends with {NULL} */
    /* Engine part, all optional: state created with the lab's engine, and
     * the hook that brings it in line with the committed store. A hook
     * diffs desired against running state per object, so what did not
     * change keeps its state, counters and packets. */
    void *(*engine_new)(struct lab *lab, engine_t *e, struct ipnet *net);
    void (*engine_free)(void *state);
    void (*reconcile)(struct lab *lab, struct ipnet *net, void *state);
    /* Writes what the engine state holds for the store (the system log's
     * queued messages) now that no command's savepoint is open: run by
     * lab_unlock at every unlock, so it costs one test when it has
     * nothing. It joins a replay's open batch, else commits on its own;
     * a refused write must not fail anything. Optional. */
    void (*flush)(struct lab *lab, void *state);
    /* The modes it owns (a sub-mode about its objects, a shell), ending
     * with NULL; the parser indexes them at start-up (parser/mode.h). */
    const struct mode_info *const *modes;
    /* The mode a session on lab node sw starts in, when the node is one
     * of its own (a lab host, an array: a shell); NULL: not its. */
    const struct mode_info *(*node_mode)(const struct lab *lab, int sw);
    /* Its interface type, if it has interfaces: the keyword the parser
     * lexes (`g2/1`) and the canonical name it prints (parser/ifname.h). */
    const struct iftype *iftype;
    /* Its interfaces, if it has a type of them: each in full for `show
     * interface`, and its table in `show interface brief` (printed in list
     * order). So a new interface type plugs in without editing another's. */
    void (*show_interfaces)(struct session *s);
    void (*show_brief)(struct session *s);
    /* Its rows of `show interface description` (under one shared header)
     * and its blocks of `show interface counters`; NULL: it has none. */
    void (*show_descriptions)(struct session *s);
    void (*show_counters)(struct session *s);
    /* `clear counters`: its interfaces' counters on the session's switch. */
    void (*clear_counters)(struct session *s);
    /* The values `?` and Tab offer for its variables that name a source
     * (`<pid:1-255@fcip-profile>`), ending with {NULL}; and the checks
     * that the object of its sub-modes still exists, ending with a NULL
     * ok (parser/session_host.h). Either NULL: none. */
    const struct value_source *values;
    const struct mode_check *mode_checks;
    /* Its live state in the read model (record/record.h,
     * docs/read-model.md): the types of its records, ending with NULL;
     * their numeric fields are the lab's time series. NULL: none. */
    const struct record_type *const *records;
};

/* The ordered list, ending with NULL. */
extern const struct feature *const features[];

/* The gates the features declare, NULL-terminated, in list order; a
 * gate's index there (-1: none), which the lab uses for its bits. */
enum { GATE_MAX = 32 };
const struct gate *const *feature_gates(void);
int gate_index(const struct gate *g);

/* Every command table of the program for the grammar: the parser's own,
 * then each feature's, NULL-terminated. */
const struct cmd_def *const *command_tables(void);

/* The first feature's node_mode that names one, else NULL (exec). */
const struct mode_info *feature_node_mode(const struct lab *lab, int sw);

/* The features' interface types, NULL-terminated, in list order. */
const struct iftype *const *interface_types(void);

/* Hands the parser what the features declare (command tables, interface
 * types): before the first line is read; later calls change nothing. */
void features_install(void);

/* The features' value source of that name, and their check of a mode's
 * object (iftype: the interface type in (config-if), else NULL); NULL: none. */
const struct value_source *feature_value_source(const char *name);
const struct mode_check *feature_mode_check(const struct mode_info *m, const struct iftype *iftype);

#endif
