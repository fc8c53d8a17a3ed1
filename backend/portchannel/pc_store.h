/* The port-channel tables, for the portchannel folder only. */
#ifndef MDSIM_PC_STORE_H
#define MDSIM_PC_STORE_H
#include "portchannel.h"

void pc_create(struct lab *lab, int sw, int id);
void pc_delete(struct lab *lab, int sw, int id);
void pc_put(struct lab *lab, int sw, const struct pc_conf *c);
/* fcip_id joins channel (0: leaves its channel). */
void pc_member_set(struct lab *lab, int sw, int fcip_id, int channel);

#endif
