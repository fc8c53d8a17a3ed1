/* bootflash: a small per-switch file store kept in the lab (storage, not
 * configuration: no running-config, kept by reload, `write erase` and
 * `lab reset`). Bounds: names of 1-63 characters of [A-Za-z0-9._-]
 * without "..", files of at most 1 MB, at most 64 files per switch. */
#ifndef MDSIM_BOOTFLASH_H
#define MDSIM_BOOTFLASH_H
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "grammar.h"

struct lab;

#define BOOTFLASH_NAME_MAX 63
#define BOOTFLASH_FILE_MAX (1024 * 1024)
#define BOOTFLASH_FILES_MAX 64
#define BOOTFLASH_TOTAL 1024606208LL /* bytes, as `dir` reports the device */

/* A copy of the file (malloc'ed, the caller frees *data); false when the
 * switch has no such file. */
bool bootflash_read(struct lab *lab, int sw, const char *name, unsigned char **data, size_t *len);
bool bootflash_exists(struct lab *lab, int sw, const char *name);

/* Is name a valid file name (the bounds above)? */
bool bootflash_name_ok(const char *name);
/* Creates or replaces a file; the caller checked name, size and count. */
void bootflash_write(struct lab *lab, int sw, const char *name, const unsigned char *data, size_t len, time_t mtime);
void bootflash_delete(struct lab *lab, int sw, const char *name);
int bootflash_count(struct lab *lab, int sw);
long long bootflash_used(struct lab *lab, int sw);
/* A file a command made (an export, a capture) saved as PATH
 * (bootflash:NAME or NAME): 0, or -1 after the `%` error that says why
 * (a bad name, over BOOTFLASH_FILE_MAX, no room for another file). */
struct session;
int bootflash_save(struct session *s, const char *path, const unsigned char *data, size_t len);
/* Every file by name: fn(ctx, name, size, mtime). */
void bootflash_each(struct lab *lab, int sw, void (*fn)(void *ctx, const char *name, long long size, time_t mtime),
                    void *ctx);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature bootflash_feature;
extern const struct cmd_def bootflash_cmds[];

#endif
