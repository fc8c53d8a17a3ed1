#include "tcp/tcp_ranges.h"

#include <stdlib.h>
#include <string.h>

void tcp_ranges_free(struct tcp_ranges *s)
{
    free(s->r);
    memset(s, 0, sizeof *s);
}

void tcp_ranges_clear(struct tcp_ranges *s)
{
    s->n = 0;
    s->bytes = 0;
}

/* Binary search: ranges are sorted and disjoint, so ends are increasing. */
uint32_t tcp_ranges_find(const struct tcp_ranges *s, uint64_t seq)
{
    uint32_t lo = 0, hi = s->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->r[mid].end <= seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool reserve(struct tcp_ranges *s)
{
    if (s->n < s->cap)
        return true;
    if (s->cap >= TCP_RANGES_MAX)
        return false;
    uint32_t ncap = s->cap ? s->cap * 2 : 16;
    struct tcp_range *nr = realloc(s->r, (size_t)ncap * sizeof *nr);
    if (!nr)
        return false;
    s->r = nr;
    s->cap = ncap;
    return true;
}

int64_t tcp_ranges_add(struct tcp_ranges *s, uint64_t start, uint64_t end, uint64_t stamp)
{
    if (start >= end)
        return 0;
    /* First range that touches or follows [start, end). */
    uint32_t i = tcp_ranges_find(s, start);
    if (i > 0 && s->r[i - 1].end == start)
        i--;
    uint32_t j = i;
    uint64_t ns = start, ne = end, covered = 0;
    while (j < s->n && s->r[j].start <= end) {
        if (s->r[j].start < ns)
            ns = s->r[j].start;
        if (s->r[j].end > ne)
            ne = s->r[j].end;
        covered += s->r[j].end - s->r[j].start;
        j++;
    }
    if (i == j) {
        if (!reserve(s))
            return -1;
        memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof s->r[0]);
        s->n++;
    } else if (j - i > 1) {
        memmove(&s->r[i + 1], &s->r[j], (s->n - j) * sizeof s->r[0]);
        s->n -= j - i - 1;
    }
    s->r[i] = (struct tcp_range){ ns, ne, stamp };
    uint64_t added = (ne - ns) - covered;
    s->bytes += added;
    return (int64_t)added;
}

void tcp_ranges_cut_below(struct tcp_ranges *s, uint64_t seq)
{
    if (s->n == 0)
        return;
    uint32_t i = tcp_ranges_find(s, seq);
    uint64_t gone = 0;
    for (uint32_t k = 0; k < i; k++)
        gone += s->r[k].end - s->r[k].start;
    if (i < s->n && s->r[i].start < seq) {
        gone += seq - s->r[i].start;
        s->r[i].start = seq;
    }
    memmove(&s->r[0], &s->r[i], (s->n - i) * sizeof s->r[0]);
    s->n -= i;
    s->bytes -= gone;
}

uint64_t tcp_ranges_bytes_above(const struct tcp_ranges *s, uint64_t seq)
{
    uint32_t i = tcp_ranges_find(s, seq);
    uint64_t b = 0;
    for (uint32_t k = i; k < s->n; k++)
        b += s->r[k].end - (s->r[k].start > seq ? s->r[k].start : seq);
    return b;
}
