/*
 * FCIP tape acceleration at one end of an FCIP link (docs/tape-acceleration.md,
 * engine-model §4.5). Both ends of a link play both parts: the host end
 * for the tape sessions whose initiator is on its switch, the target end
 * for those whose tape drive is.
 *
 * Writes: the host end proxies the XFER_RDY (as write acceleration does)
 * and, once it holds all the data, the good status, while the writes it
 * has not heard the real status of fit its flow-control buffer; past that
 * it holds the next write command (the host waits for its XFER_RDY) until
 * a status frees room. The real status is kept from the host.
 * Reads: a read that misses the host end's cache crosses marked
 * FC_TA_READ_START; the target end passes it on and reads ahead on its own
 * as many blocks of that size as the buffer holds. Their data and status
 * cross marked FC_TA_AHEAD into the host end's cache, which answers the
 * host's next reads locally; each read so answered crosses as a
 * FC_TA_READ_MORE that makes the target end read one block more.
 *
 * An engine object: no lab, no session.
 */
#ifndef MDSIM_FCIP_TAPE_H
#define MDSIM_FCIP_TAPE_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "fabric/fabric.h"

#define FCIP_TAPE_BUF_MIN_KB 64u
#define FCIP_TAPE_BUF_MAX_KB 32768u
#define FCIP_TAPE_SESSIONS_MAX 256 /* per link end and part: a bound on what hosts can make it hold */
#define FCIP_TAPE_AHEAD_MAX 64     /* read-ahead blocks per session */
#define FCIP_TAPE_ABANDON_NS (10ULL * ENGINE_NS_PER_SEC) /* R_A_TOV: a write whose data stopped */

struct fcip_tape;

/* `show interface fcipN counters`' Tape Accelerator statistics. */
struct fcip_tape_stats {
    uint64_t host_sessions, target_sessions;
    uint64_t writes, good_status, bad_status, proxy_status, not_proxied;
    uint64_t write_buf_writes, write_buf_bytes; /* proxied writes whose status has not come back */
    uint64_t reads, read_status, cached_reads;
    uint64_t read_buf_reads, read_buf_bytes;   /* read-ahead blocks held for the host */
    uint64_t ahead_reads;                       /* reads the target end issued on its own */
};

/* One tape session as `show fcip tape-session` lists it. */
struct fcip_tape_session {
    bool host_end;
    uint32_t initiator, target;
    uint16_t vsan;
    uint32_t outstanding_writes, outstanding_exchanges;
    uint64_t read_buf_bytes; /* read-ahead data held for the host */
    int max_read_blocks;     /* blocks the read-ahead keeps ahead */
};

/* How the accelerator reaches its link: frames for the local fabric go
 * through fabric_send on `sw`, a held command crosses through `cross` (the
 * link's send, which calls fcip_tape_outbound again); `buf_bytes` is asked
 * at each decision (the configured buffer, or the automatic one from the
 * link's window). */
struct fcip_tape_link {
    engine_t *e;
    struct fabric *fab;
    int sw;
    uint64_t (*buf_bytes)(void *ctx);
    void (*cross)(void *ctx, struct fc_frame *f);
    void *ctx;
};

struct fcip_tape *fcip_tape_new(const struct fcip_tape_link *link);
void fcip_tape_free(struct fcip_tape *tp);
/* The link went down: every session and buffered frame goes (the hosts'
 * own timers fail their I/Os, as a tunnel flap does without acceleration). */
void fcip_tape_reset(struct fcip_tape *tp);

/* A frame from the local fabric about to cross: it may be marked, or
 * held until the buffer has room (true: the accelerator keeps it, and
 * sends it through the link's `cross` later or frees it). */
bool fcip_tape_outbound(struct fcip_tape *tp, struct fc_frame *f);
/* A frame that crossed, before it enters the local fabric: marks are
 * cleared; true when the accelerator took it (cached, or passed on
 * itself). */
bool fcip_tape_inbound(struct fcip_tape *tp, struct fc_frame *f);

void fcip_tape_stats(const struct fcip_tape *tp, struct fcip_tape_stats *out);
void fcip_tape_clear_stats(struct fcip_tape *tp);
/* Calls fn for each session of one part (host end or target end). */
void fcip_tape_sessions(const struct fcip_tape *tp, bool host_end,
                        void (*fn)(void *ctx, const struct fcip_tape_session *s), void *ctx);

#endif
