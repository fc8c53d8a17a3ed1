#include "reserve.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static void reserve_path(const char *lab_path, char *buf, size_t n)
{
    snprintf(buf, n, "%s-reserve", lab_path);
}

static bool room_for(const char *path, unsigned long long bytes)
{
    struct statvfs v;
    return statvfs(path, &v) == 0 && (unsigned long long)v.f_bavail * v.f_frsize >= bytes;
}

void store_reserve_make(const char *lab_path)
{
    char path[4096];
    struct stat st;
    reserve_path(lab_path, path, sizeof path);
    if (stat(path, &st) == 0 && st.st_size >= STORE_RESERVE_BYTES)
        return;
    if (!room_for(lab_path, 4ull * STORE_RESERVE_BYTES))
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return;
    /* really allocated, not a hole: the point is the blocks */
    if (posix_fallocate(fd, 0, STORE_RESERVE_BYTES) != 0)
        unlink(path);
    close(fd);
}

bool store_reserve_release(const char *lab_path)
{
    char path[4096];
    reserve_path(lab_path, path, sizeof path);
    return unlink(path) == 0;
}
