/*
 * An open lab: the SQLite file, the switches' cached identity, the shared
 * simulated clock and the lock commands run under (see lab_lock).
 */
#ifndef MDSIM_LAB_H
#define MDSIM_LAB_H
#ifdef MDSIM_ENGINE_OBJECT /* defined for the engine objects only: CMakeLists.txt */
#error "an engine object includes neither the lab nor a session (docs/include-layers.md)"
#endif
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <time.h>
#include "engine/engine.h"

struct lab;

/* Where the lab lives when no --db is given: $MDSIM_DB, else
 * $XDG_STATE_HOME/mdsim/lab.db, else ~/.local/state/mdsim/lab.db. */
void lab_default_path(char *buf, size_t n);

/* Opens a lab, creating the default two-switch lab in a new file. */
struct lab *lab_open(const char *path, char *err, size_t errlen);
/* A private copy of the lab's store in memory, with an engine of its own
 * at time 0 (replay --check). The caller holds src's lock. */
struct lab *lab_copy(struct lab *src, char *err, size_t errlen);
/* The same from the lab file, taken without disturbing whoever owns it
 * and without writing to it (store_snapshot): mdsim check. */
struct lab *lab_snapshot(const char *path, char *err, size_t errlen);
void lab_close(struct lab *lab);

int lab_switch_count(const struct lab *lab);
/* The lab's hosts (docs/hosts.md) are nodes after the switches: a session
 * on a host has sw = lab_switch_count + the host's index. lab_switch_name,
 * lab_hostname and lab_switch_find know them; no switch feature does. */
int lab_host_count(const struct lab *lab);
int lab_node_count(const struct lab *lab);
bool lab_is_host(const struct lab *lab, int sw);
/* Host node sw is a storage array (docs/array.md): its shell is SMcli's. */
bool lab_is_array(const struct lab *lab, int sw);
const char *lab_switch_name(const struct lab *lab, int sw);
int lab_switch_id(const struct lab *lab, int sw);
/* By lab name or by current host name; -1 when none. */
int lab_switch_find(const struct lab *lab, const char *name);
const char *lab_switch_chassis(const struct lab *lab, int sw);

const char *lab_hostname(const struct lab *lab, int sw);
void lab_set_hostname(struct lab *lab, int sw, const char *name);
/* Gates (struct gate, declared by the feature that owns one; NULL: always
 * on): turning one off forgets the store tables of every feature behind it. */
struct gate;
bool lab_feature_enabled(const struct lab *lab, int sw, const struct gate *gate);
void lab_set_feature(struct lab *lab, int sw, const struct gate *gate, bool on);
/* A feature's engine state (struct feature.engine_new), NULL when none.
 * Commands reach it after lab_reconcile (lab_restart_clock counts on it). */
struct feature;
void *lab_feature_state(struct lab *lab, const struct feature *f);

/* Module in a slot: its model, or NULL when the slot is empty. */
const char *lab_module(struct lab *lab, int sw, int slot);

/* session_exec runs a command between lab_lock/lab_unlock, and its store
 * writes between txn_begin/txn_end so that a failed command changes
 * nothing. A command that waits (lab_pause below, cmd_confirm) commits what
 * it wrote so far and releases the lab meanwhile. Output filters and the
 * pager run after lab_unlock. */
void lab_lock(struct lab *lab);
void lab_unlock(struct lab *lab);
void lab_txn_begin(struct lab *lab);
/* Returns false when the command wanted to commit but the store refused a
 * write (another process holds the lab file, the disk is full or
 * failing): everything is rolled back and lab_store_error() says why, as
 * the command's `%` line without the `% `. */
bool lab_txn_end(struct lab *lab, bool commit);
const char *lab_store_error(const struct lab *lab);
/* Group commit (docs/durability.md): the calling thread's commands share
 * one transaction for speed. It commits at lab_batch_commit, before any
 * wait (lab_pause) and before another thread's lab_lock, so no other
 * session's command and no wait is ever inside it. undo: a batch for a
 * lab one thread uses (the fuzz targets), never committed early, undone
 * by lab_batch_abort. */
void lab_batch_begin(struct lab *lab, bool undo);
/* False when the store refused a commit of the batch since the last call
 * (its changes since then are undone); lab_batch_error says why. */
bool lab_batch_commit(struct lab *lab);
const char *lab_batch_error(const struct lab *lab);
/* Commits what is left and ends the batch; false as lab_batch_commit. */
bool lab_batch_end(struct lab *lab);
void lab_batch_abort(struct lab *lab);

/* The lab's database connection, for tests that inspect the store. */
sqlite3 *lab_db(struct lab *lab);
sqlite3_stmt *lab_stmt(struct lab *lab, const char *sql);
/* Runs a write statement. A write the store refuses fails the running
 * command (lab_txn_end); a constraint the handlers should have checked
 * first is a bug, which debug builds stop at. */
void lab_step_done(struct lab *lab, sqlite3_stmt *st);

/* Runs the features' reconcile hooks when a committed command changed the
 * store since the last time. */
void lab_reconcile(struct lab *lab);
/* The running command's change is an edge the engine must see even if
 * the next command undoes it at the same lab time (`shutdown` then `no
 * shutdown` bounces a link): while the engine has anything scheduled, the
 * lab reconciles as the command commits, not lazily when time moves. */
void lab_settle(struct lab *lab);
/* Reconciles run so far (for tests and benchmarks). */
uint64_t lab_reconcile_count(const struct lab *lab);
/* The IP data plane, brought in line with the store first. */
struct ipnet *lab_ipnet(struct lab *lab);

/* The sampler on lab time (docs/series.md): fn at every multiple of
 * period_ns the clock passes, between events (engine_on_tick), kept across
 * engine restarts; fn NULL: off. It must only read: it runs inside the
 * engine's run, where the engine must not be reconciled, so it reads the
 * data plane through lab_ipnet_as_is, never lab_ipnet. */
void lab_set_sampler(struct lab *lab, uint64_t period_ns, engine_tick_fn fn, void *ctx);
struct ipnet *lab_ipnet_as_is(struct lab *lab);
/* What watches the lab for whoever asks (series.h's recording, a capture
 * of a served lab): one object per kind, kept by the lab and freed by
 * free_fn in lab_close, before the engine goes. Under the lab's lock. */
enum lab_observer { LAB_OBS_SERIES, LAB_OBS_CAPTURE, LAB_OBS_COUNT };
void *lab_observer(const struct lab *lab, enum lab_observer kind);
void lab_set_observer(struct lab *lab, enum lab_observer kind, void *obj, void (*free_fn)(void *));
/* Frees the observer of that kind now (stopped first by its owner), as
 * lab_close would: the fuzz harness's undo of what an input started. */
void lab_drop_observer(struct lab *lab, enum lab_observer kind);

/* The lab clock: simulated nanoseconds since the lab was opened. */
uint64_t lab_now(const struct lab *lab);
/* How far a command may move it: 10 years of lab time (uptime). */
#define LAB_TIME_MAX_NS (10ull * 365 * 86400 * 1000000000)
/* Runs the engine up to lab time t (nothing when the clock is past it):
 * virtual time moving, or a command that needs the outcome (ping). */
void lab_advance_to(struct lab *lab, uint64_t t);
/* Real time: the clock follows the wall clock times `speed`. */
void lab_set_realtime(struct lab *lab, double speed);
/* From now on other threads may use the lab: every use goes through
 * lab_lock (checked in debug builds). */
void lab_share(struct lab *lab);
bool lab_realtime(const struct lab *lab);
/* Catches the clock up with the wall clock (no-op on virtual time). */
void lab_tick(struct lab *lab);
/* On real time, the wall ns until the wall clock reaches lab time t (0
 * when it has, and always 0 on virtual time). */
uint64_t lab_wall_until(const struct lab *lab, uint64_t t);
/* A command that waits on real time lets the other sessions run: what it
 * did so far is committed and the lab unlocked. lab_resume takes the lock
 * back, catches the clock up and reopens as many savepoints. */
int lab_pause(struct lab *lab);
void lab_resume(struct lab *lab, int depth);
/* Switch sw's clock (docs/lab-clock.md): the calendar time it shows,
 * `clock set`, whether it was ever set, and how far it is ahead of the
 * lab's clock (0 until set). The lab's clock is the wall clock's second
 * the lab was opened in, plus lab time: lab_clock_base. */
time_t lab_time(const struct lab *lab, int sw, long *usec);
void lab_clock_set(struct lab *lab, int sw, time_t t);
bool lab_clock_is_set(const struct lab *lab, int sw);
int64_t lab_clock_offset_ns(const struct lab *lab, int sw);
time_t lab_clock_base(const struct lab *lab);
/* When the switch last booted, in lab nanoseconds. */
uint64_t lab_boot_ns(const struct lab *lab, int sw);
void lab_reboot(struct lab *lab, int sw);
/* Lab time back to 0 and the data plane rebuilt from the store, as when
 * the lab was opened: for the fuzz targets, after lab_batch_abort. An
 * engine nothing reached since it was made is kept as it is. */
void lab_restart_clock(struct lab *lab);

/* Console history of the lab, oldest first. */
void lab_history_add(struct lab *lab, const char *line);
int lab_history_recent(struct lab *lab, int max, char ***lines);

/* Tables of the store that belong to the lab itself; every other table
 * belongs to exactly one feature (backend/feature.h). */
extern const char *const lab_owned_tables[];

/* Returns the switch to its factory configuration (host name = lab name). */
void lab_factory_reset(struct lab *lab, int sw);

#endif
