/* tcp_stream: the record queue of one sending endpoint, shared by
 * reference with the peer's receiver and with every segment in flight
 * (see "Virtual byte stream" in tcp.h). Internal to backend/tcp. */
#ifndef MDSIM_TCP_STREAM_H
#define MDSIM_TCP_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "tcp/tcp.h" /* tcp_render_fn */

struct tcp_rec {
    uint64_t end;           /* stream offset just past the record's last byte */
    uint32_t len;
    void *rec;
};

struct tcp_stream {
    uint32_t refs;
    tcp_render_fn render;   /* how its records look on a wire (captures only) */
    struct tcp_rec *q;      /* ring, cap a power of two */
    uint32_t head, len, cap;
};

/* One reference, held by the caller. NULL on allocation failure. */
struct tcp_stream *tcp_stream_new(void);
void tcp_stream_ref(struct tcp_stream *s);
void tcp_stream_unref(struct tcp_stream *s);
bool tcp_stream_push(struct tcp_stream *s, uint64_t end, uint32_t len, void *rec);
/* The oldest record if its last byte is below `upto`, removed. */
bool tcp_stream_pop_upto(struct tcp_stream *s, uint64_t upto, struct tcp_rec *out);
/* The records under bytes [from, to) of the stream: calls fn for each
 * with the part of it inside (captures; the records not yet delivered
 * only). */
typedef void (*tcp_stream_each_fn)(void *ctx, const struct tcp_rec *r, uint64_t from, uint64_t to);
void tcp_stream_each(const struct tcp_stream *s, uint64_t from, uint64_t to, tcp_stream_each_fn fn, void *ctx);
/* The oldest record, removed; false when empty. */
bool tcp_stream_pop(struct tcp_stream *s, struct tcp_rec *out);

#endif
