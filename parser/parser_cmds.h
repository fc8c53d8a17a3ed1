/* The parser's own commands: modes (exit, end, do) and output filters. */
#ifndef MDSIM_PARSER_CMDS_H
#define MDSIM_PARSER_CMDS_H
#include "grammar.h"

extern const struct cmd_def session_cmds[];
extern const struct cmd_def filter_cmds[];

#endif
