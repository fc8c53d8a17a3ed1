/* iscsi-perf in a lab host's shell (docs/array.md): an iSCSI initiator
 * after libiscsi's tool of that name that logs in to an array's target
 * and keeps I/Os in flight to a LUN on lab time; its options and report
 * are mdsim's [G]. */
#include "feature.h"
#include "array.h"
#include "array_iscsi.h"
#include "host/host.h"
#include "ipnet/ip_text.h"
#include "lab/lab.h"
#include "session.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct perf_cmd {
    struct iscsi_perf_conf c;
    char host[64], iqn[96];
};

static bool number(const char *w, unsigned long lo, unsigned long hi, unsigned long *v)
{
    char *end;
    if (!w || !isdigit((unsigned char)*w) || strlen(w) > 9)
        return false;
    *v = strtoul(w, &end, 10);
    return !*end && *v >= lo && *v <= hi;
}

/* iscsi://HOST[:3260]/IQN/LUN */
static bool parse_url(const char *u, struct perf_cmd *pc)
{
    char host[64], iqn[96], lun[8];
    unsigned long n;
    if (strncmp(u, "iscsi://", 8) != 0 || sscanf(u + 8, "%63[^/]/%95[^/]/%7s", host, iqn, lun) != 3 ||
        !number(lun, 0, ARRAY_LD_MAX - 1, &n))
        return false;
    char *port = strchr(host, ':');
    if (port && strcmp(port, ":3260") != 0)
        return false; /* the arrays' targets listen on 3260 only */
    if (port)
        *port = '\0';
    snprintf(pc->host, sizeof pc->host, "%s", host);
    snprintf(pc->iqn, sizeof pc->iqn, "%s", iqn);
    pc->c.lun = (int)n;
    return true;
}

static int usage(struct session *s, const char *why)
{
    return cmd_error(s, "iscsi-perf: %s", why);
}

static int parse(struct session *s, const char *line, struct perf_cmd *pc)
{
    char w[16][128];
    int n = 0;
    unsigned long v;
    bool url = false;
    pc->c = (struct iscsi_perf_conf){.depth = 1, .bytes = 8 * ARRAY_SECTOR, .len_ns = 10 * ENGINE_NS_PER_SEC};
    while (*line) {
        line += strspn(line, " \t");
        size_t k = strcspn(line, " \t");
        if (!k)
            break;
        if (n == 16 || k >= sizeof w[0])
            return usage(s, "too many or too long arguments");
        memcpy(w[n], line, k);
        w[n++][k] = '\0';
        line += k;
    }
    for (int i = 0; i < n; i++) {
        const char *a = w[i], *next = i + 1 < n ? w[i + 1] : NULL;
        if (strcmp(a, "-r") == 0 || strcmp(a, "-w") == 0) {
            *(a[1] == 'r' ? &pc->c.random : &pc->c.write) = true;
        } else if (strcmp(a, "-m") == 0 && number(next, 1, 64, &v)) {
            pc->c.depth = (int)v, i++;
        } else if (strcmp(a, "-b") == 0 && number(next, 1, 32768, &v)) {
            pc->c.bytes = (uint32_t)v * ARRAY_SECTOR, i++;
        } else if (strcmp(a, "-t") == 0 && number(next, 1, 3600, &v)) {
            pc->c.len_ns = v * ENGINE_NS_PER_SEC, i++;
        } else if (a[0] == '-') {
            return usage(s, "-m takes 1-64 in flight, -b 1-32768 blocks, -t 1-3600 seconds");
        } else if (url || !parse_url(a, pc)) {
            return usage(s, "one iscsi://host[:3260]/iqn/lun, with a LUN of 0-15");
        } else {
            url = true;
        }
    }
    return url ? 0 : usage(s, "no target");
}

/* The array behind an address: its host index, -1 when none. */
static int array_at(struct lab *lab, uint32_t ip, char iqn[96])
{
    int hs[64], n = array_hosts(lab, hs, 64);
    for (int i = 0; i < n; i++) {
        const char *name = lab_switch_name(lab, lab_switch_count(lab) + hs[i]);
        if (host_address_of(lab, name) == ip) {
            snprintf(iqn, 96, "iqn.1992-01.com.lsi:array.%s", name);
            for (char *c = iqn; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            return hs[i];
        }
    }
    return -1;
}

static bool wait_perf(struct session *s, struct iscsi_perf *p, struct iscsi_perf_result *r)
{
    uint64_t deadline = iscsi_perf_deadline(p);
    while (!iscsi_perf_done(p, r)) {
        uint64_t t = lab_realtime(s->lab) ? lab_now(s->lab) + 100 * ENGINE_NS_PER_MS : deadline;
        if (!cmd_wait_until(s, t < deadline ? t : deadline) || lab_now(s->lab) >= deadline)
            return iscsi_perf_done(p, r);
    }
    return true;
}

static void report(struct session *s, const struct perf_cmd *pc, const struct iscsi_perf_result *r)
{
    double secs = (double)r->elapsed_ns / 1e9;
    cmd_printf(s, "iscsi-perf: %s %s, %u bytes (%u blocks) x %d in flight, LUN %d\n",
               pc->c.random ? "random" : "sequential", pc->c.write ? "WRITE(10)" : "READ(10)", pc->c.bytes,
               pc->c.bytes / ARRAY_SECTOR, pc->c.depth, pc->c.lun);
    cmd_printf(s, "  login      %.3f ms\n", (double)r->login_ns / 1e6);
    cmd_printf(s, "  I/Os       %llu in %.2f s\n", (unsigned long long)r->ios, secs);
    cmd_printf(s, "  IOPS       %.1f\n", secs > 0 ? (double)r->ios / secs : 0.0);
    cmd_printf(s, "  MB/s       %.2f\n", secs > 0 ? (double)r->bytes / 1e6 / secs : 0.0);
    cmd_printf(s, "  latency    avg %.3f ms, max %.3f ms\n", r->ios ? (double)r->lat_sum_ns / (double)r->ios / 1e6 : 0.0,
               (double)r->lat_max_ns / 1e6);
}

static const char *const errors[] = {
    [ISCSI_PERF_NO_ROUTE] = "iscsi-perf: failed to connect to %s: no route to host",
    [ISCSI_PERF_REFUSED] = "iscsi-perf: failed to connect to %s: connection refused",
    [ISCSI_PERF_TIMEOUT] = "iscsi-perf: failed to connect to %s: connection timed out",
    [ISCSI_PERF_LOST] = "iscsi-perf: %s: the session failed (I/O error or connection lost)",
};

int array_cmd_iscsi_perf(struct session *s, const struct cmd_args *a)
{
    struct perf_cmd pc;
    if (parse(s, arg_has(a, "options") ? arg_str(a, "options") : "", &pc) < 0)
        return -1;
    uint32_t ip;
    if (!ip_parse(pc.host, &ip) && !(ip = host_address_of(s->lab, pc.host)))
        return cmd_error(s, "iscsi-perf: could not resolve host '%s'", pc.host);
    struct hostnet *hn = host_engine(s->lab);
    char iqn[96];
    int arr = array_at(s->lab, ip, iqn);
    pc.c.h = s->sw - lab_switch_count(s->lab);
    pc.c.dst = ip;
    struct array_row row;
    pc.c.span_bytes = arr >= 0 && array_row_get(s->lab, arr, &row) && pc.c.lun < row.conf.nld
                          ? (uint64_t)row.conf.ld[pc.c.lun].capacity_gb << 30
                          : 1ull << 30;
    if (arr >= 0 && strcmp(iqn, pc.iqn) != 0)
        return cmd_error(s, "iscsi-perf: login failed: Target not found (%s is %s's target)", iqn, pc.host);
    if (arr >= 0 && pc.c.lun >= row.conf.nld)
        return cmd_error(s, "iscsi-perf: %s failed: CHECK CONDITION, ILLEGAL REQUEST, LOGICAL UNIT NOT SUPPORTED"
                            " (LUN %d)", pc.c.write ? "WRITE(10)" : "READ(10)", pc.c.lun);
    s->no_more = true;
    struct iscsi_perf *p = iscsi_perf_start(hn, &pc.c);
    struct iscsi_perf_result r;
    bool done = wait_perf(s, p, &r);
    iscsi_perf_free(p);
    if (!done)
        return cmd_error(s, "iscsi-perf: interrupted");
    if (r.error != ISCSI_PERF_OK)
        return cmd_error(s, errors[r.error], pc.host);
    report(s, &pc, &r);
    return 0;
}
