#include "commands.h"
#include <stddef.h>

static const struct cmd_def *const tables[] = {
    session_cmds, filter_cmds, system_cmds, config_cmds, ge_cmds, ping_cmds, user_cmds, line_cmds, sanext_cmds,
    netsim_cmds,
    NULL,
};

const struct cmd_def *const *command_tables(void) { return tables; }
