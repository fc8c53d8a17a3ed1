/* The source tree's commit at build time, for `mdsim --version`: defined
 * in the build's mdsim_commit.c, which cmake/commit.cmake writes. */
#ifndef MDSIM_COMMIT_H
#define MDSIM_COMMIT_H

extern const char mdsim_commit[];

#endif
