/* The management port, mgmt0: an address, its show and its running-config
 * block. It carries no simulated traffic (the lab has no management LAN). */
#ifndef MDSIM_MGMT_H
#define MDSIM_MGMT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"
#include "grammar.h"

struct lab;
struct iftype;

/* mgmt0: its interface type (docs/registry.md). */
extern const struct iftype mgmt_iftype;

bool mgmt_get(struct lab *lab, int sw, uint32_t *ip, uint32_t *mask);
void mgmt_set(struct lab *lab, int sw, uint32_t ip, uint32_t mask);
void mgmt_clear(struct lab *lab, int sw);
/* Does ip/mask share a subnet with mgmt0's address? */
bool mgmt_ip_overlap(struct lab *lab, int sw, uint32_t ip, uint32_t mask);
/* `interface mgmt0` block, nothing when at defaults unless `always`. */
void mgmt_render_config(struct lab *lab, int sw, strbuf *out, bool always);

struct session;
/* `show interface mgmt0`, its part of `show interface` and of `show
 * interface brief`. */
void mgmt_show(struct session *s);
void mgmt_show_all(struct session *s);
void mgmt_show_brief(struct session *s);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature mgmt_feature;
extern const struct cmd_def mgmt_cmds[];

#endif
