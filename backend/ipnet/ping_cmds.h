/* What ping's command does around an echo that other commands that wait
 * for echoes (traceroute, a host's ping) do the same way. */
#ifndef MDSIM_PING_CMDS_H
#define MDSIM_PING_CMDS_H
#include <stdbool.h>
#include "ipnet.h"
#include "grammar.h"

struct session;

/* Request i of p answered or timed out: false when the user stopped it.
 * On real time the engine runs at most a slice ahead of the wall, so a
 * ping stopped during a long timeout leaves the lab clock where the wall
 * is: other sessions' sleeps and pings do not inherit the wait. */
bool ping_settle(struct session *s, struct ipnet_ping *p, int i);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature ipnet_feature;
extern const struct cmd_def ping_cmds[];

#endif
