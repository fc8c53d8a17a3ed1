/*
 * The lab the fuzz targets run their inputs on. Opening a lab costs far
 * more than running a few commands, so one lab is opened per process and
 * each input runs inside one transaction that is rolled back after it;
 * what lives outside SQLite (the clock, the IP data plane) is then made
 * anew. Every input starts from the same state, so a crash reproduces
 * from its input alone. With MDSIM_FUZZ_REOPEN=1 the lab is also closed
 * and opened again after each input (slower): a check that nothing else
 * carries over. docs/fuzzing.md says more.
 */
#ifndef MDSIM_FUZZ_LAB_H
#define MDSIM_FUZZ_LAB_H

#include <stddef.h>
#include <stdint.h>

struct lab;

/* The lab, pristine, inside the transaction of this input. */
struct lab *fuzz_lab_begin(void);
/* Undoes what the input did. */
void fuzz_lab_end(void);

/* What the input made mdsim print (a session's output, what a terminal
 * sends): every byte is read, so ASan sees an over-read; with
 * MDSIM_FUZZ_SHOW=1 it goes to stdout too, to see what an input does. */
void fuzz_output(const void *s, size_t n);
/* A digest of the output of the last input (from fuzz_lab_begin on):
 * replay_main --twice compares two runs of an input by it. */
uint64_t fuzz_output_digest(void);

#endif
