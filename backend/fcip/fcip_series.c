/* The fcip feature's time series (docs/series.md): per tunnel end, the FC
 * frames and bytes it carried each way, and its data connection's TCP
 * window, smoothed RTT and retransmissions. Read from the live tunnels,
 * never reconciling (fcip_live would). */
#include "fcip_engine.h"
#include "tunnel.h"
#include "feature.h"
#include "lab/lab.h"
#include "series/series.h"

#define FCIP_IF_MAX 255

static void tunnel_series(struct series_sink *out, const char *sw, int id, struct fcip_tunnel *t)
{
    struct fcip_status st;
    fcip_tunnel_status(t, &st);
    series_put(out, SERIES_COUNTER, (int64_t)st.bytes_out, "%s.fcip%d.tx_bytes", sw, id);
    series_put(out, SERIES_COUNTER, (int64_t)st.bytes_in, "%s.fcip%d.rx_bytes", sw, id);
    series_put(out, SERIES_COUNTER, (int64_t)st.frames_out, "%s.fcip%d.tx_frames", sw, id);
    series_put(out, SERIES_COUNTER, (int64_t)st.frames_in, "%s.fcip%d.rx_frames", sw, id);
    /* the data connection carries the traffic; with one, the control one does */
    const struct fcip_conn_info *data = st.conn[1].present ? &st.conn[1] : &st.conn[0];
    series_put(out, SERIES_GAUGE, data->present ? (int64_t)data->tcp.cwnd : 0, "%s.fcip%d.cwnd_bytes", sw, id);
    series_put(out, SERIES_GAUGE, data->present ? (int64_t)(data->tcp.srtt_ns / ENGINE_NS_PER_US) : 0,
               "%s.fcip%d.srtt_us", sw, id);
    uint64_t retx = 0;
    for (int i = 0; i < 2; i++)
        retx += st.conn[i].present ? st.conn[i].tcp.retx_segs : 0;
    series_put(out, SERIES_COUNTER, (int64_t)retx, "%s.fcip%d.retx_segments", sw, id);
}

void fcip_series(struct lab *lab, struct ipnet *net, void *state, struct series_sink *out)
{
    (void)net;
    for (int sw = 0; state && sw < lab_switch_count(lab); sw++)
        for (int id = 1; id <= FCIP_IF_MAX; id++) {
            struct fcip_tunnel *t = fcip_tunnel_find(state, sw, id);
            if (t)
                tunnel_series(out, lab_switch_name(lab, sw), id, t);
        }
}
