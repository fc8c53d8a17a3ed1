/*
 * The switches' system log (docs/logging.md): every state change a switch
 * logs, with the lab's clock, kept in the lab (bounded like a switch's
 * logfile), shown by `show logging ...`, pushed to `terminal monitor`
 * sessions. Features and their engine callbacks emit; nothing else.
 */
#ifndef MDSIM_SYSLOG_H
#define MDSIM_SYSLOG_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lab;

enum syslog_sev {
    SEV_EMERG,   /* 0 emergencies */
    SEV_ALERT,   /* 1 alerts */
    SEV_CRIT,    /* 2 critical */
    SEV_ERR,     /* 3 errors */
    SEV_WARN,    /* 4 warnings */
    SEV_NOTICE,  /* 5 notifications */
    SEV_INFO,    /* 6 information */
    SEV_DEBUG,   /* 7 debugging */
};

/* Logs "%FACILITY-SEV-MNEMONIC: [%$VSAN n%$ ]text" on switch sw (index)
 * at the lab's current time; vsan 0: no VSAN tag. Callable under the lab
 * lock from a command or from the engine (an engine callback); never
 * fails, never changes the order of simulation events. */
void syslog_emit(struct lab *lab, int sw, const char *facility, enum syslog_sev sev, const char *mnemonic,
                 int vsan, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* ---- delivery to terminals (cli/telnet.c) ----
 * Messages within `logging console` (the console) or `logging monitor`
 * (a session with `terminal monitor`) also go to a small ring in memory
 * that terminals read with a cursor of their own. Nothing here takes the
 * lab lock or writes to a socket. */
struct session;

/* The number of the newest message in the ring: a terminal starts there,
 * so it is shown what happens after it logged in. */
uint64_t syslog_ring_tail(struct lab *lab);
/* Copies the lines after *seen that a terminal on switch sw shows (a
 * console: those within `logging console`; else, when monitor, those
 * within `logging monitor`) into buf, each ending "\n", NUL-terminated,
 * and moves *seen on. Returns the length. One atomic load when nothing is
 * new; never waits for the lab. */
size_t syslog_ring_take(struct lab *lab, int sw, bool console, bool monitor, uint64_t *seen, char *buf,
                        size_t cap);
/* Under the lab lock: `terminal monitor` is on for session s. */
bool syslog_monitor_on(struct lab *lab, const struct session *s);
/* Under the lab lock: session s is ending; its `terminal monitor` goes. */
void syslog_session_end(struct lab *lab, const struct session *s);

#endif
