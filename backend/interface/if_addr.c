#include "if_addr.h"
#include "session.h"
#include "ifname.h"
#include "ge.h"
#include "mgmt.h"

static bool host_address_ok(uint32_t ip, uint32_t mask)
{
    uint32_t host = ip & ~mask;
    unsigned first = ip >> 24;
    return mask != 0 && host != 0 && host != ~mask && first != 0 && first != 127 && first < 224;
}

int if_addr_check(struct session *s, uint32_t ip, uint32_t mask)
{
    if (!host_address_ok(ip, mask))
        return cmd_error(s, "%% Invalid ip address");
    bool self_ge = s->ctx.iftype == &ge_iftype;
    char other[32] = "mgmt0";
    /* slot 0 names no GE port: from mgmt0, every port is another one */
    if (!ge_ip_overlap(s->lab, s->sw, self_ge ? s->ctx.a : 0, self_ge ? s->ctx.b : 0, ip, mask, other,
                       sizeof other) &&
        (!self_ge || !mgmt_ip_overlap(s->lab, s->sw, ip, mask)))
        return 0;
    /* NX-OS names the interface that already has the subnet */
    return cmd_error(s, "%% %u.%u.%u.%u/%d overlaps with address configured on %s", ip >> 24, ip >> 16 & 255,
                     ip >> 8 & 255, ip & 255, __builtin_popcount(mask), other);
}
