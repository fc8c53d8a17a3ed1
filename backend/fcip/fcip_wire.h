/* How an FCIP frame looks in its TCP stream, for captures
 * (docs/capture.md): the RFC 3821 encapsulation of the FC frame a record
 * of the tunnel's stream carries. A tcp_render_fn. */
#ifndef MDSIM_FCIP_WIRE_H
#define MDSIM_FCIP_WIRE_H
#include <stdbool.h>
#include <stdint.h>

/* The FCIP Special Frame (RFC 3821 §6.6) a connection starts with when
 * its interface has `special-frame`: an fc_frame's ils, `cmd` first as
 * every ILS, the value no SW_ILS command has. */
#define FCIP_SF_CMD 0xff
#define FCIP_SF_BYTES 76u /* 19 words */
struct fcip_sf {
    uint8_t cmd; /* FCIP_SF_CMD */
    bool changed; /* the acceptor's echo altered it (pFlags Ch) */
    uint8_t src_wwn[8], dst_wwn[8]; /* the sender's switch, the switch it means */
    uint64_t entity;     /* the sender's FCIP entity: its profile and interface */
    uint64_t nonce;      /* tells this connection from others */
    uint8_t usage_flags; /* the classes the connection carries */
    uint16_t usage_code; /* the peer profile it means, 0 any [G] */
    uint32_t ka_tov_ms;  /* the sender's keepalive timeout */
};

/* hh:hh:hh:hh:hh:hh:hh:hh into 8 bytes; false when it is not one. */
bool fcip_wwn_parse(const char *text, uint8_t out[8]);

/* Bytes [off, off + n) of the encapsulated frame rec (a struct fc_frame
 * whose carrier_len is its size in the stream), or of the special frame
 * it carries. */
void fcip_wire_render(const void *rec, uint32_t off, uint8_t *out, uint32_t n);

#endif
