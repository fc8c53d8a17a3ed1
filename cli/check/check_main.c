/* `mdsim check`: its options, its students, its exit code. */
#include "check_main.h"
#include "check_file.h"
#include "check_report.h"
#include "check_run.h"
#include "class/roster.h"
#include "feature.h"
#include "lab/lab.h"
#include "session.h"
#include "slurp.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: mdsim check CHECKFILE [--db LAB | --class DIR] [--json FILE] [--csv FILE]\n"
    "  runs CHECKFILE against the lab (default: $MDSIM_DB, else the default lab) or\n"
    "  against every student of the class in DIR (DIR/roster.csv, DIR/STUDENT.db);\n"
    "  prints a line per item per student; --json, --csv: the results in FILE too\n"
    "  (- : on stdout, instead of the lines); exit 0 all passed, 1 one failed, 2 usage\n";

struct check_opts {
    const char *file, *db, *class_dir, *json, *csv;
};

static int usage_error(const char *msg)
{
    if (msg)
        fprintf(stderr, "mdsim check: %s\n", msg);
    fputs(usage, stderr);
    return 2;
}

/* -1 for a usage error (said), 0 to go on, 1 when --help said it all. */
static int parse_opts(int argc, char **argv, struct check_opts *o)
{
    static const struct option longopts[] = {
        {"db", required_argument, NULL, 'd'},   {"class", required_argument, NULL, 'c'},
        {"json", required_argument, NULL, 'j'}, {"csv", required_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0},
    };
    optind = 0; /* getopt's state from scratch */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'd': o->db = optarg; break;
        case 'c': o->class_dir = optarg; break;
        case 'j': o->json = optarg; break;
        case 'v': o->csv = optarg; break;
        case 'h': fputs(usage, stdout); return 1;
        default: return usage_error("unknown option or missing value"), -1;
        }
    }
    if (optind != argc - 1)
        return usage_error("needs one CHECKFILE"), -1;
    if (o->db && o->class_dir)
        return usage_error("--db or --class, not both"), -1;
    o->file = argv[optind];
    return 0;
}

static int read_check(const char *path, struct check_file *cf)
{
    char *text = slurp(path);
    if (!text) {
        fprintf(stderr, "mdsim check: cannot read %s: %s\n", path, strerror(errno));
        return 2;
    }
    char err[8192];
    bool ok = check_file_parse(cf, path, text, err, sizeof err);
    free(text);
    if (!ok)
        fprintf(stderr, "%s\n", err);
    return ok ? 0 : 2;
}

/* The labs to check: whose, and where. */
struct labs {
    struct {
        char *student, *path;
    } *v;
    int n;
};

static void add_lab(struct labs *l, const char *student, const char *path)
{
    if (!(l->v = realloc(l->v, sizeof *l->v * (size_t)(l->n + 1))))
        abort();
    l->v[l->n].student = strdup(student);
    l->v[l->n].path = strdup(path);
    if (!l->v[l->n++].student || !l->v[l->n - 1].path)
        abort();
}

static void free_labs(struct labs *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->v[i].student);
        free(l->v[i].path);
    }
    free(l->v);
}

/* --db: the student is the lab's file name without its folder and `.db`,
 * as a class names its labs. */
static void one_lab(const char *db, struct labs *l)
{
    char path[4096];
    if (db)
        snprintf(path, sizeof path, "%s", db);
    else
        lab_default_path(path, sizeof path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len = strlen(base);
    char student[256];
    snprintf(student, sizeof student, "%.*s", (int)(len > 3 && strcmp(base + len - 3, ".db") == 0 ? len - 3 : len),
             base);
    add_lab(l, student, path);
}

/* --class: every student of the roster, once, in its order. */
static bool class_labs(const char *dir, struct labs *l)
{
    struct roster r;
    char err[512];
    if (!roster_read(dir, &r, err, sizeof err)) {
        fprintf(stderr, "mdsim check: %s\n", err);
        return false;
    }
    for (int i = 0; i < r.n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.db", dir, r.rows[i].student);
        if (roster_student(&r, r.rows[i].student) == &r.rows[i]) /* its first row */
            add_lab(l, r.rows[i].student, path);
    }
    roster_free(&r);
    return true;
}

static bool labs_of(const struct check_opts *o, struct labs *l)
{
    if (o->class_dir)
        return class_labs(o->class_dir, l);
    one_lab(o->db, l);
    return true;
}

static int run_all(const struct check_file *cf, const struct labs *labs, const struct check_opts *o)
{
    struct check_report rep;
    char err[4400];
    if (!check_report_open(&rep, o->file, o->json, o->csv, err, sizeof err)) {
        fprintf(stderr, "mdsim check: %s\n", err);
        return 2;
    }
    for (int i = 0; i < labs->n; i++)
        check_run(cf, labs->v[i].student, labs->v[i].path, check_report_add, &rep);
    if (!check_report_close(&rep, err, sizeof err)) {
        fprintf(stderr, "mdsim check: %s\n", err);
        return 2;
    }
    return rep.failed ? 1 : 0;
}

int check_main(int argc, char **argv)
{
    struct check_opts o = {0};
    int rc = parse_opts(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 2 : 0;
    features_install(); /* the check file's lines are read through the grammar */
    struct check_file cf;
    if (read_check(o.file, &cf) != 0)
        return 2;
    struct labs labs = {0};
    rc = labs_of(&o, &labs) ? run_all(&cf, &labs, &o) : 2;
    free_labs(&labs);
    check_file_free(&cf);
    return rc;
}
