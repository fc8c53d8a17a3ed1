/* Showing, saving, erasing and reloading the configuration. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "system/system.h"
#include "interface/ge.h"
#include "interface/mgmt.h"
#include "running.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

static void header(struct session *s, const char *command)
{
    char t[64];
    system_ctime(s->lab, s->sw, t, sizeof t);
    cmd_printf(s, "!Command: %s\n!Time: %s\n\n", command, t);
}

/* One handler per form: a handler reads only its own command's words. */
static int show_running(struct session *s, const struct cmd_args *a)
{
    (void)a;
    header(s, "show running-config");
    running_config_body(s->lab, s->sw, &s->out);
    return 0;
}

static int show_running_all(struct session *s, const struct cmd_args *a)
{
    (void)a;
    header(s, "show running-config all");
    running_config_all(s->lab, s->sw, &s->out);
    return 0;
}

static int show_running_mgmt(struct session *s, const struct cmd_args *a)
{
    (void)a;
    header(s, "show running-config interface mgmt0");
    cmd_printf(s, "version %s\n", SYSTEM_RELEASE);
    mgmt_render_config(s->lab, s->sw, &s->out, true);
    return 0;
}

static int show_running_ge(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    char cmd[96];
    snprintf(cmd, sizeof cmd, "show running-config interface GigabitEthernet%d/%d", p->slot, p->port);
    header(s, cmd);
    cmd_printf(s, "version %s\n", SYSTEM_RELEASE);
    ge_render_config(s->lab, s->sw, &s->out, p->slot, p->port);
    return 0;
}

static int show_startup(struct session *s, const struct cmd_args *a)
{
    (void)a;
    sqlite3_stmt *st = lab_stmt(s->lab, "SELECT body, saved_at FROM startup_config WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(s->lab, s->sw));
    char t[64];
    system_ctime(s->lab, s->sw, t, sizeof t);
    cmd_printf(s, "!Command: show startup-config\n!Time: %s\n", t);
    if (sqlite3_step(st) != SQLITE_ROW)
        return 0;
    time_t saved = (time_t)sqlite3_column_int64(st, 1);
    struct tm tm;
    gmtime_r(&saved, &tm);
    strftime(t, sizeof t, "%a %b %e %H:%M:%S %Y", &tm);
    cmd_printf(s, "!Startup config saved at: %s\n\n%s", t, (const char *)sqlite3_column_text(st, 0));
    return 0;
}

static int copy_run_start(struct session *s, const struct cmd_args *a)
{
    (void)a;
    strbuf body;
    sb_init(&body);
    running_config_body(s->lab, s->sw, &body);
    sqlite3_stmt *st = lab_stmt(s->lab, "INSERT OR REPLACE INTO startup_config VALUES (?, ?, ?)");
    sqlite3_bind_int(st, 1, lab_switch_id(s->lab, s->sw));
    sqlite3_bind_text(st, 2, sb_str(&body), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, (long long)lab_time(s->lab, s->sw, NULL));
    lab_step_done(s->lab, st);
    sb_free(&body);
    cmd_printf(s, "[########################################] 100%%\n"
                  "Copy complete, now saving to disk (please wait)...\n"
                  "Copy complete.\n");
    return 0;
}

/* NX-OS merges: what the saved text sets is set again, what was added
 * since stays. A line that fails is reported, the others still apply. */
static int copy_start_run(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "[########################################] 100%%\n");
    running_config_merge_startup(s->lab, s->sw, &s->out);
    cmd_printf(s, "Copy complete.\n");
    return 0;
}

static int write_erase(struct session *s, const struct cmd_args *a)
{
    (void)a;
    if (!cmd_confirm(s, "Warning: This command will erase the startup-configuration.\n"
                        "Do you wish to proceed anyway? (y/n)  [n]"))
        return 0;
    sqlite3_stmt *st = lab_stmt(s->lab, "DELETE FROM startup_config WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(s->lab, s->sw));
    lab_step_done(s->lab, st);
    return 0;
}

static int reload(struct session *s, const struct cmd_args *a)
{
    (void)a;
    if (running_config_unsaved(s->lab, s->sw))
        cmd_printf(s, "!!!WARNING! there is unsaved configuration!!!\n");
    if (!cmd_confirm(s, "This command will reboot the system. (y/n)?  [n]"))
        return 0;
    running_config_reload(s->lab, s->sw, &s->out);
    s->mode = MODE_EXEC;
    return 0;
}

const struct cmd_def config_cmds[] = {
    {MODES(MODE_EXEC), "show running-config", NULL, show_running, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show running-config all", "all: Current operating configuration with defaults",
     show_running_all, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show running-config interface gigabitethernet <port:slot/port>", NULL, show_running_ge,
     CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show running-config interface mgmt <id:0-0>",
     "mgmt: Management interface\nid: Management interface number", show_running_mgmt, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show startup-config", NULL, show_startup, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "copy running-config startup-config", NULL, copy_run_start, CMD_ADMIN, 0, 0},
    {MODES(MODE_EXEC), "copy startup-config running-config", NULL, copy_start_run, CMD_ADMIN, 0, 0},
    {MODES(MODE_EXEC), "write erase", NULL, write_erase, CMD_ADMIN | CMD_FREES, 0, 0},
    {MODES(MODE_EXEC), "reload", NULL, reload, CMD_ADMIN, 0, 0},
    {0},
};
