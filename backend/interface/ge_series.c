/* The Gigabit Ethernet ports' time series (docs/series.md): bytes and
 * packets each way, from the data plane's port counters (bytes, whereas
 * its in_bps rates are bits). A port is listed once it is up or has
 * carried something, so ports nobody uses do not fill the export. */
#include "ge.h"
#include "feature.h"
#include "ipnet/ipnet.h"
#include "lab/lab.h"
#include "series/series.h"

enum { SLOT_MAX = 13, PORT_MAX = 8 };

void ge_series(struct lab *lab, struct ipnet *net, void *state, struct series_sink *out)
{
    (void)state;
    for (int sw = 0; sw < lab_switch_count(lab); sw++)
        for (int slot = 1; slot <= SLOT_MAX; slot++)
            for (int port = 1; port <= PORT_MAX; port++) {
                struct ipnet_port_stats st;
                ipnet_port_stats(net, sw, slot, port, &st);
                if (ipnet_link_state(net, sw, slot, port) != IPNET_UP && !st.in_pkts && !st.out_pkts)
                    continue;
                const char *name = lab_switch_name(lab, sw);
                series_put(out, SERIES_COUNTER, (int64_t)st.in_bytes, "%s.GigabitEthernet%d/%d.rx_bytes", name,
                           slot, port);
                series_put(out, SERIES_COUNTER, (int64_t)st.out_bytes, "%s.GigabitEthernet%d/%d.tx_bytes", name,
                           slot, port);
                series_put(out, SERIES_COUNTER, (int64_t)st.in_pkts, "%s.GigabitEthernet%d/%d.rx_packets", name,
                           slot, port);
                series_put(out, SERIES_COUNTER, (int64_t)st.out_pkts, "%s.GigabitEthernet%d/%d.tx_packets", name,
                           slot, port);
            }
}
