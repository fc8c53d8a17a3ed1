/*
 * Packet captures for Wireshark (docs/capture.md): a tap on the data plane
 * writes every frame a Gigabit Ethernet port sends or receives as a real
 * Ethernet/IPv4 frame, with the bytes its protocol would put on a wire,
 * into a pcapng file (one interface per port that carries traffic, named
 * "MDS1 GigabitEthernet2/2", nanosecond stamps of lab time from
 * CAPTURE_EPOCH_S, a comment where netsim dropped or held a frame) or a
 * classic pcap file (nanosecond magic). Only reads: the simulation runs
 * the same events in the same order with or without it.
 */
#ifndef MDSIM_CAPTURE_H
#define MDSIM_CAPTURE_H
#include <stdbool.h>
#include <stdio.h>
#include "grammar.h"

struct ipnet;
struct capture;

/* Lab time 0 is 2024-01-01 00:00:00 UTC in a capture. */
#define CAPTURE_EPOCH_S 1704067200ULL

enum capture_format { CAPTURE_PCAPNG, CAPTURE_PCAP };

/* The lab's switches, as the capture names them: names[sw] ("MDS1") and
 * ids[sw] (the id in their MACs, 0005.30II.SSPP as `show interface`). */
struct capture_switches {
    int n;
    const char *const *names;
    const int *ids;
};

/* Starts capturing every port of net into out (which stays the
 * caller's; flushed after each packet when it is a pipe or a terminal,
 * else at capture_stop). NULL when out of memory. */
struct capture *capture_start(struct ipnet *net, FILE *out, enum capture_format fmt,
                              const struct capture_switches *sw);
/* Only the frames port (sw, slot, port) sends or receives. */
void capture_only_port(struct capture *c, int sw, int slot, int port);
/* Adds a port to those captured (the first call ends "every port");
 * false when the port is out of ipnet's range or memory is short. */
bool capture_add_port(struct capture *c, int sw, int slot, int port);
/* A reader that may fall behind (a stream to a client): before each
 * packet, room(ctx, n) says whether about n more bytes may be written; a
 * packet it refuses is left out whole and counted, and the next packet
 * written says how many were (pcapng comment), so the file stays
 * readable and the lab never waits for the reader. */
void capture_set_room(struct capture *c, bool (*room)(void *ctx, size_t n), void *ctx);
/* Flush after every packet whatever out is: a file someone may read
 * while the lab runs ends on a whole packet. */
void capture_flush_each(struct capture *c);
/* Frames room refused, in all. */
unsigned long capture_dropped(const struct capture *c);
/* At most frames frames and about bytes bytes in all (a frame that would
 * pass the bytes is not written, and none after it): ethanalyzer's
 * limit-captured-frames and the bootflash's file size. */
void capture_limit(struct capture *c, unsigned long frames, size_t bytes);
unsigned long capture_frames(const struct capture *c);
/* The limit was reached: nothing more will be written. */
bool capture_done(const struct capture *c);
/* Stops (the tap is removed), flushes; true when every write succeeded. */
bool capture_stop(struct capture *c);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature capture_feature;
extern const struct cmd_def capture_cmds[];

#endif
