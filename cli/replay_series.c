/* The replay's time series: a sampler on the lab for the replay's
 * duration, its recording written at the end (replay_series.h). */
#include "replay_series.h"
#include "series/series.h"
#include "lab/lab.h"
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct replay_series {
    struct lab *lab;
    FILE *f;
    const char *path, *plots;
    bool kept; /* the lab was recording already (served): not restarted, not stopped */
};

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* The plots' directory: made if missing (one level), else it must be a
 * directory we may write to. */
static bool plots_dir_ok(const char *dir, FILE *err)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(err, "mdsim: --plots: cannot create %s: %s\n", dir, strerror(errno));
        return false;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0) {
        fprintf(err, "mdsim: --plots: %s is not a directory mdsim can write to\n", dir);
        return false;
    }
    return true;
}

struct replay_series *replay_series_start(struct lab *lab, const char *path, const char *plots, FILE *err)
{
    struct replay_series *rs = calloc(1, sizeof *rs);
    if (!rs)
        return NULL;
    rs->path = path;
    rs->plots = plots;
    if (plots && !plots_dir_ok(plots, err)) {
        free(rs);
        return NULL;
    }
    if (!(rs->f = fopen(path, "w"))) {
        fprintf(err, "mdsim: --series: cannot write %s: %s\n", path, strerror(errno));
        free(rs);
        return NULL;
    }
    rs->lab = lab;
    lab_lock(lab);
    /* A served lab records from its start for everyone (lab export, its
     * page): a replay attached to it writes that recording, as lab export. */
    rs->kept = series_running(series_of_lab(lab));
    bool on = rs->kept || series_lab_start(lab);
    lab_unlock(lab);
    if (!on) {
        fclose(rs->f);
        free(rs);
        return NULL;
    }
    return rs;
}

int replay_series_finish(struct replay_series *rs, FILE *err)
{
    if (!rs)
        return 0;
    lab_lock(rs->lab);
    if (rs->kept)
        lab_tick(rs->lab); /* the samples up to now, as lab export takes them */
    else
        series_lab_stop(rs->lab);
    const struct series *s = series_of_lab(rs->lab);
    bool ok = ends_with(rs->path, ".json") ? series_write_json(s, rs->f) : series_write_csv(s, rs->f);
    ok = fclose(rs->f) == 0 && ok;
    if (!ok)
        fprintf(err, "mdsim: --series: cannot write %s: %s\n", rs->path, strerror(errno));
    char msg[512];
    if (rs->plots && !series_write_plots(s, rs->plots, rs->path, msg, sizeof msg)) {
        fprintf(err, "mdsim: --plots: %s\n", msg);
        ok = false;
    }
    lab_unlock(rs->lab);
    free(rs);
    return ok ? 0 : 1;
}

void replay_series_discard(struct replay_series *rs)
{
    if (!rs)
        return;
    lab_lock(rs->lab);
    if (!rs->kept)
        series_lab_stop(rs->lab);
    lab_unlock(rs->lab);
    fclose(rs->f);
    unlink(rs->path);
    free(rs);
}
