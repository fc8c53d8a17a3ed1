/* CSV and JSON of a recording (series.h). Numbers are printed as exact
 * integers by the C library's integer conversions, which no locale
 * changes; the lab time is whole seconds, with nanoseconds after a point
 * only when the period is not whole seconds. */
#include "series.h"
#include <inttypes.h>

static void put_time(FILE *f, uint64_t ns)
{
    if (ns % 1000000000u)
        fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
    else
        fprintf(f, "%" PRIu64, ns / 1000000000u);
}

/* Header `lab_time_s,` then the series' names (each with its unit); then a
 * row per sample; an empty field where a series did not exist. */
bool series_write_csv(const struct series *s, FILE *f)
{
    int ncol = series_columns(s);
    fputs("lab_time_s", f);
    for (int c = 0; c < ncol; c++)
        fprintf(f, ",%s", series_column_name(s, c));
    fputc('\n', f);
    for (int r = 0; r < series_rows(s); r++) {
        put_time(f, series_row_time_ns(s, r));
        for (int c = 0; c < ncol; c++) {
            int64_t v;
            fputc(',', f);
            if (series_value(s, r, c, &v))
                fprintf(f, "%" PRId64, v);
        }
        fputc('\n', f);
    }
    return !ferror(f);
}

/* {"period_s": 1, "first_index": N, "lab_time_s": [...], "series":
 * [{"name", "kind", "values": [...]}]}, null where a series did not
 * exist; names need no escaping beyond what is done (they are interface
 * and WWN spellings). */
bool series_write_json_from(const struct series *s, uint64_t next, FILE *f)
{
    uint64_t first = series_first_index(s);
    int nrow = series_rows(s);
    int from = next <= first ? 0 : next - first < (uint64_t)nrow ? (int)(next - first) : nrow;
    fputs("{\n  \"period_s\": ", f);
    put_time(f, series_period_ns(s));
    fprintf(f, ",\n  \"first_index\": %" PRIu64 ",\n  \"lab_time_s\": [", first + (uint64_t)from);
    for (int r = from; r < nrow; r++) {
        fputs(r > from ? ", " : "", f);
        put_time(f, series_row_time_ns(s, r));
    }
    fputs("],\n  \"series\": [", f);
    for (int c = 0; c < series_columns(s); c++) {
        fprintf(f, "%s\n    {\"name\": \"", c ? "," : "");
        for (const char *p = series_column_name(s, c); *p; p++)
            fprintf(f, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
        fprintf(f, "\", \"kind\": \"%s\", \"values\": [",
                series_column_kind(s, c) == SERIES_COUNTER ? "counter" : "gauge");
        for (int r = from; r < nrow; r++) {
            int64_t v;
            fputs(r > from ? ", " : "", f);
            if (series_value(s, r, c, &v))
                fprintf(f, "%" PRId64, v);
            else
                fputs("null", f);
        }
        fputs("]}", f);
    }
    fputs("\n  ]\n}\n", f);
    return !ferror(f);
}

bool series_write_json(const struct series *s, FILE *f) { return series_write_json_from(s, 0, f); }
