/*
 * Inside the logging feature (docs/logging.md): its settings, a message
 * on its way to the store, the store access and the renderers. Other
 * features include syslog.h only.
 */
#ifndef MDSIM_LOGGING_H
#define MDSIM_LOGGING_H
#include "syslog.h"
#include "strbuf.h"
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "grammar.h"

struct lab;
struct feature;
extern const struct feature logging_feature;

enum {
    LOG_OFF = -1,              /* a destination turned off (`no logging console`) */
    LOG_CONSOLE_DEFAULT = SEV_CRIT,
    LOG_MONITOR_DEFAULT = SEV_NOTICE,
    LOG_LOGFILE_DEFAULT = SEV_NOTICE,
    LOG_SIZE_MIN = 4096,
    LOG_SIZE_DEFAULT = 4194304, /* bytes, `logging logfile messages 5 size N` */
    LOG_KEEP_MAX = 4096,        /* messages a switch's logfile keeps at most */
    LOG_BYTES_PER_MSG = 128,    /* the logfile size a message counts for (docs/logging.md) */
    LOG_FACILITY_MAX = 32,
    LOG_MNEMONIC_MAX = 64,
    LOG_TEXT_MAX = 400,         /* of the text after "%FAC-S-MNEMONIC: " */
    LOG_HOST_MAX = 32,
    LOG_LINE_MAX = 640,         /* a whole line, date to text */
};

/* Where a switch's messages go: a severity (0-7) or LOG_OFF each. */
struct logging_settings {
    int console, monitor, logfile;
    long size; /* bytes */
};

/* A message as logged: what its line needs, and where it stands. */
struct log_msg {
    int sw;
    int sev;
    int vsan;
    int keep;        /* messages the switch's logfile keeps (its size then) */
    uint64_t lab_ns; /* the lab clock */
    time_t time_s;   /* the switch's calendar */
    char facility[LOG_FACILITY_MAX + 1];
    char mnemonic[LOG_MNEMONIC_MAX + 1];
    char hostname[LOG_HOST_MAX + 1];
    char text[LOG_TEXT_MAX + 1];
};

/* ---- syslog.c ---- */
void *logging_engine_new(struct lab *lab);
void logging_engine_free(void *state);
/* Writes the queued messages to the store (struct feature.flush): run by
 * the lab when no command's savepoint is open. */
void logging_flush(struct lab *lab, void *state);
/* Writes the queue now, within the running command (a show of the
 * logfile: messages the command's own clock tick emitted are in it). */
void logging_flush_queue(struct lab *lab);
/* `clear logging logfile`: the messages of sw not yet written go too. */
void logging_forget_queued(struct lab *lab, int sw);
/* `terminal monitor` / `terminal no monitor` (lab lock held). */
void logging_monitor_set(struct lab *lab, const struct session *s, bool on);

/* ---- logging_vshd.c ---- */
/* %VSHD-5-VSHD_SYSLOG_CONFIG_I when a session leaves configuration mode. */
void logging_config_exit(struct session *s);

/* ---- logging_store.c (SQL only) ---- */
void logging_settings_get(struct lab *lab, int sw, struct logging_settings *out);
void logging_settings_put(struct lab *lab, int sw, const struct logging_settings *in);
/* A flush's transaction: a savepoint in the replay's batch when one is
 * open (lab_txn_begin: a loss of the batch is then the lab's to report;
 * returns true), else a transaction of its own whose errors nobody else
 * sees (returns false). append is false when the store refused the write:
 * end then undoes the flush, whose messages are dropped. */
bool logging_store_begin(struct lab *lab);
bool logging_store_append(struct lab *lab, const struct log_msg *m, bool in_batch);
void logging_store_end(struct lab *lab, bool in_batch, bool ok);
void logging_store_clear(struct lab *lab, int sw);
/* Calls fn for the switch's messages oldest first: all (last = 0), or the
 * newest `last`; only those with from <= time_s <= to. */
void logging_store_each(struct lab *lab, int sw, int last, time_t from, time_t to,
                        void (*fn)(void *ctx, const struct log_msg *m), void *ctx);

/* ---- logging_show.c ---- */
/* "2026 Jan  1 10:00:00 MDS1 %VSHD-5-VSHD_SYSLOG_CONFIG_I: text" (no newline). */
void logging_format_line(char *buf, size_t n, const struct log_msg *m);
const char *logging_sev_name(int sev);
void logging_render_config(struct lab *lab, int sw, strbuf *out);
struct logging_facility {
    const char *name;
    int sev; /* its default severity */
};
extern const struct logging_facility logging_facilities[]; /* ends with {NULL} */
/* `show logging` in full; the facility table (one, or all: NULL) and the
 * legend; the switch's logfile (the newest `last`, all: 0) between two
 * calendar times. */
void logging_show_all(struct session *s);
void logging_show_levels(struct session *s, const char *only);
void logging_show_messages(struct session *s, int last, time_t from, time_t to);

/* Its command table (logging_feature: above). */
extern const struct cmd_def logging_cmds[];

#endif
