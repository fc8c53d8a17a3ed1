/*
 * `mdsim check CHECKFILE [--db LAB | --class DIR] [--json FILE] [--csv
 * FILE]`: a check file run against a student's lab or a whole class, a
 * line per item per student (docs/check.md). It owns no lab and changes
 * none: each lab is read into memory and checked there.
 */
#ifndef MDSIM_CHECK_MAIN_H
#define MDSIM_CHECK_MAIN_H

/* argv[0] is "check". The exit code: 0 every item passed, 1 one failed,
 * 2 a usage error or a bad check file. */
int check_main(int argc, char **argv);

#endif
