/* The vsan tables of the store, for the vsan folder only. */
#ifndef MDSIM_VSAN_STORE_H
#define MDSIM_VSAN_STORE_H
#include <stdbool.h>

struct lab;

/* A configured VSAN: true and its name (the default VSAN0010 when none
 * was given) when it has a row. */
bool vsan_row(struct lab *lab, int sw, int id, char name[33]);
void vsan_row_set(struct lab *lab, int sw, int id, const char *name);
/* Deletes the VSAN; its member ports move to the isolated VSAN 4094. */
void vsan_row_delete(struct lab *lab, int sw, int id);
/* The VSAN holding that explicit name, 0 for none. */
int vsan_named(struct lab *lab, int sw, const char *name);
/* The configured VSAN ids, ascending (at most max). */
int vsan_ids(struct lab *lab, int sw, int *ids, int max);

/* `vsan N loadbalancing src-dst-id` (true) or `src-dst-ox-id`; the VSAN
 * exists (VSAN 1 gets a row). */
void vsan_lb_set(struct lab *lab, int sw, int id, bool src_dst_id);
bool vsan_lb_src_dst_id(struct lab *lab, int sw, int id);

/* Port VSAN 1 deletes the row: VSAN 1 is where interfaces start. */
void vsan_member_set(struct lab *lab, int sw, const char *ifname, int vsan);
/* Every membership row: fn(ctx, ifname, vsan). */
void vsan_members_each(struct lab *lab, int sw, void (*fn)(void *ctx, const char *ifname, int vsan), void *ctx);

#endif
