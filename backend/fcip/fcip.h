/* FCIP configuration (`feature fcip`): profiles and fcip interfaces as the
 * store holds them, read through this API by the shows and by the engine's
 * reconcile. Units are the engine's; the CLI's units are converted here. */
#ifndef MDSIM_FCIP_H
#define MDSIM_FCIP_H
#include <stdbool.h>
#include <stdint.h>
#include "strbuf.h"
#include "vsan/vsan.h"
#include "session_host.h"

struct lab;
struct iftype;
struct gate;

/* `feature fcip`: the gate of FCIP and what sits behind it (docs/registry.md). */
extern const struct gate fcip_gate;

/* fcip1: its interface type (docs/registry.md). */
extern const struct iftype fcip_iftype;

#define FCIP_DEFAULT_PORT 3225

struct fcip_profile_conf {
    int id;                 /* 1-255 */
    bool has_ip;
    uint32_t ip;            /* local address, host order */
    int port;               /* TCP listen port, 3225 */
    int keepalive_s;        /* 60 */
    int max_retrans;        /* 4 */
    int min_rto_ms;         /* 200 */
    bool pmtu;              /* true */
    int pmtu_reset_s;       /* 3600 */
    bool sack;              /* true */
    uint32_t max_bw_kbps;   /* 1000000 */
    uint32_t min_bw_kbps;   /* 500000 */
    uint32_t rtt_us;        /* 1000 */
    bool cwm;               /* true */
    uint32_t cwm_burst_bytes; /* 50 KB = 51200 (1 KB = 1024 B) */
    uint32_t max_jitter_us; /* 1000 */
    uint32_t send_buf_bytes;  /* 0 (KB x 1024) */
};

enum fcip_compression { FCIP_COMP_OFF, FCIP_COMP_AUTO, FCIP_COMP_MODE1, FCIP_COMP_MODE2, FCIP_COMP_MODE3 };
enum fcip_trunk_mode { FCIP_TRUNK_ON, FCIP_TRUNK_OFF, FCIP_TRUNK_AUTO };

struct fcip_if_conf {
    int id;                 /* fcipN */
    int profile;            /* 0: no use-profile */
    bool has_peer;
    uint32_t peer_ip;       /* host order */
    int peer_port;          /* 3225 */
    bool passive;
    int tcp_connections;    /* 1 or 2 (default 2) */
    enum fcip_compression compression;
    bool write_acc, tape_acc; /* tape_acc implies write_acc */
    uint32_t tape_buf_kb;     /* tape acceleration's flow-control buffer, 0 auto */
    bool time_stamp;
    int ts_diff_ms;         /* acceptable difference, 2000 */
    enum fcip_trunk_mode trunk_mode;
    struct vsan_set allowed; /* switchport trunk allowed vsan, 1-4093 by default */
    char description[256];
    bool shutdown;          /* new interfaces are shut */
    bool special_frame;     /* special-frame peer-wwn ... */
    uint8_t sf_peer_wwn[8]; /* the peer switch's WWN */
    int sf_profile;         /* the peer's profile id, 0: not given */
};

/* False when the profile (or interface) does not exist on the switch. */
bool fcip_profile_get(struct lab *lab, int sw, int id, struct fcip_profile_conf *c);
bool fcip_if_get(struct lab *lab, int sw, int id, struct fcip_if_conf *c);
/* Every fcip interface of the switch, by id. */
void fcip_ifs_each(struct lab *lab, int sw, void (*fn)(void *ctx, const struct fcip_if_conf *c), void *ctx);
int fcip_if_count(struct lab *lab, int sw);
/* The Gigabit Ethernet port of the switch holding ip: true and slot/port. */
bool fcip_ge_of_ip(struct lab *lab, int sw, uint32_t ip, int *slot, int *port);

/* A port-channel's switchport settings copied onto a member
 * (backend/portchannel: `channel-group N force`, and the channel's own
 * changes). False when the interface does not exist. */
bool fcip_if_set_switchport(struct lab *lab, int sw, int id, enum fcip_trunk_mode mode, const struct vsan_set *allowed);

/* Running-config blocks: profiles, interfaces (id 0: all of them). */
void fcip_render_profiles(struct lab *lab, int sw, strbuf *out);
void fcip_render_ifs(struct lab *lab, int sw, strbuf *out, int id);
/* `  switchport trunk allowed vsan ...` lines of a non-default list. */
void fcip_render_allowed(strbuf *out, const struct vsan_set *allowed);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature fcip_feature;
extern const struct cmd_def fcip_cmds[];
extern const struct value_source fcip_values[];
extern const struct mode_check fcip_mode_checks[];
/* fcip_show.c's handlers for fcip_cmds. */
int fcip_show_profile(struct session *s, const struct cmd_args *a);
int fcip_show_running(struct session *s, int id);
struct mode_info;
/* (config-profile): `fcip profile N` (docs/registry.md). */
extern const struct mode_info fcip_profile_mode;

#endif
