/* VSANs: the `vsan database` of a switch, port VSAN membership, and VSAN
 * lists (`1-10,20`) as used by `switchport trunk allowed vsan`. */
#ifndef MDSIM_VSAN_H
#define MDSIM_VSAN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"
#include "grammar.h"

struct lab;

#define VSAN_MAX_USER 4093 /* 1-4093 can be configured */
#define VSAN_EVFP 4079     /* reserved: evfp_isolated_vsan */
#define VSAN_ISOLATED 4094 /* ports of a deleted VSAN */

/* A set of VSAN ids 0-4095, bit i = VSAN i. */
struct vsan_set {
    uint8_t bit[512];
};

static inline bool vsan_set_has(const struct vsan_set *v, int id)
{
    return id >= 0 && id < 4096 && (v->bit[id >> 3] >> (id & 7) & 1);
}
static inline bool vsan_set_empty(const struct vsan_set *v)
{
    for (size_t i = 0; i < sizeof v->bit; i++)
        if (v->bit[i])
            return false;
    return true;
}
void vsan_set_add(struct vsan_set *v, int first, int last);
void vsan_set_all(struct vsan_set *v); /* 1-4093 */
/* Parses `1-10,20` (ids 1-4093); false when malformed. */
bool vsan_set_parse(struct vsan_set *v, const char *text);
/* Canonical text: `1-10,20`, "" for the empty set. */
void vsan_set_format(const struct vsan_set *v, strbuf *out);
/* An interface's allowed list after `[no] switchport trunk allowed vsan
 * {[add | except | remove] <vsans> | all}` (fcip, port-channel):
 * replaced, added to, all but, removed from; a bare `no` returns to all.
 * False when the list is malformed. */
bool vsan_trunk_allowed_apply(struct vsan_set *allowed, const struct cmd_args *a);

/* Does VSAN id exist on the switch (1, 4079 and 4094 always do)? */
bool vsan_exists(struct lab *lab, int sw, int id);
/* The port VSAN of an interface by canonical name ("fcip1"): 1 unless the
 * vsan database puts it elsewhere. */
int vsan_port_vsan(struct lab *lab, int sw, const char *ifname);

/* The VSANs whose port-channels balance per source and destination
 * (`vsan N loadbalancing src-dst-id`); the others go per exchange. */
void vsan_src_dst_ids(struct lab *lab, int sw, struct vsan_set *out);

/* Running-config: the `vsan database` of VSANs (global section) and the
 * one of port memberships, printed after the interfaces it names. */
void vsan_render_vsans(struct lab *lab, int sw, strbuf *out);
void vsan_render_members(struct lab *lab, int sw, strbuf *out);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature vsan_feature;
extern const struct cmd_def vsan_cmds[];
struct mode_info;
/* (config-vsan-db): `vsan database` (docs/registry.md). */
extern const struct mode_info vsan_db_mode;

#endif
