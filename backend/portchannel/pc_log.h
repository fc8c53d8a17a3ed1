/* A port-channel's log lines (pc_log.c): the engine's change callback
 * (pchan_on_change), registered with the lab as its context. */
#ifndef MDSIM_PC_LOG_H
#define MDSIM_PC_LOG_H
#include "fcip/pchan.h"

void pc_log_change(void *ctx, const struct pchan_change *c);

#endif
