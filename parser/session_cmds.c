/* Commands every mode has: leaving modes and `do`. */
#include "session.h"
#include "parser_cmds.h"
#include <string.h>

static int cmd_exit(struct session *s, const struct cmd_args *a)
{
    (void)a;
    if (s->mode == MODE_EXEC)
        s->closed = true;
    else
        s->mode = s->mode->parent;
    return 0;
}

static int cmd_end(struct session *s, const struct cmd_args *a)
{
    (void)a;
    s->mode = MODE_EXEC;
    return 0;
}

/* `do` runs an exec command from a config mode and comes back to it. */
static int cmd_do(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *line = arg_get(a, "command");
    const struct mode_info *m = s->mode;
    struct mode_ctx ctx = s->ctx;
    int rc = session_exec_in(s, MODE_EXEC, line->str, (size_t)(a->offset + line->off));
    s->mode = m; /* even `do configure terminal` comes back */
    s->ctx = ctx;
    return rc ? -1 : 0;
}

const struct cmd_def session_cmds[] = {
    {MODES(MODE_EXEC, &modes_under_exec), "exit", NULL, cmd_exit, 0, 0, 0},
    {M_NOT_EXEC, "end", NULL, cmd_end, 0, 0, 0},
    {M_CONFIG_ALL, "do <command:line>", "command: Exec command", cmd_do, CMD_PIPE, 0, 0},
    {0},
};
