/*
 * The IP Network Simulator as a feature: `ips netsim ...` exec commands
 * (gated by `san-ext-tuner enable`), their store (schema/003_netsim.sql) and
 * the reconcile step that brings the engine's bridges and pipes in line
 * with it. The pipe itself is backend/netsim/pipe.h; docs/netsim.md has the
 * choices (ranges, show layouts, errors).
 */
#ifndef MDSIM_NETSIM_H
#define MDSIM_NETSIM_H
#include <stdbool.h>
#include "netsim/pipe.h"
#include "grammar.h"

struct lab;
struct ipnet;

/* Ranges of the CLI, also enforced by the schema's CHECKs. */
#define NETSIM_DELAY_MS_MAX 150
#define NETSIM_DELAY_US_MAX 150000
#define NETSIM_RATE_KBPS_MIN 1000
#define NETSIM_RATE_KBPS_MAX 1000000
#define NETSIM_QSIZE_KB_MAX 1000
#define NETSIM_NTH_MAX 10000

/* The per-direction settings, each stored in its own columns. */
enum netsim_knob {
    NETSIM_KNOB_DELAY,       /* v[0] = microseconds */
    NETSIM_KNOB_RATE,        /* v[0] = kbit/s */
    NETSIM_KNOB_QSIZE,       /* v[0] = KB (1000 B) */
    NETSIM_KNOB_DROP_NTH,    /* v[0] = n, v[1] = burst */
    NETSIM_KNOB_DROP_RANDOM, /* v[0] = per 10,000, v[1] = burst */
    NETSIM_KNOB_REORDER,     /* v[0] = enum netsim_reorder_mode, v[1] = value, v[2] = distance */
    NETSIM_KNOB_COUNT
};

/* The port of a command's `ingress gigabitethernet s/p`: it must exist and
 * be in network simulator mode, else the session gets the error. */
struct session;
struct cmd_args;
bool netsim_ingress_port(struct session *s, const struct cmd_args *a, int *slot, int *port);

/* Is the port in a simulator pair? Its partner is returned when asked. */
bool netsim_paired(struct lab *lab, int sw, int slot, int port, int *pslot, int *pport);
/* Adds the pair a-b (both must exist and be unpaired; the caller checks). */
void netsim_pair_add(struct lab *lab, int sw, int a_slot, int a_port, int b_slot, int b_port);
/* Removes the pair holding the port, with the settings of both directions. */
void netsim_pair_remove(struct lab *lab, int sw, int slot, int port);
/* Sets or unsets one knob of the direction entering at slot/port (paired). */
void netsim_knob_set(struct lab *lab, int sw, int slot, int port, enum netsim_knob k, const long v[3]);
void netsim_knob_clear(struct lab *lab, int sw, int slot, int port, enum netsim_knob k);
/* The stored settings of a direction as the pipe takes them (all unset
 * when the port is not paired). */
void netsim_config_load(struct lab *lab, int sw, int slot, int port, netsim_pipe_config *cfg);
/* Every pair of the switch, in the order they were typed: calls
 * fn(ctx, a_slot, a_port, b_slot, b_port) for each. */
void netsim_pairs_each(struct lab *lab, int sw, void (*fn)(void *ctx, int, int, int, int), void *ctx);

/* The feature's reconcile hook: declares every pair of every switch to the
 * data plane (ipnet_bridge), then configures the ingress pipe of each
 * bridged port from the store. */
void netsim_reconcile(struct lab *lab, struct ipnet *net, void *state);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature netsim_feature;
extern const struct cmd_def netsim_cmds[];
/* netsim_show.c's handlers for netsim_cmds. */
int netsim_show(struct session *s, const struct cmd_args *a);
int netsim_show_stats(struct session *s, const struct cmd_args *a);
int netsim_clear_stats(struct session *s, const struct cmd_args *a);

#endif
