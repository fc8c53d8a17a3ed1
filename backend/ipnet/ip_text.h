/* An IPv4 address (host order) as dotted decimal, for shows and the
 * running-config: one formatter for every feature. */
#ifndef MDSIM_IPNET_IP_TEXT_H
#define MDSIM_IPNET_IP_TEXT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static inline void ip_text(uint32_t ip, char *buf, size_t n)
{
    snprintf(buf, n, "%u.%u.%u.%u", ip >> 24, ip >> 16 & 255, ip >> 8 & 255, ip & 255);
}

#endif
