/* The wall clock the front-ends wait on: monotonic nanoseconds. */
#ifndef MDSIM_CLI_WALL_H
#define MDSIM_CLI_WALL_H
#include <stdint.h>
#include <time.h>

static inline uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleeps up to ns; a signal ends it early. */
static inline void wall_sleep(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    nanosleep(&ts, NULL);
}

#endif
