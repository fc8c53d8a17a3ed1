/* The owner lock of a lab: flock(2) on a sidecar file, not on the lab.
 * flock is independent of SQLite's POSIX record locks on Linux, but on
 * NFS it is emulated with them and would then fight SQLite's own; and a
 * sidecar can be locked before the lab file exists, so two processes that
 * create the default lab at once do not race. */
#include "ownership.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p of the parents of path (the lab's own directory). */
static void make_parents(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0700);
            *s = '/';
        }
}

/* A directory only we can enter: made 0700, or an existing one that is
 * ours, not a symbolic link and closed to others. */
static int private_dir(const char *d, char *err, size_t n)
{
    struct stat st;
    if (mkdir(d, 0700) != 0 && errno != EEXIST) {
        snprintf(err, n, "cannot create %s: %s", d, strerror(errno));
        return -1;
    }
    if (lstat(d, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
        snprintf(err, n, "%s is not a private directory of yours (mode 0700); remove it", d);
        return -1;
    }
    return 0;
}

/* The lab's absolute path with symbolic links resolved, also for a file
 * that does not exist yet: its directory resolved, its name appended. */
static int real_path(const char *path, char *out, size_t n, char *err, size_t errlen)
{
    char buf[PATH_MAX], dcopy[4096], bcopy[4096];
    if (realpath(path, buf)) {
        snprintf(out, n, "%s", buf);
        return 0;
    }
    make_parents(path);
    snprintf(dcopy, sizeof dcopy, "%s", path);
    snprintf(bcopy, sizeof bcopy, "%s", path);
    if (!realpath(dirname(dcopy), buf)) {
        snprintf(err, errlen, "cannot resolve %s: %s", path, strerror(errno));
        return -1;
    }
    if ((size_t)snprintf(out, n, "%s/%s", strcmp(buf, "/") ? buf : "", basename(bcopy)) >= n) {
        snprintf(err, errlen, "path too long: %s", path);
        return -1;
    }
    return 0;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* Beside the lab when the path fits sun_path, else in the user's runtime
 * directory under a name derived from the lab's real path. */
static int socket_path(struct labown *o, char *err, size_t n)
{
    if (strlen(o->dir) + sizeof "/sock" <= sizeof o->sock) {
        snprintf(o->sock_dir, sizeof o->sock_dir, "%s", o->dir);
        memcpy(o->sock, o->dir, strlen(o->dir));
        memcpy(o->sock + strlen(o->dir), "/sock", sizeof "/sock");
        return 0;
    }
    const char *rt = getenv("XDG_RUNTIME_DIR");
    if (rt && *rt == '/' && strlen(rt) < 60) {
        snprintf(o->sock_dir, sizeof o->sock_dir, "%s/mdsim", rt);
    } else {
        snprintf(o->sock_dir, sizeof o->sock_dir, "/tmp/mdsim-%lu", (unsigned long)geteuid());
    }
    if (private_dir(o->sock_dir, err, n) != 0)
        return -1;
    char name[32];
    snprintf(name, sizeof name, "/%016llx.sock", (unsigned long long)fnv1a(o->real));
    if (strlen(o->sock_dir) + strlen(name) >= sizeof o->sock) {
        snprintf(err, n, "no socket path short enough for %s", o->real);
        return -1;
    }
    memcpy(o->sock, o->sock_dir, strlen(o->sock_dir));
    memcpy(o->sock + strlen(o->sock_dir), name, strlen(name) + 1);
    return 0;
}

int labown_init(struct labown *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (real_path(path, o->real, sizeof o->real, err, errlen) != 0)
        return -1;
    snprintf(o->dir, sizeof o->dir, "%s-owner", o->real);
    snprintf(o->lock, sizeof o->lock, "%s/lock", o->dir);
    if (private_dir(o->dir, err, errlen) != 0)
        return -1;
    return socket_path(o, err, errlen);
}

/* Opens LAB-owner/lock, making the directory again if an owner that
 * just left removed it. */
static int open_lock(struct labown *o, char *err, size_t errlen)
{
    for (int tries = 0; tries < 10; tries++) {
        int fd = open(o->lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0 || errno != ENOENT)
            return fd;
        if (private_dir(o->dir, err, errlen) != 0)
            return -2;
    }
    return -1;
}

/* The file locked must still be the one at the path: an owner removes it
 * as it leaves, and a lock taken on a removed file protects nothing. */
static bool still_there(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int labown_try_lock(struct labown *o, char *err, size_t errlen)
{
    int fd;
    for (;;) {
        if ((fd = open_lock(o, err, errlen)) < 0) {
            if (fd == -1)
                snprintf(err, errlen, "cannot open %s: %s", o->lock, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK)
                return 0;
            snprintf(err, errlen, "cannot lock %s: %s", o->lock, strerror(e));
            return -1;
        }
        if (still_there(fd, o->lock))
            break;
        close(fd);
    }
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
        snprintf(err, errlen, "cannot write %s: %s", o->lock, strerror(errno));
        close(fd);
        return -1;
    }
    o->fd = fd; /* held until labown_release or the process's end */
    return 1;
}

void labown_release(struct labown *o)
{
    if (o->fd < 0)
        return;
    unlink(o->lock); /* while still locked: see still_there */
    rmdir(o->dir);   /* fails, harmlessly, when not empty */
    close(o->fd);
    o->fd = -1;
}

pid_t labown_holder(const struct labown *o)
{
    char buf[32] = "";
    int fd = open(o->lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return (pid_t)atol(buf);
}
