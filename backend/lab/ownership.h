/*
 * Who owns a lab file (DESIGN.md rule 7): the first process to take an
 * flock on LAB-owner/lock. The kernel drops the lock when that process
 * dies, so a crash never leaves a stale owner; an owner that ends
 * normally removes LAB-owner. The owner listens on a
 * UNIX socket whose path is derived from the lab's real path
 * (docs/lab-owner.md).
 */
#ifndef MDSIM_LAB_OWNERSHIP_H
#define MDSIM_LAB_OWNERSHIP_H
#include <stddef.h>
#include <sys/types.h>

struct labown {
    char real[4096];      /* the lab's absolute path (the file may not exist yet) */
    char dir[4200];       /* LAB-owner: private directory (0700) of the lock */
    char lock[4300];      /* LAB-owner/lock: holds the flock and the owner's pid */
    char sock_dir[4200];  /* where the socket lives: dir, or a runtime directory */
    char sock[108];       /* fits sockaddr_un.sun_path */
    int fd;               /* the lock, while held; else -1 */
};

/* Fills the paths for the lab at `path`; creates the private directories
 * (refusing one that is not ours or not 0700). 0, or -1 with err set. */
int labown_init(struct labown *o, const char *path, char *err, size_t errlen);
/* 1: this process now owns the lab (the lock stays held until exit);
 * 0: another process owns it; -1: error, err set. */
int labown_try_lock(struct labown *o, char *err, size_t errlen);
/* Leaves the lab: removes the lock file and its directory, then unlocks. */
void labown_release(struct labown *o);
/* The pid the owner wrote into the lock file, or 0 when unknown. */
pid_t labown_holder(const struct labown *o);

#endif
