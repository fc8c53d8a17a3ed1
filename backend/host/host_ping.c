/* A host's `ping`, in iputils' layout (docs/hosts.md): ICMP echo through
 * the data plane, on the lab clock, as the switch's ping sends it. */
#include "host.h"
#include "ipnet/ip_text.h"
#include "ipnet/ping_cmds.h"
#include "lab/lab.h"
#include "session.h"
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WORDS = 16 };

static bool num(const char *w, long lo, long hi, long *v)
{
    if (!w || !isdigit((unsigned char)*w) || strlen(w) > 9)
        return false;
    char *end;
    *v = strtol(w, &end, 10);
    return *end == '\0' && *v >= lo && *v <= hi;
}

/* -c count, -s size, -W timeout, and the destination. */
static int parse(struct session *s, const char *line, struct ipnet_ping *p, char *dst, size_t n)
{
    char buf[512], *w[WORDS];
    int k = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " \t"); t; t = strtok(NULL, " \t"))
        if (k == WORDS)
            return cmd_error(s, "ping: too many arguments");
        else
            w[k++] = t;
    long v;
    *dst = '\0';
    for (int i = 0; i < k; i++) {
        if (w[i][0] != '-') {
            if (*dst)
                return cmd_error(s, "ping: extra argument '%s'", w[i]);
            snprintf(dst, n, "%s", w[i]);
            continue;
        }
        const char *val = i + 1 < k ? w[i + 1] : NULL;
        if (strcmp(w[i], "-c") == 0 && num(val, 1, 10000, &v))
            p->count = (int)v;
        else if (strcmp(w[i], "-s") == 0 && num(val, 0, 65507, &v))
            p->size = (int)v;
        else if (strcmp(w[i], "-W") == 0 && num(val, 1, 60, &v))
            p->timeout_ns = (uint64_t)v * 1000000000u;
        else if (strchr("csW", w[i][1]) && w[i][1] && !w[i][2])
            return cmd_error(s, "ping: invalid argument: '%s'", val ? val : "");
        else
            return cmd_error(s, "ping: invalid option -- '%s'", w[i] + 1);
        i++;
    }
    if (!*dst)
        return cmd_error(s, "ping: usage error: Destination address required");
    return 0;
}

/* iputils' precision: three significant digits or so. */
static void put_ms(struct session *s, double ms)
{
    cmd_printf(s, ms >= 100 ? "%.0f ms\n" : ms >= 10 ? "%.1f ms\n" : ms >= 1 ? "%.2f ms\n" : "%.3f ms\n", ms);
}

int host_cmd_ping(struct session *s, const struct cmd_args *a)
{
    char dst[64], to[16];
    struct ipnet_ping p = {.count = 5, .size = 56, .timeout_ns = 2000000000u};
    if (parse(s, arg_has(a, "options") ? arg_str(a, "options") : "", &p, dst, sizeof dst) < 0)
        return -1;
    if (!ip_parse(dst, &p.dst) && !(p.dst = host_address_of(s->lab, dst)))
        return cmd_error(s, "ping: %s: Name or service not known", dst);
    ip_text(p.dst, to, sizeof to);
    s->no_more = true;
    int node = s->sw;
    if (ipnet_ping_start(lab_ipnet(s->lab), node, &p) < 0)
        return cmd_error(s, "ping: connect: Network is unreachable");
    cmd_printf(s, "PING %s (%s) %d(%d) bytes of data.\n", dst, to, p.size, p.size + 28);
    uint64_t t0 = lab_now(s->lab);
    int got = 0;
    double sum = 0, sum2 = 0, mn = 1e300, mx = 0;
    for (int i = 0; i < p.count && cmd_wait_until(s, ipnet_ping_send_time(&p, i)); i++) {
        if (!ping_settle(s, &p, i))
            break;
        uint64_t rtt = ipnet_ping_rtt(&p, i);
        uint8_t type, code;
        uint32_t from = ipnet_ping_from(&p, i, &type, &code);
        char who[16];
        ip_text(from, who, sizeof who);
        if (rtt == UINT64_MAX)
            continue; /* iputils says nothing of a lost one */
        if (type != 0) {
            cmd_printf(s, "From %s icmp_seq=%d %s\n", who, i + 1,
                       type == 11 ? "Time to live exceeded" : code == 4 ? "Frag needed and DF set"
                                                                        : "Destination Net Unreachable");
            continue;
        }
        double ms = rtt / 1e6;
        got++, sum += ms, sum2 += ms * ms, mn = ms < mn ? ms : mn, mx = ms > mx ? ms : mx;
        cmd_printf(s, "%d bytes from %s: icmp_seq=%d time=", p.size + 8, who, i + 1);
        put_ms(s, ms);
    }
    int sent = p.sent;
    ipnet_ping_end(lab_ipnet(s->lab), &p);
    cmd_printf(s, "\n--- %s ping statistics ---\n", dst);
    cmd_printf(s, "%d packets transmitted, %d received, %d%% packet loss, time %llums\n", sent, got,
               sent ? (sent - got) * 100 / sent : 0, (unsigned long long)((lab_now(s->lab) - t0) / 1000000u));
    if (got) {
        double avg = sum / got, var = sum2 / got - avg * avg;
        cmd_printf(s, "rtt min/avg/max/mdev = %.3f/%.3f/%.3f/%.3f ms\n", mn, avg, mx, var > 0 ? sqrt(var) : 0.0);
    }
    return 0;
}
