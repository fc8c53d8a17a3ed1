/* IPS Gigabit Ethernet ports: configuration, state and rendering. */
#ifndef MDSIM_GE_H
#define MDSIM_GE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"

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

#endif
