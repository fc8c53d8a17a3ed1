#include "lab.h"
#include "catalog.h"
#include "feature.h"
#include "store/store.h"
#include "store/reserve.h"
#include "topology.h"
#include "engine/engine.h"
#include "session.h"
#include "session_host.h"
#include "ipnet/ipnet.h"
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lab_switch {
    int id;
    char name[33];
    char chassis[24];
    char hostname[33];
    unsigned gates; /* bit per gate turned on, by gate_index */
    uint64_t boot_ns;
    int64_t clock_off_ns; /* its clock ahead of the lab's (`clock set`) */
    bool clock_set;
};

struct lab {
    sqlite3 *db;
    char *path; /* the lab file; NULL for a copy in memory */
    struct stmt_cache *stmts;
    pthread_mutex_t lock;
    pthread_t locker; /* the thread in `lock` now, when `locked` */
    bool locked;
    bool shared; /* other threads may use the lab: lab_share */
    struct lab_switch *sw;
    int nsw;
    char (*hosts)[33]; /* the lab's hosts (docs/hosts.md): nodes nsw .. */
    int nhosts;
    uint64_t arrays; /* bit h: host h is a storage array (docs/array.md) */
    int txn_depth;
    struct {
        bool on;        /* `owner`'s commands share few transactions (replay) */
        bool undo;      /* ... undone at the end, never committed early (fuzz) */
        bool open;      /* its transaction is open now */
        bool lost;      /* a commit of it failed since lab_batch_commit last said */
        pthread_t owner;
        char error[160]; /* why it was lost */
    } batch;
    char store_error[160]; /* a write the store refused: the command fails */
    bool store_failing;    /* told on stderr: the disk is full or failing */
    engine_t *engine;      /* the lab's one clock and event queue */
    struct ipnet *net;     /* the data plane the features' engine parts ride on */
    void **fstate;         /* each feature's engine state, in list order */
    bool dirty;            /* a command changed the store since the last reconcile */
    bool settle;           /* ... and the engine must follow it as it commits (lab_settle) */
    sqlite3_int64 changes_at[8]; /* total_changes when each open savepoint began */
    sqlite3_int64 data_version;  /* of the file, when this process last looked */
    uint64_t reconciles;         /* reconcile runs so far */
    uint64_t reconciles_at_start; /* ... when engine_start made the engine */
    struct { uint64_t period_ns; engine_tick_fn fn; void *ctx; } sampler; /* lab_set_sampler */
    struct { void *obj; void (*free_fn)(void *); } observer[LAB_OBS_COUNT]; /* lab_set_observer */
    uint64_t reconciles_at[8];   /* ... when each open savepoint began */
    time_t wall_at_open; /* the lab's clock: this, plus lab time */
    double speed;          /* 0: virtual time */
    pthread_t clock;       /* on real time: runs the engine while nobody types */
    bool clock_on, clock_stop;
    pthread_cond_t clock_wake;
    uint64_t clock_due;    /* lab time the clock thread sleeps until (NEVER: a wake-up) */
    bool clock_dirty;      /* ... and the store had changed when it went to sleep */
    uint64_t rt_wall_ns; /* monotonic time when real time started */
    uint64_t rt_lab_ns;  /* lab time then */
};

static void clock_stop(struct lab *lab);

void lab_default_path(char *buf, size_t n)
{
    const char *env = getenv("MDSIM_DB"), *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (env && *env)
        snprintf(buf, n, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, n, "%s/mdsim/lab.db", xdg);
    else
        snprintf(buf, n, "%s/.local/state/mdsim/lab.db", home ? home : ".");
}

sqlite3 *lab_db(struct lab *lab) { return lab->db; }
/* The connection is opened without SQLite's own mutex (store_open): the
 * lab lock is what keeps two threads off it, so once the lab is shared a
 * statement taken without that lock is a race. Debug builds check it here,
 * where every query of the features and of this file starts. Before, one
 * thread has the lab (lab_open, a test, a fuzz input) and needs no lock. */
static void mark_locked(struct lab *lab, bool on)
{
    lab->locker = pthread_self();
    lab->locked = on;
}

static void assert_locked(const struct lab *lab)
{
    assert(!lab->shared || (lab->locked && pthread_equal(lab->locker, pthread_self())));
    (void)lab;
}

sqlite3_stmt *lab_stmt(struct lab *lab, const char *sql)
{
    assert_locked(lab);
    return stmt_get(lab->stmts, sql);
}

/* What a command that the store refused says, by SQLite's primary code.
 * A full or failing disk fails the command, never the process (DESIGN
 * rule 10): the user frees space (`delete bootflash:`) and goes on. */
static const struct {
    int rc;
    const char *what;
} store_refusals[] = {
    {SQLITE_BUSY, "Lab database busy"},       {SQLITE_LOCKED, "Lab database busy"},
    {SQLITE_FULL, "Lab storage full"},        {SQLITE_IOERR, "Lab storage I/O error"},
    {SQLITE_READONLY, "Lab database read-only"}, {SQLITE_CANTOPEN, "Lab storage I/O error"},
};

/* The operator hears of a failing store once, and of its recovery, not
 * of every command it fails. */
static void note_store_health(struct lab *lab, bool ok, const char *why)
{
    if (ok == !lab->store_failing)
        return;
    lab->store_failing = !ok;
    if (ok) {
        fprintf(stderr, "mdsim: the lab's storage takes writes again\n");
        if (lab->path)
            store_reserve_make(lab->path);
    } else
        fprintf(stderr, "mdsim: the lab's storage refuses writes (%s): commands that write fail until it recovers\n",
                why);
}

/* The refusal's words into buf, and the operator told when the disk
 * (not another process) is the cause. */
static void refusal(struct lab *lab, int rc, char *buf, size_t n)
{
    const char *what = "Lab database error"; /* a constraint: a bug the tests catch */
    for (size_t i = 0; i < sizeof store_refusals / sizeof store_refusals[0]; i++)
        if ((rc & 0xff) == store_refusals[i].rc)
            what = store_refusals[i].what;
    assert(strcmp(what, "Lab database error") != 0);
    snprintf(buf, n, "%s, nothing changed: %s", what, sqlite3_errmsg(lab->db));
    if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
        note_store_health(lab, false, sqlite3_errmsg(lab->db));
}

/* The running command fails with the first refusal it met. */
static void refuse(struct lab *lab, int rc)
{
    char why[sizeof lab->store_error];
    refusal(lab, rc, why, sizeof why);
    if (!lab->store_error[0])
        snprintf(lab->store_error, sizeof lab->store_error, "%s", why);
}

void lab_step_done(struct lab *lab, sqlite3_stmt *st)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        ;
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        refuse(lab, rc);
}
static void exec_sql(struct lab *lab, const char *sql)
{
    lab_step_done(lab, lab_stmt(lab, sql));
}

/* A new file gets the default lab: examples/labs/san-extension.lab, the
 * two switches of the reference capture, compiled into the program. */
static bool populate_if_empty(sqlite3 *db, char *err, size_t n)
{
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM switch", -1, &st, NULL);
    bool empty = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 0;
    sqlite3_finalize(st);
    if (!empty)
        return true;
    char msg[512];
    if (topology_build(db, "san-extension.lab", topology_default_text, msg, sizeof msg) != 0) {
        snprintf(err, n, "cannot create the default lab: %s", msg);
        return false;
    }
    return true;
}

/* The hosts' names: topology, the same for the lab's life. */
static void load_hosts(struct lab *lab)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT name, id IN (SELECT host_id FROM array) FROM host ORDER BY id");
    int n = 0;
    lab->arrays = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == lab->nhosts) {
            lab->hosts = realloc(lab->hosts, sizeof *lab->hosts * (size_t)(n + 1));
            if (!lab->hosts)
                abort();
            lab->nhosts = n + 1;
        }
        if (n < 64 && sqlite3_column_int(st, 1))
            lab->arrays |= 1ull << n;
        snprintf(lab->hosts[n++], sizeof lab->hosts[0], "%s", (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_reset(st);
    lab->nhosts = n;
}

/* Rebuilds the in-memory view of the switches from the store. */
static void load_switches(struct lab *lab)
{
    static const char *const q_sw =
        "SELECT s.id, s.name, s.chassis, c.hostname FROM switch s"
        " JOIN system_config c ON c.switch_id = s.id ORDER BY s.id";
    static const char *const q_feat = "SELECT name FROM feature WHERE switch_id = ?";
    sqlite3_stmt *st = lab_stmt(lab, q_sw);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == lab->nsw) {
            lab->sw = realloc(lab->sw, sizeof *lab->sw * (size_t)(n + 1));
            if (!lab->sw)
                abort();
            memset(&lab->sw[n], 0, sizeof lab->sw[n]);
            lab->nsw = n + 1;
        }
        struct lab_switch *w = &lab->sw[n++];
        w->id = sqlite3_column_int(st, 0);
        snprintf(w->name, sizeof w->name, "%s", (const char *)sqlite3_column_text(st, 1));
        snprintf(w->chassis, sizeof w->chassis, "%s", (const char *)sqlite3_column_text(st, 2));
        snprintf(w->hostname, sizeof w->hostname, "%s", (const char *)sqlite3_column_text(st, 3));
    }
    lab->nsw = n;
    load_hosts(lab);
    for (int i = 0; i < n; i++) {
        lab->sw[i].gates = 0;
        st = lab_stmt(lab, q_feat);
        sqlite3_bind_int(st, 1, lab->sw[i].id);
        while (sqlite3_step(st) == SQLITE_ROW)
            for (int g = 0; feature_gates()[g]; g++)
                if (strcmp(feature_gates()[g]->name, (const char *)sqlite3_column_text(st, 0)) == 0)
                    lab->sw[i].gates |= 1u << g;
    }
}

static uint64_t load_seed(struct lab *lab)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT value FROM lab_meta WHERE key = 'seed'");
    return sqlite3_step(st) == SQLITE_ROW ? (uint64_t)sqlite3_column_int64(st, 0) : 1;
}

static void load_clock(struct lab *lab)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT offset_ns FROM switch_clock WHERE switch_id = ?");
    for (int i = 0; i < lab->nsw; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int(st, 1, lab->sw[i].id);
        lab->sw[i].clock_set = sqlite3_step(st) == SQLITE_ROW;
        lab->sw[i].clock_off_ns = lab->sw[i].clock_set ? sqlite3_column_int64(st, 0) : 0;
    }
}

/* The cables of the topology, declared once: they never change. */
static void declare_cables(struct lab *lab)
{
    static const char *const q = "SELECT a_switch, a_port, b_switch, b_port FROM link";
    sqlite3_stmt *st = lab_stmt(lab, q);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int sw[2], slot[2], port[2];
        bool ok = true;
        for (int i = 0; i < 2; i++) {
            int id = sqlite3_column_int(st, i * 2);
            sw[i] = 0;
            while (sw[i] < lab->nsw && lab->sw[sw[i]].id != id)
                sw[i]++;
            ok = ok && sscanf((const char *)sqlite3_column_text(st, i * 2 + 1), "GigabitEthernet%d/%d", &slot[i],
                              &port[i]) == 2;
        }
        if (ok)
            ipnet_cable(lab->net, sw[0], slot[0], port[0], sw[1], slot[1], port[1]);
    }
}

/* The engine, the data plane and each feature's engine part. */
static void engine_start(struct lab *lab)
{
    int n = 0;
    while (features[n])
        n++;
    lab->engine = engine_new(load_seed(lab));
    lab->net = ipnet_new_hosts(lab->engine, lab->nsw, lab->nhosts);
    lab->fstate = calloc((size_t)n + 1, sizeof *lab->fstate);
    if (!lab->engine || !lab->fstate)
        abort();
    for (int i = 0; i < n; i++)
        if (features[i]->engine_new)
            lab->fstate[i] = features[i]->engine_new(lab, lab->engine, lab->net);
    declare_cables(lab);
    lab->dirty = true;
    lab->reconciles_at_start = lab->reconciles;
    engine_on_tick(lab->engine, lab->sampler.period_ns, lab->sampler.fn, lab->sampler.ctx); /* a restart keeps it */
}

/* The data plane goes first: datagrams still in flight release what they
 * hold (TCP segments their streams) while the features still exist; then
 * the features, last first (fcip's tunnels hand frames back to the fabric). */
static void engine_stop(struct lab *lab)
{
    int n = 0;
    while (features[n])
        n++;
    ipnet_free(lab->net);
    while (n-- > 0)
        if (features[n]->engine_free)
            features[n]->engine_free(lab->fstate[n]);
    free(lab->fstate);
    engine_free(lab->engine);
}

void *lab_feature_state(struct lab *lab, const struct feature *f)
{
    for (int i = 0; features[i]; i++)
        if (features[i] == f)
            return lab->fstate[i];
    return NULL;
}

/* Only once the disk is full: the reserve is for freeing space. */
static void make_room(struct lab *lab)
{
    if (lab->store_failing && lab->path && store_reserve_release(lab->path))
        fprintf(stderr, "mdsim: the lab's disk is full: its %d KiB reserve is given back to let a command free space\n",
                STORE_RESERVE_BYTES >> 10);
}

/* What the parser's sessions use of a lab (parser/session_host.h). */
static const struct session_host session_host = {
    .lock = lab_lock,
    .unlock = lab_unlock,
    .txn_begin = lab_txn_begin,
    .txn_end = lab_txn_end,
    .store_error = lab_store_error,
    .make_room = make_room,
    .gate_enabled = lab_feature_enabled,
    .hostname = lab_hostname,
    .node_mode = feature_node_mode,
    .tick = lab_tick,
    .now = lab_now,
    .wall_until = lab_wall_until,
    .realtime = lab_realtime,
    .advance_to = lab_advance_to,
    .time_max_ns = LAB_TIME_MAX_NS,
    .pause = lab_pause,
    .resume = lab_resume,
    .value_source = feature_value_source,
    .mode_check = feature_mode_check,
};

/* The lab around an open store: caches, clock, engine. */
static struct lab *lab_new(sqlite3 *db)
{
    struct lab *lab = calloc(1, sizeof *lab);
    if (!lab)
        abort();
    lab->db = db;
    lab->stmts = stmt_cache_new(db);
    pthread_mutex_init(&lab->lock, NULL);
    pthread_cond_init(&lab->clock_wake, NULL);
    lab->wall_at_open = time(NULL);
    load_switches(lab);
    load_clock(lab);
    engine_start(lab);
    stmt_cache_reset_all(lab->stmts);
    return lab;
}

struct lab *lab_open(const char *path, char *err, size_t errlen)
{
    features_install(); /* the default lab's lines are read through the grammar */
    bool created;
    sqlite3 *db = store_open(path, &created, err, errlen);
    if (!db)
        return NULL;
    if (!populate_if_empty(db, err, errlen)) {
        sqlite3_close(db);
        return NULL;
    }
    session_use_host(&session_host);
    struct lab *lab = lab_new(db);
    if (!(lab->path = strdup(path)))
        abort();
    store_reserve_make(path);
    return lab;
}

struct lab *lab_copy(struct lab *src, char *err, size_t errlen)
{
    sqlite3 *db = store_copy(src->db, err, errlen);
    return db ? lab_new(db) : NULL;
}

struct lab *lab_snapshot(const char *path, char *err, size_t errlen)
{
    sqlite3 *db = store_snapshot(path, err, errlen);
    if (!db)
        return NULL;
    features_install();
    session_use_host(&session_host);
    return lab_new(db);
}

void lab_close(struct lab *lab)
{
    if (!lab)
        return;
    clock_stop(lab);
    for (int i = 0; i < LAB_OBS_COUNT; i++)
        if (lab->observer[i].free_fn)
            lab->observer[i].free_fn(lab->observer[i].obj);
    lab_batch_end(lab);
    if (lab->path)
        store_reserve_release(lab->path);
    free(lab->path);
    engine_stop(lab);
    stmt_cache_free(lab->stmts);
    sqlite3_close(lab->db);
    pthread_mutex_destroy(&lab->lock);
    pthread_cond_destroy(&lab->clock_wake);
    free(lab->sw);
    free(lab->hosts);
    free(lab);
}

int lab_switch_count(const struct lab *lab) { return lab->nsw; }
int lab_host_count(const struct lab *lab) { return lab->nhosts; }
int lab_node_count(const struct lab *lab) { return lab->nsw + lab->nhosts; }
bool lab_is_host(const struct lab *lab, int sw) { return sw >= lab->nsw; }
bool lab_is_array(const struct lab *lab, int sw)
{
    return sw >= lab->nsw && sw - lab->nsw < 64 && (lab->arrays >> (sw - lab->nsw) & 1);
}
const char *lab_switch_name(const struct lab *lab, int sw)
{
    return sw >= lab->nsw ? lab->hosts[sw - lab->nsw] : lab->sw[sw].name;
}
int lab_switch_id(const struct lab *lab, int sw) { return sw >= lab->nsw ? -1 : lab->sw[sw].id; }
const char *lab_switch_chassis(const struct lab *lab, int sw) { return sw >= lab->nsw ? "" : lab->sw[sw].chassis; }
const char *lab_hostname(const struct lab *lab, int sw)
{
    return sw >= lab->nsw ? lab->hosts[sw - lab->nsw] : lab->sw[sw].hostname;
}

int lab_switch_find(const struct lab *lab, const char *name)
{
    for (int i = 0; i < lab->nsw; i++)
        if (strcmp(lab->sw[i].hostname, name) == 0)
            return i;
    for (int i = 0; i < lab->nsw; i++)
        if (strcmp(lab->sw[i].name, name) == 0)
            return i;
    for (int i = 0; i < lab->nhosts; i++)
        if (strcmp(lab->hosts[i], name) == 0)
            return lab->nsw + i;
    return -1;
}

void lab_set_hostname(struct lab *lab, int sw, const char *name)
{
    sqlite3_stmt *st = lab_stmt(lab, "UPDATE system_config SET hostname = ? WHERE switch_id = ?");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, lab->sw[sw].id);
    lab_step_done(lab, st);
    snprintf(lab->sw[sw].hostname, sizeof lab->sw[sw].hostname, "%s", name);
}

bool lab_feature_enabled(const struct lab *lab, int sw, const struct gate *gate)
{
    if (!gate)
        return true;
    int g = gate_index(gate);
    if (sw >= lab->nsw || g < 0) /* a host runs no switch feature */
        return false;
    return (lab->sw[sw].gates >> g) & 1u;
}

/* Deletes the switch's rows of the tables a feature owns. Rare enough
 * (reload, reset, a gate turned off) to prepare each time: the statement
 * cache keys on the SQL text's address. */
static void clear_tables(struct lab *lab, int sw, const struct feature *f)
{
    for (const struct owned_table *t = f->tables; t && t->name; t++) {
        char sql[256];
        sqlite3_stmt *st;
        snprintf(sql, sizeof sql, "DELETE FROM %s WHERE switch_id = ?%s%s%s", t->name, t->keep ? " AND NOT (" : "",
                 t->keep ? t->keep : "", t->keep ? ")" : "");
        if (sqlite3_prepare_v2(lab->db, sql, -1, &st, NULL) != SQLITE_OK)
            abort(); /* a registry entry naming no table: a bug */
        sqlite3_bind_int(st, 1, lab->sw[sw].id);
        lab_step_done(lab, st);
        sqlite3_finalize(st);
    }
}

void lab_set_feature(struct lab *lab, int sw, const struct gate *gate, bool on)
{
    int g = gate_index(gate);
    if (g < 0)
        abort(); /* a gate no feature declares: a registry bug */
    sqlite3_stmt *st = lab_stmt(lab, on ? "INSERT OR IGNORE INTO feature VALUES (?, ?)"
                                        : "DELETE FROM feature WHERE switch_id = ? AND name = ?");
    sqlite3_bind_int(st, 1, lab->sw[sw].id);
    sqlite3_bind_text(st, 2, gate->name, -1, SQLITE_STATIC);
    lab_step_done(lab, st);
    if (on) {
        lab->sw[sw].gates |= 1u << g;
        return;
    }
    lab->sw[sw].gates &= ~(1u << g);
    for (const struct feature *const *f = features; *f; f++) /* turning it off forgets its state */
        if ((*f)->gate == gate)
            clear_tables(lab, sw, *f);
}

const char *lab_module(struct lab *lab, int sw, int slot)
{
    static const char *const q = "SELECT model FROM module WHERE switch_id = ? AND slot = ?";
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, lab->sw[sw].id);
    sqlite3_bind_int(st, 2, slot);
    if (sqlite3_step(st) != SQLITE_ROW)
        return NULL;
    const struct module_model *m = catalog_module((const char *)sqlite3_column_text(st, 0));
    return m ? m->model : NULL;
}

/* Another process that wrote the lab file since (PRAGMA data_version
 * moves only for other connections' commits) leaves the caches and the
 * engine behind: both catch up. */
static void follow_other_writers(struct lab *lab)
{
    sqlite3_stmt *st = lab_stmt(lab, "PRAGMA data_version");
    sqlite3_int64 v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    if (v == lab->data_version)
        return;
    if (lab->data_version) {
        load_switches(lab);
        load_clock(lab);
        lab->dirty = true;
    }
    lab->data_version = v;
}

/* The caches follow the store again after a rollback they may have seen. */
static void forget_undone(struct lab *lab)
{
    lab->dirty = true; /* the engine may have followed what is now undone */
    load_switches(lab);
    load_clock(lab);
}

/* Commits the batch's transaction, if open. A refused commit (a full
 * disk) undoes the whole batch: its owner hears of it at its next
 * lab_batch_commit. */
static bool batch_close(struct lab *lab)
{
    if (!lab->batch.open)
        return true;
    lab->batch.open = false;
    int rc = sqlite3_exec(lab->db, "COMMIT", NULL, NULL, NULL);
    if (lab->clock_on) /* it let the engine be while the batch was open */
        pthread_cond_signal(&lab->clock_wake);
    if (rc == SQLITE_OK) {
        note_store_health(lab, true, NULL);
        return true;
    }
    refusal(lab, rc, lab->batch.error, sizeof lab->batch.error);
    if (!sqlite3_get_autocommit(lab->db))
        sqlite3_exec(lab->db, "ROLLBACK", NULL, NULL, NULL);
    lab->batch.lost = true;
    forget_undone(lab);
    return false;
}

static bool batch_mine(const struct lab *lab)
{
    return lab->batch.on && pthread_equal(lab->batch.owner, pthread_self());
}

/* A command may have scheduled events sooner than the clock thread will
 * wake, or changed what the engine must follow: only then is it woken (a
 * wake-up per command cost an attached replay a context switch a line). */
static bool clock_behind(const struct lab *lab)
{
    return engine_next_time(lab->engine) < lab->clock_due || (lab->dirty && !lab->clock_dirty);
}

/* DESIGN rule 10: another thread's command never joins the batch, so what
 * it acknowledges is committed on its own. */
void lab_lock(struct lab *lab)
{
    pthread_mutex_lock(&lab->lock);
    mark_locked(lab, true);
    if (lab->batch.open && !batch_mine(lab))
        batch_close(lab);
    if (lab->txn_depth == 0 && !lab->batch.open)
        follow_other_writers(lab);
}

/* The features' writes held for a safe point (the system log's queue,
 * backend/logging/syslog.c): no command's savepoint is open here. */
static void flush_features(struct lab *lab)
{
    for (int i = 0; lab->txn_depth == 0 && features[i]; i++)
        if (features[i]->flush)
            features[i]->flush(lab, lab->fstate[i]);
}

void lab_unlock(struct lab *lab)
{
    flush_features(lab);
    stmt_cache_reset_all(lab->stmts); /* no read transaction outlives a command */
    if (lab->clock_on && clock_behind(lab))
        pthread_cond_signal(&lab->clock_wake);
    mark_locked(lab, false);
    pthread_mutex_unlock(&lab->lock);
}

void lab_txn_begin(struct lab *lab)
{
    if (lab->txn_depth == 0) {
        lab->store_error[0] = '\0';
        if (batch_mine(lab) && !lab->batch.open) {
            exec_sql(lab, "BEGIN");
            lab->batch.open = sqlite3_get_autocommit(lab->db) == 0;
        }
    }
    exec_sql(lab, "SAVEPOINT cmd");
    if (lab->txn_depth < (int)(sizeof lab->changes_at / sizeof lab->changes_at[0])) {
        lab->changes_at[lab->txn_depth] = sqlite3_total_changes64(lab->db);
        lab->reconciles_at[lab->txn_depth] = lab->reconciles;
    }
    lab->txn_depth++;
}

/* Like Redis's call() and its `dirty`: a command that changed the store
 * and committed marks the engine for a reconcile. One that rolls back
 * leaves the engine as it was, unless the engine followed rows now undone
 * (a nested command committed and something read the engine since). */
static void note_end(struct lab *lab, bool committed)
{
    int d = lab->txn_depth - 1;
    bool deep = d >= (int)(sizeof lab->changes_at / sizeof lab->changes_at[0]);
    bool changed = deep || sqlite3_total_changes64(lab->db) != lab->changes_at[d];
    if (committed ? changed : deep || lab->reconciles != lab->reconciles_at[d])
        lab->dirty = true;
    if (committed && changed && d == 0 && !lab->batch.open)
        note_store_health(lab, true, NULL);
}

/* On a full disk or an I/O error SQLite may roll the whole transaction
 * back by itself: no savepoint is left then, and a batch is lost. */
static bool txn_gone(struct lab *lab)
{
    if (!sqlite3_get_autocommit(lab->db))
        return false;
    if (lab->batch.open) {
        lab->batch.open = false;
        lab->batch.lost = true;
        snprintf(lab->batch.error, sizeof lab->batch.error, "%s", lab->store_error);
    }
    forget_undone(lab);
    return true;
}

bool lab_txn_end(struct lab *lab, bool commit)
{
    bool refused = lab->store_error[0] != '\0';
    if (txn_gone(lab)) {
        lab->txn_depth--;
        return !commit;
    }
    if (!commit || refused) {
        exec_sql(lab, "ROLLBACK TO cmd");
        load_switches(lab); /* the caches may hold what was rolled back */
        load_clock(lab);
    }
    exec_sql(lab, "RELEASE cmd"); /* at depth 1 outside a batch: the commit */
    note_end(lab, commit && !lab->store_error[0]);
    if (lab->store_error[0] && !refused && lab->txn_depth == 1 && !lab->batch.open) {
        if (!sqlite3_get_autocommit(lab->db)) /* the commit itself was refused */
            sqlite3_exec(lab->db, "ROLLBACK", NULL, NULL, NULL);
        forget_undone(lab);
    }
    lab->txn_depth--;
    bool ok = !commit || !lab->store_error[0];
    if (lab->txn_depth == 0 && lab->settle) {
        lab->settle = false;
        if (commit && ok)
            lab_reconcile(lab);
    }
    return ok;
}

/* Only while something runs (a tunnel's timers, traffic): a lab whose
 * engine has nothing scheduled has no connection a bounce could reset,
 * and a replay of pure configuration keeps its speed. */
void lab_settle(struct lab *lab)
{
    if (engine_next_time(lab->engine) != ENGINE_TIME_NEVER)
        lab->settle = true;
}

const char *lab_store_error(const struct lab *lab) { return lab->store_error; }

void lab_batch_begin(struct lab *lab, bool undo)
{
    assert(!undo || !lab->shared); /* an undo batch is never committed for others */
    lab->batch.on = true;
    lab->batch.undo = undo;
    lab->batch.lost = false;
    lab->batch.owner = pthread_self();
}

bool lab_batch_commit(struct lab *lab)
{
    bool ok = batch_close(lab) && !lab->batch.lost;
    lab->batch.lost = false;
    return ok;
}

const char *lab_batch_error(const struct lab *lab) { return lab->batch.error; }

bool lab_batch_end(struct lab *lab)
{
    bool ok = lab_batch_commit(lab);
    lab->batch.on = false;
    return ok;
}

void lab_batch_abort(struct lab *lab)
{
    if (lab->batch.open)
        exec_sql(lab, "ROLLBACK");
    lab->batch.open = lab->batch.on = false;
    forget_undone(lab);
}

uint64_t lab_now(const struct lab *lab) { return engine_now(lab->engine); }

/* The engine follows the store lazily: a replay of pure configuration
 * never pays for it; time passing, or a show of its state, does. The hooks
 * run in the registry's order: ports before what rides on them. */
uint64_t lab_reconcile_count(const struct lab *lab) { return lab->reconciles; }

void lab_reconcile(struct lab *lab)
{
    if (!lab->dirty)
        return;
    lab->dirty = false;
    lab->reconciles++;
    for (int i = 0; features[i]; i++)
        if (features[i]->reconcile)
            features[i]->reconcile(lab, lab->net, lab->fstate[i]);
}

struct ipnet *lab_ipnet(struct lab *lab)
{
    lab_reconcile(lab);
    return lab->net;
}

static void run_until(struct lab *lab, uint64_t t)
{
    lab_reconcile(lab);
    engine_run_until(lab->engine, t);
}

void lab_set_sampler(struct lab *lab, uint64_t period_ns, engine_tick_fn fn, void *ctx)
{
    lab->sampler.period_ns = period_ns;
    lab->sampler.fn = fn;
    lab->sampler.ctx = ctx;
    engine_on_tick(lab->engine, period_ns, fn, ctx);
}

struct ipnet *lab_ipnet_as_is(struct lab *lab) { return lab->net; }

void *lab_observer(const struct lab *lab, enum lab_observer kind) { return lab->observer[kind].obj; }

void lab_set_observer(struct lab *lab, enum lab_observer kind, void *obj, void (*free_fn)(void *))
{
    lab->observer[kind].obj = obj;
    lab->observer[kind].free_fn = free_fn;
}

void lab_drop_observer(struct lab *lab, enum lab_observer kind)
{
    if (lab->observer[kind].free_fn)
        lab->observer[kind].free_fn(lab->observer[kind].obj);
    lab->observer[kind].obj = NULL;
    lab->observer[kind].free_fn = NULL;
}

void lab_advance_to(struct lab *lab, uint64_t t)
{
    if (t > lab_now(lab))
        run_until(lab, t);
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Lab time the wall clock has reached (real time only). */
static uint64_t wall_lab_ns(const struct lab *lab)
{
    return lab->rt_lab_ns + (uint64_t)((double)(mono_ns() - lab->rt_wall_ns) * lab->speed);
}

/* The clock on its own (docs/lab-clock.md): on real time a thread runs
 * the engine up to the wall clock in slices of at least CLOCK_SLICE_NS,
 * so continuous traffic never piles up for the next command; with no
 * event pending it sleeps until a command wakes it, costing nothing. */
#define CLOCK_SLICE_NS (100 * ENGINE_NS_PER_MS)

static void *clock_main(void *arg)
{
    struct lab *lab = arg;
    pthread_mutex_lock(&lab->lock);
    while (!lab->clock_stop) {
        mark_locked(lab, true);
        if (lab->txn_depth == 0 && !lab->batch.open) {
            lab_reconcile(lab);
            lab_tick(lab);
            flush_features(lab); /* what the engine logged meanwhile is kept at once */
        }
        stmt_cache_reset_all(lab->stmts); /* the wait below releases the lock */
        mark_locked(lab, false);
        uint64_t next = engine_next_time(lab->engine);
        lab->clock_due = next;
        lab->clock_dirty = lab->dirty;
        if (next == ENGINE_TIME_NEVER) {
            pthread_cond_wait(&lab->clock_wake, &lab->lock);
            continue;
        }
        uint64_t wait = lab_wall_until(lab, next);
        wait = wait > CLOCK_SLICE_NS ? wait : CLOCK_SLICE_NS;
        wait = wait < 3600 * ENGINE_NS_PER_SEC ? wait : 3600 * ENGINE_NS_PER_SEC; /* no timespec overflow */
        struct timespec at;
        clock_gettime(CLOCK_REALTIME, &at);
        uint64_t ns = (uint64_t)at.tv_nsec + wait;
        at.tv_sec += (time_t)(ns / 1000000000u);
        at.tv_nsec = (long)(ns % 1000000000u);
        pthread_cond_timedwait(&lab->clock_wake, &lab->lock, &at);
    }
    pthread_mutex_unlock(&lab->lock);
    return NULL;
}

static void clock_stop(struct lab *lab)
{
    if (!lab->clock_on)
        return;
    pthread_mutex_lock(&lab->lock);
    lab->clock_stop = true;
    pthread_cond_signal(&lab->clock_wake);
    pthread_mutex_unlock(&lab->lock);
    pthread_join(lab->clock, NULL);
    lab->clock_on = lab->clock_stop = false;
}

void lab_share(struct lab *lab) { lab->shared = true; }

void lab_set_realtime(struct lab *lab, double speed)
{
    lab->speed = speed;
    lab->rt_wall_ns = mono_ns();
    lab->rt_lab_ns = lab_now(lab);
    if (speed > 0 && !lab->clock_on) {
        lab_share(lab);
        /* the thread takes no signal: they are the front-end's to handle */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        lab->clock_on = pthread_create(&lab->clock, NULL, clock_main, lab) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
}

/* With nothing due before the wall clock, the clock just moves: a
 * configuration change waits for the clock thread (woken by lab_unlock)
 * to reach the engine, not for the next command, so a burst of commands
 * (an attached replay) does not reconcile once a line. */
void lab_tick(struct lab *lab)
{
    if (lab->speed <= 0)
        return;
    uint64_t target = wall_lab_ns(lab);
    if (target <= lab_now(lab))
        return;
    if (lab->dirty && engine_next_time(lab->engine) > target)
        engine_run_until(lab->engine, target);
    else
        run_until(lab, target);
}

bool lab_realtime(const struct lab *lab) { return lab->speed > 0; }

uint64_t lab_wall_until(const struct lab *lab, uint64_t t)
{
    if (lab->speed <= 0)
        return 0;
    uint64_t wall = wall_lab_ns(lab);
    return t > wall ? (uint64_t)((double)(t - wall) / lab->speed) : 0;
}

int lab_pause(struct lab *lab)
{
    int depth = lab->txn_depth;
    while (lab->txn_depth > 0)
        lab_txn_end(lab, true);
    if (!lab->batch.undo) /* no wait inside a transaction (DESIGN rule 6) */
        batch_close(lab);
    lab_unlock(lab);
    return depth;
}

void lab_resume(struct lab *lab, int depth)
{
    lab_lock(lab);
    lab_tick(lab);
    while (depth-- > 0)
        lab_txn_begin(lab);
}

bool lab_clock_is_set(const struct lab *lab, int sw) { return sw >= 0 && sw < lab->nsw && lab->sw[sw].clock_set; }
time_t lab_clock_base(const struct lab *lab) { return lab->wall_at_open; }

int64_t lab_clock_offset_ns(const struct lab *lab, int sw)
{
    return sw >= 0 && sw < lab->nsw ? lab->sw[sw].clock_off_ns : 0;
}

/* The switch's clock in ns since 1970; never before 1970. */
static int64_t switch_clock_ns(const struct lab *lab, int sw)
{
    int64_t t = (int64_t)lab->wall_at_open * 1000000000 + (int64_t)lab_now(lab) + lab_clock_offset_ns(lab, sw);
    return t > 0 ? t : 0;
}

time_t lab_time(const struct lab *lab, int sw, long *usec)
{
    int64_t t = switch_clock_ns(lab, sw);
    if (usec)
        *usec = (long)(t % 1000000000 / 1000);
    return (time_t)(t / 1000000000);
}

/* The switch's clock reads t from now: at t.000, as a real `clock set`. */
void lab_clock_set(struct lab *lab, int sw, time_t t)
{
    if (sw < 0 || sw >= lab->nsw)
        return;
    int64_t off = (int64_t)t * 1000000000 - (int64_t)lab->wall_at_open * 1000000000 - (int64_t)lab_now(lab);
    lab->sw[sw].clock_off_ns = off;
    lab->sw[sw].clock_set = true;
    sqlite3_stmt *st = lab_stmt(lab, "INSERT OR REPLACE INTO switch_clock(switch_id, offset_ns) VALUES (?, ?)");
    sqlite3_bind_int(st, 1, lab->sw[sw].id);
    sqlite3_bind_int64(st, 2, off);
    lab_step_done(lab, st);
}

uint64_t lab_boot_ns(const struct lab *lab, int sw) { return sw >= lab->nsw ? 0 : lab->sw[sw].boot_ns; }
void lab_reboot(struct lab *lab, int sw) { lab->sw[sw].boot_ns = lab_now(lab); }

/* Everything that reaches the engine reconciles first (lab_reconcile,
 * lab_ipnet, lab_advance_to; engine_start leaves the lab dirty), so an
 * engine with no reconcile since it was made, at time 0 with nothing
 * scheduled, is still as engine_start made it. */
static bool engine_pristine(const struct lab *lab)
{
    return lab->reconciles == lab->reconciles_at_start && engine_now(lab->engine) == 0 &&
           engine_next_time(lab->engine) == ENGINE_TIME_NEVER;
}

void lab_restart_clock(struct lab *lab)
{
    if (!engine_pristine(lab)) { /* most of the cost of a short fuzz input */
        engine_stop(lab);
        engine_start(lab);
    }
    for (int i = 0; i < lab->nsw; i++)
        lab->sw[i].boot_ns = 0;
}

/* The tables no feature owns: the lab's topology and identity, the saved
 * startup configuration (a reload keeps it), the gates and the history. */
const char *const lab_owned_tables[] = {
    "lab_meta", "switch", "module", "link", "system_config", "feature", "startup_config", "history",
    "switch_clock", /* a switch's hardware clock: reload and write erase keep it */
    "router", "router_port", "router_route", /* the lab's routers: topology, as link */
    "host", "host_port", /* the lab's hosts, too */
    "array", "array_ld", "array_fc", "array_file", /* and its storage arrays (docs/array.md) */
    "bootflash", /* storage: kept by reload, write erase and lab reset */
    NULL,
};

/* Every feature forgets its tables (the registry says which), the gates
 * go off and the host name is the lab's name again. */
void lab_factory_reset(struct lab *lab, int sw)
{
    for (const struct feature *const *f = features; *f; f++)
        clear_tables(lab, sw, *f);
    sqlite3_stmt *st = lab_stmt(lab, "DELETE FROM feature WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab->sw[sw].id);
    lab_step_done(lab, st);
    lab_set_hostname(lab, sw, lab->sw[sw].name);
    lab->sw[sw].gates = 0;
}

void lab_history_add(struct lab *lab, const char *line)
{
    sqlite3_stmt *st = lab_stmt(lab, "INSERT INTO history(line) VALUES (?)");
    sqlite3_bind_text(st, 1, line, -1, SQLITE_TRANSIENT);
    lab_step_done(lab, st);
}

int lab_history_recent(struct lab *lab, int max, char ***lines)
{
    static const char *const q =
        "SELECT line FROM (SELECT id, line FROM history ORDER BY id DESC LIMIT ?) ORDER BY id";
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, max);
    char **v = calloc((size_t)max + 1, sizeof *v);
    int n = 0;
    if (!v)
        abort();
    while (n < max && sqlite3_step(st) == SQLITE_ROW)
        if (!(v[n++] = strdup((const char *)sqlite3_column_text(st, 0))))
            abort();
    *lines = v;
    return n;
}
