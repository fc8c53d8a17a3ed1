/* Gigabit Ethernet ports as records (ge_record.h). */
#include "ge_record.h"
#include "lab/lab.h"
#include <stdio.h>
#include <string.h>

enum { SLOT_MAX = 13, PORT_MAX = 8 }; /* the data plane's slot/port range */

void ge_port_record_get(struct ipnet *net, int sw, int slot, int port, struct ge_port_record *r)
{
    struct ipnet_port_stats st;
    ipnet_port_stats(net, sw, slot, port, &st);
    *r = (struct ge_port_record){
        .sw = sw, .slot = slot, .port = port,
        .link = ipnet_link_state(net, sw, slot, port),
        .rx_packets = st.in_pkts, .rx_bytes = st.in_bytes, .tx_packets = st.out_pkts, .tx_bytes = st.out_bytes,
        .rx_giant_packets = st.in_giants,
        .in_rate_bits_per_s = st.in_bps, .in_rate_packets_per_s = st.in_fps,
        .out_rate_bits_per_s = st.out_bps, .out_rate_packets_per_s = st.out_fps,
    };
}

static void each(struct lab *lab, struct ipnet *net, void *state, record_fn fn, void *ctx)
{
    (void)state;
    for (int sw = 0; sw < lab_switch_count(lab); sw++)
        for (int slot = 1; slot <= SLOT_MAX; slot++)
            for (int port = 1; port <= PORT_MAX; port++) {
                struct ge_port_record r;
                char key[96];
                ge_port_record_get(net, sw, slot, port, &r);
                if (r.link != IPNET_UP && !r.rx_packets && !r.tx_packets)
                    continue;
                snprintf(key, sizeof key, "%s.GigabitEthernet%d/%d", lab_switch_name(lab, sw), slot, port);
                fn(ctx, key, &r);
            }
}

#define F(member, kind) RECORD_FIELD(struct ge_port_record, member, kind)
static const struct record_field fields[] = {
    F(rx_bytes, RECORD_COUNTER),   F(tx_bytes, RECORD_COUNTER), F(rx_packets, RECORD_COUNTER),
    F(tx_packets, RECORD_COUNTER), {NULL, 0, 0},
};

const struct record_type ge_port_record_type = {"Gigabit Ethernet port", fields, each};
