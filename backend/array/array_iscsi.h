/*
 * iSCSI (RFC 7143) between a lab host and a storage array's iSCSI ports
 * (docs/array.md), over the hosts' TCP (backend/host). PDUs travel as
 * records of their wire size (a 48-byte basic header segment and the
 * data segment padded to 4 bytes; no digests), with the fields the two
 * ends act on. The target: one login exchange (AuthMethod=None) into the
 * full feature phase; SCSI READ through the model then Data-In PDUs of
 * MaxRecvDataSegmentLength (8192), the last carrying the status; SCSI
 * WRITE asks for its data with R2Ts of MaxBurstLength (262144) each
 * (InitialR2T=Yes, ImmediateData=No), then the model's write, then the
 * SCSI Response; NOP-Out and Logout answered. A PDU before login, a data
 * segment over 8192 bytes or a transfer over 16 MB closes the connection.
 * LUN n is the array's logical drive n. An engine object.
 */
#ifndef MDSIM_ARRAY_ISCSI_H
#define MDSIM_ARRAY_ISCSI_H
#include <stdbool.h>
#include <stdint.h>
#include "array_model.h"

struct hostnet;

#define ISCSI_PORT 3260
#define ISCSI_BHS 48u
#define ISCSI_MRDSL 8192u      /* MaxRecvDataSegmentLength, the default */
#define ISCSI_BURST 262144u    /* MaxBurstLength, the default */
#define ISCSI_XFER_MAX (16u << 20)
#define ISCSI_LOGIN_TEXT 420u  /* the keys of a login request or response [G] */

enum iscsi_op {
    ISCSI_NOP_OUT = 0x00, ISCSI_SCSI_CMD = 0x01, ISCSI_LOGIN = 0x03, ISCSI_DATA_OUT = 0x05, ISCSI_LOGOUT = 0x06,
    ISCSI_NOP_IN = 0x20, ISCSI_SCSI_RSP = 0x21, ISCSI_LOGIN_RSP = 0x23, ISCSI_DATA_IN = 0x25,
    ISCSI_LOGOUT_RSP = 0x26, ISCSI_R2T = 0x31,
};

struct iscsi_pdu {
    uint8_t op;
    bool final;   /* F: the last PDU of a sequence */
    bool status;  /* S (Data-In): the status is in this PDU */
    uint8_t scsi_status; /* 0 GOOD, 2 CHECK CONDITION */
    bool write;   /* SCSI Command: W */
    uint32_t itt, ttt, lun;
    uint32_t xfer_len;  /* SCSI Command: expected data transfer length; R2T: desired length */
    uint32_t data_len;  /* the data segment */
    uint32_t offset;    /* Data-In/Out, R2T: buffer offset */
    uint64_t lba;       /* SCSI Command: the CDB's logical block (512 bytes) */
};

static inline uint32_t iscsi_pdu_bytes(const struct iscsi_pdu *p) { return ISCSI_BHS + ((p->data_len + 3u) & ~3u); }

/* The target on host h (the array's node) listening on ISCSI_PORT. */
struct iscsi_target;
struct iscsi_target *iscsi_target_new(struct array *a, struct hostnet *hn, int h);
void iscsi_target_free(struct iscsi_target *t);
/* Sessions logged in now, and commands served since it started. */
int iscsi_target_sessions(const struct iscsi_target *t);
uint64_t iscsi_target_commands(const struct iscsi_target *t);

/* An initiator on host h: logs in to dst's target, keeps `depth` READ(10)
 * or WRITE(10) of `bytes` each in flight to `lun` for len_ns, sequential
 * from block 0 or random (a seeded stream), and counts what completed. */
struct iscsi_perf_conf {
    int h;
    uint32_t dst;
    int lun;
    bool write, random;
    uint32_t bytes;
    int depth; /* 1-64 */
    uint64_t len_ns;
    uint64_t span_bytes; /* random and wrapping: within [0, span) */
};
enum iscsi_perf_error { ISCSI_PERF_OK, ISCSI_PERF_NO_ROUTE, ISCSI_PERF_REFUSED, ISCSI_PERF_TIMEOUT, ISCSI_PERF_LOST };
struct iscsi_perf_result {
    enum iscsi_perf_error error;
    uint64_t ios, bytes, lat_sum_ns, lat_max_ns;
    uint64_t login_ns; /* the login exchange's round trip */
    uint64_t elapsed_ns;
};
struct iscsi_perf;
struct iscsi_perf *iscsi_perf_start(struct hostnet *hn, const struct iscsi_perf_conf *c);
bool iscsi_perf_done(const struct iscsi_perf *p, struct iscsi_perf_result *r);
uint64_t iscsi_perf_deadline(const struct iscsi_perf *p);
void iscsi_perf_free(struct iscsi_perf *p);

#endif
