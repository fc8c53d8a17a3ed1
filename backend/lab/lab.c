#include "lab.h"
#include "catalog.h"
#include "lab/feature.h"
#include "store/store.h"
#include "topology.h"
#include "engine/engine.h"
#include "ipnet/ipnet.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lab_switch {
    int id;
    char name[33];
    char chassis[24];
    char hostname[33];
    unsigned features; /* bit per enum feature */
    uint64_t boot_ns;
};

struct lab {
    sqlite3 *db;
    struct stmt_cache *stmts;
    pthread_mutex_t lock;
    struct lab_switch *sw;
    int nsw;
    int txn_depth;
    bool batch;
    char store_error[160]; /* a write the store refused (busy): the command fails */
    engine_t *engine;      /* the lab's one clock and event queue */
    struct ipnet *net;     /* follows the store: rebuilt when it changed */
    sqlite3_int64 net_seen_changes;
    time_t wall_at_open;
    long long clock_delta; /* seconds the shown clock is ahead of the wall clock */
    double speed;          /* 0: virtual time */
    uint64_t rt_wall_ns; /* monotonic time when real time started */
    uint64_t rt_lab_ns;  /* lab time then */
};

/* Each feature: its name in the store, and its line in the running
 * configuration (the command that enables it). */
static const struct {
    const char *name, *config_line;
} features[FEAT_COUNT] = {
    [FEAT_FCIP] = {"fcip", "feature fcip"},
    [FEAT_ISCSI] = {"iscsi", "feature iscsi"},
    [FEAT_SANEXT] = {"san-ext-tuner", "san-ext-tuner enable"},
};

const char *lab_feature_name(int f) { return f > 0 && f < FEAT_COUNT ? features[f].name : NULL; }
const char *lab_feature_config_line(int f) { return f > 0 && f < FEAT_COUNT ? features[f].config_line : NULL; }

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
sqlite3_stmt *lab_stmt(struct lab *lab, const char *sql) { return stmt_get(lab->stmts, sql); }

void lab_step_done(struct lab *lab, sqlite3_stmt *st)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        ;
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return;
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
        /* another process holds the lab file: this command fails, cleanly */
        if (!lab->store_error[0])
            snprintf(lab->store_error, sizeof lab->store_error, "%s", sqlite3_errmsg(lab->db));
        return;
    }
    fprintf(stderr, "mdsim: store write failed: %s\n", sqlite3_errmsg(lab->db));
    abort(); /* a constraint the handlers should have checked: a bug */
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
    for (int i = 0; i < n; i++) {
        lab->sw[i].features = 0;
        st = lab_stmt(lab, q_feat);
        sqlite3_bind_int(st, 1, lab->sw[i].id);
        while (sqlite3_step(st) == SQLITE_ROW)
            for (int f = 1; f < FEAT_COUNT; f++)
                if (strcmp(features[f].name, (const char *)sqlite3_column_text(st, 0)) == 0)
                    lab->sw[i].features |= 1u << f;
    }
}

static uint64_t load_seed(struct lab *lab)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT value FROM lab_meta WHERE key = 'seed'");
    return sqlite3_step(st) == SQLITE_ROW ? (uint64_t)sqlite3_column_int64(st, 0) : 1;
}

static void load_clock(struct lab *lab)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT value FROM lab_meta WHERE key = 'clock_delta'");
    lab->clock_delta = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
}

struct lab *lab_open(const char *path, char *err, size_t errlen)
{
    bool created;
    sqlite3 *db = store_open(path, &created, err, errlen);
    if (!db)
        return NULL;
    if (!populate_if_empty(db, err, errlen)) {
        sqlite3_close(db);
        return NULL;
    }
    struct lab *lab = calloc(1, sizeof *lab);
    if (!lab)
        abort();
    lab->db = db;
    lab->stmts = stmt_cache_new(db);
    pthread_mutex_init(&lab->lock, NULL);
    lab->wall_at_open = time(NULL);
    load_switches(lab);
    load_clock(lab);
    lab->engine = engine_new(load_seed(lab));
    lab->net = ipnet_new(lab->engine);
    lab->net_seen_changes = -1;
    stmt_cache_reset_all(lab->stmts);
    return lab;
}

void lab_close(struct lab *lab)
{
    if (!lab)
        return;
    if (lab->batch)
        lab_batch_end(lab);
    ipnet_free(lab->net);
    engine_free(lab->engine);
    stmt_cache_free(lab->stmts);
    sqlite3_close(lab->db);
    pthread_mutex_destroy(&lab->lock);
    free(lab->sw);
    free(lab);
}

int lab_switch_count(const struct lab *lab) { return lab->nsw; }
const char *lab_switch_name(const struct lab *lab, int sw) { return lab->sw[sw].name; }
int lab_switch_id(const struct lab *lab, int sw) { return lab->sw[sw].id; }
const char *lab_switch_chassis(const struct lab *lab, int sw) { return lab->sw[sw].chassis; }
const char *lab_hostname(const struct lab *lab, int sw) { return lab->sw[sw].hostname; }

int lab_switch_find(const struct lab *lab, const char *name)
{
    for (int i = 0; i < lab->nsw; i++)
        if (strcmp(lab->sw[i].hostname, name) == 0)
            return i;
    for (int i = 0; i < lab->nsw; i++)
        if (strcmp(lab->sw[i].name, name) == 0)
            return i;
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

bool lab_feature_enabled(const struct lab *lab, int sw, int feature)
{
    return (lab->sw[sw].features >> feature) & 1u;
}

void lab_set_feature(struct lab *lab, int sw, int feature, bool on)
{
    sqlite3_stmt *st = lab_stmt(lab, on ? "INSERT OR IGNORE INTO feature VALUES (?, ?)"
                                        : "DELETE FROM feature WHERE switch_id = ? AND name = ?");
    sqlite3_bind_int(st, 1, lab->sw[sw].id);
    sqlite3_bind_text(st, 2, features[feature].name, -1, SQLITE_STATIC);
    lab_step_done(lab, st);
    if (on)
        lab->sw[sw].features |= 1u << feature;
    else
        lab->sw[sw].features &= ~(1u << feature);
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

void lab_lock(struct lab *lab) { pthread_mutex_lock(&lab->lock); }
void lab_unlock(struct lab *lab)
{
    stmt_cache_reset_all(lab->stmts); /* no read transaction outlives a command */
    pthread_mutex_unlock(&lab->lock);
}

void lab_txn_begin(struct lab *lab)
{
    if (lab->txn_depth == 0)
        lab->store_error[0] = '\0';
    exec_sql(lab, "SAVEPOINT cmd");
    lab->txn_depth++;
}
bool lab_txn_end(struct lab *lab, bool commit)
{
    bool refused = lab->store_error[0] != '\0';
    if (!commit || refused) {
        exec_sql(lab, "ROLLBACK TO cmd");
        load_switches(lab); /* the caches may hold what was rolled back */
        load_clock(lab);
    }
    exec_sql(lab, "RELEASE cmd");
    if (lab->store_error[0] && !refused && lab->txn_depth == 1 && !lab->batch) {
        sqlite3_exec(lab->db, "ROLLBACK", NULL, NULL, NULL); /* the commit itself was refused */
        load_switches(lab);
        load_clock(lab);
    }
    lab->txn_depth--;
    return !commit || !lab->store_error[0];
}

const char *lab_store_error(const struct lab *lab) { return lab->store_error; }
void lab_batch_begin(struct lab *lab)
{
    if (!lab->batch)
        exec_sql(lab, "BEGIN");
    lab->batch = true;
}

void lab_batch_end(struct lab *lab)
{
    if (lab->batch)
        exec_sql(lab, "COMMIT");
    lab->batch = false;
}

void lab_batch_abort(struct lab *lab)
{
    if (lab->batch)
        exec_sql(lab, "ROLLBACK");
    lab->batch = false;
    load_switches(lab);
    load_clock(lab);
}

uint64_t lab_now(const struct lab *lab) { return engine_now(lab->engine); }

/* The data plane is rebuilt lazily: a replay of pure configuration never
 * pays for it, time passing or a show of its state does. */
struct ipnet *lab_ipnet(struct lab *lab)
{
    sqlite3_int64 changes = sqlite3_total_changes64(lab->db);
    if (changes != lab->net_seen_changes) {
        ipnet_reconcile(lab->net, lab);
        lab->net_seen_changes = changes;
    }
    return lab->net;
}

static void run_until(struct lab *lab, uint64_t t)
{
    lab_ipnet(lab);
    engine_run_until(lab->engine, t);
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

void lab_set_realtime(struct lab *lab, double speed)
{
    lab->speed = speed;
    lab->rt_wall_ns = mono_ns();
    lab->rt_lab_ns = lab_now(lab);
}

void lab_tick(struct lab *lab)
{
    if (lab->speed <= 0)
        return;
    uint64_t target = wall_lab_ns(lab);
    if (target > lab_now(lab))
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

time_t lab_time(const struct lab *lab, long *usec)
{
    if (usec)
        *usec = (long)(lab_now(lab) % 1000000000u / 1000u);
    return lab->wall_at_open + (time_t)lab->clock_delta + (time_t)(lab_now(lab) / 1000000000u);
}

void lab_clock_set(struct lab *lab, time_t t)
{
    lab->clock_delta = (long long)(t - lab->wall_at_open - (time_t)(lab_now(lab) / 1000000000u));
    sqlite3_stmt *st = lab_stmt(lab, "UPDATE lab_meta SET value = ? WHERE key = 'clock_delta'");
    sqlite3_bind_int64(st, 1, lab->clock_delta);
    lab_step_done(lab, st);
}

uint64_t lab_boot_ns(const struct lab *lab, int sw) { return lab->sw[sw].boot_ns; }
void lab_reboot(struct lab *lab, int sw) { lab->sw[sw].boot_ns = lab_now(lab); }

/* Tables that hold a switch's running configuration. A feature that adds
 * one adds it here, so factory reset and reload forget it. */
static const char *const config_reset_sql[] = {
    "DELETE FROM ge_port WHERE switch_id = ?",
    "DELETE FROM line_config WHERE switch_id = ?",
    /* exec-mode state, not configuration: a reload forgets it too */
    "DELETE FROM netsim_ingress WHERE switch_id = ?",
    "DELETE FROM netsim_pair WHERE switch_id = ?",
    "DELETE FROM feature WHERE switch_id = ?",
    /* admin stays, with its password: a reset switch must stay reachable */
    "DELETE FROM user_account WHERE switch_id = ? AND name <> 'admin'",
    NULL,
};

void lab_factory_reset(struct lab *lab, int sw)
{
    for (const char *const *q = config_reset_sql; *q; q++) {
        sqlite3_stmt *st = lab_stmt(lab, *q);
        sqlite3_bind_int(st, 1, lab->sw[sw].id);
        lab_step_done(lab, st);
    }
    lab_set_hostname(lab, sw, lab->sw[sw].name);
    lab->sw[sw].features = 0;
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
