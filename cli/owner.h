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

/* Starts listening on o->sock (the lock is held); `what` names this
 * process's job ("serve", "console", ...) for those who attach. 0, or -1
 * with err set. */
int owner_start(struct lab *lab, const struct labown *o, const char *what, char *err, size_t errlen);
/* This process's own job is done. Unless `now`, keeps running attached
 * sessions until they leave (SIGINT or SIGTERM ends them); then stops
 * listening. Returns false when sessions did not end in time. */
bool owner_finish(bool now);

/* The whole life of a background owner (docs/lab-owner.md: consoles):
 * serves attached mdsim processes until every job is over (or none came
 * within 10 s, or SIGTERM ended them), then closes the lab and releases
 * it before the last client hears its exit code. False when jobs did not
 * end in time (the lab is left open: just exit). */
bool owner_daemon(struct lab *lab, struct labown *o);

/* Starts a background owner for the lab whose lock this process holds,
 * its clock at `speed` (0: virtual); the lock passes to it. 0 once it
 * listens, or -1 with err set (the lab could not be opened). */
int owner_spawn(struct labown *o, double speed, char *err, size_t errlen);

#endif
