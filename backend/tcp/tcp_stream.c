#include "tcp/tcp_stream.h"

#include <stdlib.h>

struct tcp_stream *tcp_stream_new(void)
{
    struct tcp_stream *s = calloc(1, sizeof *s);
    if (s)
        s->refs = 1;
    return s;
}

void tcp_stream_ref(struct tcp_stream *s)
{
    s->refs++;
}

/* Records still queued when the last reference goes were already handed
 * back by the sender's tcp_conn_free (it empties its stream), so only the
 * memory is left. */
void tcp_stream_unref(struct tcp_stream *s)
{
    if (!s || --s->refs)
        return;
    free(s->q);
    free(s);
}

bool tcp_stream_push(struct tcp_stream *s, uint64_t end, uint32_t len, void *rec)
{
    if (s->len == s->cap) {
        uint32_t ncap = s->cap ? s->cap * 2 : 64;
        if (ncap <= s->cap)
            return false;
        struct tcp_rec *nq = malloc((size_t)ncap * sizeof *nq);
        if (!nq)
            return false;
        for (uint32_t i = 0; i < s->len; i++)
            nq[i] = s->q[(s->head + i) & (s->cap - 1)];
        free(s->q);
        s->q = nq;
        s->head = 0;
        s->cap = ncap;
    }
    s->q[(s->head + s->len) & (s->cap - 1)] = (struct tcp_rec){ end, len, rec };
    s->len++;
    return true;
}

bool tcp_stream_pop(struct tcp_stream *s, struct tcp_rec *out)
{
    if (s->len == 0)
        return false;
    *out = s->q[s->head];
    s->head = (s->head + 1) & (s->cap - 1);
    s->len--;
    return true;
}

bool tcp_stream_pop_upto(struct tcp_stream *s, uint64_t upto, struct tcp_rec *out)
{
    if (s->len == 0 || s->q[s->head].end > upto)
        return false;
    return tcp_stream_pop(s, out);
}

void tcp_stream_each(const struct tcp_stream *s, uint64_t from, uint64_t to, tcp_stream_each_fn fn, void *ctx)
{
    uint32_t lo = 0, hi = s->len; /* the first record ending after `from` (ends ascend) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->q[(s->head + mid) & (s->cap - 1)].end <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i < s->len; i++) {
        const struct tcp_rec *r = &s->q[(s->head + i) & (s->cap - 1)];
        uint64_t start = r->end - r->len;
        if (start >= to)
            break;
        fn(ctx, r, start > from ? start : from, r->end < to ? r->end : to);
    }
}
