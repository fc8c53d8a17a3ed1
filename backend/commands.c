#include "commands.h"
#include <stddef.h>

extern const struct cmd_def user_cmds[]; /* backend/user/user_cmds.c */

static const struct cmd_def *const tables[] = {
    session_cmds, filter_cmds, system_cmds, config_cmds, ge_cmds, ping_cmds, sanext_cmds, netsim_cmds,
    user_cmds, NULL,
};

const struct cmd_def *const *command_tables(void) { return tables; }
