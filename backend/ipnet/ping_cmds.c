/* `ping`: ICMP echo through the simulated network, on the lab clock. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "ipnet.h"
#include "ping_cmds.h"
#include "ipnet/ip_text.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* What the replies so far add up to. */
struct ping_tally {
    int sent, got;
    uint64_t min, max, sum;
};

static void tally_reply(struct ping_tally *t, uint64_t rtt)
{
    t->got++;
    t->sum += rtt;
    t->min = rtt < t->min ? rtt : t->min;
    t->max = rtt > t->max ? rtt : t->max;
}

static void print_summary(struct session *s, const char *dst, const struct ping_tally *t)
{
    cmd_printf(s, "\n--- %s ping statistics ---\n", dst);
    cmd_printf(s, "%d packets transmitted, %d packets received, %.2f%% packet loss\n", t->sent, t->got,
               100.0 * (t->sent - t->got) / t->sent);
    if (t->got)
        cmd_printf(s, "round-trip min/avg/max = %.3f/%.3f/%.3f ms\n", t->min / 1e6, t->sum / 1e6 / t->got,
                   t->max / 1e6);
}

/* A router's answer in place of the reply, as BSD's ping prints it
 * (without the dump of the returned header) [G]: not a reply. */
static bool print_error(struct session *s, const struct ipnet_ping *p, int i)
{
    uint8_t type, code;
    uint32_t from = ipnet_ping_from(p, i, &type, &code);
    char who[16];
    if (type == 0)
        return false;
    ip_text(from, who, sizeof who);
    cmd_printf(s, "36 bytes from %s: %s\n", who,
               type == IPNET_ICMP_TIME_EXCEEDED      ? "Time to live exceeded"
               : code == IPNET_UNREACH_FRAG_NEEDED ? "Frag needed and DF set"
                                                   : "Destination Net Unreachable");
    return true;
}

enum { SLICE_NS = 100000000 };

bool ping_settle(struct session *s, struct ipnet_ping *p, int i)
{
    for (;;) {
        uint64_t until = lab_realtime(s->lab) ? lab_now(s->lab) + SLICE_NS : UINT64_MAX;
        bool settled = ipnet_ping_wait(lab_ipnet(s->lab), p, i, until);
        if (!cmd_wait_until(s, lab_now(s->lab)))
            return false;
        if (settled)
            return true;
    }
}

/* Each line shows when its reply arrives (or its timeout passes) on the
 * lab clock. Ctrl-C stops the ping where it is: a request sent and not
 * answered yet counts as lost. */
static int cmd_ping(struct session *s, const struct cmd_args *a)
{
    char dst[16];
    struct ipnet_ping p = {.dst = arg_get(a, "dest")->ip,
                           .count = (int)arg_num(a, "n", 5),
                           .size = (int)arg_num(a, "bytes", 56),
                           .timeout_ns = (uint64_t)arg_num(a, "seconds", 2) * 1000000000u};
    ip_text(p.dst, dst, sizeof dst);
    s->no_more = true; /* a stream of replies, not a page to read */
    if (ipnet_ping_start(lab_ipnet(s->lab), s->sw, &p) < 0)
        return cmd_error(s, "ping: sendto %s %d chars, No route to host", dst, p.size + 8);
    cmd_printf(s, "PING %s (%s): %d data bytes\n", dst, dst, p.size);
    struct ping_tally t = {0, 0, UINT64_MAX, 0, 0};
    for (int i = 0; i < p.count && cmd_wait_until(s, ipnet_ping_send_time(&p, i)); i++) {
        if (!ping_settle(s, &p, i))
            break;
        uint64_t rtt = ipnet_ping_rtt(&p, i);
        if (rtt == UINT64_MAX) {
            cmd_printf(s, "Request %d timed out\n", i);
            continue;
        }
        if (print_error(s, &p, i))
            continue;
        tally_reply(&t, rtt);
        cmd_printf(s, "%d bytes from %s: icmp_seq=%d ttl=254 time=%.3f ms\n", p.size + 8, dst, i, rtt / 1e6);
    }
    t.sent = p.sent;
    ipnet_ping_end(lab_ipnet(s->lab), &p);
    print_summary(s, dst, &t);
    return 0;
}

const struct cmd_def ping_cmds[] = {
    {MODES(MODE_EXEC),
     "ping <dest:ipv4> [count <n:1-10000>] [{packet-size | size} <bytes:1-65468>] [timeout <seconds:1-60>]",
     "dest: Destination IP address\ncount: Number of pings to send\nn: Number of pings to send\nbytes: Data bytes per packet\n"
     "seconds: Seconds to wait for each reply",
     cmd_ping, CMD_PIPE, 0, 0},
    {0},
};
