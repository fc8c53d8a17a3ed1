/* `mdsim replay --pcap FILE`: every port that carries traffic during the
 * replay, captured into FILE (docs/capture.md). */
#ifndef MDSIM_REPLAY_PCAP_H
#define MDSIM_REPLAY_PCAP_H
#include <stdio.h>

struct lab;
struct replay_pcap;

/* NULL (and a message on err) when FILE cannot be written. A name ending
 * in .pcap gets classic pcap, anything else pcapng. */
struct replay_pcap *replay_pcap_start(struct lab *lab, const char *path, FILE *err);
/* Stops and closes; 0, or 1 after a message when a write failed. */
int replay_pcap_stop(struct replay_pcap *rp, FILE *err);

#endif
