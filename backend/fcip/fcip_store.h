/* The fcip tables of the store, for the fcip folder only: every SQL
 * statement of FCIP configuration lives in fcip_store.c. */
#ifndef MDSIM_FCIP_STORE_H
#define MDSIM_FCIP_STORE_H
#include <stdbool.h>

struct lab;

/* Integer columns of fcip_profile, with their defaults (fcip_pcol_default). */
enum fcip_pcol {
    FP_IP, FP_PORT, FP_KEEPALIVE, FP_MAX_RETRANS, FP_MIN_RTO, FP_PMTU, FP_PMTU_RESET, FP_SACK,
    FP_MAX_BW, FP_MIN_BW, FP_RTT, FP_CWM, FP_CWM_BURST, FP_JITTER, FP_SEND_BUF, FP_COUNT
};
/* Columns of fcip_if; trunk mode, allowed VSANs, description and the
 * special frame's peer WWN hold text. */
enum fcip_icol {
    FI_PROFILE, FI_PEER_IP, FI_PEER_PORT, FI_PASSIVE, FI_TCP_CONNS, FI_COMPRESSION, FI_WRITE_ACC,
    FI_TAPE_ACC, FI_TIME_STAMP, FI_TS_DIFF, FI_SHUTDOWN, FI_SF_PROFILE, FI_TRUNK_MODE, FI_ALLOWED,
    FI_DESCRIPTION, FI_SF_WWN, FI_TAPE_BUF, FI_COUNT
};

extern const long long fcip_pcol_default[FP_COUNT];

bool fcip_profile_exists(struct lab *lab, int sw, int id);
void fcip_profile_create(struct lab *lab, int sw, int id);
void fcip_profile_delete(struct lab *lab, int sw, int id);
/* v NULL: SQL NULL (no ip address). */
void fcip_profile_set(struct lab *lab, int sw, int id, enum fcip_pcol col, const long long *v);
/* The three bandwidth settings in one write (min <= max holds throughout). */
void fcip_profile_set_bandwidth(struct lab *lab, int sw, int id, long long max_kbps, long long min_kbps,
                                long long rtt_us);
/* The profile ids of the switch, ascending; returns how many (<= 255). */
int fcip_profile_ids(struct lab *lab, int sw, int ids[255]);
/* The lowest fcip interface using the profile, 0 for none. */
int fcip_profile_user(struct lab *lab, int sw, int profile);

bool fcip_if_exists(struct lab *lab, int sw, int id);
void fcip_if_create(struct lab *lab, int sw, int id);
void fcip_if_delete(struct lab *lab, int sw, int id);
void fcip_if_set(struct lab *lab, int sw, int id, enum fcip_icol col, const long long *v);
void fcip_if_set_text(struct lab *lab, int sw, int id, enum fcip_icol col, const char *text);
int fcip_if_ids(struct lab *lab, int sw, int ids[255]);

#endif
