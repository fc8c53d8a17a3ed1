#include "compress.h"
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <zlib.h>

enum { BLOCK = 2048, SAMPLE = 64 * 1024 };

/* Calibration (engine-model.md §4.4): input rate of each mode on typical
 * data; runs of highly compressible data go FAST_FACTOR times faster. */
static const uint64_t mode_rate_bps[3] = {200000000u, 60000000u, 26000000u};
static const int mode_level[3] = {1, 6, 9};
#define FAST_RATIO 8.0
#define FAST_FACTOR 3

static unsigned char zeros[SAMPLE];
static unsigned char noise[SAMPLE];
static struct fc_pattern zeros_p, noise_p;

/* Made once per process: labs in two threads (a replay --check's copy
 * beside its owner's lab) may ask at the same time. */
static pthread_once_t patterns_once = PTHREAD_ONCE_INIT;

static void patterns_make(void)
{
    fc_pattern_init(&zeros_p, "zeros", zeros, sizeof zeros);
    uint64_t x = 0x9E3779B97F4A7C15ull; /* fixed: the same bytes every run */
    for (size_t i = 0; i < sizeof noise; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise[i] = (unsigned char)(x >> 24);
    }
    fc_pattern_init(&noise_p, "random", noise, sizeof noise);
}

const struct fc_pattern *fc_pattern_zeros(void)
{
    pthread_once(&patterns_once, patterns_make);
    return &zeros_p;
}

const struct fc_pattern *fc_pattern_random(void)
{
    pthread_once(&patterns_once, patterns_make);
    return &noise_p;
}

void fc_pattern_init(struct fc_pattern *p, const char *name, const unsigned char *data, size_t len)
{
    memset(p, 0, sizeof *p);
    strncpy(p->name, name, sizeof p->name - 1);
    p->sample = data;
    p->len = len < SAMPLE ? len : SAMPLE;
}

enum fcip_compression fcip_comp_effective(enum fcip_compression mode, uint64_t max_bw_bps)
{
    if (mode != FCIP_COMP_AUTO)
        return mode;
    return max_bw_bps > 25000000u ? FCIP_COMP_MODE1 : max_bw_bps > 10000000u ? FCIP_COMP_MODE2 : FCIP_COMP_MODE3;
}

/* Each 2 KB block on its own, as each frame is compressed alone. */
static double measure(int level, const unsigned char *data, size_t len)
{
    size_t in = 0, out = 0;
    unsigned char buf[BLOCK + 512];
    for (size_t off = 0; off < len; off += BLOCK) {
        size_t n = len - off < BLOCK ? len - off : BLOCK;
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, level, Z_DEFLATED, -11, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            abort();
        z.next_in = (unsigned char *)(data + off);
        z.avail_in = (uInt)n;
        z.next_out = buf;
        z.avail_out = sizeof buf;
        deflate(&z, Z_FINISH);
        size_t got = sizeof buf - z.avail_out;
        deflateEnd(&z);
        in += n;
        out += got < n ? got : n; /* no gain: the block goes as it is */
    }
    return out ? (double)in / (double)out : 1.0;
}

double fcip_comp_ratio(enum fcip_compression mode, const struct fc_pattern *p)
{
    if (mode < FCIP_COMP_MODE1 || mode > FCIP_COMP_MODE3 || !p || !p->len)
        return 1.0;
    struct fc_pattern *w = (struct fc_pattern *)p; /* the cache is the pattern's own */
    int m = mode - FCIP_COMP_MODE1;
    if (w->ratio[m] == 0)
        w->ratio[m] = measure(mode_level[m], p->sample, p->len);
    return w->ratio[m];
}

uint64_t fcip_comp_rate_bps(enum fcip_compression mode, double ratio)
{
    if (mode < FCIP_COMP_MODE1 || mode > FCIP_COMP_MODE3)
        return 0;
    uint64_t r = mode_rate_bps[mode - FCIP_COMP_MODE1];
    return ratio >= FAST_RATIO ? r * FAST_FACTOR : r;
}
