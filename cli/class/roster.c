/* DIR/roster.csv: written by `class create`, read by everything else. */
#include "class/roster.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool roster_name_ok(const char *s)
{
    size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-");
    return n > 0 && n <= ROSTER_NAME_MAX && s[n] == '\0';
}

void roster_add(struct roster *r, const struct roster_row *row)
{
    if (r->n == r->cap && !(r->rows = realloc(r->rows, (r->cap = r->cap * 2 + 16) * sizeof *r->rows)))
        abort();
    r->rows[r->n++] = *row;
}

void roster_free(struct roster *r)
{
    free(r->rows);
    *r = (struct roster){0};
}

const struct roster_row *roster_student(const struct roster *r, const char *student)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->rows[i].student, student) == 0)
            return &r->rows[i];
    return NULL;
}

void roster_write(const struct roster *r, FILE *f)
{
    fprintf(f, "%s\n", ROSTER_HEADER);
    for (int i = 0; i < r->n; i++) {
        const struct roster_row *w = &r->rows[i];
        fprintf(f, "%s,%s,%d,%d,%s,%s\n", w->student, w->sw, w->telnet_port, w->ssh_port, w->user, w->password);
    }
}

void roster_print(const struct roster *r, FILE *f)
{
    fprintf(f, "%-12s %-10s %-7s %-7s %-12s %s\n", "Student", "Switch", "telnet", "ssh", "User", "Password");
    for (int i = 0; i < r->n; i++) {
        const struct roster_row *w = &r->rows[i];
        fprintf(f, "%-12s %-10s %-7d %-7d %-12s %s\n", w->student, w->sw, w->telnet_port, w->ssh_port, w->user,
                w->password);
    }
}

/* One field of a CSV line, up to the next comma (no quoting: no field of
 * ours holds a comma, a quote or a blank). */
static bool field(char **p, char *out, size_t n)
{
    size_t len = strcspn(*p, ",");
    if (len == 0 || len >= n)
        return false;
    memcpy(out, *p, len);
    out[len] = '\0';
    *p += len + ((*p)[len] == ',');
    return true;
}

static bool port_field(char **p, int *port)
{
    char num[8], *end;
    if (!field(p, num, sizeof num))
        return false;
    long v = strtol(num, &end, 10);
    *port = (int)v;
    return *end == '\0' && v >= 1 && v <= 65535;
}

static const char *parse_row(char *line, struct roster_row *w)
{
    char *p = line;
    if (!field(&p, w->student, sizeof w->student) || !roster_name_ok(w->student))
        return "bad student name (1-32 letters, digits, '_' or '-')";
    if (!field(&p, w->sw, sizeof w->sw))
        return "bad switch name";
    if (!port_field(&p, &w->telnet_port) || !port_field(&p, &w->ssh_port))
        return "bad port (1-65535)";
    if (!field(&p, w->user, sizeof w->user) || !field(&p, w->password, sizeof w->password))
        return "bad user or password";
    return *p ? "more than 6 fields" : NULL;
}

static bool read_rows(FILE *f, const char *path, struct roster *r, char *err, size_t errlen)
{
    char line[512];
    for (int no = 1; fgets(line, sizeof line, f); no++) {
        size_t len = strcspn(line, "\r\n");
        if (line[len] == '\0' && !feof(f)) {
            snprintf(err, errlen, "%s:%d: line too long", path, no);
            return false;
        }
        line[len] = '\0';
        if (no == 1) {
            if (strcmp(line, ROSTER_HEADER) != 0) {
                snprintf(err, errlen, "%s:1: not a roster (the first line is not \"%s\")", path, ROSTER_HEADER);
                return false;
            }
            continue;
        }
        struct roster_row w;
        const char *why = r->n >= ROSTER_ROWS_MAX ? "too many rows" : parse_row(line, &w);
        if (why) {
            snprintf(err, errlen, "%s:%d: %s", path, no, why);
            return false;
        }
        roster_add(r, &w);
    }
    if (r->n == 0)
        snprintf(err, errlen, "%s: no student", path);
    return r->n > 0;
}

bool roster_read(const char *dir, struct roster *r, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/roster.csv", dir);
    *r = (struct roster){0};
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    bool ok = read_rows(f, path, r, err, errlen);
    fclose(f);
    if (!ok)
        roster_free(r);
    return ok;
}
