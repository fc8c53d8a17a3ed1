/*
 * A class's roster, DIR/roster.csv: one row per student per switch, in the
 * order of the lab's switches, with the ports that switch is served on and
 * the student's user and password (docs/class.md). `class create` writes
 * it; `class serve`, `class reset` and `check --class` read it back, so a
 * trainer may print it, share it, or edit the ports in it.
 */
#ifndef MDSIM_ROSTER_H
#define MDSIM_ROSTER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { ROSTER_NAME_MAX = 32, ROSTER_PASSWORD_MAX = 64, ROSTER_ROWS_MAX = 64 * 500 };

struct roster_row {
    char student[ROSTER_NAME_MAX + 1];
    char sw[ROSTER_NAME_MAX + 1];
    int telnet_port, ssh_port;
    char user[ROSTER_NAME_MAX + 1];
    char password[ROSTER_PASSWORD_MAX + 1];
};

struct roster {
    struct roster_row *rows;
    int n, cap;
};

#define ROSTER_HEADER "student,switch,telnet_port,ssh_port,user,password"

/* Reads DIR/roster.csv; false with err set ("DIR/roster.csv:3: ..."). */
bool roster_read(const char *dir, struct roster *r, char *err, size_t errlen);
void roster_add(struct roster *r, const struct roster_row *row);
/* Writes the CSV to f. */
void roster_write(const struct roster *r, FILE *f);
/* Prints it as a table for people. */
void roster_print(const struct roster *r, FILE *f);
void roster_free(struct roster *r);

/* The first row of STUDENT (its lab's first switch), or NULL. */
const struct roster_row *roster_student(const struct roster *r, const char *student);
/* A student name is safe in a file name: 1-32 of [A-Za-z0-9_-]. */
bool roster_name_ok(const char *s);

#endif
