/* tcp_ranges: a sorted set of disjoint byte ranges [start, end), used by
 * the sender's SACK scoreboard and the receiver's out-of-order queue.
 * Each range carries the stamp of its last insert, so the receiver can
 * report the most recently changed blocks first (RFC 2018). Internal to
 * backend/tcp. */
#ifndef MDSIM_TCP_RANGES_H
#define MDSIM_TCP_RANGES_H

#include <stdbool.h>
#include <stdint.h>

struct tcp_range {
    uint64_t start, end;
    uint64_t stamp;
};

struct tcp_ranges {
    struct tcp_range *r;
    uint32_t n, cap;
    uint64_t bytes;          /* total bytes covered */
};

/* Bound on ranges kept: an insert that would need more is refused. */
#define TCP_RANGES_MAX 65536u

void tcp_ranges_free(struct tcp_ranges *s);
void tcp_ranges_clear(struct tcp_ranges *s);
/* Add [start, end), merging with overlapping or adjacent ranges; the
 * merged range gets `stamp`. Returns the bytes newly covered, or -1 if
 * refused (allocation failure or TCP_RANGES_MAX). */
int64_t tcp_ranges_add(struct tcp_ranges *s, uint64_t start, uint64_t end, uint64_t stamp);
/* Forget everything below `seq` (trimming a range that straddles it). */
void tcp_ranges_cut_below(struct tcp_ranges *s, uint64_t seq);
/* Bytes covered at or above seq. */
uint64_t tcp_ranges_bytes_above(const struct tcp_ranges *s, uint64_t seq);
/* Index of the first range whose end is above seq; n if none. */
uint32_t tcp_ranges_find(const struct tcp_ranges *s, uint64_t seq);

#endif
