/* The fcip feature's log lines (fcip_log.c): the engine's change
 * callback, registered with the lab as its context. */
#ifndef MDSIM_FCIP_LOG_H
#define MDSIM_FCIP_LOG_H
#include "tunnel.h"

void fcip_log_change(void *ctx, const struct fcip_change *c);

#endif
