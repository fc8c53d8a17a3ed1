/* IPS Gigabit Ethernet ports: configuration, state and rendering. */
#ifndef MDSIM_GE_H
#define MDSIM_GE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"
#include "grammar.h"

struct lab;
struct iftype;

/* GigabitEthernet2/1: its interface type, declared to the registry (docs/registry.md). */
extern const struct iftype ge_iftype;

struct ge_conf {
    bool configured; /* a row exists: something differs from the default */
    uint32_t ip, mask;
    bool has_ip;
    int mtu;
    char description[256];
    bool shutdown;
};

/* Does the switch have this port (an IPS module in the slot, port in range)? */
bool ge_exists(struct lab *lab, int sw, int slot, int port);
void ge_get(struct lab *lab, int sw, int slot, int port, struct ge_conf *c);
/* Does ip/mask share a subnet with the address of another GE port of the
 * switch (not slot/port)? Names that port in other. */
bool ge_ip_overlap(struct lab *lab, int sw, int slot, int port, uint32_t ip, uint32_t mask,
                   char *other, size_t n);
/* Running-config blocks of the configured ports (slot 0: all of them). */
void ge_render_config(struct lab *lab, int sw, strbuf *out, int slot, int port);
/* Every port of the switch with its defaults (`show running-config all`). */
void ge_render_all(struct lab *lab, int sw, strbuf *out);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature interface_feature;
extern const struct cmd_def ge_cmds[];
/* Shows and counters of the ports (ge_show.c, ge_ips_show.c): handlers
 * for ge_cmds and the interface feature's hooks. */
int ge_show_interface(struct session *s, const struct cmd_args *a);
int ge_clear_counters(struct session *s, const struct cmd_args *a);
int ge_show_ips_stats(struct session *s, const struct cmd_args *a);
int ge_show_ips_arp(struct session *s, const struct cmd_args *a);
int ge_show_ips_route(struct session *s, const struct cmd_args *a);
void ge_show_all(struct session *s);
void ge_show_brief(struct session *s);
void ge_show_descriptions(struct session *s);
void ge_show_all_counters(struct session *s);
void ge_clear_all_counters(struct session *s);

#endif
