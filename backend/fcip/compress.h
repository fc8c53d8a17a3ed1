/*
 * FCIP compression as a service stage (engine-model.md §4.4): each mode
 * has an engine speed and, for a given data pattern, a ratio. The ratio
 * is measured, not assumed: a sample of the pattern is compressed once per
 * mode with zlib (2 KB window, as the LZS-family engines of the IPS
 * modules, in 2 KB blocks: one FC frame's payload) and cached. The wire
 * and netsim then see the compressed bytes; FC counters the original ones.
 */
#ifndef MDSIM_FCIP_COMPRESS_H
#define MDSIM_FCIP_COMPRESS_H
#include <stddef.h>
#include <stdint.h>
#include "tunnel.h"

/* What the payload bytes of data frames look like. */
struct fc_pattern {
    char name[64];
    const unsigned char *sample;
    size_t len;
    double ratio[3]; /* mode1..mode3; 0 until measured */
};

/* The tuner's default all-zero pattern, and incompressible data. */
const struct fc_pattern *fc_pattern_zeros(void);
const struct fc_pattern *fc_pattern_random(void);
/* A pattern from bytes (a data-pattern file): the caller keeps data alive. */
void fc_pattern_init(struct fc_pattern *p, const char *name, const unsigned char *data, size_t len);

/* The mode `auto` runs at: mode1 above 25 Mb/s of profile bandwidth,
 * mode2 above 10 Mb/s, mode3 below (the design guide's link ceilings). */
enum fcip_compression fcip_comp_effective(enum fcip_compression mode, uint64_t max_bw_bps);
/* Input bytes over output bytes (>= 1: no gain is sent uncompressed). */
double fcip_comp_ratio(enum fcip_compression mode, const struct fc_pattern *p);
/* The compressor's input rate in bit/s for data of that ratio. */
uint64_t fcip_comp_rate_bps(enum fcip_compression mode, double ratio);

#endif
