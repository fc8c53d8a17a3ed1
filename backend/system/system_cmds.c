/* Switch identity and terminal: configure, switchname, clock, terminal,
 * sleep, show version/module/inventory/license host-id/clock/switchname/
 * terminal. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include "lab/sessions.h"
#include "system.h"
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int cmd_configure(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "Enter configuration commands, one per line.  End with CNTL/Z.\n");
    s->mode = MODE_CONFIG;
    return 0;
}

/* The other switch of the lab that has this name as its host name, or as
 * its lab name (which `no switchname` and a factory reset give back), or
 * -1. Case aside, as in lab files: a reader could not tell them apart. */
static int hostname_owner(struct session *s, const char *name)
{
    for (int i = 0; i < lab_switch_count(s->lab); i++)
        if (i != s->sw && (strcasecmp(lab_hostname(s->lab, i), name) == 0 ||
                           strcasecmp(lab_switch_name(s->lab, i), name) == 0))
            return i;
    return -1;
}

static int cmd_switchname(struct session *s, const struct cmd_args *a)
{
    const char *name = a->negated ? lab_switch_name(s->lab, s->sw) : arg_str(a, "name");
    if (strlen(name) > 32)
        return cmd_error(s, "%% String exceeded max length of (32)");
    if (!isalpha((unsigned char)name[0]))
        return cmd_error(s, "%% Illegal first character (name must start with a letter)");
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            return cmd_error(s, "%% Illegal character present in the name");
    int other = hostname_owner(s, name);
    if (other >= 0)
        return cmd_error(s, "%% Name already used by another switch of this lab (%s);"
                            " transcripts address switches by prompt", lab_switch_name(s->lab, other));
    lab_set_hostname(s->lab, s->sw, name);
    return 0;
}

static int cmd_terminal_length(struct session *s, const struct cmd_args *a)
{
    s->term_length = (int)arg_num(a, "lines", 24);
    return 0;
}

static int cmd_terminal_width(struct session *s, const struct cmd_args *a)
{
    s->term_width = (int)arg_num(a, "columns", 80);
    return 0;
}

static int cmd_dont_ask(struct session *s, const struct cmd_args *a)
{
    s->dont_ask = !a->negated;
    return 0;
}

static int cmd_sleep(struct session *s, const struct cmd_args *a)
{
    uint64_t ns = (uint64_t)arg_num(a, "seconds", 0) * 1000000000u, now = lab_now(s->lab);
    /* On virtual time a sleep moves the clock every session of the lab
     * shares: the admin's call, as `clock set` is. */
    if (!lab_realtime(s->lab) && s->role == ROLE_OPERATOR)
        return cmd_error(s, "%% Permission denied: on virtual time sleep moves the lab clock of every"
                            " session (network-admin only)");
    if (now + ns > LAB_TIME_MAX_NS)
        return cmd_error(s, "%% The lab clock stops at 10 years of lab time: at most %llu seconds more",
                         (unsigned long long)((LAB_TIME_MAX_NS - now) / 1000000000u));
    /* Ctrl-C ends a sleep early, quietly, as on the switch */
    cmd_wait_until(s, now + ns);
    return 0;
}

static const char *const months[] = {"january", "february", "march", "april", "may", "june",
                                     "july", "august", "september", "october", "november",
                                     "december"};

static int cmd_clock_set(struct session *s, const struct cmd_args *a)
{
    const char *mon = arg_str(a, "month");
    int m = -1;
    for (int i = 0; i < 12; i++)
        if (strlen(mon) >= 3 && strncasecmp(months[i], mon, strlen(mon)) == 0)
            m = i;
    if (m < 0)
        return cmd_error(s, "%% Invalid month");
    struct tm tm = {0};
    tm.tm_year = (int)arg_num(a, "year", 2000) - 1900;
    tm.tm_mon = m;
    tm.tm_mday = (int)arg_num(a, "day", 1);
    long secs = arg_num(a, "time", 0);
    tm.tm_hour = (int)(secs / 3600);
    tm.tm_min = (int)(secs / 60 % 60);
    tm.tm_sec = (int)(secs % 60);
    int day = tm.tm_mday; /* timegm normalises tm: 31 February becomes 3 March */
    time_t t = timegm(&tm);
    if (tm.tm_mday != day)
        return cmd_error(s, "%% Invalid date");
    lab_clock_set(s->lab, s->sw, t); /* this switch's own clock: the others keep theirs */
    return 0;
}

void system_ctime(struct lab *lab, int sw, char *buf, size_t n)
{
    struct tm tm;
    time_t t = lab_time(lab, sw, NULL);
    gmtime_r(&t, &tm);
    strftime(buf, n, "%a %b %e %H:%M:%S %Y", &tm);
}

static int show_clock(struct session *s, const struct cmd_args *a)
{
    (void)a;
    long usec;
    time_t t = lab_time(s->lab, s->sw, &usec);
    struct tm tm;
    char day[32];
    gmtime_r(&t, &tm);
    strftime(day, sizeof day, "%a %b %d %Y", &tm);
    cmd_printf(s, "%02d:%02d:%02d.%03ld UTC %s\n", tm.tm_hour, tm.tm_min, tm.tm_sec, usec / 1000, day);
    return 0;
}

static int show_switchname(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "%s\n", lab_hostname(s->lab, s->sw));
    return 0;
}

static int show_terminal(struct session *s, const struct cmd_args *a)
{
    (void)a;
    char line[16] = "null"; /* replay and batch runs have no line */
    const struct labsess *e = labsess_of(s->lab, s);
    if (e)
        labsess_line(e, line, sizeof line);
    cmd_printf(s, "TTY: /dev/%s Type: \"vt100\"\n", line); /* the line `show users` names */
    cmd_printf(s, "Length: %d lines, Width: %d columns\n", s->term_length, s->term_width);
    int t = s->idle_timeout;
    if (t == 0)
        cmd_printf(s, "Session Timeout: None\n");
    else if (t % 60 == 0)
        cmd_printf(s, "Session Timeout: %d minute%s\n", t / 60, t == 60 ? "" : "s");
    else /* `serve --idle-timeout` counts seconds */
        cmd_printf(s, "Session Timeout: %d seconds\n", t);
    return 0;
}

static int cmd_version(struct session *s, const struct cmd_args *a)
{
    (void)s;
    (void)a; /* the `version` line of a saved configuration: informational */
    return 0;
}

const struct cmd_def system_cmds[] = {
    {MODES(MODE_EXEC), "configure [terminal]", NULL, cmd_configure, CMD_ADMIN, 0, 0},
    {MODES(MODE_CONFIG), "switchname <name:word>", "name: Switch name (up to 32 characters)",
     cmd_switchname, 0, 0, 0},
    {MODES(MODE_CONFIG), "no switchname [<name:word>]", "name: Switch name", cmd_switchname, 0, 0, 0},
    {MODES(MODE_CONFIG), "version <release:word>", NULL, cmd_version, CMD_HIDDEN, 0, 0},
    {MODES(MODE_EXEC), "terminal length <lines:0-511>", "lines: Number of lines on screen (0 for no pausing)",
     cmd_terminal_length, 0, 0, 0},
    {MODES(MODE_EXEC), "terminal width <columns:24-511>", "columns: Number of columns on screen",
     cmd_terminal_width, 0, 0, 0},
    {MODES(MODE_EXEC), "[no] terminal dont-ask", NULL, cmd_dont_ask, 0, 0, 0},
    {MODES(MODE_EXEC), "sleep <seconds:0-2147483647>", "seconds: Number of seconds to sleep",
     cmd_sleep, 0, 0, 0},
    {MODES(MODE_EXEC), "clock set <time:hh:mm:ss> <day:1-31> <month:word> <year:2000-2037>",
     "time: Current time (HH:MM:SS)\nday: Day of the month\nmonth: Month of the year (January, February ...)\nyear: Year",
     cmd_clock_set, CMD_ADMIN, 0, 0},
    {MODES(MODE_EXEC), "show clock", NULL, show_clock, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show switchname", NULL, show_switchname, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show terminal", NULL, show_terminal, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show version", NULL, system_show_version, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show module", NULL, system_show_module, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show inventory", "inventory: Show physical inventory", system_show_inventory, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show license host-id", "license: Show license information\nhost-id: Display license host ID",
     system_show_license_host_id, CMD_PIPE, 0, 0},
    {0},
};
