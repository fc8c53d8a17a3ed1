#include "commands.h"
#include <stddef.h>

extern const struct cmd_def sanext_cmds[]; /* backend/sanext/sanext_cmds.c */
extern const struct cmd_def netsim_cmds[]; /* backend/netsim/netsim_cmds.c */

static const struct cmd_def *const tables[] = {
    session_cmds, filter_cmds, system_cmds, config_cmds, ge_cmds, sanext_cmds, netsim_cmds, NULL,
};

const struct cmd_def *const *command_tables(void) { return tables; }
