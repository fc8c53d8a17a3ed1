/* The fcip feature's engine hooks (fcip_reconcile.c), and the live tunnel
 * behind an interface for the shows. */
#ifndef MDSIM_FCIP_ENGINE_H
#define MDSIM_FCIP_ENGINE_H
#include "engine/engine.h"

struct lab;
struct ipnet;
struct fcip_tunnel;

void *fcip_engine_create(struct lab *lab, engine_t *e, struct ipnet *net);
void fcip_engine_destroy(void *state);
void fcip_engine_reconcile(struct lab *lab, struct ipnet *net, void *state);
/* The engine brought in line first; NULL when the tunnel does not run. */
struct fcip_tunnel *fcip_live(struct lab *lab, int sw, int id);

/* The port-channels of the lab's links (pchan.h), the engine brought in
 * line first. */
struct pchan_set *fcip_live_pchans(struct lab *lab);

/* The shows with live values (fcip_live.c), for the fcip command table and
 * the interface hooks of the registry. */
struct session;
struct cmd_args;
int fcip_show_interface(struct session *s, const struct cmd_args *a);
int fcip_show_summary(struct session *s, const struct cmd_args *a);
int fcip_show_tcp_stats(struct session *s, const struct cmd_args *a);
int fcip_show_tape_sessions(struct session *s, const struct cmd_args *a);
void fcip_show_brief(struct session *s);
void fcip_show_interfaces(struct session *s);
void fcip_show_descriptions(struct session *s);
void fcip_show_counters(struct session *s);
int fcip_clear_counters(struct session *s, const struct cmd_args *a);
void fcip_clear_all_counters(struct session *s);

/* Its rows in the fcip command table. `show ips stats tcp` shows the
 * tunnels' connections, so it comes with the feature (iSCSI will add its
 * own when it has TCP). */
#define FCIP_LIVE_CMDS                                                                                             \
    {MODES(MODE_EXEC), "show interface fcip <id:1-255@fcip-if> [{brief | counters | description | trunk vsan}]",              \
     "interface: Interface status and configuration\nfcip: FCIP interface\nid: Interface number\n"                \
     "brief: Brief summary\ncounters: Interface counters\ndescription: Interface description\n"                   \
     "trunk: Trunk information\nvsan: Trunk VSANs",                                                                \
     fcip_show_interface, CMD_PIPE, &fcip_gate, 0},                                                                 \
        {MODES(MODE_EXEC), "show fcip summary", "fcip: FCIP information\nsummary: Summary of the FCIP interfaces",      \
         fcip_show_summary, CMD_PIPE, &fcip_gate, 0},                                                               \
        {MODES(MODE_EXEC), "show fcip tape-session tunnel <id:1-255@fcip-if> {host-end | targ-end}",                  \
         "fcip: FCIP information\ntape-session: Tape acceleration sessions\ntunnel: FCIP interface\n"             \
         "id: Interface number\nhost-end: Sessions whose host is on this switch\n"                                \
         "targ-end: Sessions whose tape drive is on this switch",                                                 \
         fcip_show_tape_sessions, CMD_PIPE, &fcip_gate, 0},                                                         \
        {MODES(MODE_EXEC), "show ips stats tcp interface gigabitethernet <port:slot/port> [detail]",                   \
         "ips: IP storage\nstats: Statistics\ntcp: TCP statistics\ninterface: Interface\n"                           \
         "gigabitethernet: Gigabit Ethernet interface\nport: Slot/port\ndetail: Detailed statistics",             \
         fcip_show_tcp_stats, CMD_PIPE, &fcip_gate, 0},                                                             \
        {MODES(MODE_EXEC), "clear counters interface fcip <id:1-255@fcip-if>",                                         \
         "clear: Reset functions\ncounters: Interface counters\ninterface: Interface\nfcip: FCIP interface\n"        \
         "id: Interface number",                                                                                  \
         fcip_clear_counters, CMD_ADMIN, &fcip_gate, 0}

#endif
