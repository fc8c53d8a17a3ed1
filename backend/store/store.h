/* The lab file: opening it safely, migrating its schema, cached statements. */
#ifndef MDSIM_STORE_H
#define MDSIM_STORE_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdbool.h>

/* Opens (creating when missing) a lab file and brings its schema up to
 * date. Refuses, with a message and without writing a byte, a file that is
 * not an mdsim lab or was written by a newer mdsim. *created tells whether
 * the file was new (the caller then populates the lab). */
sqlite3 *store_open(const char *path, bool *created, char *err, size_t errlen);
/* The permission check store_open makes (the lab and its -wal, -shm made
 * 0600 with a warning when ours), for a process that attaches to the
 * lab's owner instead of opening it. */
bool store_check_private(const char *path, char *err, size_t errlen);

/* A copy of an open store in memory, taken in one read transaction. */
sqlite3 *store_copy(sqlite3 *src, char *err, size_t errlen);
/* A consistent copy in memory of the lab file at path, its schema brought
 * up to date in the copy: the file is opened read-only, so not a byte of
 * it is written, and read without any lock of mdsim's, so a lab that
 * another process owns (serves) can be copied while it runs. */
sqlite3 *store_snapshot(const char *path, char *err, size_t errlen);

struct stmt_cache;
struct stmt_cache *stmt_cache_new(sqlite3 *db);
void stmt_cache_free(struct stmt_cache *c);
/* A prepared statement for a static SQL string, reset and unbound. */
sqlite3_stmt *stmt_get(struct stmt_cache *c, const char *sql);
/* Resets every cached statement: a statement left on a row keeps a read
 * transaction open, and with it a stale snapshot that makes the next write
 * fail with "database is locked" once another process has written. */
void stmt_cache_reset_all(struct stmt_cache *c);

extern const char *const schema_migrations[];
extern const int schema_version;

#endif
