/* How an FCIP frame looks in its TCP stream, for captures
 * (docs/capture.md): the RFC 3821 encapsulation of the FC frame a record
 * of the tunnel's stream carries. A tcp_render_fn. */
#ifndef MDSIM_FCIP_WIRE_H
#define MDSIM_FCIP_WIRE_H
#include <stdint.h>

/* Bytes [off, off + n) of the encapsulated frame rec (a struct fc_frame
 * whose carrier_len is its size in the stream). */
void fcip_wire_render(const void *rec, uint32_t off, uint8_t *out, uint32_t n);

#endif
