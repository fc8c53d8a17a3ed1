#include "capture.h"
#include "host/hostnet.h"
#include "ipnet/ipnet.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { SLOTS = 14, PORTS = 9 };  /* as ipnet's ports: slots 1..13, ports 1..8 */
enum { ETH_HDR = 14, MSG_MAX = 65536, SNAPLEN = 262144 };
enum { TTL = 64 };

struct capture {
    struct ipnet *net;
    FILE *out;
    enum capture_format fmt;
    struct capture_switches sw;
    bool flush_each; /* a pipe or a terminal follows the capture */
    bool failed;
    bool *want;              /* per port: captured (capture_add_port); NULL: every port */
    unsigned long frames, max_frames;
    unsigned long dropped, behind; /* refused by room: in all, and since the last packet written */
    bool (*room)(void *ctx, size_t n);
    void *room_ctx;
    size_t bytes, max_bytes; /* written so far, and the bound */
    bool done;               /* a limit was reached */
    int *ifid;       /* per port: its pcapng interface, -1 none yet */
    int nif;
    uint8_t msg[MSG_MAX];                 /* the datagram's protocol message */
    uint8_t frame[ETH_HDR + MSG_MAX + 20]; /* the frame being written */
};

/* ---- bytes ---- */

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v & 0xffff);
}

/* RFC 1071, over several pieces. */
static uint32_t sum16(uint32_t acc, const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i + 1 < n; i += 2)
        acc += (uint32_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        acc += (uint32_t)p[n - 1] << 8;
    return acc;
}

static uint16_t fold(uint32_t acc)
{
    while (acc >> 16)
        acc = (acc & 0xffff) + (acc >> 16);
    return (uint16_t)~acc;
}

/* Where each protocol keeps its checksum, and whether it covers the
 * IP pseudo header. */
static const struct {
    uint8_t proto;
    uint8_t at;
    bool pseudo;
} csums[] = {{IPNET_ICMP, 2, false}, {IPNET_TCP, 16, true}};

static void l4_checksum(const struct ipnet_pkt *pkt, uint8_t *m, uint32_t n)
{
    for (size_t i = 0; i < sizeof csums / sizeof csums[0]; i++) {
        if (csums[i].proto != pkt->proto || n < csums[i].at + 2u)
            continue;
        uint32_t acc = 0;
        if (csums[i].pseudo) {
            uint8_t ph[12];
            put32(ph, pkt->src);
            put32(ph + 4, pkt->dst);
            put16(ph + 8, pkt->proto);
            put16(ph + 10, n);
            acc = sum16(0, ph, sizeof ph);
        }
        put16(m + csums[i].at, fold(sum16(acc, m, n)));
    }
}

/* The IP identification: the same for every copy of a datagram along its
 * path and for its fragments, and the same in every run (taken from its
 * protocol header, never from memory addresses). */
static uint16_t ip_id(const uint8_t *m, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n && i < 48; i++)
        h = (h ^ m[i]) * 16777619u;
    return (uint16_t)(h ^ h >> 16);
}

static void mac(const struct capture *c, const int who[3], uint8_t *out)
{
    int id = who[0] >= 0 && who[0] < c->sw.n ? c->sw.ids[who[0]] : 0;
    const uint8_t m[6] = {0x00, 0x05, 0x30, (uint8_t)id, (uint8_t)who[1], (uint8_t)who[2]};
    memcpy(out, m, sizeof m);
    if (who[0] >= c->sw.n) /* a lab host's NIC (docs/hosts.md) */
        hostnet_mac(who[0] - c->sw.n, who[2] - 1, out);
}

/* The Ethernet frame of f into c->frame; returns its length. */
static uint32_t build(struct capture *c, const struct ipnet_tap_frame *f)
{
    const struct ipnet_pkt *pkt = f->pkt;
    uint32_t n = ipnet_render(c->net, pkt, c->msg, sizeof c->msg);
    l4_checksum(pkt, c->msg, n);
    bool frag = f->frag_off || f->more_frags;
    uint32_t data = frag ? f->ip_len - IPNET_HEADER : n;
    if (f->frag_off + data > n) /* the protocol said less than was counted */
        data = f->frag_off < n ? n - f->frag_off : 0;
    uint8_t *e = c->frame, *ip = e + ETH_HDR;
    mac(c, f->dst, e);
    mac(c, f->src, e + 6);
    put16(e + 12, 0x0800);
    memset(ip, 0, IPNET_HEADER);
    ip[0] = 0x45;
    put16(ip + 2, IPNET_HEADER + data);
    put16(ip + 4, ip_id(c->msg, n));
    put16(ip + 6, (pkt->df ? 0x4000u : 0) | (f->more_frags ? 0x2000u : 0) | f->frag_off / 8);
    ip[8] = TTL;
    ip[9] = pkt->proto;
    put32(ip + 12, pkt->src);
    put32(ip + 16, pkt->dst);
    put16(ip + 10, fold(sum16(0, ip, IPNET_HEADER)));
    memcpy(ip + IPNET_HEADER, c->msg + f->frag_off, data);
    return ETH_HDR + IPNET_HEADER + data;
}

/* ---- files ---- */

static void out(struct capture *c, const void *p, size_t n)
{
    if (fwrite(p, 1, n, c->out) != n)
        c->failed = true;
    c->bytes += n;
}

static void out32(struct capture *c, uint32_t v) { out(c, &v, 4); } /* host order: the magic says which */

static void out16(struct capture *c, uint16_t v) { out(c, &v, 2); }

/* A pcapng option: code, length, value padded to 4 bytes. */
static size_t opt_len(size_t n) { return 4 + (n + 3) / 4 * 4; }

static void opt(struct capture *c, uint16_t code, const void *v, size_t n)
{
    static const uint8_t zeros[4];
    out16(c, code);
    out16(c, (uint16_t)n);
    out(c, v, n);
    out(c, zeros, (4 - n % 4) % 4);
}

static void header(struct capture *c)
{
    if (c->fmt == CAPTURE_PCAP) {
        const uint32_t h[] = {0xa1b23c4d, 0x00040002, 0, 0, SNAPLEN, 1}; /* nanoseconds, 2.4, Ethernet */
        out(c, h, sizeof h);
        return;
    }
    static const char app[] = "mdsim";
    uint32_t len = 28 + (uint32_t)opt_len(sizeof app - 1) + 4;
    const uint32_t shb[] = {0x0A0D0D0A, len, 0x1A2B3C4D, 0x00000001, 0xffffffff, 0xffffffff};
    out(c, shb, sizeof shb);
    opt(c, 4, app, sizeof app - 1); /* shb_userappl */
    out32(c, 0);
    out32(c, len);
}

/* The port's pcapng interface, described the first time it carries a frame. */
static int interface(struct capture *c, const struct ipnet_tap_frame *f)
{
    int *id = &c->ifid[(f->sw * SLOTS + f->slot) * PORTS + f->port];
    if (*id >= 0)
        return *id;
    char name[96];
    const char *sw = f->sw < c->sw.n ? c->sw.names[f->sw] : "switch";
    snprintf(name, sizeof name, "%s GigabitEthernet%d/%d", sw, f->slot, f->port);
    const int me[3] = {f->sw, f->slot, f->port};
    uint8_t m[6];
    mac(c, me, m);
    const uint8_t tsresol = 9;
    uint32_t len = 20 + (uint32_t)(opt_len(strlen(name)) + opt_len(1) + opt_len(6)) + 4;
    const uint32_t idb[] = {1, len, 1 /* Ethernet, reserved 0 */, SNAPLEN};
    out(c, idb, sizeof idb);
    opt(c, 2, name, strlen(name)); /* if_name */
    opt(c, 9, &tsresol, 1);        /* if_tsresol: nanoseconds */
    opt(c, 6, m, 6);               /* if_MACaddr */
    out32(c, 0);
    out32(c, len);
    return *id = c->nif++;
}

static void packet(struct capture *c, const struct ipnet_tap_frame *f, uint32_t n)
{
    static const uint8_t zeros[4];
    uint64_t ns = CAPTURE_EPOCH_S * 1000000000ULL + engine_now(ipnet_engine(c->net));
    if (c->fmt == CAPTURE_PCAP) {
        const uint32_t rec[] = {(uint32_t)(ns / 1000000000u), (uint32_t)(ns % 1000000000u), n, n};
        out(c, rec, sizeof rec);
        out(c, c->frame, n);
        return;
    }
    int id = interface(c, f);
    uint32_t pad = (4 - n % 4) % 4, dir = f->rx ? 1 : 2; /* epb_flags: inbound, outbound */
    size_t note = f->note ? strlen(f->note) : 0;
    char lost[96];
    size_t nlost = c->behind ? (size_t)snprintf(lost, sizeof lost,
                                                "mdsim: %lu frames not captured before this one: the reader fell behind",
                                                c->behind) : 0;
    uint32_t len = 32 + n + pad + (uint32_t)(opt_len(4) + (note ? opt_len(note) : 0) + (nlost ? opt_len(nlost) : 0)) + 4;
    const uint32_t epb[] = {6, len, (uint32_t)id, (uint32_t)(ns >> 32), (uint32_t)ns, n, n};
    out(c, epb, sizeof epb);
    out(c, c->frame, n);
    out(c, zeros, pad);
    opt(c, 2, &dir, 4);
    if (note)
        opt(c, 1, f->note, note); /* opt_comment */
    if (nlost)
        opt(c, 1, lost, nlost);
    out32(c, 0);
    out32(c, len);
}

static void on_frame(void *ctx, const struct ipnet_tap_frame *f)
{
    struct capture *c = ctx;
    if (f->sw < 0 || f->sw >= c->sw.n || f->slot < 1 || f->slot >= SLOTS || f->port < 1 || f->port >= PORTS)
        return;
    if (c->want && !c->want[(f->sw * SLOTS + f->slot) * PORTS + f->port])
        return;
    if (c->done)
        return;
    uint32_t n = build(c, f);
    /* the packet block, its options and a first interface block fit in 512 */
    size_t most = n + 512 + (f->note ? strlen(f->note) : 0);
    if (c->bytes >= c->max_bytes || most > c->max_bytes - c->bytes) {
        c->done = true;
        return;
    }
    if (c->room && !c->room(c->room_ctx, most)) { /* whole packets only: the file stays readable */
        c->dropped++;
        c->behind++;
        return;
    }
    packet(c, f, n);
    if (c->fmt == CAPTURE_PCAPNG) /* said in the packet's comment */
        c->behind = 0;
    c->done = ++c->frames >= c->max_frames;
    if (c->flush_each && fflush(c->out) != 0)
        c->failed = true;
}

static bool followed(FILE *f)
{
    struct stat st;
    return fstat(fileno(f), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode));
}

struct capture *capture_start(struct ipnet *net, FILE *out, enum capture_format fmt,
                              const struct capture_switches *sw)
{
    struct capture *c = malloc(sizeof *c);
    int nports = sw->n * SLOTS * PORTS;
    if (!c)
        return NULL;
    *c = (struct capture){.net = net, .out = out, .fmt = fmt, .sw = *sw, .flush_each = followed(out),
                          .max_frames = (unsigned long)-1, .max_bytes = (size_t)-1};
    c->ifid = malloc(sizeof *c->ifid * (size_t)(nports ? nports : 1));
    if (!c->ifid) {
        free(c);
        return NULL;
    }
    for (int i = 0; i < nports; i++)
        c->ifid[i] = -1;
    header(c);
    if (c->flush_each)
        fflush(out);
    ipnet_set_tap(net, on_frame, c);
    return c;
}

bool capture_add_port(struct capture *c, int sw, int slot, int port)
{
    if (sw < 0 || sw >= c->sw.n || slot < 1 || slot >= SLOTS || port < 1 || port >= PORTS)
        return false;
    if (!c->want && !(c->want = calloc((size_t)c->sw.n * SLOTS * PORTS, sizeof *c->want)))
        return false;
    c->want[(sw * SLOTS + slot) * PORTS + port] = true;
    return true;
}

void capture_only_port(struct capture *c, int sw, int slot, int port)
{
    if (!capture_add_port(c, sw, slot, port))
        abort(); /* out of memory, or a port ipnet has not */
}

void capture_set_room(struct capture *c, bool (*room)(void *ctx, size_t n), void *ctx)
{
    c->room = room;
    c->room_ctx = ctx;
}

void capture_flush_each(struct capture *c) { c->flush_each = true; }

unsigned long capture_dropped(const struct capture *c) { return c->dropped; }

void capture_limit(struct capture *c, unsigned long frames, size_t bytes)
{
    c->max_frames = frames;
    c->max_bytes = bytes;
}

unsigned long capture_frames(const struct capture *c) { return c->frames; }
bool capture_done(const struct capture *c) { return c->done; }

bool capture_stop(struct capture *c)
{
    if (!c)
        return true;
    ipnet_set_tap(c->net, NULL, NULL);
    bool ok = !c->failed && fflush(c->out) == 0;
    free(c->ifid);
    free(c->want);
    free(c);
    return ok;
}
