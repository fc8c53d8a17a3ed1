/*
 * The owner's side of DESIGN.md rule 7: once this process owns a lab, it
 * listens on the lab's socket and runs the jobs of every later mdsim on
 * that lab (console, replay, lab commands) in its own sessions, beside
 * its own job. docs/lab-owner.md.
 */
#ifndef MDSIM_OWNER_H
#define MDSIM_OWNER_H
#include <stdbool.h>
#include <stddef.h>

struct lab;
struct labown;

/* Starts listening on o->sock (the lock is held). 0, or -1 with err set. */
int owner_start(struct lab *lab, const struct labown *o, char *err, size_t errlen);
/* This process's own job is done. Unless `now`, keeps running attached
 * sessions until they leave (SIGINT or SIGTERM ends them); then stops
 * listening. Returns false when sessions did not end in time. */
bool owner_finish(bool now);

#endif
