/* The SAN Extension Tuner feature: its engine (tuner.h) for the commands
 * that act on it, and its shows (sanext_show.c). */
#ifndef MDSIM_SANEXT_H
#define MDSIM_SANEXT_H
#include "session_host.h"

struct lab;
struct session;
struct cmd_args;
struct gate;

/* `san-ext-tuner enable`: the gate of the tuner and of the IP Network
 * Simulator behind it (docs/registry.md). */
extern const struct gate sanext_gate;

/* The engine's tuner, brought in line with the store first. */
struct tuner *sanext_tuner(struct lab *lab);

int sanext_show_nports(struct session *s, const struct cmd_args *a);
int sanext_show_nport(struct session *s, const struct cmd_args *a);

#define SANEXT_SHOW_HELP                                                                                           \
    "san-ext-tuner: SAN extension tuner\ninterface: Interface of the N port\ngigabitethernet: Gigabit Ethernet "   \
    "interface\nport: Slot/port\nnport: Virtual N port\npwwn: Port WWN\nwwn: Port WWN\nvsan: VSAN of the N "      \
    "port\nvid: VSAN id\ncounters: I/O statistics\nnports: Virtual N ports"
#define SANEXT_SHOW_CMDS                                                                                           \
    {MODES(MODE_EXEC), "show san-ext-tuner nports", SANEXT_SHOW_HELP, sanext_show_nports, CMD_PIPE, &sanext_gate, 0},  \
        {MODES(MODE_EXEC),                                                                                            \
         "show san-ext-tuner interface gigabitethernet <port:slot/port> nport pwwn <wwn:wwn@sanext-pwwn> "       \
         "vsan <vid:1-4093@sanext-vsan> "                                                                          \
         "[counters]",                                                                                            \
         SANEXT_SHOW_HELP, sanext_show_nport, CMD_PIPE, &sanext_gate, 0}

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature sanext_feature;
extern const struct cmd_def sanext_cmds[];
extern const struct value_source sanext_values[];
extern const struct mode_check sanext_mode_checks[];

struct mode_info;
/* (san-ext): `san-ext-tuner`, an exec-level mode (docs/registry.md). */
extern const struct mode_info sanext_mode;
/* (san-ext-nport): `nport pwwn W vsan V interface g2/1` (docs/registry.md). */
extern const struct mode_info sanext_nport_mode;

#endif
