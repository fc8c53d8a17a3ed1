/* The SAN Extension Tuner's time series (docs/series.md): per N port, the
 * I/Os it completed (both roles) and their average response times since
 * clear, as `show san-ext-tuner ... counters` defines them
 * (docs/tuner-counters.md), and the FC payload bytes of the last complete
 * second each way. Those are bytes: the tuner's egress_bps field counts
 * bytes per second, not bits. */
#include "sanext.h"
#include "tuner.h"
#include "feature.h"
#include "lab/lab.h"
#include "series/series.h"
#include <stdio.h>

struct walk {
    struct lab *lab;
    struct series_sink *out;
};

static int64_t avg_us(uint64_t sum_ns, uint64_t count)
{
    return count ? (int64_t)(sum_ns / count / ENGINE_NS_PER_US) : 0;
}

static void nport_series(void *ctx, const struct tuner_nport_conf *np, const struct tuner_counters *c)
{
    struct walk *w = ctx;
    char wwn[24], name[64];
    fabric_wwn_text(np->pwwn, wwn);
    snprintf(name, sizeof name, "%s.tuner.%s", lab_switch_name(w->lab, np->sw), wwn);
    series_put(w->out, SERIES_COUNTER, (int64_t)c->reads, "%s.read_ios", name);
    series_put(w->out, SERIES_COUNTER, (int64_t)c->writes, "%s.write_ios", name);
    series_put(w->out, SERIES_GAUGE, (int64_t)c->egress_bps, "%s.egress_bytes_per_s", name);
    series_put(w->out, SERIES_GAUGE, (int64_t)c->ingress_bps, "%s.ingress_bytes_per_s", name);
    series_put(w->out, SERIES_GAUGE, avg_us(c->rt_sum_ns[0], c->rt_count[0]), "%s.read_rt_avg_us", name);
    series_put(w->out, SERIES_GAUGE, avg_us(c->rt_sum_ns[1], c->rt_count[1]), "%s.write_rt_avg_us", name);
    series_put(w->out, SERIES_COUNTER, (int64_t)c->errors, "%s.errors", name);
}

void sanext_series(struct lab *lab, struct ipnet *net, void *state, struct series_sink *out)
{
    (void)net;
    struct walk w = {lab, out};
    if (state)
        tuner_nports_each(state, nport_series, &w);
}
