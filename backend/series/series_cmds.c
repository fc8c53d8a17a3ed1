/* The lab's time series on a switch's CLI, an mdsim extension (no NX-OS
 * command records them): `series start|stop`, `show series [summary]`,
 * `series export bootflash:NAME.csv|.json`. The recording is the lab's,
 * one for every switch (docs/series.md). */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "series.h"
#include "bootflash/bootflash.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int cmd_series_start(struct session *s, const struct cmd_args *a)
{
    (void)a;
    if (!series_lab_start(s->lab))
        return cmd_error(s, "%% Not enough memory for the time series");
    return 0;
}

static int cmd_series_stop(struct session *s, const struct cmd_args *a)
{
    (void)a;
    series_lab_stop(s->lab);
    return 0;
}

static void show_summary(struct session *s, const struct series *r)
{
    cmd_printf(s, "Time series of the lab (mdsim extension): %s, every %" PRIu64 " s of lab time\n",
               series_running(r) ? "recording" : "stopped", series_period_ns(r) / 1000000000u);
    int n = series_rows(r);
    cmd_printf(s, "  Samples kept: %d of %d", n, series_capacity(r));
    if (n)
        cmd_printf(s, " (lab time %" PRIu64 " s to %" PRIu64 " s)", series_row_time_ns(r, 0) / 1000000000u,
                   series_row_time_ns(r, n - 1) / 1000000000u);
    cmd_printf(s, "\n  Samples taken: %" PRIu64 "\n  Series: %d\n", series_samples_taken(r), series_columns(r));
}

/* Each series' value at the newest sample: a counter's growth over its
 * last interval, a gauge's reading. */
static void show_last(struct session *s, const struct series *r)
{
    int last = series_rows(r) - 1;
    if (last < 0)
        return;
    cmd_printf(s, "\n%-56s %-7s %s\n", "Series", "Kind", "Last");
    for (int c = 0; c < series_columns(r); c++) {
        int64_t v;
        if (!series_value(r, last, c, &v))
            continue;
        cmd_printf(s, "%-56s %-7s %" PRId64 "\n", series_column_name(r, c),
                   series_column_kind(r, c) == SERIES_COUNTER ? "counter" : "gauge", v);
    }
}

static int cmd_show_series(struct session *s, const struct cmd_args *a)
{
    const struct series *r = series_lab_recording(s->lab);
    if (!r)
        return cmd_error(s, "%% Not enough memory for the time series");
    show_summary(s, r);
    if (!arg_has(a, "summary"))
        show_last(s, r);
    return 0;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static int cmd_series_export(struct session *s, const struct cmd_args *a)
{
    const char *path = arg_str(a, "path");
    const struct series *r = series_lab_recording(s->lab);
    if (!r)
        return cmd_error(s, "%% Not enough memory for the time series");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return cmd_error(s, "%% Not enough memory for the export");
    bool ok = ends_with(path, ".json") ? series_write_json(r, f) : series_write_csv(r, f);
    ok = fclose(f) == 0 && ok;
    int rc = ok ? bootflash_save(s, path, (const unsigned char *)buf, len)
                : cmd_error(s, "%% Not enough memory for the export");
    if (rc == 0)
        cmd_printf(s, "%d samples of %d series written to %s (%zu bytes)\n", series_rows(r), series_columns(r),
                   path, len);
    free(buf);
    return rc;
}

const struct cmd_def series_cmds[] = {
    {MODES(MODE_EXEC), "series start",
     "series: Time series of the lab (mdsim extension)\nstart: Record every series each second of lab time",
     cmd_series_start, CMD_ADMIN, 0, 0},
    {MODES(MODE_EXEC), "series stop", "series: Time series of the lab (mdsim extension)\nstop: Stop recording",
     cmd_series_stop, CMD_ADMIN, 0, 0},
    {MODES(MODE_EXEC), "series export <path:word>",
     "series: Time series of the lab (mdsim extension)\nexport: Write the recording to bootflash:\n"
     "path: bootflash:NAME (CSV, JSON when NAME ends in .json)",
     cmd_series_export, CMD_ADMIN, 0, 0},
    {MODES(MODE_EXEC), "show series [summary]",
     "series: Time series of the lab (mdsim extension)\nsummary: The recording only, not the last values",
     cmd_show_series, CMD_PIPE, 0, 0},
    {0},
};
