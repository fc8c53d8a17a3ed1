/* The interactive console on a terminal (readline). */
#ifndef MDSIM_CONSOLE_H
#define MDSIM_CONSOLE_H

struct lab;

/* Runs until `exit` at exec mode or end of input, the lab clock at wall
 * speed times `speed`; returns the exit code. */
int console_run(struct lab *lab, int sw, double speed);

#endif
