/*
 * A check file (docs/check.md): what a student's lab must show, read into
 * steps. Configuration lines are read through the grammar (parser/canon.h)
 * as they are parsed, so a line the switch would refuse is an error of the
 * file, reported as `file:line: message`, as lab files report theirs.
 */
#ifndef MDSIM_CHECK_FILE_H
#define MDSIM_CHECK_FILE_H
#include <stdbool.h>
#include <stddef.h>

struct pattern;

/* Bounds of a check file: a trainer's file is a few hundred lines. */
enum {
    CHECK_FILE_MAX = 256 * 1024, /* bytes */
    CHECK_LINE_MAX = 4096,       /* characters, what the switch takes */
    CHECK_ITEMS_MAX = 1000,      /* items: each gives a result per student */
    CHECK_WAIT_MAX_S = 3600,     /* seconds of lab time in one `wait` */
    CHECK_DEPTH_MAX = 8,         /* nested configuration lines */
};

enum step_kind {
    STEP_WAIT,   /* lab time passes */
    STEP_CONFIG, /* a configuration line is (or is not) in running-config */
    STEP_SHOW,   /* a show command, and what its output must hold */
    STEP_PING,   /* a ping or fcping that must get a reply */
};

enum expect_kind { EXPECT_CONTAINS, EXPECT_LACKS, EXPECT_MATCHES, EXPECT_COUNTER };
/* "contains", "lacks", "matches", "counter": the words of the file. */
extern const char *const check_expect_words[];

/* One thing looked for in a show's output: one item. */
struct check_expect {
    enum expect_kind kind;
    int line;
    char *text;          /* the text, or the pattern as written */
    struct pattern *re;  /* matches, counter */
    double lo, hi;       /* counter: the range, bounds included */
    char *range;         /* ... as written */
};

struct check_step {
    enum step_kind kind;
    int line;
    const char *sw;   /* the switch it runs on (the file's `switch` line) */
    long seconds;     /* wait */
    char *text;       /* the command; for a configuration line its path as written */
    bool lacks;       /* configuration: must not be there */
    char **keys;      /* ... the path, each line in canonical form, outermost first */
    char **lines;     /* ... and as written */
    int nkeys;
    struct check_expect *ex; /* show: one item each */
    int nex;
};

struct check_file {
    char *name;
    char **switches; /* the names of the `switch` lines, owned here */
    int nswitches;
    struct check_step *steps;
    int nsteps;
    int nitems; /* results per student: configuration lines, expectations, pings */
};

/* Reads a check file's text; false with err set to "file:line: message"
 * (lines after it when the switch points at a word, as it prints them). */
bool check_file_parse(struct check_file *cf, const char *name, const char *text, char *err, size_t errlen);
void check_file_free(struct check_file *cf);

#endif
