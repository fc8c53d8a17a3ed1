/* `ping`: ICMP echo through the simulated network, on the lab clock. */
#include "session.h"
#include "commands.h"
#include "lab/lab.h"
#include "ipnet.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void ip_str(uint32_t ip, char *buf, size_t n)
{
    snprintf(buf, n, "%u.%u.%u.%u", ip >> 24, ip >> 16 & 255, ip >> 8 & 255, ip & 255);
}

static void print_summary(struct session *s, const char *dst, const struct ipnet_ping *p)
{
    int got = 0;
    uint64_t min = UINT64_MAX, max = 0, sum = 0;
    for (int i = 0; i < p->count; i++) {
        if (p->rtt_ns[i] == UINT64_MAX)
            continue;
        got++;
        sum += p->rtt_ns[i];
        min = p->rtt_ns[i] < min ? p->rtt_ns[i] : min;
        max = p->rtt_ns[i] > max ? p->rtt_ns[i] : max;
    }
    cmd_printf(s, "\n--- %s ping statistics ---\n", dst);
    cmd_printf(s, "%d packets transmitted, %d packets received, %.2f%% packet loss\n", p->count, got,
               100.0 * (p->count - got) / p->count);
    if (got)
        cmd_printf(s, "round-trip min/avg/max = %.3f/%.3f/%.3f ms\n", min / 1e6, sum / 1e6 / got, max / 1e6);
}

static int cmd_ping(struct session *s, const struct cmd_args *a)
{
    char dst[16];
    struct ipnet_ping p = {arg_get(a, "dest")->ip, (int)arg_num(a, "n", 5), (int)arg_num(a, "bytes", 56),
                           (uint64_t)arg_num(a, "seconds", 2) * 1000000000u, NULL};
    ip_str(p.dst, dst, sizeof dst);
    p.rtt_ns = calloc((size_t)p.count, sizeof *p.rtt_ns);
    if (!p.rtt_ns)
        abort();
    if (ipnet_ping(lab_ipnet(s->lab), s->sw, &p) < 0) {
        free(p.rtt_ns);
        return cmd_error(s, "ping: sendto %s %d chars, No route to host", dst, p.size + 8);
    }
    cmd_printf(s, "PING %s (%s): %d data bytes\n", dst, dst, p.size);
    for (int i = 0; i < p.count; i++)
        if (p.rtt_ns[i] == UINT64_MAX)
            cmd_printf(s, "Request %d timed out\n", i);
        else
            cmd_printf(s, "%d bytes from %s: icmp_seq=%d ttl=254 time=%.3f ms\n", p.size + 8, dst, i,
                       p.rtt_ns[i] / 1e6);
    print_summary(s, dst, &p);
    free(p.rtt_ns);
    return 0;
}

const struct cmd_def ping_cmds[] = {
    {M(MODE_EXEC),
     "ping <dest:ipv4> [count <n:1-10000>] [{packet-size | size} <bytes:1-65468>] [timeout <seconds:1-60>]",
     "dest: Destination IP address\ncount: Number of pings to send\nn: Number of pings to send\nbytes: Data bytes per packet\n"
     "seconds: Seconds to wait for each reply",
     cmd_ping, CMD_PIPE, 0, 0},
    {0},
};
