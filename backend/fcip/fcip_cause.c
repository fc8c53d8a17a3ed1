#include "fcip_cause.h"

static const struct fcip_cause_words words[FCIP_CAUSE_COUNT] = {
    [FCIP_CAUSE_NONE] = {"", NULL, false, false},
    [FCIP_CAUSE_ADMIN] = {"Administratively down", "IF_DOWN_ADMIN_DOWN", false, true},
    [FCIP_CAUSE_NOT_CONNECTED] = {"Link failure or not-connected", "IF_DOWN_LINK_FAILURE", false, true},
    [FCIP_CAUSE_SRC_UNBOUND] = {"Tunnel port src interface unbound", "IF_DOWN_SRC_PORT_NOT_BOUND", false, false},
    [FCIP_CAUSE_SRC_ADMIN_DOWN] = {"Tunnel port src interface down", "IF_DOWN_SRC_ADMIN_DOWN", true, true},
    [FCIP_CAUSE_SRC_LINK_DOWN] = {"Tunnel port src interface link down", "IF_DOWN_SRC_LINK_DOWN", true, true},
    [FCIP_CAUSE_MAX_RETX] = {"TCP conn. closed - retransmit failure", "IF_DOWN_TCP_MAX_RETRANSMIT", true, true},
    [FCIP_CAUSE_KEEPALIVE] = {"TCP conn. closed - Keep alive expired", "IF_DOWN_TCP_KEEP_ALIVE_EXPIRED", true, true},
    [FCIP_CAUSE_PEER_RESET] = {"TCP conn. reset by peer", "IF_DOWN_PEER_RESET", true, true},
    [FCIP_CAUSE_PEER_CLOSE] = {"TCP conn. closed by peer", "IF_DOWN_PEER_CLOSE", true, true},
    [FCIP_CAUSE_INIT] = {"Initializing", NULL, false, true},
    [FCIP_CAUSE_PORT_VSAN] = {"Isolation due to port vsan mismatch", "IF_DOWN_PORT_VSAN_MISMATCH_ISOLATION", false,
                              true},
    [FCIP_CAUSE_NO_COMMON_VSAN] = {"Isolation due to no common vsans with peer on trunk",
                                   "IF_DOWN_NO_COMMON_VSAN_ISOLATION", false, true},
    [FCIP_CAUSE_NOT_ALL_UP] = {"Not all VSANs UP on the trunk", NULL, false, true},
    [FCIP_CAUSE_DOMAIN_OVERLAP] = {"Isolation due to domain overlap", "IF_DOWN_DOMAIN_OVERLAP_ISOLATION", false,
                                   true},
    [FCIP_CAUSE_ELP] = {"Isolation due to ELP failure", "IF_DOWN_ELP_FAILURE_ISOLATION", false, true},
    [FCIP_CAUSE_ZONE_MERGE] = {"Isolation due to zone merge failure", "IF_DOWN_ZONE_MERGE_FAILURE_ISOLATION", false,
                               true},
};

const struct fcip_cause_words *fcip_cause_words(enum fcip_cause c)
{
    return &words[c < FCIP_CAUSE_COUNT ? c : FCIP_CAUSE_NONE];
}
