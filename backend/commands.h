/* The command tables of every feature, in one list for the grammar. */
#ifndef MDSIM_COMMANDS_H
#define MDSIM_COMMANDS_H
#include "grammar.h"

const struct cmd_def *const *command_tables(void);

extern const struct cmd_def session_cmds[];
extern const struct cmd_def filter_cmds[];
extern const struct cmd_def system_cmds[];
extern const struct cmd_def config_cmds[];
extern const struct cmd_def ge_cmds[];
extern const struct cmd_def ping_cmds[];
extern const struct cmd_def user_cmds[];
extern const struct cmd_def line_cmds[];
extern const struct cmd_def sanext_cmds[];
extern const struct cmd_def netsim_cmds[];

#endif
