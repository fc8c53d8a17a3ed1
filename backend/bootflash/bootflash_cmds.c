/* The bootflash: commands: dir, copy (a host file, or a bootflash: file,
 * to bootflash:), delete and show file.
 *
 * `copy FILE bootflash:NAME` is the one place mdsim reads a host file on
 * a user's behalf. It is allowed only to sessions without a login (the
 * local console, replay, stdin: they run as the user who started mdsim),
 * never to telnet/SSH sessions of `mdsim serve`, whose users are not
 * that Unix user (docs/bootflash.md). Only regular files of at most 1 MB. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "bootflash.h"
#include "md5.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NO_SUCH_FILE "No such file or directory"

/* "bootflash:NAME", "bootflash:/NAME", "bootflash:///NAME", or a bare
 * NAME (bootflash: is the current directory): the name, "" for the
 * device itself; NULL for another device. */
static const char *bootflash_path(const char *path)
{
    const char *colon = strchr(path, ':');
    if (colon) {
        if ((size_t)(colon - path) != strlen("bootflash") || strncmp(path, "bootflash", 9) != 0)
            return NULL;
        path = colon + 1;
    }
    while (*path == '/')
        path++;
    return path;
}

/* The file name of a path, or NULL after printing why it is none. */
static const char *file_arg(struct session *s, const char *path)
{
    const char *name = bootflash_path(path);
    if (!name || !*name) {
        cmd_error(s, "%% Invalid file name: %s", path);
        return NULL;
    }
    if (!bootflash_name_ok(name)) {
        cmd_error(s, "%% Invalid file name: %s (1-%d characters of A-Z a-z 0-9 . _ -, no \"..\")", path,
                  BOOTFLASH_NAME_MAX);
        return NULL;
    }
    return name;
}

struct dir_ctx {
    struct session *s;
    const char *only; /* a single file, or NULL */
    int shown;
};

static void dir_row(void *ctx, const char *name, long long size, time_t mtime)
{
    struct dir_ctx *d = ctx;
    struct tm tm;
    char when[32];
    if (d->only && strcmp(d->only, name) != 0)
        return;
    gmtime_r(&mtime, &tm);
    strftime(when, sizeof when, "%b %d %H:%M:%S %Y", &tm);
    cmd_printf(d->s, "%11lld    %s  %s\n", size, when, name);
    d->shown++;
}

static int cmd_dir(struct session *s, const struct cmd_args *a)
{
    const char *path = arg_has(a, "path") ? arg_str(a, "path") : "bootflash:";
    const char *name = bootflash_path(path);
    if (!name || (*name && !bootflash_exists(s->lab, s->sw, name)))
        return cmd_error(s, NO_SUCH_FILE);
    struct dir_ctx d = {s, *name ? name : NULL, 0};
    bootflash_each(s->lab, s->sw, dir_row, &d);
    long long used = bootflash_used(s->lab, s->sw);
    cmd_printf(s, "\nUsage for bootflash://sup-local\n%11lld bytes used\n%11lld bytes free\n%11lld bytes total\n",
               used, BOOTFLASH_TOTAL - used, BOOTFLASH_TOTAL);
    return 0;
}

/* Reads a regular host file of at most BOOTFLASH_FILE_MAX bytes. */
static unsigned char *host_read(struct session *s, const char *path, size_t *len)
{
    char full[8192];
    if (s->cwd && path[0] != '/' && /* relative to the mdsim the user typed in */
        (size_t)snprintf(full, sizeof full, "%s/%s", s->cwd, path) >= sizeof full) {
        cmd_error(s, "%% Cannot open %s: %s", path, strerror(ENAMETOOLONG)); /* never a truncated path */
        return NULL;
    }
    int fd = open(s->cwd && path[0] != '/' ? full : path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY); /* a FIFO must not block the lab */
    if (fd < 0) {
        cmd_error(s, "%% Cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat sb;
    unsigned char *buf = NULL;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        cmd_error(s, "%% %s is not a regular file", path);
    } else if (sb.st_size > BOOTFLASH_FILE_MAX) {
        cmd_error(s, "%% File too large: %s (limit is %d bytes)", path, BOOTFLASH_FILE_MAX);
    } else if (!(buf = malloc(BOOTFLASH_FILE_MAX + 1))) {
        abort();
    } else {
        size_t n = 0; /* read to the end: the file may have grown since fstat */
        ssize_t r;
        while (n <= BOOTFLASH_FILE_MAX && (r = read(fd, buf + n, BOOTFLASH_FILE_MAX + 1 - n)) > 0)
            n += (size_t)r;
        if (r < 0 || n > BOOTFLASH_FILE_MAX) {
            cmd_error(s, r < 0 ? "%% Cannot read %s" : "%% File too large: %s (limit is 1048576 bytes)", path);
            free(buf);
            buf = NULL;
        }
        *len = n;
    }
    close(fd);
    return buf;
}

static int cmd_copy(struct session *s, const struct cmd_args *a)
{
    const char *src = arg_str(a, "source"), *dst = arg_str(a, "destination");
    if (!bootflash_path(dst))
        return cmd_error(s, "%% Invalid destination: %s (only bootflash: can be written)", dst);
    const char *name = file_arg(s, dst);
    if (!name)
        return -1;
    unsigned char *data = NULL;
    size_t len = 0;
    if (strncmp(src, "bootflash:", 10) == 0) {
        const char *from = file_arg(s, src);
        if (!from)
            return -1;
        if (!bootflash_read(s->lab, s->sw, from, &data, &len))
            return cmd_error(s, "%% %s: " NO_SUCH_FILE, src);
    } else if (strchr(src, ':')) {
        return cmd_error(s, "%% Invalid source: %s (a host file, or bootflash:NAME)", src);
    } else if (s->check_account) {
        return cmd_error(s, "%% Permission denied: host files can be copied only from the local console");
    } else if (!(data = host_read(s, src, &len))) {
        return -1;
    }
    if (!bootflash_exists(s->lab, s->sw, name) && bootflash_count(s->lab, s->sw) >= BOOTFLASH_FILES_MAX) {
        free(data);
        return cmd_error(s, "%% bootflash: is full (limit is %d files)", BOOTFLASH_FILES_MAX);
    }
    bootflash_write(s->lab, s->sw, name, data, len, lab_time(s->lab, s->sw, NULL));
    free(data);
    cmd_printf(s, "Copy complete.\n");
    return 0;
}

int bootflash_save(struct session *s, const char *path, const unsigned char *data, size_t len)
{
    const char *name = file_arg(s, path);
    if (!name)
        return -1;
    if (len > BOOTFLASH_FILE_MAX)
        return cmd_error(s, "%% File too large: %zu bytes for %s (limit is %d bytes)", len, path, BOOTFLASH_FILE_MAX);
    if (!bootflash_exists(s->lab, s->sw, name) && bootflash_count(s->lab, s->sw) >= BOOTFLASH_FILES_MAX)
        return cmd_error(s, "%% bootflash: is full (limit is %d files)", BOOTFLASH_FILES_MAX);
    bootflash_write(s->lab, s->sw, name, data, len, lab_time(s->lab, s->sw, NULL));
    return 0;
}

static int cmd_delete(struct session *s, const struct cmd_args *a)
{
    const char *path = arg_str(a, "path");
    const char *name = bootflash_path(path);
    char question[128];
    if (!name || !*name || !bootflash_name_ok(name) || !bootflash_exists(s->lab, s->sw, name))
        return cmd_error(s, NO_SUCH_FILE);
    snprintf(question, sizeof question, "Do you want to delete \"/%s\" ? (yes/no/abort)   [n]", name);
    if (!cmd_confirm(s, question))
        return 0;
    bootflash_delete(s->lab, s->sw, name);
    return 0;
}

/* Text: printable ASCII, tabs, line ends and UTF-8 bytes, no NUL or
 * other control characters (which would reach the user's terminal). */
static bool is_text(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t') || p[i] == 0x7f)
            return false;
    return true;
}

static int cmd_show_file(struct session *s, const struct cmd_args *a)
{
    const char *path = arg_str(a, "path");
    const char *name = bootflash_path(path);
    unsigned char *data;
    size_t len;
    if (!name || !*name || !bootflash_name_ok(name) || !bootflash_read(s->lab, s->sw, name, &data, &len))
        return cmd_error(s, NO_SUCH_FILE);
    if (arg_has(a, "md5sum")) {
        char hex[33];
        md5_hex(data, len, hex);
        cmd_printf(s, "%s\n", hex);
    } else if (!is_text(data, len)) {
        cmd_printf(s, "bootflash:%s is a binary file (%zu bytes): not shown\n", name, len);
    } else if (len) {
        cmd_printf(s, "%.*s%s", (int)len, (const char *)data, data[len - 1] == '\n' ? "" : "\n");
    }
    free(data);
    return 0;
}


const struct cmd_def bootflash_cmds[] = {
    {MODES(MODE_EXEC), "dir [<path:word>]", "dir: List files in a directory\npath: bootflash: or bootflash:NAME", cmd_dir,
     CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "copy <source:word> <destination:word>",
     "copy: Copy from one file to another\nsource: A host file, or bootflash:NAME\n"
     "destination: bootflash:NAME",
     cmd_copy, CMD_ADMIN, 0, 0},
    {MODES(MODE_EXEC), "delete <path:word>", "delete: Delete a file\n" "path: bootflash:NAME", cmd_delete, CMD_ADMIN | CMD_FREES,
     0, 0},
    {MODES(MODE_EXEC), "show file <path:word> [md5sum]",
     "file: Display contents of a file\n" "path: bootflash:NAME\nmd5sum: Display the MD5 checksum of the file", cmd_show_file, CMD_PIPE, 0, 0},
    {0},
};
