/* The rules an interface address obeys, whichever interface takes it. */
#ifndef MDSIM_IF_ADDR_H
#define MDSIM_IF_ADDR_H
#include <stdint.h>

struct session;

/* For the interface being configured (s->ctx): ip/mask must be a host
 * address and its subnet must not overlap another interface's of the
 * switch (GE ports and mgmt0). Prints the NX-OS error and returns -1, or
 * returns 0. */
int if_addr_check(struct session *s, uint32_t ip, uint32_t mask);

#endif
