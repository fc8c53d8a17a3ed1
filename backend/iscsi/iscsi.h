/* iSCSI (`feature iscsi`, `iscsi enable`): the modules with iSCSI enabled
 * and their iscsiS/P interfaces, as the store holds them. mdsim has no
 * iSCSI initiators: the interfaces are configuration and state only. */
#ifndef MDSIM_ISCSI_H
#define MDSIM_ISCSI_H
#include <stdbool.h>
#include "strbuf.h"
#include "session_host.h"

struct lab;
struct iftype;
struct gate;

/* `feature iscsi`: its gate (docs/registry.md). */
extern const struct gate iscsi_gate;

/* iscsi2/1: its interface type (docs/registry.md). */
extern const struct iftype iscsi_iftype;

struct iscsi_if_conf {
    char description[256]; /* "" when none */
    bool shutdown;         /* the default */
};

bool iscsi_module_enabled(struct lab *lab, int sw, int slot);
void iscsi_module_set(struct lab *lab, int sw, int slot, bool on);
/* The module's IPS port count, 0 when the slot holds no IPS module. */
int iscsi_module_ports(struct lab *lab, int sw, int slot);
/* Does iscsiS/P exist (iSCSI enabled on an IPS module with that port)? */
bool iscsi_if_exists(struct lab *lab, int sw, int slot, int port);
void iscsi_if_get(struct lab *lab, int sw, int slot, int port, struct iscsi_if_conf *c);
void iscsi_if_put(struct lab *lab, int sw, int slot, int port, const struct iscsi_if_conf *c);

/* Running-config: `iscsi enable module N` lines; interface blocks. */
void iscsi_render_modules(struct lab *lab, int sw, strbuf *out);
void iscsi_render_ifs(struct lab *lab, int sw, strbuf *out);
/* Every interface with its defaults, for `show running-config all`. */
void iscsi_render_all_ifs(struct lab *lab, int sw, strbuf *out);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature iscsi_feature;
extern const struct cmd_def iscsi_cmds[];
extern const struct mode_check iscsi_mode_checks[];
/* iscsi_show.c: the handler of `show interface iscsi` and the feature's hooks. */
int iscsi_show_interface(struct session *s, const struct cmd_args *a);
void iscsi_show_all(struct session *s);
void iscsi_show_brief(struct session *s);

#endif
