/* The bootflash table: one row per file, its bytes as a BLOB. */
#include "bootflash.h"
#include "lab/lab.h"
#include <stdlib.h>
#include <string.h>

static sqlite3_stmt *keyed(struct lab *lab, const char *sql, int sw, const char *name)
{
    sqlite3_stmt *st = lab_stmt(lab, sql);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    if (name)
        sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    return st;
}

bool bootflash_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < 1 || n > BOOTFLASH_NAME_MAX || strstr(name, ".."))
        return false;
    return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

bool bootflash_read(struct lab *lab, int sw, const char *name, unsigned char **data, size_t *len)
{
    sqlite3_stmt *st = keyed(lab, "SELECT bytes FROM bootflash WHERE switch_id = ?1 AND name = ?2", sw, name);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        const void *b = sqlite3_column_blob(st, 0);
        *len = (size_t)sqlite3_column_bytes(st, 0);
        *data = malloc(*len + 1); /* +1: never malloc(0) */
        if (!*data)
            abort();
        if (*len)
            memcpy(*data, b, *len);
    }
    sqlite3_reset(st);
    return found;
}

bool bootflash_exists(struct lab *lab, int sw, const char *name)
{
    sqlite3_stmt *st = keyed(lab, "SELECT 1 FROM bootflash WHERE switch_id = ?1 AND name = ?2", sw, name);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return found;
}

void bootflash_write(struct lab *lab, int sw, const char *name, const unsigned char *data, size_t len, time_t mtime)
{
    sqlite3_stmt *st = keyed(lab, "INSERT OR REPLACE INTO bootflash VALUES (?1, ?2, ?3, ?4)", sw, name);
    sqlite3_bind_blob(st, 3, len ? (const void *)data : "", (int)len, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)mtime);
    lab_step_done(lab, st);
}

void bootflash_delete(struct lab *lab, int sw, const char *name)
{
    lab_step_done(lab, keyed(lab, "DELETE FROM bootflash WHERE switch_id = ?1 AND name = ?2", sw, name));
}

static long long one_number(struct lab *lab, const char *sql, int sw)
{
    sqlite3_stmt *st = keyed(lab, sql, sw, NULL);
    long long v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    return v;
}

int bootflash_count(struct lab *lab, int sw)
{
    return (int)one_number(lab, "SELECT count(*) FROM bootflash WHERE switch_id = ?1", sw);
}

long long bootflash_used(struct lab *lab, int sw)
{
    return one_number(lab, "SELECT coalesce(sum(length(bytes)), 0) FROM bootflash WHERE switch_id = ?1", sw);
}

void bootflash_each(struct lab *lab, int sw, void (*fn)(void *ctx, const char *name, long long size, time_t mtime),
                    void *ctx)
{
    sqlite3_stmt *st = keyed(lab, "SELECT name, length(bytes), mtime FROM bootflash WHERE switch_id = ?1"
                                  " ORDER BY name",
                             sw, NULL);
    while (sqlite3_step(st) == SQLITE_ROW)
        fn(ctx, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1),
           (time_t)sqlite3_column_int64(st, 2));
    sqlite3_reset(st);
}
