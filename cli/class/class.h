/*
 * `mdsim class ...`: a trainer's class of student labs in one folder
 * (docs/class.md). Each student has a lab of their own, made from one lab
 * file, with their own user and password on its switches; the roster
 * (roster.h) says who connects where.
 */
#ifndef MDSIM_CLASS_H
#define MDSIM_CLASS_H
#include "serve.h"

#define CLASS_STUDENTS_MAX 500
#define CLASS_DIR_MAX 3800 /* so that every path in it fits our buffers */

struct class_opts {
    const char *lab_file;   /* create: --lab */
    int students;           /* create: --students */
    const char *sw;         /* reset: --switch */
    struct serve_opts serve; /* create: the port bases; serve: bind, speed, idle timeout */
};

/* Runs `class create|serve|stop|reset` (argv[0] is "class"): the exit code
 * (2: usage). */
int class_main(int argc, char **argv, const struct class_opts *o);

/* The parts, one file each. */
int class_create(const char *dir, const struct class_opts *o);
int class_serve(const char *dir, const struct class_opts *o);
int class_stop(const char *dir);

/* The path of this program, to run its serve and lab reset for a student. */
const char *class_self(void);

#endif
