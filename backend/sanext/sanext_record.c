/* The tuner's N ports as records (sanext_record.h). */
#include "sanext_record.h"
#include "sanext.h"
#include "tuner.h"
#include "fabric/fabric.h"
#include "lab/lab.h"
#include <stdio.h>
#include <string.h>

static uint64_t avg_us(const struct tuner_counters *c, int k)
{
    return c->rt_count[k] ? c->rt_sum_ns[k] / c->rt_count[k] / ENGINE_NS_PER_US : 0;
}

static void from_counters(const struct tuner_counters *c, struct tuner_nport_record *r)
{
    r->logged_in = c->found, r->fcid = c->fcid, r->ios_per_s = c->ios_per_sec;
    r->read_ios = c->reads, r->write_ios = c->writes;
    r->egress_bytes_per_s = c->egress_bytes_per_s, r->egress_max_bytes_per_s = c->egress_max_bytes_per_s;
    r->ingress_bytes_per_s = c->ingress_bytes_per_s, r->ingress_max_bytes_per_s = c->ingress_max_bytes_per_s;
    r->read_rt_avg_us = avg_us(c, 0), r->write_rt_avg_us = avg_us(c, 1);
    r->read_rt_min_us = c->rt_min_ns[0] / ENGINE_NS_PER_US, r->read_rt_max_us = c->rt_max_ns[0] / ENGINE_NS_PER_US;
    r->write_rt_min_us = c->rt_min_ns[1] / ENGINE_NS_PER_US, r->write_rt_max_us = c->rt_max_ns[1] / ENGINE_NS_PER_US;
    r->errors = c->errors, r->in_flight_ios = c->in_flight;
}

static void record_init(struct tuner_nport_record *r, int sw, const uint8_t pwwn[8], int vsan)
{
    memset(r, 0, sizeof *r);
    r->sw = sw, r->vsan = vsan;
    memcpy(r->pwwn, pwwn, sizeof r->pwwn);
}

void tuner_nport_record_get(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, struct tuner_nport_record *r)
{
    struct tuner_counters c;
    tuner_counters(sanext_tuner(lab), sw, pwwn, vsan, &c);
    record_init(r, sw, pwwn, vsan);
    from_counters(&c, r);
}

struct walk {
    struct lab *lab;
    record_fn fn;
    void *ctx;
};

static void one(void *ctx, const struct tuner_nport_conf *np, const struct tuner_counters *c)
{
    struct walk *w = ctx;
    struct tuner_nport_record r;
    char wwn[24], key[96];
    record_init(&r, np->sw, np->pwwn, np->vsan);
    from_counters(c, &r);
    fabric_wwn_text(np->pwwn, wwn);
    snprintf(key, sizeof key, "%s.tuner.%s", lab_switch_name(w->lab, np->sw), wwn);
    w->fn(w->ctx, key, &r);
}

static void each(struct lab *lab, struct ipnet *net, void *state, record_fn fn, void *ctx)
{
    (void)net;
    struct walk w = {lab, fn, ctx};
    if (state)
        tuner_nports_each(state, one, &w);
}

#define F(member, kind) RECORD_FIELD(struct tuner_nport_record, member, kind)
static const struct record_field fields[] = {
    F(read_ios, RECORD_COUNTER),           F(write_ios, RECORD_COUNTER),
    F(egress_bytes_per_s, RECORD_GAUGE),   F(ingress_bytes_per_s, RECORD_GAUGE),
    F(read_rt_avg_us, RECORD_GAUGE),       F(write_rt_avg_us, RECORD_GAUGE),
    F(errors, RECORD_COUNTER),             {NULL, 0, 0},
};

const struct record_type tuner_nport_record_type = {"tuner N port", fields, each};
