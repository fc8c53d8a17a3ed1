/* Plots of a recording, drawn by mdsim (series.h): an SVG per FCIP tunnel
 * end (throughput both ways, congestion window) and per netsim direction
 * (queue, drops), and a gnuplot script for people who want to change them.
 * The SVG depends on the recording only: fixed layout, coordinates printed
 * with one decimal by the C library's "%.1f" (mdsim never sets a locale),
 * no date or path inside, so a test may compare the bytes. */
#include "series.h"
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 800
#define PANEL_H 200
#define MARGIN_L 90
#define MARGIN_R 20
#define MARGIN_T 40
#define PANEL_GAP 50
#define MAX_LINES 2
#define MAX_PANELS 2

struct panel {
    const char *ylabel;
    const char *series[MAX_LINES]; /* the object's series, by their last name */
};

/* What is plotted: an object is recognised by a series it has and a word
 * in its name; its panels name its series. */
static const struct plot_kind {
    const char *key, *marker;
    struct panel panels[MAX_PANELS];
} kinds[] = {
    {"tx_bytes", ".fcip", {{"bytes/s", {"tx_bytes", "rx_bytes"}}, {"cwnd bytes", {"cwnd_bytes"}}}},
    {"queue_bytes", ".netsim.", {{"queue bytes", {"queue_bytes"}}, {"drops/s", {"drop_packets"}}}},
};

static const char *const colors[MAX_LINES] = {"#1f77b4", "#d62728"};

static int column_of(const struct series *s, const char *object, const char *last)
{
    char name[256];
    snprintf(name, sizeof name, "%s.%s", object, last);
    for (int c = 0; c < series_columns(s); c++)
        if (strcmp(series_column_name(s, c), name) == 0)
            return c;
    return -1;
}

/* 1, 2 or 5 times a power of ten, at least v: the top of an axis. */
static int64_t nice_max(int64_t v)
{
    int64_t p = 1;
    while (v > 10 * p && p < INT64_MAX / 100)
        p *= 10;
    return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

static void draw_panel(FILE *f, const struct series *s, const char *object, const struct panel *pn, int top)
{
    int rows = series_rows(s), w = PLOT_W - MARGIN_L - MARGIN_R;
    int64_t max = 1, v;
    int cols[MAX_LINES];
    for (int i = 0; i < MAX_LINES; i++) {
        cols[i] = pn->series[i] ? column_of(s, object, pn->series[i]) : -1;
        for (int r = 0; cols[i] >= 0 && r < rows; r++)
            if (series_value(s, r, cols[i], &v) && v > max)
                max = v;
    }
    max = nice_max(max);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n", MARGIN_L, top,
            w, PANEL_H);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%" PRId64 "</text>\n", MARGIN_L - 6, top + 5, max);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", MARGIN_L - 6, top + PANEL_H + 5);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">%s</text>\n", 20,
            top + PANEL_H / 2, 20, top + PANEL_H / 2, pn->ylabel);
    uint64_t t0 = rows ? series_row_time_ns(s, 0) : 0, t1 = rows ? series_row_time_ns(s, rows - 1) : 1;
    double span = t1 > t0 ? (double)(t1 - t0) : 1.0;
    for (int i = 0; i < MAX_LINES; i++) {
        if (cols[i] < 0)
            continue;
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colors[i]);
        for (int r = 0; r < rows; r++)
            if (series_value(s, r, cols[i], &v))
                fprintf(f, "%s%.1f,%.1f", r ? " " : "",
                        MARGIN_L + (double)(series_row_time_ns(s, r) - t0) / span * w,
                        top + PANEL_H - (double)v / (double)max * PANEL_H);
        fputs("\"/>\n", f);
        fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", MARGIN_L + 10 + 200 * i, top - 8, colors[i],
                pn->series[i]);
    }
}

static void draw(FILE *f, const struct series *s, const char *object, const struct plot_kind *k)
{
    int h = MARGIN_T + MAX_PANELS * (PANEL_H + PANEL_GAP);
    int rows = series_rows(s);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n<title>%s</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"%d\" y=\"20\" font-size=\"15\">%s</text>\n",
            PLOT_W, h, object, MARGIN_L, object);
    for (int p = 0; p < MAX_PANELS; p++)
        draw_panel(f, s, object, &k->panels[p], MARGIN_T + 10 + p * (PANEL_H + PANEL_GAP));
    fprintf(f, "<text x=\"%d\" y=\"%d\">lab time %" PRIu64 " s</text>\n", MARGIN_L, h - 8,
            rows ? series_row_time_ns(s, 0) / 1000000000u : 0);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%" PRIu64 " s</text>\n</svg>\n", PLOT_W - MARGIN_R,
            h - 8, rows ? series_row_time_ns(s, rows - 1) / 1000000000u : 0);
}

/* "MDS1.netsim.GigabitEthernet2/3" -> "MDS1-netsim-GigabitEthernet2-3". */
static void file_stem(const char *object, char *out, size_t n)
{
    size_t i = 0;
    for (; object[i] && i + 1 < n; i++) {
        char c = object[i];
        out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ? c : '-';
    }
    out[i] = '\0';
}

static void gnuplot_block(FILE *gp, const char *object, const char *stem, const struct plot_kind *k)
{
    fprintf(gp, "\nset output \"%s.gnuplot.svg\"\nset multiplot layout %d,1 title \"%s\"\n", stem, MAX_PANELS,
            object);
    for (int p = 0; p < MAX_PANELS; p++) {
        fprintf(gp, "set ylabel \"%s\"\nplot", k->panels[p].ylabel);
        for (int i = 0; i < MAX_LINES && k->panels[p].series[i]; i++)
            fprintf(gp, "%s csv using 1:\"%s.%s\" with lines", i ? "," : "", object, k->panels[p].series[i]);
        fputc('\n', gp);
    }
    fputs("unset multiplot\n", gp);
}

/* Every object of the recording that a kind plots, once each. */
static bool plot_all(const struct series *s, const char *dir, FILE *gp, char *err, size_t errlen)
{
    for (int c = 0; c < series_columns(s); c++)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            const char *name = series_column_name(s, c), *dot = strrchr(name, '.');
            if (!dot || strcmp(dot + 1, kinds[k].key) != 0 || !strstr(name, kinds[k].marker))
                continue;
            char object[200], stem[200], path[4400];
            snprintf(object, sizeof object, "%.*s", (int)(dot - name), name);
            file_stem(object, stem, sizeof stem);
            snprintf(path, sizeof path, "%s/%s.svg", dir, stem);
            FILE *f = fopen(path, "w");
            if (f)
                draw(f, s, object, &kinds[k]);
            if (!f || ferror(f) | (fclose(f) != 0)) {
                snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
                return false;
            }
            gnuplot_block(gp, object, stem, &kinds[k]);
        }
    return true;
}

bool series_write_plots(const struct series *s, const char *dir, const char *csv_path, char *err, size_t errlen)
{
    char path[4400], csv[PATH_MAX];
    snprintf(path, sizeof path, "%s/plots.gp", dir);
    FILE *gp = fopen(path, "w");
    if (!gp) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    if (!realpath(csv_path, csv))
        snprintf(csv, sizeof csv, "%s", csv_path);
    fprintf(gp, "# The plots of mdsim's time series (docs/series.md), from its CSV:\n"
                "#   gnuplot plots.gp   or   gnuplot -e 'csv=\"other.csv\"' plots.gp\n"
                "if (!exists(\"csv\")) csv = \"%s\"\n"
                "set datafile separator \",\"\nset key autotitle columnhead\nset xlabel \"lab time (s)\"\n"
                "set terminal svg size 800,500\n",
            csv);
    bool ok = plot_all(s, dir, gp, err, errlen);
    if ((ferror(gp) | (fclose(gp) != 0)) && ok) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        ok = false;
    }
    return ok;
}
