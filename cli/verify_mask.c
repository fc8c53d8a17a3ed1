/* replay --verify compares a transcript's output with a new run's. A switch
 * prints some fields that change by themselves between two runs of the
 * same lines: the time a command ran, how long the switch has been up, the
 * date of a log message. These are masked on both sides before comparing,
 * so a capture still verifies tomorrow, on another lab, or against a
 * switch that has been up longer; everything else on those lines is still
 * compared (docs/replay.md). */
#include "verify_mask.h"
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* Pieces of the stamps mdsim prints (all UTC, English names). */
#define DAY "[A-Z][a-z][a-z]"                  /* Wed */
#define MON "[A-Z][a-z][a-z]"                  /* Dec */
#define MDAY "[0-9]{1,2}"                      /* 2, 02, 12 (after spaces) */
#define HMS "[0-9]{2}:[0-9]{2}:[0-9]{2}"       /* 07:09:02 */

/* What varies, as POSIX extended regular expressions, tried in this order
 * on every line: the longer stamps first, so that a shorter pattern never
 * masks part of one. A pattern's group, when it has one, is the part that
 * varies (the words around it are still compared); else the whole match. */
static const char *const masks[] = {
    /* show running-config, show startup-config, show running-config fcip:
     * when the command ran, whatever the form */
    "^!Time: (.*)$",
    /* show version: how long the switch has been up (in mdsim, since its
     * lab's process opened it) */
    "Kernel uptime is (.*)$",
    /* show system uptime of a real switch's capture ("System uptime:
     * 12 days, 3 hours, ..."): the same for the system and the supervisor */
    "uptime: +(.*)$",
    /* "Wed Dec  2 07:09:02 2026": !Startup config saved at (when saved),
     * Interface last changed at (when the state changed) */
    DAY " " MON " +" MDAY " " HMS " [0-9]{4}",
    /* show clock: "07:09:02.000 UTC Wed Dec 02 2026", the lab's clock */
    HMS "[.0-9]* [A-Z]{2,5} " DAY " " MON " +" MDAY " [0-9]{4}",
    /* a log message's stamp: "2026 Dec  2 07:09:02" (show logging) */
    "[0-9]{4} " MON " +" MDAY " " HMS,
    /* dir bootflash:'s file times: "Dec 02 07:09:02 2026" */
    MON " +" MDAY " " HMS " [0-9]{4}",
    /* show users: when a session logged in, "Dec  2 07:09" */
    MON " +" MDAY " [0-9]{2}:[0-9]{2}[:0-9]*",
};
#define NMASKS (sizeof masks / sizeof masks[0])

static regex_t compiled[NMASKS];
static pthread_once_t compile_once = PTHREAD_ONCE_INIT;

/* Replays of an owner's attached clients run on threads: compiled once. */
static void compile(void)
{
    for (size_t i = 0; i < NMASKS; i++)
        if (regcomp(&compiled[i], masks[i], REG_EXTENDED) != 0)
            abort(); /* a pattern of the table above is wrong */
}

static void append(char **out, size_t *len, const char *s, size_t n)
{
    char *p = realloc(*out, *len + n + 1);
    if (!p)
        abort();
    memcpy(p + *len, s, n);
    *len += n;
    p[*len] = '\0';
    *out = p;
}

/* s with every match of re masked, as a new string. */
static char *mask_one(const regex_t *re, char *s)
{
    char *out = NULL;
    size_t len = 0, off = 0;
    regmatch_t m[2];
    append(&out, &len, "", 0);
    while (regexec(re, s + off, 2, m, off ? REG_NOTBOL : 0) == 0 && m[0].rm_eo > 0) {
        regmatch_t v = re->re_nsub && m[1].rm_so >= 0 ? m[1] : m[0];
        append(&out, &len, s + off, (size_t)v.rm_so);
        append(&out, &len, "*", 1);
        append(&out, &len, s + off + v.rm_eo, (size_t)(m[0].rm_eo - v.rm_eo));
        off += (size_t)m[0].rm_eo;
    }
    append(&out, &len, s + off, strlen(s + off));
    free(s);
    return out;
}

char *verify_mask(const char *line, size_t n)
{
    pthread_once(&compile_once, compile);
    char *s = strndup(line, n);
    if (!s)
        abort();
    for (size_t i = 0; i < NMASKS; i++)
        s = mask_one(&compiled[i], s);
    return s;
}
