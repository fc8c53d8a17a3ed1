/* The IP Network Simulator's time series (docs/series.md): per bridged
 * direction (the port traffic enters by), its queue and what it drops and
 * delivers, read from the data plane's pipes as they are. */
#include "netsim.h"
#include "feature.h"
#include "ipnet/ipnet.h"
#include "lab/lab.h"
#include "series/series.h"

enum { SLOT_MAX = 13, PORT_MAX = 8 }; /* Gigabit Ethernet slot/port range of the data plane */

static void pipe_series(struct series_sink *out, const char *sw, int slot, int port, const netsim_pipe *p)
{
    netsim_pipe_stats st;
    netsim_pipe_stats_get(p, &st);
    const char *fmt_q = "%s.netsim.GigabitEthernet%d/%d.queue_bytes";
    series_put(out, SERIES_GAUGE, (int64_t)st.qlen_bytes, fmt_q, sw, slot, port);
    series_put(out, SERIES_COUNTER, (int64_t)st.dropped_tot, "%s.netsim.GigabitEthernet%d/%d.drop_packets", sw,
               slot, port);
    series_put(out, SERIES_COUNTER, (int64_t)st.delivered_bytes, "%s.netsim.GigabitEthernet%d/%d.delivered_bytes",
               sw, slot, port);
}

void netsim_series(struct lab *lab, struct ipnet *net, void *state, struct series_sink *out)
{
    (void)state;
    for (int sw = 0; sw < lab_switch_count(lab); sw++)
        for (int slot = 1; slot <= SLOT_MAX; slot++)
            for (int port = 1; port <= PORT_MAX; port++) {
                netsim_pipe *p = ipnet_ingress_pipe(net, sw, slot, port);
                if (p)
                    pipe_series(out, lab_switch_name(lab, sw), slot, port, p);
            }
}
