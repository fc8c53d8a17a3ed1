/* The host feature (docs/hosts.md): the lab's hosts from the store to the
 * data plane, and their shell's commands. */
#ifndef MDSIM_HOST_H
#define MDSIM_HOST_H
#include <stdbool.h>
#include <stdint.h>
#include "hostnet.h"
#include "grammar.h"

struct lab;

/* A host's port as the lab file gave it. */
struct host_port_row {
    int eth;
    uint32_t ip, mask, mtu, gateway; /* gateway 0: none on this line */
};

/* Host h's ports (at most HOSTNET_PORTS), in port order. */
int host_ports(struct lab *lab, int h, struct host_port_row out[HOSTNET_PORTS]);
/* The eth0 (first port's) address of the lab's host named name, 0 when none. */
uint32_t host_address_of(struct lab *lab, const char *name);
/* The lab's hosts, their ports, gateways and cables, into a new data plane. */
struct hostnet *host_declare(struct lab *lab, struct ipnet *net);
/* The hosts' engine part, brought in line with the store (NULL: no host). */
struct hostnet *host_engine(struct lab *lab);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature host_feature;
extern const struct cmd_def host_cmds[];
/* `ping` from a host (host_ping.c). */
int host_cmd_ping(struct session *s, const struct cmd_args *a);
/* host_engine's state as it is (no reconcile, NULL without hosts): for a
 * later feature's engine_new, run while the engine is built. */
struct hostnet *hostnet_of_lab(struct lab *lab);
struct mode_info;
/* a lab host's shell, its only mode (docs/hosts.md, docs/registry.md). */
extern const struct mode_info host_mode;

#endif
