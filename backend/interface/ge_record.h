/*
 * A Gigabit Ethernet port in the read model (record/record.h): what `show
 * interface gigabitethernet`, `show ips stats mac`, the series and the
 * page read. Packets are MAC frames.
 */
#ifndef MDSIM_GE_RECORD_H
#define MDSIM_GE_RECORD_H
#include "ipnet/ipnet.h"
#include "record/record.h"
#include <stdint.h>

struct ge_port_record {
    int sw, slot, port;
    enum ipnet_link link;
    uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
    uint64_t rx_giant_packets; /* over the port's MTU, dropped as they arrive */
    /* the `5 minutes` rates, now */
    uint64_t in_rate_bits_per_s, in_rate_packets_per_s, out_rate_bits_per_s, out_rate_packets_per_s;
};

void ge_port_record_get(struct ipnet *net, int sw, int slot, int port, struct ge_port_record *r);

/* Every port that is up or has carried something, so that ports nobody
 * uses do not fill the series. */
extern const struct record_type ge_port_record_type;

#endif
