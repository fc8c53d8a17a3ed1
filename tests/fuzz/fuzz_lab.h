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

struct lab;

/* The lab, pristine, inside the transaction of this input. */
struct lab *fuzz_lab_begin(void);
/* Undoes what the input did. */
void fuzz_lab_end(void);

#endif
