/*
 * A storage array of the DS3300 / MD3000i family on the engine
 * (docs/array.md): two controllers with a mirrored write cache, logical
 * drives of RAID 5 or RAID 10 on 7.2k rpm SATA disks, each disk a FIFO.
 * An I/O's latency comes from the model, not from a constant:
 *   read hit      controller + cache copy
 *   read miss     the disks' service (seek + half a rotation + transfer,
 *                 transfer only when the disk's head is where the I/O
 *                 starts), behind what each disk already queues
 *   write-back    controller + cache copy (+ the mirror to the partner
 *                 when mirroring is on); destaged to the disks behind it,
 *                 and held back when a disk's backlog passes the cache's
 *   write-through the RAID penalty's disk operations (RAID 5: read data
 *                 and parity, then write both; RAID 10: both copies)
 * Write-back with mirroring needs the partner controller: with one
 * controller, or its partner offline, writes go write-through, as the
 * MD3000i does. An engine object: no store, no session.
 */
#ifndef MDSIM_ARRAY_MODEL_H
#define MDSIM_ARRAY_MODEL_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"

#define ARRAY_LD_MAX 16
#define ARRAY_DISKS_MAX 45 /* 15 in the enclosure and two expansion shelves */
#define ARRAY_SECTOR 512u

/* The model's figures (docs/array.md gives their sources). */
#define ARRAY_SEEK_NS (8500 * ENGINE_NS_PER_US)      /* SATA 7.2k average seek */
#define ARRAY_ROTATION_NS (4167 * ENGINE_NS_PER_US)  /* half a turn at 7200 rpm */
#define ARRAY_DISK_MBPS 80u                          /* media transfer, MB/s */
#define ARRAY_CTRL_NS (50 * ENGINE_NS_PER_US)        /* a command's controller time [G] */
#define ARRAY_CACHE_MBPS 1000u                       /* host data into or out of cache [G] */
#define ARRAY_MIRROR_NS (100 * ENGINE_NS_PER_US)     /* a mirror message to the partner [G] */
#define ARRAY_MIRROR_MBPS 500u                       /* its data [G] */
#define ARRAY_SEGMENT 131072u                        /* segment (stripe unit) size, the default */
#define ARRAY_CACHE_CHUNK 65536u                     /* a cache block */
#define ARRAY_CACHE_CHUNKS 4096u                     /* 256 MB of each controller's 512 MB */
#define ARRAY_DIRTY_NS ENGINE_NS_PER_SEC             /* a disk's destage backlog write-back allows */
#define ARRAY_PASS_OVER (1u << 20) /* a head this far behind the I/O passes over the gap instead of seeking */

enum array_raid { ARRAY_RAID5 = 5, ARRAY_RAID10 = 10 };

struct array_ld_conf {
    char name[32];
    int raid;           /* enum array_raid */
    int disks;          /* RAID 5: 3 or more, RAID 10: even */
    uint32_t capacity_gb;
    bool write_cache;   /* writeCacheEnabled */
    bool mirror_cache;  /* mirrorCacheEnabled */
    bool read_cache;    /* readCacheEnabled */
    int owner;          /* preferred controller: 0 a, 1 b */
};

struct array_conf {
    int controllers; /* 1 or 2 */
    bool online[2];
    int nld;
    struct array_ld_conf ld[ARRAY_LD_MAX];
};

struct array;

struct array *array_new(engine_t *e);
void array_free(struct array *a);
/* The configuration in force; drives keep their counters, caches and
 * queues while their disk count and RAID level stay. */
void array_configure(struct array *a, const struct array_conf *c);

/* An I/O to logical drive ld at byte offset off; done runs at its
 * completion with the latency. False when it cannot run (no such drive,
 * no controller online, past the drive's end). */
typedef void (*array_done_fn)(void *ctx, uint64_t latency_ns);
bool array_io(struct array *a, int ld, bool write, uint64_t off, uint32_t bytes, array_done_fn done, void *ctx);

/* Forget the I/Os under way whose done would get ctx (their requester
 * went): done is never called for them. */
void array_cancel(struct array *a, void *ctx);

/* What write mode a drive's writes take now. */
enum array_write_mode { ARRAY_WRITE_BACK_MIRRORED, ARRAY_WRITE_BACK, ARRAY_WRITE_THROUGH };
enum array_write_mode array_write_mode(const struct array *a, int ld);
/* The controller serving ld now (its owner, or the partner when the
 * owner is offline); -1 when none is online. */
int array_ld_controller(const struct array *a, int ld);

/* Counters since the drive was configured: I/Os completed, reads, reads
 * served from cache, bytes, and disk operations issued. */
struct array_stats {
    uint64_t ios, reads, read_hits, bytes, disk_ops;
};
void array_ld_stats(const struct array *a, int ld, struct array_stats *out);
void array_ctrl_stats(const struct array *a, int ctrl, struct array_stats *out);

/* The array's FC port as a target N port (array_fc.c): logged in to the
 * fabric on switch sw in vsan, it serves FCP reads and writes on LUN 0,
 * the first logical drive, through the model. Each initiator's I/Os run
 * sequentially from offset 0 (the tuner's have no LBA), reads and writes
 * each from their own cursor, so a read after writes finds them in cache. */
struct fabric;
void array_fc_attach(struct array *a, struct fabric *fab, int sw, int vsan, const uint8_t pwwn[8],
                     const uint8_t nwwn[8], const char *ifname);
void array_fc_detach(struct array *a);
/* Its FCID, 0 when not logged in. */
uint32_t array_fc_fcid(const struct array *a);

#endif
