/* An IPv4 address (host order) as dotted decimal, for shows and the
 * running-config, and back from a word a shell's user typed: one
 * formatter and one reader for every feature. */
#ifndef MDSIM_IPNET_IP_TEXT_H
#define MDSIM_IPNET_IP_TEXT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static inline void ip_text(uint32_t ip, char *buf, size_t n)
{
    snprintf(buf, n, "%u.%u.%u.%u", ip >> 24, ip >> 16 & 255, ip >> 8 & 255, ip & 255);
}

/* `10.1.1.2`, nothing after it; false when it is not one. */
static inline bool ip_parse(const char *w, uint32_t *ip)
{
    unsigned a, b, c, d;
    char tail;
    if (sscanf(w, "%3u.%3u.%3u.%3u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 || b > 255 || c > 255 || d > 255)
        return false;
    *ip = a << 24 | b << 16 | c << 8 | d;
    return true;
}

#endif
