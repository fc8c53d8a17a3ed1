/* fcdomain configuration: per switch and VSAN, the domain ID the switch
 * asks for (`fcdomain domain <1-239> static|preferred vsan <list>`). The
 * store holds it; the fabric's reconcile hands it to the engine, which
 * takes it when it builds the VSAN's fabric (docs/fcdomain.md). */
#ifndef MDSIM_FCDOMAIN_H
#define MDSIM_FCDOMAIN_H
#include <stdbool.h>
#include "strbuf.h"
#include "grammar.h"

struct lab;

struct fcdomain_conf {
    int vsan;
    int domain; /* 1-239 */
    bool is_static; /* else preferred */
};

/* False when the VSAN has no configured domain (the default: any). */
bool fcdomain_get(struct lab *lab, int sw, int vsan, struct fcdomain_conf *c);
void fcdomain_set(struct lab *lab, int sw, const struct fcdomain_conf *c);
void fcdomain_clear(struct lab *lab, int sw, int vsan);
/* Every configured VSAN of the switch, ascending. */
void fcdomain_each(struct lab *lab, int sw, void (*fn)(void *ctx, const struct fcdomain_conf *c), void *ctx);

/* Running-config: `fcdomain domain N static vsan V` lines, after the vsan
 * database. */
void fcdomain_render(struct lab *lab, int sw, strbuf *out);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature fcdomain_feature;
extern const struct cmd_def fcdomain_cmds[];

#endif
