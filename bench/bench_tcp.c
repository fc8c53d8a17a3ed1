/* bench_tcp: one saturated simulated TCP connection (backend/tcp) over
 * two netsim pipes, 1 GbE with MTU 1500 and 10 Mb/s with 200 ms RTT:
 * simulated time per wall time, engine events per second, goodput; and
 * the heap a connected pair costs, idle and saturated. Prints figures,
 * never asserts (bench/README.md). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "netsim/pipe.h"
#include "tcp/tcp.h"

#define SEC ENGINE_NS_PER_SEC
#define MS ENGINE_NS_PER_MS
#define REC_LEN 2112u              /* one FCIP frame with a 2048-B FC payload */

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t heap_used(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

typedef struct end end;
struct end {
    tcp_conn *c;
    netsim_pipe *pipe;
    end *peer;
    uint32_t l2_extra;
    bool bulk;
    uint64_t rx_bytes;
};

static void fill(end *s)
{
    while (tcp_send(s->c, REC_LEN, NULL))
        ;
}

static void on_output(void *ctx, const struct tcp_seg *seg, uint32_t ip_len)
{
    end *s = ctx;
    struct tcp_seg *copy = malloc(sizeof *copy);
    *copy = *seg;
    netsim_pipe_send(s->pipe, (netsim_pkt){ ip_len + s->l2_extra, copy });
}

static void on_deliver(void *ctx, void *rec, uint32_t len)
{
    (void)rec;
    ((end *)ctx)->rx_bytes += len;
}

static void on_writable(void *ctx)
{
    end *s = ctx;
    if (s->bulk)
        fill(s);
}

static void on_state(void *ctx, enum tcp_state st, enum tcp_reason why)
{
    end *s = ctx;
    (void)why;
    if (st == TCP_ESTABLISHED && s->bulk)
        fill(s);
}

static void ip_deliver(void *ctx, netsim_pkt pkt)
{
    end *s = ctx;
    tcp_input(s->peer->c, pkt.user);
    free(pkt.user);
}

static void ip_drop(void *ctx, netsim_pkt pkt, netsim_drop_cause cause)
{
    (void)ctx;
    (void)cause;
    tcp_seg_drop(pkt.user);
    free(pkt.user);
}

typedef struct pair {
    end s[2];
} pair;

static void pair_init(pair *p, engine_t *e, const struct tcp_params *tp, uint64_t delay_ns,
                      uint64_t rate_bps, uint32_t l2_extra)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < 2; i++) {
        end *s = &p->s[i];
        s->peer = &p->s[1 - i];
        s->l2_extra = l2_extra;
        netsim_pipe_callbacks pcb = { ip_deliver, ip_drop, s };
        s->pipe = netsim_pipe_new(e, "bench", &pcb);
        netsim_pipe_config c;
        netsim_pipe_config_init(&c);
        c.delay_set = true;
        c.delay_ns = delay_ns;
        c.rate_set = true;
        c.rate_bps = rate_bps;
        netsim_pipe_configure(s->pipe, &c);
        struct tcp_callbacks cb = { on_output, on_deliver, on_writable, on_state, NULL, s };
        s->c = tcp_conn_new(e, "bench", tp, &cb);
    }
    tcp_listen(p->s[1].c);
    tcp_connect(p->s[0].c);
}

static void pair_free(pair *p)
{
    for (int i = 0; i < 2; i++) {
        tcp_conn_free(p->s[i].c);
        netsim_pipe_free(p->s[i].pipe);
    }
}

static void bench_saturated(const char *label, const struct tcp_params *tp, uint64_t delay_ns,
                            uint64_t rate_bps, uint32_t l2_extra, uint64_t sim_ns)
{
    engine_t *e = engine_new(1);
    pair p;
    size_t h0 = heap_used();
    pair_init(&p, e, tp, delay_ns, rate_bps, l2_extra);
    p.s[0].bulk = true;
    engine_run_until(e, 1 * SEC);             /* past slow start */
    size_t h1 = heap_used();
    uint64_t ev0 = engine_events_run(e), b0 = p.s[1].rx_bytes;
    double t0 = wall_s();
    engine_run_until(e, 1 * SEC + sim_ns);
    double dt = wall_s() - t0;
    uint64_t ev = engine_events_run(e) - ev0, b = p.s[1].rx_bytes - b0;
    struct tcp_stats st;
    tcp_stats_get(p.s[0].c, &st);
    printf("%-28s %6.1f s simulated in %6.3f s wall = %8.1fx real time, %6.2f M events/s, "
           "%5.2f events/segment, goodput %.3f MB/s, heap of 2 endpoints + 2 pipes %zu KiB\n",
           label, (double)sim_ns / SEC, dt, (double)sim_ns / SEC / dt, (double)ev / dt / 1e6,
           (double)ev / (double)(st.segs_sent ? st.segs_sent : 1),
           (double)b * SEC / (double)sim_ns / 1e6, (h1 - h0) / 1024);
    pair_free(&p);
    engine_free(e);
}

/* Heap per idle connected pair (both endpoints, their streams, no pipes). */
static void bench_idle_memory(void)
{
    enum { N = 1000 };
    engine_t *e = engine_new(1);
    struct tcp_params tp;
    tcp_params_default(&tp);
    static pair ps[N];
    for (int i = 0; i < N; i++)
        pair_init(&ps[i], e, &tp, 1 * MS, 1000000000ULL, 38);
    engine_run_until(e, 100 * MS);
    size_t with = heap_used();
    for (int i = 0; i < N; i++) {
        tcp_conn_free(ps[i].s[0].c);
        tcp_conn_free(ps[i].s[1].c);
        ps[i].s[0].c = ps[i].s[1].c = NULL;
    }
    size_t without = heap_used();
    printf("idle connected endpoint: %zu bytes of heap each (%d pairs)\n",
           (with - without) / (2 * N), N);
    for (int i = 0; i < N; i++) {
        netsim_pipe_free(ps[i].s[0].pipe);
        netsim_pipe_free(ps[i].s[1].pipe);
    }
    engine_free(e);
}

int main(void)
{
    struct tcp_params tp;
    tcp_params_default(&tp);
    bench_saturated("1 GbE, MTU 1500, 0 delay", &tp, 0, 1000000000ULL, 38, 5 * SEC);
    struct tcp_params slow = tp;
    slow.max_bw_bps = 10000000;
    slow.min_avail_bps = 10000000;
    slow.rtt_cfg_ns = 200 * MS;
    bench_saturated("10 Mb/s, 200 ms RTT", &slow, 100 * MS, 10000000ULL, 18, 600 * SEC);
    bench_idle_memory();
    return 0;
}
