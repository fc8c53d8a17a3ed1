/* The Gigabit Ethernet ports' log lines (ge_log.c), the interface
 * feature's engine state. */
#ifndef MDSIM_GE_LOG_H
#define MDSIM_GE_LOG_H
#include "ipnet/ipnet.h"

struct lab;
void *ge_log_new(struct lab *lab, struct ipnet *net);
void ge_log_free(void *state);
/* At the start of each reconcile of the ports. */
void ge_log_reconciling(void *state);

#endif
