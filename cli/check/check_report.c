/* The report of a check: text lines, JSON, CSV. */
#include "check_report.h"
#include <errno.h>
#include <string.h>

static FILE *open_out(const char *path, char *err, size_t errlen)
{
    if (strcmp(path, "-") == 0)
        return stdout;
    FILE *f = fopen(path, "w");
    if (!f)
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return f;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* RFC 4180: quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *f, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

bool check_report_open(struct check_report *rep, const char *check, const char *json, const char *csv, char *err,
                       size_t errlen)
{
    *rep = (struct check_report){.text = stdout, .check = check};
    if (json && csv && strcmp(json, "-") == 0 && strcmp(csv, "-") == 0) {
        snprintf(err, errlen, "--json and --csv cannot both be - (stdout)");
        return false;
    }
    if ((json && !(rep->json = open_out(json, err, errlen))) || (csv && !(rep->csv = open_out(csv, err, errlen)))) {
        if (rep->json && rep->json != stdout)
            fclose(rep->json);
        return false;
    }
    if (rep->json == stdout || rep->csv == stdout)
        rep->text = NULL;
    if (rep->json) {
        fputs("{\"check\": ", rep->json);
        json_string(rep->json, check);
        fputs(", \"results\": [", rep->json);
    }
    if (rep->csv)
        fputs("student,switch,line,item,result,why\n", rep->csv);
    return true;
}

static void json_result(FILE *f, const struct check_result *r, bool first)
{
    fputs(first ? "\n  {\"student\": " : ",\n  {\"student\": ", f);
    json_string(f, r->student);
    fputs(", \"switch\": ", f);
    json_string(f, r->sw);
    fprintf(f, ", \"line\": %d, \"item\": ", r->line);
    json_string(f, r->item);
    fprintf(f, ", \"result\": \"%s\", \"why\": ", r->pass ? "PASS" : "FAIL");
    json_string(f, r->why);
    fputc('}', f);
}

static void csv_result(FILE *f, const struct check_result *r)
{
    csv_field(f, r->student);
    fputc(',', f);
    csv_field(f, r->sw);
    fprintf(f, ",%d,", r->line);
    csv_field(f, r->item);
    fprintf(f, ",%s,", r->pass ? "PASS" : "FAIL");
    csv_field(f, r->why);
    fputc('\n', f);
}

void check_report_add(void *ctx, const struct check_result *r)
{
    struct check_report *rep = ctx;
    if (rep->text) {
        fprintf(rep->text, "%-10s %-8s %s  %s%s%s\n", r->student, r->sw, r->pass ? "PASS" : "FAIL", r->item,
                r->pass ? "" : ": ", r->why);
        fflush(rep->text); /* a class takes a while: each line as it comes */
    }
    if (rep->json)
        json_result(rep->json, r, rep->results == 0);
    if (rep->csv)
        csv_result(rep->csv, r);
    rep->results++;
    rep->failed += !r->pass;
}

static bool finish(FILE *f, char *err, size_t errlen)
{
    bool ok = fflush(f) == 0 && !ferror(f);
    if (f != stdout)
        ok = fclose(f) == 0 && ok;
    if (!ok)
        snprintf(err, errlen, "cannot write the report: %s", strerror(errno));
    return ok;
}

bool check_report_close(struct check_report *rep, char *err, size_t errlen)
{
    bool ok = true;
    if (rep->json) {
        fprintf(rep->json, "\n], \"total\": %d, \"failed\": %d}\n", rep->results, rep->failed);
        ok = finish(rep->json, err, errlen);
    }
    if (rep->csv)
        ok = finish(rep->csv, err, errlen) && ok;
    return ok;
}
