/* Port-channels (`interface port-channel N`) and their fcip members
 * (`channel-group N [force]`), as the store holds them: read by the fcip
 * reconcile (which puts member links into the engine's channels,
 * backend/fcip/pchan.h) and by the shows. docs/port-channel.md. */
#ifndef MDSIM_PORTCHANNEL_H
#define MDSIM_PORTCHANNEL_H
#include <stdbool.h>
#include "strbuf.h"
#include "fcip/fcip.h" /* enum fcip_trunk_mode */
#include "vsan/vsan.h"
#include "session_host.h"

struct lab;
struct iftype;

/* port-channel1: its interface type (docs/registry.md). */
extern const struct iftype pc_iftype;

#define PC_ID_MAX 256
#define PC_MEMBERS_MAX 16 /* as the engine's PCHAN_MAX_MEMBERS */

struct pc_conf {
    int id;
    bool shutdown;
    enum fcip_trunk_mode trunk_mode;
    struct vsan_set allowed;
    bool mode_active; /* `channel mode active`, else on */
};

bool pc_get(struct lab *lab, int sw, int id, struct pc_conf *c);
/* The channel an fcip interface belongs to, 0: none. */
int pc_channel_of(struct lab *lab, int sw, int fcip_id);
/* A channel's members, ascending (at most PC_MEMBERS_MAX). */
int pc_members(struct lab *lab, int sw, int id, int *fcip_ids);
/* The switch's channels, ascending. */
int pc_ids(struct lab *lab, int sw, int ids[PC_ID_MAX]);

/* Running-config: the member's `channel-group N force` line. */
void pc_render_member(struct lab *lab, int sw, int fcip_id, strbuf *out);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature portchannel_feature;
extern const struct cmd_def portchannel_cmds[];
extern const struct value_source portchannel_values[];
extern const struct mode_check portchannel_mode_checks[];

#endif
