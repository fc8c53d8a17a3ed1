/* `replay --series FILE [--plots DIR]` (docs/series.md): sample every time
 * series of the lab while the replay runs, then write them out. */
#ifndef MDSIM_REPLAY_SERIES_H
#define MDSIM_REPLAY_SERIES_H
#include <stdio.h>

struct lab;
struct replay_series;

/* Checks that the paths can be written before anything runs: NULL, with
 * the reason on err, when not. plots may be NULL. */
struct replay_series *replay_series_start(struct lab *lab, const char *path, const char *plots, FILE *err);
/* Stops sampling, writes the file (JSON when its name ends in .json, else
 * CSV) and the plots, frees; non-zero, said on err, when a write failed.
 * NULL: nothing to do. */
int replay_series_finish(struct replay_series *rs, FILE *err);
/* Stops sampling and frees, removing the file it had made: the replay did
 * not run (another observer could not start). NULL: nothing to do. */
void replay_series_discard(struct replay_series *rs);

#endif
