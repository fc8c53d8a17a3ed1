/* Reads a small file whole: lab files, check files. */
#ifndef MDSIM_SLURP_H
#define MDSIM_SLURP_H

/* A lab file is at most 1 MiB (backend/lab/topology.c says so with its
 * size): a larger one (/dev/zero) is read no further than past SLURP_MAX,
 * so that the reader's own limit can refuse it by its length. */
#define SLURP_MAX ((size_t)2 << 20)

/* The file's bytes, NUL-terminated (malloc'd), or NULL with errno set. */
char *slurp(const char *path);

#endif
