/*
 * A SAN Extension Tuner N port in the read model (record/record.h): what
 * `show san-ext-tuner ... nport ... [counters]`, the series and the page
 * read. Its throughputs are FC payload bytes per second of the last
 * complete second; its response times are averaged since clear
 * (docs/tuner-counters.md).
 */
#ifndef MDSIM_SANEXT_RECORD_H
#define MDSIM_SANEXT_RECORD_H
#include "record/record.h"
#include <stdbool.h>
#include <stdint.h>

struct lab;

struct tuner_nport_record {
    int sw, vsan;
    uint8_t pwwn[8];
    bool logged_in;
    uint32_t fcid;
    uint64_t ios_per_s;
    uint64_t read_ios, write_ios; /* completed, both roles */
    uint64_t egress_bytes_per_s, egress_max_bytes_per_s, ingress_bytes_per_s, ingress_max_bytes_per_s;
    uint64_t read_rt_avg_us, read_rt_min_us, read_rt_max_us;
    uint64_t write_rt_avg_us, write_rt_min_us, write_rt_max_us;
    uint64_t errors;
    uint64_t in_flight_ios;
};

/* Its counters now (the tuner rolls its second to the present first). */
void tuner_nport_record_get(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan,
                            struct tuner_nport_record *r);

/* Every N port of the lab, read as it is. */
extern const struct record_type tuner_nport_record_type;

#endif
