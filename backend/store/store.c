#include "store.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 'MDSL' in the SQLite header marks a file as an mdsim lab. */
enum { MDSIM_APP_ID = 0x4D44534C };

static long long pragma_int(sqlite3 *db, const char *sql, int *rc)
{
    sqlite3_stmt *st;
    long long v = -1;
    *rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (*rc != SQLITE_OK)
        return -1;
    *rc = sqlite3_step(st);
    if (*rc == SQLITE_ROW) {
        v = sqlite3_column_int64(st, 0);
        *rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return v;
}

/* Reads what the file says it is, before anything is written to it. */
static bool check_identity(sqlite3 *db, const char *path, long long *version, char *err, size_t n)
{
    int rc;
    long long app = pragma_int(db, "PRAGMA application_id", &rc);
    if (rc != SQLITE_OK) {
        snprintf(err, n, "%s is not an mdsim lab (%s)", path, sqlite3_errmsg(db));
        return false;
    }
    long long tables = pragma_int(db, "SELECT count(*) FROM sqlite_master", &rc);
    *version = pragma_int(db, "PRAGMA user_version", &rc);
    if (app != MDSIM_APP_ID && (app != 0 || tables != 0)) {
        snprintf(err, n, "%s is not an mdsim lab (it is another SQLite database)", path);
        return false;
    }
    if (*version > schema_version) {
        snprintf(err, n, "%s was written by a newer mdsim (schema %lld, this one knows %d); not opening it",
                 path, *version, schema_version);
        return false;
    }
    return true;
}

static bool migrate(sqlite3 *db, long long from, char *err, size_t n)
{
    for (long long v = from; v < schema_version; v++) {
        char set[96];
        snprintf(set, sizeof set, "PRAGMA user_version = %lld; PRAGMA application_id = %d;", v + 1,
                 MDSIM_APP_ID);
        char *msg = NULL;
        if (sqlite3_exec(db, "BEGIN", NULL, NULL, &msg) != SQLITE_OK ||
            sqlite3_exec(db, schema_migrations[v], NULL, NULL, &msg) != SQLITE_OK ||
            sqlite3_exec(db, set, NULL, NULL, &msg) != SQLITE_OK ||
            sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
            snprintf(err, n, "schema migration %lld failed: %s", v + 1, msg ? msg : "?");
            sqlite3_free(msg);
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return false;
        }
    }
    return true;
}

static void make_parent_dirs(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0700);
            *s = '/';
        }
    free(p);
}

/* The lab holds password hashes and the SSH host private key: only its
 * owner may read it. A new file is made 0600 before SQLite opens it, and
 * SQLite gives its -wal and -shm files the mode of the main file. */
static bool create_private(const char *path, char *err, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, n, "cannot create %s: %s", path, strerror(errno));
        return false;
    }
    close(fd);
    return true;
}

/* An existing lab (or its -wal, -shm) readable or writable by others:
 * its owner gets it made 0600 with a warning; anybody else is refused,
 * as they could not fix it and should not use it as it is. */
static bool check_private(const char *path, const char *lab, char *err, size_t n)
{
    struct stat st;
    if (stat(path, &st) != 0 || !(st.st_mode & 066))
        return true;
    unsigned mode = (unsigned)st.st_mode & 0777;
    if (st.st_uid != geteuid()) {
        snprintf(err, n,
                 "%s is readable or writable by other users (mode %04o) and is not yours; not opening it: "
                 "it holds password hashes and the SSH host key (its owner can run chmod 600 %s)",
                 path, mode, path);
        return false;
    }
    if (chmod(path, 0600) != 0) {
        snprintf(err, n, "cannot make %s private (mode %04o): %s", path, mode, strerror(errno));
        return false;
    }
    fprintf(stderr, "mdsim: warning: %s was readable or writable by other users (mode %04o); made it 0600, "
                    "as %s holds password hashes and the SSH host key\n", path, mode, lab);
    return true;
}

static bool lab_files_private(const char *path, char *err, size_t n)
{
    static const char *const sides[] = {"", "-wal", "-shm"};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        char p[4200];
        snprintf(p, sizeof p, "%s%s", path, sides[i]);
        if (!check_private(p, path, err, n))
            return false;
    }
    return true;
}

bool store_check_private(const char *path, char *err, size_t errlen)
{
    return access(path, F_OK) != 0 || lab_files_private(path, err, errlen);
}

static void no_memstatus(void) { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

sqlite3 *store_open(const char *path, bool *created, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    *created = access(path, F_OK) != 0;
    if (*created) {
        make_parent_dirs(path);
        if (!create_private(path, err, errlen))
            return NULL;
    } else if (!lab_files_private(path, err, errlen)) {
        return NULL;
    }
    /* No mutex of SQLite's: every use of a lab's connection is under the
     * lab lock (lab.c checks it in debug builds), and SQLite's own locking
     * on every call, with its allocator's statistics, was a sixth of a
     * replay's time (docs/store.md). */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, no_memstatus);
    int flags = SQLITE_OPEN_READWRITE | (*created ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : strerror(errno));
        sqlite3_close(db);
        return NULL;
    }
    long long version;
    if (!check_identity(db, path, &version, err, errlen)) {
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 5000);
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
                 NULL, NULL, NULL);
    if (!migrate(db, version, err, errlen)) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

sqlite3 *store_copy(sqlite3 *src, char *err, size_t errlen)
{
    sqlite3 *db;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_backup *b = sqlite3_backup_init(db, "main", src, "main");
    int rc = b ? sqlite3_backup_step(b, -1) : sqlite3_errcode(db);
    if (b)
        sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s", sqlite3_errstr(rc));
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
    return db;
}

/* The lab file opened read-only, when it is an mdsim lab this mdsim knows. */
static bool open_readonly(const char *path, sqlite3 **db, long long *version, char *err, size_t n)
{
    if (access(path, F_OK) != 0) {
        snprintf(err, n, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        snprintf(err, n, "cannot open %s: %s", path, *db ? sqlite3_errmsg(*db) : strerror(errno));
        return false;
    }
    if (!check_identity(*db, path, version, err, n))
        return false;
    if (*version <= 0)
        snprintf(err, n, "%s is not an mdsim lab (it is empty)", path);
    return *version > 0;
}

/* In WAL mode a reader takes no lock a writer waits for: the owner's
 * commands go on while the backup reads, and the copy is one snapshot. */
sqlite3 *store_snapshot(const char *path, char *err, size_t errlen)
{
    sqlite3 *src = NULL, *copy = NULL;
    long long version = 0;
    if (open_readonly(path, &src, &version, err, errlen)) {
        sqlite3_busy_timeout(src, 5000);
        copy = store_copy(src, err, errlen);
    }
    sqlite3_close(src);
    if (copy && !migrate(copy, version, err, errlen)) {
        sqlite3_close(copy);
        copy = NULL;
    }
    return copy;
}

/* Statements keyed by the address of their static SQL text. Those handed
 * out since the last stmt_cache_reset_all are listed in `out`: only they
 * can be left on a row. */
struct stmt_cache {
    sqlite3 *db;
    int n, cap, nout;
    struct {
        const char *sql;
        sqlite3_stmt *st;
        bool out;
    } *e;
    int *out; /* indexes into e, nout of them */
};

struct stmt_cache *stmt_cache_new(sqlite3 *db)
{
    struct stmt_cache *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->db = db;
    return c;
}

void stmt_cache_free(struct stmt_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++)
        sqlite3_finalize(c->e[i].st);
    free(c->e);
    free(c->out);
    free(c);
}

static sqlite3_stmt *hand_out(struct stmt_cache *c, int i)
{
    if (!c->e[i].out) {
        c->e[i].out = true;
        c->out[c->nout++] = i;
    }
    return c->e[i].st;
}

sqlite3_stmt *stmt_get(struct stmt_cache *c, const char *sql)
{
    for (int i = 0; i < c->n; i++)
        if (c->e[i].sql == sql) {
            sqlite3_reset(c->e[i].st);
            sqlite3_clear_bindings(c->e[i].st);
            return hand_out(c, i);
        }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "mdsim: bad SQL (%s): %s\n", sqlite3_errmsg(c->db), sql);
        abort(); /* a programming error, not a user one */
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 32;
        c->e = realloc(c->e, (size_t)c->cap * sizeof *c->e);
        c->out = realloc(c->out, (size_t)c->cap * sizeof *c->out);
        if (!c->e || !c->out)
            abort();
    }
    c->e[c->n].sql = sql;
    c->e[c->n].st = st;
    c->e[c->n].out = false;
    return hand_out(c, c->n++);
}

/* After every command (lab_unlock): the statements it used, not all. */
void stmt_cache_reset_all(struct stmt_cache *c)
{
    for (int k = 0; k < c->nout; k++) {
        sqlite3_reset(c->e[c->out[k]].st);
        c->e[c->out[k]].out = false;
    }
    c->nout = 0;
}
