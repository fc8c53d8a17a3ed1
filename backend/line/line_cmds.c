/* `line console`, `line vty` and `exec-timeout` in their (config-line)#. */
#include "line.h"
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include <stdio.h>

static const char *const line_names[] = {[LINE_CONSOLE] = "console", [LINE_VTY] = "vty"};

/* Minutes, or -1 when the line has no exec-timeout configured. */
static int exec_timeout(struct lab *lab, int sw, enum line_kind k)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT exec_timeout FROM line_config WHERE switch_id = ? AND line = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, line_names[k], -1, SQLITE_STATIC);
    return sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
}

int line_idle_seconds(struct lab *lab, int sw, enum line_kind k, int fallback)
{
    int min = exec_timeout(lab, sw, k);
    return min < 0 ? fallback : min * 60;
}

void line_render_config(struct lab *lab, int sw, strbuf *out)
{
    for (int k = LINE_CONSOLE; k <= LINE_VTY; k++) {
        int min = exec_timeout(lab, sw, (enum line_kind)k);
        if (min >= 0)
            sb_printf(out, "line %s\n  exec-timeout %d\n", line_names[k], min);
    }
}

static int cmd_line(struct session *s, const struct cmd_args *a)
{
    s->mode = &line_mode;
    s->ctx.a = arg_has(a, "vty") ? LINE_VTY : LINE_CONSOLE;
    return 0;
}

static int cmd_exec_timeout(struct session *s, const struct cmd_args *a)
{
    sqlite3_stmt *st;
    if (a->negated) {
        st = lab_stmt(s->lab, "DELETE FROM line_config WHERE switch_id = ? AND line = ?");
    } else {
        st = lab_stmt(s->lab, "INSERT OR REPLACE INTO line_config VALUES (?, ?, ?)");
        sqlite3_bind_int(st, 3, (int)arg_num(a, "minutes", 0));
    }
    sqlite3_bind_int(st, 1, lab_switch_id(s->lab, s->sw));
    sqlite3_bind_text(st, 2, line_names[s->ctx.a], -1, SQLITE_STATIC);
    lab_step_done(s->lab, st);
    return 0;
}

const struct cmd_def line_cmds[] = {
    {MODES(MODE_CONFIG), "line {console | vty}",
     "line: Configure a terminal line\nconsole: Primary terminal line\nvty: Virtual terminal line",
     cmd_line, 0, 0, 0},
    {MODES(&line_mode), "exec-timeout <minutes:0-525600>",
     "exec-timeout: Configure exec timeout\nminutes: Timeout in minutes, 0 to disable", cmd_exec_timeout, 0, 0, 0},
    {MODES(&line_mode), "no exec-timeout [<minutes:0-525600>]", "exec-timeout: Configure exec timeout\nminutes: Timeout in minutes", cmd_exec_timeout, 0,
     0, 0},
    {0},
};
