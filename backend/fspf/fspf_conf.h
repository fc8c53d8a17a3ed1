/* FSPF's configuration per interface and VSAN (`fspf cost N vsan V`):
 * the store holds it, the fspf feature's reconcile hands it to the
 * fabric, which routes on it (docs/fspf.md). */
#ifndef MDSIM_FSPF_CONF_H
#define MDSIM_FSPF_CONF_H
#include "strbuf.h"

struct lab;

struct fspf_if_conf {
    char ifname[16];
    int vsan, cost;
};

void fspf_cost_set(struct lab *lab, int sw, const char *ifname, int vsan, int cost);
void fspf_cost_clear(struct lab *lab, int sw, const char *ifname, int vsan);
/* 0: none configured. */
int fspf_cost_get(struct lab *lab, int sw, const char *ifname, int vsan);
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

#endif
