#include "fcip_wire.h"
#include "capture/capture.h" /* CAPTURE_EPOCH_S: the FCIP time stamp is lab time too */
#include "fabric/fc_frame.h"
#include "engine/engine.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define NTP_1970 2208988800ULL /* seconds from 1900 to 1970 */

enum { SOF_F = 0x28, SOF_I3 = 0x2E, SOF_N3 = 0x36, EOF_N = 0x41, EOF_T = 0x42 };

/* FC header values per frame kind (FC-FS, FCP-4, FC-LS, FC-SW). */
static const struct {
    uint8_t r_ctl, type;
    uint32_t f_ctl; /* responder's frames carry 0x800000 */
    uint8_t cmd;    /* ELS / SW_ILS command code, first payload byte */
} kinds[] = {
    [FC_ILS] = {0x02, 0x22, 0x290000, 0x10},          /* SW_ILS request: ELP unless it says */
    [FC_ELS_ECHO] = {0x22, 0x01, 0x290000, 0x10},     /* ELS ECHO */
    [FC_ELS_ECHO_ACC] = {0x23, 0x01, 0x990000, 0x02}, /* LS_ACC */
    [FC_FCP_CMND] = {0x06, 0x08, 0x290000, 0},
    [FC_FCP_XFER_RDY] = {0x05, 0x08, 0x890000, 0},
    [FC_FCP_DATA] = {0x01, 0x08, 0x000008, 0},        /* relative offset present */
    [FC_FCP_RSP] = {0x07, 0x08, 0x990000, 0},
};

static uint8_t *put(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--)
        *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

/* A word with two bytes and their complements (FCIP header, SOF, EOF). */
static uint8_t *pair(uint8_t *p, uint8_t a, uint8_t b)
{
    const uint8_t w[4] = {a, b, (uint8_t)~a, (uint8_t)~b};
    memcpy(p, w, 4);
    return p + 4;
}

/* A data frame: which of its sequence. */
static bool first_of_seq(const struct fc_frame *f) { return f->kind != FC_FCP_DATA || f->rel_off == 0; }
static bool last_of_seq(const struct fc_frame *f)
{
    return f->kind != FC_FCP_DATA || f->rel_off + f->payload >= f->fcp_dl;
}

static uint32_t f_ctl(const struct fc_frame *f)
{
    uint32_t v = kinds[f->kind].f_ctl;
    if (f->kind == FC_FCP_DATA) {
        v |= f->fcp_write ? 0 : 0x800000;             /* a read's data comes from the responder */
        v |= last_of_seq(f) ? 0x080000 | 0x010000 : 0; /* end of sequence, initiative passed */
    }
    return v;
}

/* The FC-4 payload: the command, transfer-ready and ELS bytes; data and
 * status are zeros (status GOOD). */
static void payload(const struct fc_frame *f, uint8_t *p)
{
    if (f->kind == FC_FCP_CMND) {
        p[11] = f->fcp_write ? 0x01 : 0x02;           /* WRDATA / RDDATA */
        if (f->fcp_tape) {                            /* WRITE(6) / READ(6) of a tape, variable block */
            p[12] = f->fcp_write ? 0x0A : 0x08;
            put(p + 14, f->fcp_dl, 3);                /* transfer length in bytes */
        } else {
            p[12] = f->fcp_write ? 0x2A : 0x28;       /* WRITE(10) / READ(10), LBA 0 */
            put(p + 19, f->fcp_dl / 512u, 2);         /* blocks of 512 bytes */
        }
        put(p + 28, f->fcp_dl, 4);                    /* FCP_DL */
    } else if (f->kind == FC_FCP_XFER_RDY) {
        put(p + 4, f->fcp_dl, 4);                     /* burst length; offset 0 */
    } else if (kinds[f->kind].cmd && f->payload >= 4) {
        p[0] = kinds[f->kind].cmd;
        if (f->kind == FC_ILS && f->ils)              /* ELP, an FSPF HLO...: what it carries says */
            p[0] = *(const uint8_t *)f->ils;
        if (p[0] == kinds[FC_ILS].cmd && f->kind == FC_ILS && f->payload >= 8)
            p[4] = 3;                                 /* ELP revision */
    }
}

/* The time stamp (NTP format): when the frame entered TCP, on the
 * sending switch's clock when it was set, else lab time from
 * CAPTURE_EPOCH_S (tunnel.h), so captures repeat byte for byte. */
static uint8_t *stamp(uint8_t *p, const struct fc_frame *f)
{
    int64_t ns = (int64_t)(CAPTURE_EPOCH_S * ENGINE_NS_PER_SEC) + (int64_t)f->carrier_at + f->carrier_clock_ns;
    uint64_t t = ns > 0 ? (uint64_t)ns : 0; /* a clock set before 1970: not reached, `clock set` says 2000 */
    p = put(p, NTP_1970 + t / ENGINE_NS_PER_SEC, 4);
    return put(p, ((t % ENGINE_NS_PER_SEC) << 32) / ENGINE_NS_PER_SEC, 4);
}

/* The whole encapsulated frame into buf (FCIP_ENCAP_BYTES + FC_HDR_BYTES +
 * FC_PAYLOAD_MAX); returns its length in the stream. */
static uint32_t encapsulate(const struct fc_frame *f, uint8_t *buf)
{
    uint32_t len = f->carrier_len, words = len / 4;
    uint32_t body = len > FCIP_ENCAP_BYTES + FC_HDR_BYTES ? len - FCIP_ENCAP_BYTES - FC_HDR_BYTES : 0;
    /* RFC 3821 5.6: protocol 1 (FCIP) version 1 twice, pFlags 0, flags 0
     * and the frame length in words, the time stamp, CRC field 0 (not
     * used) */
    uint8_t *p = pair(pair(buf, 1, 1), 1, 1);
    p = pair(p, 0, 0);
    const uint16_t fl = (uint16_t)(words & 0x3ff);
    p = put(p, fl, 2);
    p = put(p, (uint16_t)~fl, 2);
    p = stamp(p, f);
    p += 4;
    uint8_t sof = f->class_f ? SOF_F : first_of_seq(f) ? SOF_I3 : SOF_N3;
    p = pair(p, sof, sof);
    /* FC header: R_CTL D_ID CS_CTL S_ID TYPE F_CTL SEQ_ID DF_CTL SEQ_CNT OX_ID RX_ID parameter */
    uint8_t *h = p;
    uint32_t fabric = 0xfffffd, d_id = f->d_id, s_id = f->s_id;
    if (f->kind == FC_ILS) /* switch to switch: fabric controller to fabric controller */
        d_id = s_id = fabric;
    p = put(p, (uint64_t)kinds[f->kind].r_ctl << 24 | (d_id & 0xffffff), 4);
    p = put(p, s_id & 0xffffff, 4);
    p = put(p, (uint64_t)kinds[f->kind].type << 24 | f_ctl(f), 4);
    p = put(p, (uint64_t)f->kind << 24 | f->seq_cnt, 4);
    p = put(p, (uint64_t)f->ox_id << 16 | 0xffff, 4);
    p = put(p, f->kind == FC_FCP_DATA ? f->rel_off : 0, 4);
    payload(f, p);
    p += body;
    p = put(p, crc32(0, h, (uInt)(p - h)), 4);
    uint8_t eof = last_of_seq(f) ? EOF_T : EOF_N;
    pair(p, eof, eof);
    return len;
}

/* Words 0-6: the encapsulation header, as a frame's with pFlags SF (and
 * Ch on a changed echo) and the length of the special frame. */
static uint8_t *sf_header(const struct fc_frame *f, const struct fcip_sf *sf, uint8_t *p)
{
    p = pair(pair(p, 1, 1), 1, 1);
    p = pair(p, sf->changed ? 0x81 : 0x01, 0);
    p = put(p, FCIP_SF_BYTES / 4, 2);
    p = put(p, (uint16_t)~(FCIP_SF_BYTES / 4), 2);
    p = stamp(p, f);
    return p + 4;
}

/* RFC 3821 §6.6: then the source WWN, entity identifier, nonce, usage
 * flags and code, destination WWN, K_A_TOV and two reserved words with
 * their complements. */
static uint32_t special(const struct fc_frame *f, uint8_t *buf)
{
    const struct fcip_sf *sf = f->ils;
    uint8_t *p = sf_header(f, sf, buf);
    memcpy(p, sf->src_wwn, 8);
    p = put(p + 8, sf->entity, 8);
    p = put(p, sf->nonce, 8);
    p = put(p, (uint32_t)sf->usage_flags << 24 | sf->usage_code, 4);
    memcpy(p, sf->dst_wwn, 8);
    p = put(p + 8, sf->ka_tov_ms, 4);
    p = put(p, 0x0000ffff, 4);
    put(p, 0x0000ffff, 4);
    return FCIP_SF_BYTES;
}

static bool is_special(const struct fc_frame *f)
{
    const struct fcip_sf *sf = f->ils;
    return f->kind == FC_ILS && sf && sf->cmd == FCIP_SF_CMD;
}

bool fcip_wwn_parse(const char *text, uint8_t out[8])
{
    unsigned b[8];
    char end;
    if (sscanf(text, "%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7],
               &end) != 8)
        return false;
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)b[i];
    return true;
}

void fcip_wire_render(const void *rec, uint32_t off, uint8_t *out, uint32_t n)
{
    uint8_t buf[FCIP_ENCAP_BYTES + FC_HDR_BYTES + FC_PAYLOAD_MAX] = {0};
    uint32_t len = is_special(rec) ? special(rec, buf) : encapsulate(rec, buf);
    memcpy(out, buf + off, off + n <= len ? n : len > off ? len - off : 0);
}
