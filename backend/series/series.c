/* The sampler and its ring (series.h). A sample is a row: the lab time
 * and one raw reading per column; a column is a series, created the first
 * time a feature puts it. Counters are kept raw and turned into growth per
 * interval when read, so a dropped sample never shifts a count. */
#include "series.h"
#include "record/record.h"
#include "lab/lab.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MISSING INT64_MIN /* the series did not exist at that sample */

struct column {
    char *name;
    enum series_kind kind;
    int64_t *raw;   /* one per ring slot */
    int64_t before; /* raw reading of the last row the ring dropped */
};

struct series {
    struct lab *lab;
    uint64_t period_ns;
    int cap;
    int head, n;        /* oldest slot, rows kept */
    uint64_t *t_ns;     /* per slot */
    struct column *col;
    int ncol, col_cap;
    uint64_t taken;
    bool on; /* the lab's sampler is this one's */
};

struct series_sink {
    struct series *s;
    int slot;
    int next; /* where the next put is expected: features put in the same order each time */
};

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p)
        abort();
    return p;
}

static int column_add(struct series *s, const char *name, enum series_kind kind)
{
    if (s->ncol == s->col_cap) {
        s->col_cap = s->col_cap ? 2 * s->col_cap : 32;
        s->col = xrealloc(s->col, sizeof *s->col * (size_t)s->col_cap);
    }
    struct column *c = &s->col[s->ncol];
    c->name = strdup(name);
    c->raw = xrealloc(NULL, sizeof *c->raw * (size_t)s->cap);
    if (!c->name)
        abort();
    for (int i = 0; i < s->cap; i++)
        c->raw[i] = MISSING;
    c->kind = kind;
    c->before = MISSING;
    return s->ncol++;
}

static int column_find(struct series_sink *k, const char *name, enum series_kind kind)
{
    struct series *s = k->s;
    if (k->next < s->ncol && strcmp(s->col[k->next].name, name) == 0)
        return k->next;
    for (int i = 0; i < s->ncol; i++)
        if (strcmp(s->col[i].name, name) == 0)
            return i;
    return column_add(s, name, kind);
}

/* One series' value at this sample; the name carries the object and the
 * unit. */
static void __attribute__((format(printf, 4, 5)))
series_put(struct series_sink *out, enum series_kind kind, int64_t value, const char *fmt, ...)
{
    char name[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    int i = column_find(out, name, kind);
    out->s->col[i].raw[out->slot] = value == MISSING ? MISSING + 1 : value;
    out->next = i + 1;
}

/* A new row in the ring, the oldest dropped when it is full. */
static int row_new(struct series *s, uint64_t at_ns)
{
    int slot;
    if (s->n < s->cap) {
        slot = (s->head + s->n++) % s->cap;
    } else {
        slot = s->head;
        s->head = (s->head + 1) % s->cap;
        for (int i = 0; i < s->ncol; i++)
            s->col[i].before = s->col[i].raw[slot];
    }
    s->t_ns[slot] = at_ns;
    for (int i = 0; i < s->ncol; i++)
        s->col[i].raw[slot] = MISSING;
    return slot;
}

/* Every numeric field of every record is a series: "MDS1.fcip1.tx_bytes". */
static void put_record(void *ctx, const struct record_type *t, const char *key, const void *rec)
{
    for (const struct record_field *f = t->fields; f->name; f++)
        series_put(ctx, f->kind == RECORD_COUNTER ? SERIES_COUNTER : SERIES_GAUGE, (int64_t)record_value(rec, f),
                   "%s.%s", key, f->name);
}

/* engine_on_tick's observer: the read model's records, read now. */
static void sample(engine_t *e, uint64_t at_ns, void *ctx)
{
    (void)e;
    struct series *s = ctx;
    struct series_sink sink = {s, row_new(s, at_ns), 0};
    record_walk(s->lab, lab_ipnet_as_is(s->lab), put_record, &sink);
    s->taken++;
}

static struct series *series_new(struct lab *lab, uint64_t period_ns, int capacity)
{
    struct series *s = calloc(1, sizeof *s);
    if (!s || capacity < 1 || !period_ns || !(s->t_ns = calloc((size_t)capacity, sizeof *s->t_ns))) {
        free(s);
        return NULL;
    }
    s->lab = lab;
    s->period_ns = period_ns;
    s->cap = capacity;
    return s;
}

/* lab_close's: the lab is going, nobody else holds it. */
static void series_free(void *p)
{
    struct series *s = p;
    if (s->on)
        lab_set_sampler(s->lab, 0, NULL, NULL);
    for (int i = 0; i < s->ncol; i++) {
        free(s->col[i].name);
        free(s->col[i].raw);
    }
    free(s->col);
    free(s->t_ns);
    free(s);
}

struct series *series_of_lab(struct lab *lab) { return lab_observer(lab, LAB_OBS_SERIES); }

/* A recording started again forgets the rows of the last one (a counter's
 * growth over the gap would read as one interval's) but keeps its columns
 * and goes on numbering samples. */
static void series_empty(struct series *s)
{
    s->head = s->n = 0;
    for (int i = 0; i < s->ncol; i++)
        s->col[i].before = MISSING;
}

struct series *series_lab_recording(struct lab *lab)
{
    struct series *s = series_of_lab(lab);
    if (!s && (s = series_new(lab, SERIES_PERIOD_NS, SERIES_CAPACITY)))
        lab_set_observer(lab, LAB_OBS_SERIES, s, series_free);
    return s;
}

bool series_lab_start(struct lab *lab)
{
    struct series *s = series_lab_recording(lab);
    if (!s)
        return false;
    if (s->on)
        return true;
    series_empty(s);
    s->on = true;
    lab_set_sampler(lab, s->period_ns, sample, s);
    return true;
}

void series_lab_stop(struct lab *lab)
{
    struct series *s = series_of_lab(lab);
    if (!s || !s->on)
        return;
    lab_set_sampler(lab, 0, NULL, NULL);
    s->on = false;
}

bool series_running(const struct series *s) { return s && s->on; }
uint64_t series_first_index(const struct series *s) { return s->taken - (uint64_t)s->n; }
int series_capacity(const struct series *s) { return s->cap; }

int series_rows(const struct series *s) { return s->n; }
int series_columns(const struct series *s) { return s->ncol; }
uint64_t series_period_ns(const struct series *s) { return s->period_ns; }
uint64_t series_samples_taken(const struct series *s) { return s->taken; }
const char *series_column_name(const struct series *s, int col) { return s->col[col].name; }
enum series_kind series_column_kind(const struct series *s, int col) { return s->col[col].kind; }

static int slot_of(const struct series *s, int row) { return (s->head + row) % s->cap; }

uint64_t series_row_time_ns(const struct series *s, int row) { return s->t_ns[slot_of(s, row)]; }

bool series_value(const struct series *s, int row, int col, int64_t *value)
{
    const struct column *c = &s->col[col];
    int64_t v = c->raw[slot_of(s, row)];
    if (v == MISSING)
        return false;
    if (c->kind == SERIES_GAUGE) {
        *value = v;
        return true;
    }
    int64_t prev = row > 0 ? c->raw[slot_of(s, row - 1)] : c->before;
    if (prev == MISSING)
        prev = 0; /* a new object's counters start from zero */
    *value = v >= prev ? v - prev : v; /* went down: cleared, counting from zero */
    return true;
}
