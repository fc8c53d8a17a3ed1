/* A Fibre Channel frame as the simulated fabric carries it: the header
 * fields that route and identify it, and its payload size. Payload bytes
 * are never stored; `pattern` says what they look like (compressibility). */
#ifndef MDSIM_FC_FRAME_H
#define MDSIM_FC_FRAME_H
#include <stdbool.h>
#include <stdint.h>

#define FC_HDR_BYTES 36u      /* SOF 4 + header 24 + CRC 4 + EOF 4 */
#define FC_PAYLOAD_MAX 2112u
#define FCIP_ENCAP_BYTES 28u  /* RFC 3821 / 3643 encapsulation header */

/* Well-known addresses: a switch's domain controller is 0xFFFCdd. */
#define FC_DOMAIN_CONTROLLER(dom) (0xFFFC00u | (uint32_t)(dom))
#define FC_DOMAIN_OF(fcid) ((((fcid) & 0xFFFF00u) == 0xFFFC00u) ? ((fcid) & 0xFFu) : ((fcid) >> 16 & 0xFFu))

enum fc_kind {
    FC_ILS,          /* switch to switch (class F): link setup between the ends of an ISL */
    FC_ELS_ECHO,     /* fcping's request, and its accept */
    FC_ELS_ECHO_ACC,
    FC_FCP_CMND,
    FC_FCP_XFER_RDY,
    FC_FCP_DATA,
    FC_FCP_RSP,
};

/* Exchanges a switch originates for an initiator (tape acceleration's
 * read-ahead, docs/tape-acceleration.md) take OX_IDs from here up; N ports
 * use those below. */
#define FC_OX_ID_SWITCH_FIRST 0xF000u

/* Tape acceleration's marks on frames crossing an FCIP link (what the two
 * ends of the link tell each other about an exchange). */
enum fc_ta_mark {
    FC_TA_NONE,
    FC_TA_NO_PROXY, /* a write CMND whose XFER_RDY the host end did not proxy */
    FC_TA_READ_START, /* a read CMND that missed the host end's cache: read ahead */
    FC_TA_READ_MORE,  /* a read served from the cache: read one block more */
    FC_TA_AHEAD,      /* data or status of a read-ahead, for the host end's cache */
};

/* A data pattern: what the payload bytes of data frames look like. */
struct fc_pattern;

struct fc_frame {
    struct fc_frame *next;  /* the current owner's queue link */
    uint32_t d_id, s_id;
    uint16_t vsan;
    uint8_t kind;           /* enum fc_kind */
    bool class_f;           /* control traffic: an FCIP link's control connection */
    uint16_t ox_id;
    uint32_t payload;       /* bytes, 0..FC_PAYLOAD_MAX */
    const struct fc_pattern *pattern; /* NULL: not compressible data (headers, ELS) */
    uint32_t fcp_dl;        /* FCP_CMND, XFER_RDY, DATA: the transfer length */
    bool fcp_write;         /* FCP_CMND: WRDATA (else RDDATA); DATA: a write's (the originator sends) */
    bool fcp_tape;          /* FCP_CMND: a sequential-access (tape) READ(6)/WRITE(6) */
    uint8_t ta;             /* enum fc_ta_mark */
    uint8_t ta_ahead;       /* FC_TA_READ_START: how many blocks to read ahead */
    uint32_t rel_off;       /* FCP_DATA: the payload's offset in the transfer (captures draw it) */
    uint16_t seq_cnt;       /* FCP_DATA: the frame's number in its sequence */
    uint64_t t0;            /* the originator's send time */
    uint64_t tag;           /* the originator's cookie */
    void *ils;              /* FC_ILS: the link message, malloc'ed, freed with the frame */
    /* The N port that sent it hears when it reaches its destination port:
     * that is when its egress counts (the FC side has no credit model,
     * so a frame handed to a tunnel may wait there; counting on arrival
     * keeps a second's egress within what the path carried). */
    void (*sent)(void *origin, const struct fc_frame *f);
    void *origin;
    /* Scratch of whoever carries the frame now (an FCIP link: when it may
     * enter TCP, and its encapsulated, compressed size). */
    uint64_t carrier_at;
    uint32_t carrier_len;
    /* its FCIP time stamp: carrier_at from CAPTURE_EPOCH_S, this ahead on
     * the sending switch's clock when it was set (tunnel.h), else 0 */
    int64_t carrier_clock_ns;
    bool carrier_clock_set;
};

/* Bytes of the frame on the wire, SOF to EOF. */
static inline uint32_t fc_frame_bytes(const struct fc_frame *f) { return FC_HDR_BYTES + f->payload; }

#endif
