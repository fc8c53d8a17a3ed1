/* The fabric feature: what the registry and the other features take of
 * it. Apart from fabric.h, the engine object's header, which includes
 * neither the grammar nor the lab. */
#ifndef MDSIM_FABRIC_FEATURE_H
#define MDSIM_FABRIC_FEATURE_H
#include "grammar.h"

struct lab;
struct fabric;

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature fabric_feature;
extern const struct cmd_def fabric_cmds[];

/* The lab's fabric as it is, not reconciled first: so another feature's
 * engine_new, run while the engine is built, may take it. */
struct fabric *fabric_of_lab(struct lab *lab);

#endif
