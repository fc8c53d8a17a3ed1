#include "ifname.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct iftype types[] = {
    {"gigabitethernet", "GigabitEthernet", true},
    {"fcip", "fcip", false},
    {"iscsi", "iscsi", true},
    {"mgmt", "mgmt", false},
};

const struct iftype *iftype_by_prefix(const char *s, size_t n)
{
    if (n == 0)
        return NULL;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].keyword) >= n && strncasecmp(types[i].keyword, s, n) == 0)
            return &types[i];
    return NULL;
}

const struct iftype *iftype_by_keyword(const char *kw)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcasecmp(types[i].keyword, kw) == 0)
            return &types[i];
    return NULL;
}

void ifname_format(char *buf, size_t n, const struct iftype *t, int a, int b)
{
    if (t->slot_port)
        snprintf(buf, n, "%s%d/%d", t->canonical, a, b);
    else
        snprintf(buf, n, "%s%d", t->canonical, a);
}

int iftype_index(const struct iftype *t) { return (int)(t - types); }
