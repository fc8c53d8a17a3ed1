/* FSPF's configuration per interface and VSAN (`fspf cost`, `fspf
 * hello-interval`, `fspf dead-interval`): the store holds it, the fspf
 * feature's reconcile hands it to the fabric, which routes on the costs
 * and gives the hellos their intervals (docs/fspf.md). */
#ifndef MDSIM_FSPF_CONF_H
#define MDSIM_FSPF_CONF_H
#include "strbuf.h"
#include "grammar.h"

struct lab;

#define FSPF_HELLO_S 20
#define FSPF_DEAD_S 80

/* 0: not configured (the default). */
struct fspf_if_conf {
    char ifname[16];
    int vsan, cost, hello, dead;
};

/* The interface's row in the VSAN, all 0 when it has none. */
void fspf_if_get(struct lab *lab, int sw, const char *ifname, int vsan, struct fspf_if_conf *c);
/* Written back; all at their defaults, the row goes. */
void fspf_if_put(struct lab *lab, int sw, const struct fspf_if_conf *c);
/* The switch's rows, by interface then VSAN (ifname NULL: every one). */
void fspf_ifs_each(struct lab *lab, int sw, const char *ifname, void (*fn)(void *ctx, const struct fspf_if_conf *c),
                   void *ctx);
/* Its lines inside the interface's running-config block. */
void fspf_render_if(struct lab *lab, int sw, const char *ifname, strbuf *out);

/* The fabric brought in line with the store; fctrace (fspf_trace.c). */
struct session;
struct cmd_args;
struct fabric *fspf_fabric(struct session *s);
int fspf_fctrace(struct session *s, const struct cmd_args *a);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature fspf_feature;
extern const struct cmd_def fspf_cmds[];

#endif
