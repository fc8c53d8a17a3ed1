/*
 * Time series of a lab (docs/series.md): a sampler on lab time reads the
 * read model (record/record.h: each numeric field of each record is a
 * series, "MDS1.fcip1.tx_bytes") at each period boundary into a bounded ring, for export as CSV or JSON and for
 * plots drawn by mdsim itself. The sampler only reads: it runs between
 * engine events (engine_on_tick), so the simulation runs the same events
 * in the same order with it or without.
 */
#ifndef MDSIM_SERIES_H
#define MDSIM_SERIES_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "grammar.h"

struct lab;
struct series;

/* How a series is exported: a counter as its growth over each interval
 * (a counter that went down was cleared: it counts from zero again), a
 * gauge as its value at the sample. */
enum series_kind { SERIES_COUNTER, SERIES_GAUGE };

#define SERIES_PERIOD_NS 1000000000ULL /* one second of lab time */
#define SERIES_CAPACITY 3600           /* samples kept per lab; the oldest go */

/* The lab's recording: one per lab, kept by the lab and freed when it
 * closes (lab_set_observer). `series start` on a switch, `serve` and
 * `replay --series` turn it on; whoever reads it (an export, a page the
 * owner serves) takes the lab's lock (lab_lock) first, as the sampler
 * runs under it. On real time the clock thread sleeps while no event is
 * due: a reader that wants the samples up to now calls lab_tick(lab)
 * under the lock first (the rows it adds are the same it would add
 * later).
 *
 * series_of_lab: the recording, NULL until it was first started.
 * series_lab_recording: the same, made (stopped, empty) when the lab had
 * none; NULL only when out of memory.
 * series_lab_start: on, a sample every SERIES_PERIOD_NS of lab time, the
 * last SERIES_CAPACITY kept; one that was stopped starts empty (its
 * columns and its sample numbers go on); false when out of memory.
 * series_lab_stop: off; what was recorded stays readable. */
struct series *series_of_lab(struct lab *lab);
struct series *series_lab_recording(struct lab *lab);
bool series_lab_start(struct lab *lab);
void series_lab_stop(struct lab *lab);
bool series_running(const struct series *s); /* false for NULL */

/* Samples are numbered from 0, the first the recording ever took: row r
 * (below) holds sample series_first_index(s) + r, and the newest is
 * series_samples_taken(s) - 1. A reader that polls keeps the next number
 * it wants, `next`, and reads rows from next - first (from 0 when next <
 * first: the ring dropped some) to series_rows(s) - 1. Columns only ever
 * get added, so a column's index never changes. */
uint64_t series_first_index(const struct series *s);
int series_capacity(const struct series *s);

/* What was recorded, for the exports: rows oldest first, columns in the
 * order they first appeared. value is false where the series did not
 * exist at that sample (a tunnel created later); a counter's value is
 * its growth since the previous sample. */
int series_rows(const struct series *s);
int series_columns(const struct series *s);
uint64_t series_row_time_ns(const struct series *s, int row);
const char *series_column_name(const struct series *s, int col);
enum series_kind series_column_kind(const struct series *s, int col);
bool series_value(const struct series *s, int row, int col, int64_t *value);
uint64_t series_period_ns(const struct series *s);
uint64_t series_samples_taken(const struct series *s);

/* Exports (series_export.c): one row per sample; false with errno set
 * when the file could not be written. */
bool series_write_csv(const struct series *s, FILE *f);
bool series_write_json(const struct series *s, FILE *f);
/* The JSON of the rows from sample number next on (series_first_index),
 * with "first_index": the number of its first row, for a reader that
 * polls; series_write_json is series_write_json_from(s, 0, f). */
bool series_write_json_from(const struct series *s, uint64_t next, FILE *f);

/* Plots (series_plot.c): one SVG per FCIP tunnel and per netsim
 * direction into dir, the same bytes for the same recording, and
 * dir/plots.gp, a gnuplot script drawing the same from csv_path. False
 * with a message in err when a file could not be written. */
bool series_write_plots(const struct series *s, const char *dir, const char *csv_path, char *err, size_t errlen);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature series_feature;
extern const struct cmd_def series_cmds[];

#endif
