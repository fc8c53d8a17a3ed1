/* Netsim directions as records (netsim_record.h). */
#include "netsim_record.h"
#include "pipe.h"
#include "ipnet/ipnet.h"
#include "lab/lab.h"
#include <stdio.h>

enum { SLOT_MAX = 13, PORT_MAX = 8 }; /* the data plane's slot/port range */

static void from_pipe(const netsim_pipe *p, struct netsim_direction_record *r)
{
    netsim_pipe_stats st;
    netsim_pipe_stats_get(p, &st);
    r->arrived_packets = st.arrived_pkts, r->arrived_bytes = st.arrived_bytes;
    r->delivered_packets = st.delivered_pkts, r->delivered_bytes = st.delivered_bytes;
    r->drop_packets = st.dropped_tot, r->netsim_drop_packets = st.dropped_netsim;
    r->reordered_packets = st.reordered;
    r->queue_packets = st.qlen_pkts, r->max_queue_packets = st.max_qlen_pkts;
    r->queue_bytes = st.qlen_bytes, r->max_queue_bytes = st.max_qlen_bytes;
    r->mintxdel_poll_clocks = st.mintxdel_poll, r->mintxdel_ethtx_clocks = st.mintxdel_ethtx;
    r->idle_events = st.empty, r->txdel_packets = st.txdel, r->late_packets = st.late;
    r->avg_speed_kbits_per_s = st.avg_speed_kbps;
}

bool netsim_direction_record_get(struct ipnet *net, int sw, int slot, int port,
                                 struct netsim_direction_record *r)
{
    *r = (struct netsim_direction_record){.sw = sw, .slot = slot, .port = port};
    const netsim_pipe *p = ipnet_ingress_pipe(net, sw, slot, port);
    if (p)
        from_pipe(p, r);
    return p != NULL;
}

static void each(struct lab *lab, struct ipnet *net, void *state, record_fn fn, void *ctx)
{
    (void)state;
    for (int sw = 0; sw < lab_switch_count(lab); sw++)
        for (int slot = 1; slot <= SLOT_MAX; slot++)
            for (int port = 1; port <= PORT_MAX; port++) {
                struct netsim_direction_record r;
                char key[96];
                if (!netsim_direction_record_get(net, sw, slot, port, &r))
                    continue;
                snprintf(key, sizeof key, "%s.netsim.GigabitEthernet%d/%d", lab_switch_name(lab, sw), slot, port);
                fn(ctx, key, &r);
            }
}

#define F(member, kind) RECORD_FIELD(struct netsim_direction_record, member, kind)
static const struct record_field fields[] = {
    F(queue_bytes, RECORD_GAUGE), F(drop_packets, RECORD_COUNTER), F(delivered_bytes, RECORD_COUNTER),
    {NULL, 0, 0},
};

const struct record_type netsim_direction_record_type = {"netsim direction", fields, each};
