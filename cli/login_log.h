/*
 * The log of `serve`'s logins, bounded under attack. Each line is about
 * one peer address. Per address and minute the first few lines of each
 * kind are written, the rest counted; when the minute ends, one summary
 * line per address tells the counts. The table of addresses and the
 * lines per minute in all are bounded too.
 */
#ifndef MDSIM_LOGIN_LOG_H
#define MDSIM_LOGIN_LOG_H
#include <stdint.h>
#include <stdio.h>

enum login_log_kind {
    LOGIN_LOG_CONNECTED, /* a connection came */
    LOGIN_LOG_CLOSED,    /* and ended */
    LOGIN_LOG_FAILED,    /* a wrong password or name */
    LOGIN_LOG_REFUSED,   /* a login or connection refused, a waiting one evicted */
    LOGIN_LOG_KINDS
};
enum {
    LOGIN_LOG_WINDOW_MS = 60000,
    LOGIN_LOG_PEERS = 64,         /* addresses counted one by one in a minute */
    LOGIN_LOG_LINES_TOTAL = 600,  /* lines a minute, all addresses */
};
/* Writes "mdsim serve: " and the line, or counts it; now_ms on the
 * monotonic clock (wall_ns). */
void login_log(enum login_log_kind kind, const char *peer, uint64_t now_ms, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Writes the summaries of a minute that is over; returns the milliseconds
 * until the next summary is due, or -1 when none is pending (the accept
 * loop's poll waits that long). */
long login_log_tick(uint64_t now_ms);
/* Where the lines go: stderr, or a test's stream. */
void login_log_to(FILE *f);
/* Forgets the window (tests). */
void login_log_reset(void);

#endif
