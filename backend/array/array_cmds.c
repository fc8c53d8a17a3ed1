/* A storage array's shell (docs/array.md): SMcli script commands in
 * array_mode. Attribute lists (`writeCacheEnabled=TRUE ...`) are parsed
 * here, as SMcli's script parser takes them; the statements' words are
 * grammar, so `?`, Tab and abbreviations work. */
#include "feature.h"
#include "array.h"
#include "host/host.h"
#include "lab/lab.h"
#include "session.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int array_of(struct session *s) { return s->sw - lab_switch_count(s->lab); }

static int smcli_error(struct session *s, const char *fmt, const char *word)
{
    cmd_error(s, fmt, word);
    cmd_printf(s, "SMcli failed.\n");
    return -1;
}

/* The next `key=value` of an attribute list, value unquoted; false at the
 * end. Bounded: keys and values of up to 63 bytes. */
static bool next_attr(const char **p, char key[64], char val[64], bool *bad)
{
    const char *w = *p + strspn(*p, " \t");
    size_t n = strcspn(w, " \t");
    *bad = false;
    if (!n)
        return false;
    const char *eq = memchr(w, '=', n);
    *p = w + n;
    if (!eq || eq == w || (size_t)(eq - w) >= 64 || n - (size_t)(eq - w) - 1 >= 64) {
        snprintf(key, 64, "%.*s", (int)(n < 63 ? n : 63), w);
        return (*bad = true);
    }
    snprintf(key, 64, "%.*s", (int)(eq - w), w);
    snprintf(val, 64, "%.*s", (int)(n - (size_t)(eq - w) - 1), eq + 1);
    size_t vl = strlen(val);
    if (vl >= 2 && val[0] == '"' && val[vl - 1] == '"') {
        memmove(val, val + 1, vl - 2);
        val[vl - 2] = '\0';
    }
    return true;
}

static int bool_of(const char *v) { return strcasecmp(v, "TRUE") == 0 ? 1 : strcasecmp(v, "FALSE") == 0 ? 0 : -1; }

/* Logical drive attributes: SMcli's names and the store's columns. The
 * spelling a widely read article gives, mirrorEnabled, is not SMcli's. */
static const struct {
    const char *attr, *column;
} ld_attrs[] = {
    {"writeCacheEnabled", "write_cache"}, {"mirrorCacheEnabled", "mirror_cache"}, {"readCacheEnabled", "read_cache"}};

static int set_drives(struct session *s, int ld, const char *attrs)
{
    char key[64], val[64];
    bool bad, any = false;
    const char *p = attrs;
    while (next_attr(&p, key, val, &bad)) {
        size_t i = 0;
        while (!bad && i < 3 && strcasecmp(key, ld_attrs[i].attr) != 0)
            i++;
        if (bad || i == 3)
            return smcli_error(s, "Syntax error near \"%s\": not a logical drive attribute (writeCacheEnabled,"
                                  " mirrorCacheEnabled, readCacheEnabled).", key);
        int on = bool_of(val);
        if (on < 0)
            return smcli_error(s, "Syntax error near \"%s\": TRUE or FALSE.", val);
        if (!array_set_ld_flag(s->lab, array_of(s), ld, ld_attrs[i].column, on))
            return smcli_error(s, "Error: the array's store refused \"%s\".", key);
        any = true;
    }
    return any ? 0 : smcli_error(s, "Syntax error near \"%s\": an attribute is missing.", "set");
}

static int cmd_set_all(struct session *s, const struct cmd_args *a)
{
    return set_drives(s, -1, arg_str(a, "attrs"));
}

/* `[NAME]` at the head of a statement's rest: the name, and what follows. */
static const char *bracketed(const char *p, char *name, size_t n)
{
    p += strspn(p, " \t");
    const char *end = *p == '[' ? strchr(p, ']') : NULL;
    if (!end || (size_t)(end - p - 1) >= n || end == p + 1)
        return NULL;
    snprintf(name, n, "%.*s", (int)(end - p - 1), p + 1);
    if (name[0] == '"' && strlen(name) >= 2 && name[strlen(name) - 1] == '"') {
        memmove(name, name + 1, strlen(name) - 2);
        name[strlen(name) - 2] = '\0';
    }
    return end + 1;
}

static int cmd_set_ld(struct session *s, const struct cmd_args *a)
{
    char name[40];
    const char *rest = bracketed(arg_str(a, "rest"), name, sizeof name);
    if (!rest)
        return smcli_error(s, "Syntax error near \"%s\": the logical drive's name goes in brackets.", arg_str(a, "rest"));
    struct array_row r;
    array_row_get(s->lab, array_of(s), &r);
    for (int i = 0; i < r.conf.nld; i++)
        if (strcmp(r.conf.ld[i].name, name) == 0)
            return set_drives(s, i, rest);
    return smcli_error(s, "Error 11 - The operation cannot complete because logical drive %s does not exist.", name);
}

static int cmd_set_controller(struct session *s, const struct cmd_args *a)
{
    char name[8], key[64], val[64];
    bool bad;
    const char *p = bracketed(arg_str(a, "rest"), name, sizeof name);
    if (!p || (strcasecmp(name, "a") != 0 && strcasecmp(name, "b") != 0))
        return smcli_error(s, "Syntax error near \"%s\": controller [a] or [b].", arg_str(a, "rest"));
    int c = tolower((unsigned char)name[0]) - 'a';
    if (!next_attr(&p, key, val, &bad) || bad || strcasecmp(key, "availability") != 0)
        return smcli_error(s, "Syntax error near \"%s\": availability=online or offline.", key);
    bool on = strcasecmp(val, "online") == 0;
    if (!on && strcasecmp(val, "offline") != 0)
        return smcli_error(s, "Syntax error near \"%s\": online or offline.", val);
    struct array_row r;
    array_row_get(s->lab, array_of(s), &r);
    if (c >= r.conf.controllers)
        return smcli_error(s, "Error 26 - The operation cannot complete because controller %s is not present.", name);
    if (!on && !r.conf.online[c ^ 1])
        return smcli_error(s, "Error 26 - The operation cannot complete because controller %s is the last one online.",
                           name);
    array_set_online(s->lab, array_of(s), c, on);
    return 0;
}

static bool number(const char *v, long lo, long hi, long *out)
{
    char *end;
    if (!isdigit((unsigned char)*v) || strlen(v) > 9)
        return false;
    *out = strtol(v, &end, 10);
    return !*end && *out >= lo && *out <= hi;
}

static int cmd_set_session(struct session *s, const struct cmd_args *a)
{
    struct array_row r;
    array_row_get(s->lab, array_of(s), &r);
    long interval = r.interval_s, iterations = r.iterations, v;
    char key[64], val[64];
    bool bad;
    const char *p = arg_str(a, "attrs");
    while (next_attr(&p, key, val, &bad)) {
        bool is_int = !bad && strcasecmp(key, "performanceMonitorInterval") == 0;
        if (!is_int && (bad || strcasecmp(key, "performanceMonitorIterations") != 0))
            return smcli_error(s, "Syntax error near \"%s\": performanceMonitorInterval or"
                                  " performanceMonitorIterations.", key);
        if (!number(val, is_int ? 3 : 1, is_int ? 3600 : 1200, &v))
            return smcli_error(s, is_int ? "Syntax error near \"%s\": an interval of 3 to 3600 seconds."
                                         : "Syntax error near \"%s\": 1 to 1200 iterations.", val);
        *(is_int ? &interval : &iterations) = v;
    }
    array_set_monitor(s->lab, array_of(s), (int)interval, (int)iterations);
    return 0;
}

/* ---- the performance monitor ------------------------------------------- */

enum { ROWS = ARRAY_LD_MAX + 3 };

struct monitor {
    char name[ROWS][48];
    struct array_stats first[ROWS], last[ROWS];
    double max_kb[ROWS], max_io[ROWS];
    int n;
};

/* The devices in the file's order: controller A and its drives, then B's,
 * then the totals. A drive is listed under the controller serving it. */
static int sample(struct array *a, const struct array_row *r, struct array_stats out[ROWS], char names[ROWS][48])
{
    int n = 0;
    struct array_stats total = {0};
    for (int c = 0; c < r->conf.controllers; c++) {
        snprintf(names[n], 48, "CONTROLLER IN SLOT %c", 'A' + c);
        array_ctrl_stats(a, c, &out[n++]);
        for (int i = 0; i < r->conf.nld; i++)
            if (array_ld_controller(a, i) == c || (array_ld_controller(a, i) < 0 && r->conf.ld[i].owner == c)) {
                snprintf(names[n], 48, "Logical Drive %s", r->conf.ld[i].name);
                array_ld_stats(a, i, &out[n]);
                total.ios += out[n].ios, total.reads += out[n].reads, total.read_hits += out[n].read_hits;
                total.bytes += out[n++].bytes;
            }
    }
    snprintf(names[n], 48, "STORAGE SUBSYSTEM TOTALS");
    out[n++] = total;
    return n;
}

static void lab_date(uint64_t ns, char *buf, size_t n)
{
    uint64_t t = ns / ENGINE_NS_PER_SEC; /* lab time from 1/1/26 12:00:00 AM [G] */
    unsigned h = (unsigned)(t / 3600 % 24), m = (unsigned)(t / 60 % 60), sec = (unsigned)(t % 60);
    snprintf(buf, n, "1/%u/26 %u:%02u:%02u %s", (unsigned)(1 + t / 86400 % 28), h % 12 ? h % 12 : 12, m, sec,
             h < 12 ? "AM" : "PM");
}

static void csv_row(strbuf *o, const char *name, const struct array_stats *tot, double kb, double max_kb, double io,
                    double max_io)
{
    double rd = tot->ios ? 100.0 * (double)tot->reads / (double)tot->ios : 0;
    double hit = tot->reads ? 100.0 * (double)tot->read_hits / (double)tot->reads : 0;
    sb_printf(o, "\"%s\",\"%llu.0\",\"%.1f\",\"%.1f\",\"%.1f\",\"%.1f\",\"%.1f\",\"%.1f\"\n", name,
              (unsigned long long)tot->ios, rd, hit, kb, max_kb, io, max_io);
}

static void iteration(strbuf *o, struct monitor *m, const struct array_stats now[ROWS], int k, double secs,
                      uint64_t t)
{
    char date[48];
    lab_date(t, date, sizeof date);
    sb_printf(o, "\"Capture Iteration: %d\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n", k);
    sb_printf(o, "\"Date/Time: %s\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n", date);
    for (int i = 0; i < m->n; i++) {
        struct array_stats tot = {now[i].ios - m->first[i].ios, now[i].reads - m->first[i].reads,
                                  now[i].read_hits - m->first[i].read_hits, now[i].bytes - m->first[i].bytes, 0};
        double kb = (double)(now[i].bytes - m->last[i].bytes) / 1024.0 / secs;
        double io = (double)(now[i].ios - m->last[i].ios) / secs;
        m->max_kb[i] = kb > m->max_kb[i] ? kb : m->max_kb[i];
        m->max_io[i] = io > m->max_io[i] ? io : m->max_io[i];
        csv_row(o, m->name[i], &tot, kb, m->max_kb[i], io, m->max_io[i]);
        m->last[i] = now[i];
    }
    sb_printf(o, "\n");
}

static bool csv_name(const char *v)
{
    size_t n = strlen(v);
    if (n < 5 || n > 64 || strcasecmp(v + n - 4, ".csv") != 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)v[i]) && !strchr("-_.", v[i]))
            return false;
    return true;
}

/* Polls the counters every interval, iterations times, on lab time, and
 * writes the file in the Storage Manager's layout [P]. */
static int cmd_save_stats(struct session *s, const struct cmd_args *a)
{
    char key[64], val[64];
    bool bad;
    const char *p = arg_str(a, "attrs");
    if (!next_attr(&p, key, val, &bad) || bad || strcasecmp(key, "file") != 0)
        return smcli_error(s, "Syntax error near \"%s\": file=\"NAME.csv\".", key);
    if (!csv_name(val))
        return smcli_error(s, "Error: \"%s\": a file name of letters, digits, - _ . ending in .csv (64 at most).", val);
    int h = array_of(s);
    struct array_row r;
    array_row_get(s->lab, h, &r);
    struct monitor m = {0};
    struct array_stats now[ROWS];
    struct array *arr = array_engine(s->lab, h);
    if (!arr)
        return smcli_error(s, "Error: %s has no controller running.", lab_hostname(s->lab, s->sw));
    m.n = sample(arr, &r, m.first, m.name);
    memcpy(m.last, m.first, sizeof m.last);
    strbuf o;
    sb_init(&o);
    sb_printf(&o, "\"Performance Monitor Statistics for Storage Subsystem: %s - Date/Time: ", lab_hostname(s->lab, s->sw));
    char date[48];
    lab_date(lab_now(s->lab), date, sizeof date);
    sb_printf(&o, "%s - Polling interval in seconds: %d\"\n\n", date, r.interval_s);
    sb_printf(&o, "\"Devices\",\"Total IOs\",\"Read Percentage\",\"Cache Hit Percentage\",\"Current KB/second\","
                  "\"Maximum KB/second\",\"Current IO/second\",\"Maximum IO/second\"\n\n");
    s->no_more = true;
    for (int k = 1; k <= r.iterations; k++) {
        if (!cmd_wait_until(s, lab_now(s->lab) + (uint64_t)r.interval_s * ENGINE_NS_PER_SEC)) {
            sb_free(&o);
            return cmd_error(s, "^C");
        }
        struct array_row again;
        if (!array_row_get(s->lab, h, &again) || !(arr = array_engine(s->lab, h)) ||
            sample(arr, &again, now, m.name) != m.n) {
            sb_free(&o); /* the drives moved between controllers: the file's rows would not line up */
            return smcli_error(s, "Error: the monitor stopped: %s changed its devices.", lab_hostname(s->lab, s->sw));
        }
        iteration(&o, &m, now, k, r.interval_s, lab_now(s->lab));
    }
    bool ok = o.len <= 1048576 && array_file_put(s->lab, h, val, o.data);
    sb_free(&o);
    return ok ? 0 : smcli_error(s, "Error: \"%s\" does not fit the array's file area (1 MB a file).", val);
}

static int cmd_show_file(struct session *s, const struct cmd_args *a)
{
    char name[72];
    snprintf(name, sizeof name, "%s", arg_str(a, "name"));
    size_t n = strlen(name);
    if (n >= 2 && name[0] == '"' && name[n - 1] == '"') {
        memmove(name, name + 1, n - 2);
        name[n - 2] = '\0';
    }
    char *c = array_file_get(s->lab, array_of(s), name);
    if (!c)
        return smcli_error(s, "Error: no file \"%s\" on the array.", name);
    cmd_printf(s, "%s", c);
    free(c);
    return 0;
}

static int cmd_exit(struct session *s, const struct cmd_args *a)
{
    (void)a;
    s->closed = true;
    return 0;
}

const struct cmd_def array_cmds[] = {
    {MODES(&array_mode), "show storageSubsystem profile",
     "show: Show the array's state\nstorageSubsystem: The storage subsystem\nprofile: Its profile: controllers,"
     " logical drives, cache settings",
     array_cmd_profile, CMD_PIPE, 0, 0},
    {MODES(&array_mode), "show file <name:word>",
     "show: Show the array's state\nfile: A file the array saved (mdsim's way to read it)\nname: Its name",
     cmd_show_file, CMD_PIPE, 0, 0},
    {MODES(&array_mode), "set allLogicalDrives <attrs:line>",
     "set: Change settings\nallLogicalDrives: Every logical drive\nattrs: writeCacheEnabled=TRUE|FALSE"
     " mirrorCacheEnabled=TRUE|FALSE readCacheEnabled=TRUE|FALSE",
     cmd_set_all, 0, 0, 0},
    {MODES(&array_mode), "set logicalDrive <rest:line>",
     "set: Change settings\nlogicalDrive: One logical drive\nrest: [NAME] writeCacheEnabled=TRUE|FALSE ...",
     cmd_set_ld, 0, 0, 0},
    {MODES(&array_mode), "set controller <rest:line>",
     "set: Change settings\ncontroller: A controller\nrest: [a|b] availability=online|offline", cmd_set_controller, 0,
     0, 0},
    {MODES(&array_mode), "set session <attrs:line>",
     "set: Change settings\nsession: The script session\nattrs: performanceMonitorInterval=3-3600"
     " performanceMonitorIterations=1-1200",
     cmd_set_session, 0, 0, 0},
    {MODES(&array_mode), "save storageSubsystem performanceStats <attrs:line>",
     "save: Save to a file\nstorageSubsystem: The storage subsystem\nperformanceStats: Its performance monitor's"
     " statistics, polled as the session sets\nattrs: file=\"NAME.csv\"",
     cmd_save_stats, 0, 0, 0},
    {MODES(&array_mode), "exit", "exit: Leave the shell", cmd_exit, 0, 0, 0},
    {MODES(&host_mode), "iscsi-perf [<options:line>]",
     "iscsi-perf: iSCSI I/O against a storage array's target (docs/array.md)\n"
     "options: [-m inflight] [-b blocks] [-t secs] [-r] [-w] iscsi://host/iqn/lun",
     array_cmd_iscsi_perf, CMD_PIPE, 0, 0},
    {0},
};
