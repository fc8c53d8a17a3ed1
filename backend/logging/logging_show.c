/* What the logging feature prints: a message's line, `show logging` and
 * its variants (layouts: mds-cli-15-failures.md §15.2, docs/logging.md),
 * and its lines of the running configuration. */
#include "logging.h"
#include "session.h"
#include "lab/lab.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const sev_names[] = {"emergencies", "alerts",        "critical",    "errors",
                                        "warnings",    "notifications", "information", "debugging"};

const char *logging_sev_name(int sev) { return sev >= 0 && sev <= 7 ? sev_names[sev] : "?"; }

/* The facilities `show logging` lists, with their default severities [G:
 * a subset of NX-OS's, those of the SAN side]. Messages are logged
 * whatever their facility; this table is what the switch says. */
const struct logging_facility logging_facilities[] = {
    {"aaa", 3},  {"callhome", 2}, {"cfs", 3},          {"fcdomain", 3}, {"fcns", 2},     {"flogi", 2},
    {"fspf", 3}, {"ips", 3},      {"port", 5},         {"port-channel", 5}, {"rscn", 2}, {"security", 3},
    {"sysmgr", 3}, {"vsan", 2},   {"vshd", 5},         {"wwn", 3},      {"zone", 2},     {NULL, 0},
};

void logging_format_line(char *buf, size_t n, const struct log_msg *m)
{
    struct tm tm;
    char when[32], tag[32] = "";
    gmtime_r(&m->time_s, &tm);
    strftime(when, sizeof when, "%Y %b %e %H:%M:%S", &tm); /* %e: the day space-padded, as NX-OS */
    if (m->vsan > 0)
        snprintf(tag, sizeof tag, "%%$VSAN %d%%$ ", m->vsan);
    snprintf(buf, n, "%s %s %%%s-%d-%s: %s%s", when, m->hostname, m->facility, m->sev, m->mnemonic, tag, m->text);
}

static void print_msg(void *ctx, const struct log_msg *m)
{
    char line[LOG_LINE_MAX];
    logging_format_line(line, sizeof line, m);
    cmd_printf(ctx, "%s\n", line);
}

void logging_show_messages(struct session *s, int last, time_t from, time_t to)
{
    logging_flush_queue(s->lab);
    logging_store_each(s->lab, s->sw, last, from, to, print_msg, s);
}

static void setting(struct session *s, const char *what, int sev)
{
    char label[40];
    snprintf(label, sizeof label, "Logging %s:", what);
    if (sev == LOG_OFF)
        cmd_printf(s, "%-32sdisabled\n", label);
    else
        cmd_printf(s, "%-32senabled (Severity: %s)\n", label, logging_sev_name(sev));
}

static void show_settings(struct session *s)
{
    struct logging_settings set;
    logging_settings_get(s->lab, s->sw, &set);
    setting(s, "console", set.console);
    setting(s, "monitor", set.monitor);
    setting(s, "linecard", SEV_NOTICE);
    cmd_printf(s, "%-32sSeconds\n", "Logging timestamp:");
    cmd_printf(s, "%-32sdisabled\n", "Logging server:");
    if (set.logfile == LOG_OFF) {
        cmd_printf(s, "%-32sdisabled\n", "Logging logfile:");
        return;
    }
    cmd_printf(s, "%-32senabled\n", "Logging logfile:");
    cmd_printf(s, "        Name - messages: Severity - %s Size - %ld\n", logging_sev_name(set.logfile), set.size);
}

/* The facility table (one facility, or all when NULL), then the legend. */
void logging_show_levels(struct session *s, const char *only)
{
    cmd_printf(s, "Facility        Default Severity        Current Session Severity\n");
    cmd_printf(s, "--------        ----------------        ------------------------\n");
    for (const struct logging_facility *f = logging_facilities; f->name; f++)
        if (!only || strcmp(only, f->name) == 0)
            cmd_printf(s, "%-24s%-24d%d\n", f->name, f->sev, f->sev);
    cmd_printf(s, "\n0(emergencies)          1(alerts)       2(critical)\n"
                  "3(errors)               4(warnings)     5(notifications)\n"
                  "6(information)          7(debugging)\n");
}

void logging_show_all(struct session *s)
{
    show_settings(s);
    logging_show_levels(s, NULL);
    cmd_printf(s, "\n");
    logging_show_messages(s, 0, INT64_MIN, INT64_MAX);
}

/* Only what differs from the defaults, as NX-OS prints it. */
void logging_render_config(struct lab *lab, int sw, strbuf *out)
{
    struct logging_settings set;
    logging_settings_get(lab, sw, &set);
    if (set.console == LOG_OFF)
        sb_printf(out, "no logging console\n");
    else if (set.console != LOG_CONSOLE_DEFAULT)
        sb_printf(out, "logging console %d\n", set.console);
    if (set.monitor == LOG_OFF)
        sb_printf(out, "no logging monitor\n");
    else if (set.monitor != LOG_MONITOR_DEFAULT)
        sb_printf(out, "logging monitor %d\n", set.monitor);
    if (set.logfile == LOG_OFF)
        sb_printf(out, "no logging logfile\n");
    else if (set.size != LOG_SIZE_DEFAULT)
        sb_printf(out, "logging logfile messages %d size %ld\n", set.logfile, set.size);
    else if (set.logfile != LOG_LOGFILE_DEFAULT)
        sb_printf(out, "logging logfile messages %d\n", set.logfile);
}
