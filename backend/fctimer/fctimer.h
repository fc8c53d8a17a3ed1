/* Fibre Channel timers of a switch (`fctimer e_d_tov|r_a_tov <ms>`): the
 * store holds them, fcip's reconcile puts them in each tunnel's ELP, where
 * a mismatch isolates the link (docs/fctimer.md). */
#ifndef MDSIM_FCTIMER_H
#define MDSIM_FCTIMER_H
#include "strbuf.h"
#include "grammar.h"

struct lab;

#define FCTIMER_E_D_TOV_MS 2000
#define FCTIMER_R_A_TOV_MS 10000

struct fctimer_conf {
    int e_d_tov_ms, r_a_tov_ms;
};

/* The defaults when none is configured. */
void fctimer_get(struct lab *lab, int sw, struct fctimer_conf *c);
void fctimer_set(struct lab *lab, int sw, const struct fctimer_conf *c);
/* Running-config: a line per timer that is not at its default. */
void fctimer_render(struct lab *lab, int sw, strbuf *out);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature fctimer_feature;
extern const struct cmd_def fctimer_cmds[];

#endif
