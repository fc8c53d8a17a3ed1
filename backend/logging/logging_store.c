/* The logging feature's SQL: its settings (logging_config) and the
 * switches' logfiles (syslog_message), schema/012_logging.sql. */
#include "logging.h"
#include "lab/lab.h"
#include <stdio.h>

static const struct logging_settings defaults = {LOG_CONSOLE_DEFAULT, LOG_MONITOR_DEFAULT, LOG_LOGFILE_DEFAULT,
                                                 LOG_SIZE_DEFAULT};

void logging_settings_get(struct lab *lab, int sw, struct logging_settings *out)
{
    sqlite3_stmt *st =
        lab_stmt(lab, "SELECT console, monitor, logfile, size FROM logging_config WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    *out = defaults;
    if (sqlite3_step(st) == SQLITE_ROW) {
        out->console = sqlite3_column_int(st, 0);
        out->monitor = sqlite3_column_int(st, 1);
        out->logfile = sqlite3_column_int(st, 2);
        out->size = (long)sqlite3_column_int64(st, 3);
    }
    sqlite3_reset(st);
}

/* The defaults are no row, so that a reset switch and one set back by
 * hand store the same. */
void logging_settings_put(struct lab *lab, int sw, const struct logging_settings *in)
{
    bool dflt = in->console == defaults.console && in->monitor == defaults.monitor &&
                in->logfile == defaults.logfile && in->size == defaults.size;
    sqlite3_stmt *st = lab_stmt(lab, dflt ? "DELETE FROM logging_config WHERE switch_id = ?"
                                          : "INSERT OR REPLACE INTO logging_config VALUES (?, ?, ?, ?, ?)");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    if (!dflt) {
        sqlite3_bind_int(st, 2, in->console);
        sqlite3_bind_int(st, 3, in->monitor);
        sqlite3_bind_int(st, 4, in->logfile);
        sqlite3_bind_int64(st, 5, in->size);
    }
    lab_step_done(lab, st);
}

/* Outside a batch a flush's error is its own: stepped here, not through
 * lab_step_done, so it neither fails a command nor reaches the lab's
 * store error. */
static bool step_quiet(sqlite3_stmt *st)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        ;
    sqlite3_reset(st);
    return rc == SQLITE_DONE;
}

static bool step(struct lab *lab, sqlite3_stmt *st, bool in_batch)
{
    if (!in_batch)
        return step_quiet(st);
    lab_step_done(lab, st);
    return !lab_store_error(lab)[0];
}

bool logging_store_begin(struct lab *lab)
{
    if (!sqlite3_get_autocommit(lab_db(lab))) { /* a replay's (or a fuzz input's) batch is open */
        lab_txn_begin(lab);
        return true;
    }
    step_quiet(lab_stmt(lab, "SAVEPOINT syslog_flush"));
    return false;
}

void logging_store_end(struct lab *lab, bool in_batch, bool ok)
{
    if (in_batch) {
        lab_txn_end(lab, ok);
        return;
    }
    sqlite3 *db = lab_db(lab);
    if (sqlite3_get_autocommit(db)) /* SQLite rolled it back by itself (a full disk) */
        return;
    if (!ok)
        sqlite3_exec(db, "ROLLBACK TO syslog_flush", NULL, NULL, NULL);
    if (sqlite3_exec(db, "RELEASE syslog_flush", NULL, NULL, NULL) != SQLITE_OK && !sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL); /* the commit was refused */
}

/* The message, then the switch's oldest beyond what its logfile keeps:
 * two index seeks on (switch_id, seq), whatever the logfile holds. */
bool logging_store_append(struct lab *lab, const struct log_msg *m, bool in_batch)
{
    static const char *const ins =
        "INSERT INTO syslog_message(switch_id, seq, lab_ns, time_s, severity, facility, mnemonic, vsan,"
        " hostname, text) VALUES (?1, coalesce((SELECT max(seq) FROM syslog_message WHERE switch_id = ?1), 0)"
        " + 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
    static const char *const trim =
        "DELETE FROM syslog_message WHERE switch_id = ?1"
        " AND seq <= (SELECT max(seq) FROM syslog_message WHERE switch_id = ?1) - ?2";
    int id = lab_switch_id(lab, m->sw);
    sqlite3_stmt *st = lab_stmt(lab, ins);
    sqlite3_bind_int(st, 1, id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)m->lab_ns);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)m->time_s);
    sqlite3_bind_int(st, 4, m->sev);
    sqlite3_bind_text(st, 5, m->facility, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, m->mnemonic, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 7, m->vsan);
    sqlite3_bind_text(st, 8, m->hostname, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 9, m->text, -1, SQLITE_STATIC);
    if (!step(lab, st, in_batch))
        return false;
    st = lab_stmt(lab, trim);
    sqlite3_bind_int(st, 1, id);
    sqlite3_bind_int(st, 2, m->keep);
    return step(lab, st, in_batch);
}

void logging_store_clear(struct lab *lab, int sw)
{
    sqlite3_stmt *st = lab_stmt(lab, "DELETE FROM syslog_message WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    lab_step_done(lab, st);
}

static void copy_text(char *to, size_t n, sqlite3_stmt *st, int col)
{
    const unsigned char *s = sqlite3_column_text(st, col);
    snprintf(to, n, "%s", s ? (const char *)s : "");
}

void logging_store_each(struct lab *lab, int sw, int last, time_t from, time_t to,
                        void (*fn)(void *ctx, const struct log_msg *m), void *ctx)
{
    /* the newest `last` (all: -1), put back oldest first */
    static const char *const q =
        "SELECT * FROM (SELECT seq, lab_ns, time_s, severity, facility, mnemonic, vsan, hostname, text"
        " FROM syslog_message WHERE switch_id = ?1 AND time_s BETWEEN ?2 AND ?3 ORDER BY seq DESC LIMIT ?4)"
        " ORDER BY seq";
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_int64(st, 2, (sqlite3_int64)from);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)to);
    sqlite3_bind_int(st, 4, last > 0 ? last : -1);
    while (sqlite3_step(st) == SQLITE_ROW) {
        struct log_msg m = {.sw = sw};
        m.lab_ns = (uint64_t)sqlite3_column_int64(st, 1);
        m.time_s = (time_t)sqlite3_column_int64(st, 2);
        m.sev = sqlite3_column_int(st, 3);
        copy_text(m.facility, sizeof m.facility, st, 4);
        copy_text(m.mnemonic, sizeof m.mnemonic, st, 5);
        m.vsan = sqlite3_column_int(st, 6);
        copy_text(m.hostname, sizeof m.hostname, st, 7);
        copy_text(m.text, sizeof m.text, st, 8);
        fn(ctx, &m);
    }
    sqlite3_reset(st);
}
