#include "labcmd.h"
#include "lab/lab.h"
#include "lab/topology.h"
#include "series/series.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static int lab_list(struct lab *lab, FILE *out, FILE *err)
{
    (void)err;
    lab_lock(lab);
    fprintf(out, "%-10s %-10s %s\n", "Switch", "Hostname", "Chassis");
    for (int i = 0; i < lab_switch_count(lab); i++)
        fprintf(out, "%-10s %-10s %s\n", lab_switch_name(lab, i), lab_hostname(lab, i),
                lab_switch_chassis(lab, i));
    for (int i = lab_switch_count(lab); i < lab_node_count(lab); i++) /* in serve's port order */
        fprintf(out, "%-10s %-10s %s\n", lab_switch_name(lab, i), lab_hostname(lab, i),
                lab_is_array(lab, i) ? "(array)" : "(host)");
    lab_unlock(lab);
    return 0;
}

static int lab_show(struct lab *lab, FILE *out, FILE *err)
{
    (void)err;
    lab_lock(lab);
    topology_print(lab, out);
    lab_unlock(lab);
    return 0;
}

static int lab_reset(struct lab *lab, FILE *out, FILE *err) { return labcmd_reset(lab, -1, out, err); }

int labcmd_reset(struct lab *lab, int sw, FILE *out, FILE *err)
{
    char why[4600];
    if (!topology_reset(lab, sw, out, why, sizeof why)) { /* it takes the lab lock itself */
        fprintf(err, "mdsim: lab reset: %s; nothing was reset\n", why);
        return 1;
    }
    return 0;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* The recording as it is now (the clock caught up first), under the lock. */
static int export_locked(struct lab *lab, const char *path, const char *plots, FILE *err)
{
    lab_tick(lab);
    const struct series *r = series_of_lab(lab);
    if (!r || (!series_running(r) && series_rows(r) == 0)) {
        fprintf(err, "mdsim: lab export: the lab has recorded no time series: they are recorded while it runs"
                     " (`mdsim serve`, or `series start` on a switch; `replay --series` for a replay)\n");
        return 1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(err, "mdsim: lab export: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    bool ok = ends_with(path, ".json") ? series_write_json(r, f) : series_write_csv(r, f);
    if (!(fclose(f) == 0 && ok)) {
        fprintf(err, "mdsim: lab export: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    char msg[512];
    if (plots && mkdir(plots, 0777) != 0 && errno != EEXIST) {
        fprintf(err, "mdsim: lab export: --plots: cannot create %s: %s\n", plots, strerror(errno));
        return 1;
    }
    if (plots && !series_write_plots(r, plots, path, msg, sizeof msg)) {
        fprintf(err, "mdsim: lab export: --plots: %s\n", msg);
        return 1;
    }
    return 0;
}

int labcmd_export(struct lab *lab, const char *series_path, const char *plots, FILE *out, FILE *err)
{
    (void)out;
    lab_lock(lab);
    int rc = export_locked(lab, series_path, plots, err);
    lab_unlock(lab);
    return rc;
}

static const struct {
    const char *name;
    int (*fn)(struct lab *lab, FILE *out, FILE *err);
} cmds[] = {
    {"list", lab_list},
    {"show", lab_show},
    {"reset", lab_reset},
};

int labcmd_run(struct lab *lab, const char *what, FILE *out, FILE *err)
{
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(cmds[i].name, what) == 0)
            return cmds[i].fn(lab, out, err);
    return -1;
}
