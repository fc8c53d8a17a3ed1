/* The command reference (docs/commands.md), generated from the grammar. */
#ifndef MDSIM_CMDREF_H
#define MDSIM_CMDREF_H
#include <stdio.h>

int cmdref_print(FILE *out);

#endif
