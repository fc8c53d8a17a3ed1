/* The logging commands: `show logging ...`, `clear logging logfile`,
 * `logging console|monitor|logfile` and `terminal [no] monitor`. */
#include "logging.h"
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- show ---- */

static int show_logging(struct session *s, const struct cmd_args *a)
{
    (void)a;
    logging_show_all(s);
    return 0;
}

static const char *const months[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                     "jul", "aug", "sep", "oct", "nov", "dec"};

/* `2026 Jan 1 10:00:00` (the month as `show logging` prints it, or
 * longer: January) as Unix seconds of the switch's calendar, UTC. */
static bool parse_when(struct session *s, const struct cmd_args *a, const char *year, const char *month,
                       const char *day, const char *time, time_t *out)
{
    const char *mon = arg_str(a, month);
    int m = -1;
    for (int i = 0; i < 12 && strlen(mon) >= 3; i++)
        if (strncasecmp(months[i], mon, 3) == 0)
            m = i;
    if (m < 0)
        return cmd_error(s, "%% Invalid month"), false;
    long secs = arg_num(a, time, 0);
    struct tm tm = {.tm_year = (int)arg_num(a, year, 2000) - 1900, .tm_mon = m, .tm_mday = (int)arg_num(a, day, 1)};
    tm.tm_hour = (int)(secs / 3600);
    tm.tm_min = (int)(secs / 60 % 60);
    tm.tm_sec = (int)(secs % 60);
    int mday = tm.tm_mday; /* timegm normalises: 31 February becomes 3 March */
    *out = timegm(&tm);
    if (tm.tm_mday != mday)
        return cmd_error(s, "%% Invalid date"), false;
    return true;
}

static int show_logfile(struct session *s, const struct cmd_args *a)
{
    time_t from = INT64_MIN, to = INT64_MAX;
    if (arg_has(a, "start-time") && !parse_when(s, a, "syear", "smonth", "sday", "stime", &from))
        return -1;
    if (arg_has(a, "end-time") && !parse_when(s, a, "eyear", "emonth", "eday", "etime", &to))
        return -1;
    logging_show_messages(s, 0, from, to);
    return 0;
}

static int show_last(struct session *s, const struct cmd_args *a)
{
    logging_show_messages(s, (int)arg_num(a, "lines", 1), INT64_MIN, INT64_MAX);
    return 0;
}

static int show_level(struct session *s, const struct cmd_args *a)
{
    const char *only = NULL;
    for (const struct logging_facility *f = logging_facilities; f->name; f++)
        if (arg_has(a, f->name))
            only = f->name;
    logging_show_levels(s, only);
    return 0;
}

static int clear_logfile(struct session *s, const struct cmd_args *a)
{
    (void)a;
    logging_forget_queued(s->lab, s->sw);
    logging_store_clear(s->lab, s->sw);
    return 0;
}

/* ---- configuration ---- */

static int set_console(struct session *s, const struct cmd_args *a)
{
    struct logging_settings set;
    logging_settings_get(s->lab, s->sw, &set);
    set.console = a->negated ? LOG_OFF : (int)arg_num(a, "severity", LOG_CONSOLE_DEFAULT);
    logging_settings_put(s->lab, s->sw, &set);
    return 0;
}

static int set_monitor(struct session *s, const struct cmd_args *a)
{
    struct logging_settings set;
    logging_settings_get(s->lab, s->sw, &set);
    set.monitor = a->negated ? LOG_OFF : (int)arg_num(a, "severity", LOG_MONITOR_DEFAULT);
    logging_settings_put(s->lab, s->sw, &set);
    return 0;
}

static int set_logfile(struct session *s, const struct cmd_args *a)
{
    struct logging_settings set;
    logging_settings_get(s->lab, s->sw, &set);
    set.logfile = (int)arg_num(a, "severity", LOG_LOGFILE_DEFAULT);
    set.size = arg_num(a, "bytes", LOG_SIZE_DEFAULT);
    logging_settings_put(s->lab, s->sw, &set);
    return 0;
}

/* Its size goes back to the default too: `no logging logfile` is all
 * running-config prints for it. */
static int no_logfile(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct logging_settings set;
    logging_settings_get(s->lab, s->sw, &set);
    set.logfile = LOG_OFF;
    set.size = LOG_SIZE_DEFAULT;
    logging_settings_put(s->lab, s->sw, &set);
    return 0;
}

/* ---- terminal ---- */

static int terminal_monitor(struct session *s, const struct cmd_args *a)
{
    (void)a;
    logging_monitor_set(s->lab, s, true);
    return 0;
}

static int terminal_no_monitor(struct session *s, const struct cmd_args *a)
{
    (void)a;
    logging_monitor_set(s->lab, s, false);
    return 0;
}

#define SEVERITY_HELP "severity: 0-emerg;1-alert;2-crit;3-err;4-warn;5-notif;6-inform;7-debug"
#define WHEN_HELP(p)                                                                                     \
    p "year: Year (yyyy)\n" p "month: Month (mmm: Jan, Feb ...)\n" p "day: Day of the month (dd)\n" p \
      "time: Time of day (hh:mm:ss)"
#define SHOW_LOGGING_HELP "logging: Show logging configuration and contents of logfile"

const struct cmd_def logging_cmds[] = {
    {MODES(MODE_EXEC), "show logging", SHOW_LOGGING_HELP, show_logging, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC),
     "show logging logfile [start-time <syear:2000-2037> <smonth:word> <sday:1-31> <stime:hh:mm:ss>]"
     " [end-time <eyear:2000-2037> <emonth:word> <eday:1-31> <etime:hh:mm:ss>]",
     SHOW_LOGGING_HELP "\nlogfile: Show contents of logfile\nstart-time: Messages from this time on\n"
                       "end-time: Messages up to this time\n" WHEN_HELP("s") "\n" WHEN_HELP("e"),
     show_logfile, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show logging last <lines:1-9999>",
     SHOW_LOGGING_HELP "\nlast: Show last few lines of logfile\nlines: Enter number of lines to display", show_last,
     CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC),
     "show logging level [{aaa | callhome | cfs | fcdomain | fcns | flogi | fspf | ips | port | port-channel | rscn"
     " | security | sysmgr | vsan | vshd | wwn | zone}]",
     SHOW_LOGGING_HELP "\nlevel: Show facility logging configuration\naaa: AAA manager\ncallhome: Call Home\n"
                       "cfs: Cisco Fabric Services\nfcdomain: FC domain manager\nfcns: FC name server\n"
                       "flogi: Fabric logins\nfspf: FSPF routing\nips: IP storage services\nport: Ports\n"
                       "port-channel: Port channels\nrscn: Registered state change notifications\n"
                       "security: Security\nsysmgr: System manager\nvsan: VSAN manager\nvshd: The CLI\n"
                       "wwn: WWN manager\nzone: Zone server",
     show_level, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "clear logging logfile", "clear: Reset functions\nlogging: Clear logging\nlogfile: Clear logfile",
     clear_logfile, CMD_ADMIN, 0, 0},
    {MODES(MODE_CONFIG), "[no] logging console [<severity:0-7>]",
     "logging: Modify message logging facilities\nconsole: Set console logging level\n" SEVERITY_HELP, set_console,
     0, 0, 0},
    {MODES(MODE_CONFIG), "[no] logging monitor [<severity:0-7>]",
     "logging: Modify message logging facilities\nmonitor: Set terminal line (monitor) logging level\n" SEVERITY_HELP,
     set_monitor, 0, 0, 0},
    {MODES(MODE_CONFIG), "logging logfile messages [<severity:0-7>] [size <bytes:4096-4194304>]",
     "logging: Modify message logging facilities\nlogfile: Set file logging\nmessages: The logfile's name\n"
     SEVERITY_HELP "\nsize: Enter the logfile size\nbytes: Logfile size in bytes",
     set_logfile, 0, 0, 0},
    {MODES(MODE_CONFIG), "no logging logfile [messages]",
     "logging: Modify message logging facilities\nlogfile: Set file logging\nmessages: The logfile's name", no_logfile,
     0, 0, 0},
    {MODES(MODE_EXEC), "terminal monitor", "monitor: Copy syslog messages to this terminal", terminal_monitor, 0, 0, 0},
    {MODES(MODE_EXEC), "terminal no monitor", "no: Negate a command\nmonitor: Stop copying syslog messages to this terminal",
     terminal_no_monitor, 0, 0, 0},
    {0},
};
