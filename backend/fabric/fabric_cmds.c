/* `fcping` and `show fcdomain domain-list`: the fabric seen from a switch. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "fabric.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const struct feature fabric_feature;

#define ECHO_PAYLOAD 4u /* the ELS ECHO command word: 28 bytes with the header */

static struct fabric *fabric_of(struct session *s)
{
    lab_reconcile(s->lab);
    return lab_feature_state(s->lab, &fabric_feature);
}

static void wwn_str(const uint8_t w[8], char *buf, size_t n)
{
    snprintf(buf, n, "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x", w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
}

/* The destination: an FCID typed in hex, or a pWWN the name server knows. */
static int destination(struct session *s, const struct cmd_args *a, struct fabric *fab, int vsan, uint32_t *d_id,
                       char *shown, size_t n)
{
    const struct cmd_arg *w = arg_get(a, "wwn");
    if (w) {
        wwn_str(w->wwn, shown, n);
        if (!fabric_lookup(fab, s->sw, vsan, w->wwn, d_id))
            return cmd_error(s, "%% pWWN %s is not in the name server of vsan %d", shown, vsan);
        return 0;
    }
    const char *text = arg_str(a, "id");
    char *end;
    unsigned long v = strtoul(text, &end, 16);
    if (strncasecmp(text, "0x", 2) != 0 || *end || end - text > 8 || v > 0xFFFFFFu)
        return cmd_error(s, "%% Invalid FCID: %s", text);
    *d_id = (uint32_t)v;
    snprintf(shown, n, "0x%06lx", v);
    return 0;
}

/* As the capture prints it: a line per answer when it arrives on the lab
 * clock, then the summary. */
static int cmd_fcping(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fabric_of(s);
    int vsan = (int)arg_num(a, "vid", 1);
    char dst[32];
    struct fabric_echo e = {.vsan = vsan,
                            .count = (int)arg_num(a, "n", 5),
                            .size = ECHO_PAYLOAD,
                            .timeout_ns = (uint64_t)arg_num(a, "seconds", 5) * ENGINE_NS_PER_SEC};
    if (!fabric_has_vsan(fab, s->sw, vsan))
        return cmd_error(s, "%% vsan %d is not configured", vsan);
    if (destination(s, a, fab, vsan, &e.d_id, dst, sizeof dst) != 0)
        return -1;
    s->no_more = true;
    if (fabric_echo_start(fab, s->sw, &e) < 0)
        return cmd_error(s, "%% vsan %d is not configured", vsan);
    int got = 0, lost = 0;
    uint64_t min = UINT64_MAX, max = 0, sum = 0;
    for (int i = 0; i < e.count && cmd_wait_until(s, fabric_echo_send_time(&e, i)); i++) {
        uint64_t rtt = fabric_echo_wait(fabric_of(s), &e, i);
        if (!cmd_wait_until(s, lab_now(s->lab)))
            break;
        if (rtt == UINT64_MAX) {
            lost++;
            cmd_printf(s, "No response from the N port.\n");
            continue;
        }
        uint64_t us = rtt / ENGINE_NS_PER_US;
        got++;
        sum += us;
        min = us < min ? us : min;
        max = us > max ? us : max;
        cmd_printf(s, "%u bytes from %s time = %llu usec\n", 24u + ECHO_PAYLOAD, dst, (unsigned long long)us);
    }
    int sent = e.sent;
    fabric_echo_end(fabric_of(s), &e);
    cmd_printf(s, "%d frames sent, %d frames received, %d timeouts\n", sent, got, lost);
    if (got)
        cmd_printf(s, "Round-trip min/avg/max = %llu/%llu/%llu usec\n", (unsigned long long)min,
                   (unsigned long long)(sum / (uint64_t)got), (unsigned long long)max);
    return 0;
}

/* mds-cli-14-fcip.md §14.2-B: one row per domain, local and principal tagged. */
static int show_domains(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fabric_of(s);
    int vsan = (int)arg_num(a, "vid", 1), sws[256];
    if (!fabric_has_vsan(fab, s->sw, vsan))
        return cmd_error(s, "%% vsan %d is not configured", vsan);
    int n = fabric_reachable(fab, s->sw, vsan, sws, 256), principal = fabric_principal(fab, s->sw, vsan);
    cmd_printf(s, "\nNumber of domains: %d\nDomain ID              WWN\n---------    -----------------------\n", n);
    for (int i = 0; i < n; i++) {
        char wwn[32];
        int dom = fabric_domain(fab, sws[i], vsan);
        fabric_switch_wwn(fab, sws[i], wwn, sizeof wwn);
        cmd_printf(s, "0x%02x(%3d)    %s%s%s\n", dom, dom, wwn, sws[i] == s->sw ? " [Local]" : "",
                   sws[i] == principal ? " [Principal]" : "");
    }
    return 0;
}

#define FCPING_HELP                                                                                                \
    "fcping: Ping an N port\nfcid: Destination FCID\nid: FCID in hex (0xhhhhhh)\npwwn: Destination port WWN\nwwn: Port WWN\nvsan: VSAN of the destination\nvid: VSAN id\n"   \
    "count: Number of frames to send\nn: Number of frames to send\ntimeout: Seconds to wait for each answer\n"      \
    "seconds: Seconds to wait for each answer"

const struct cmd_def fabric_cmds[] = {
    {M(MODE_EXEC), "fcping {fcid <id:word> | pwwn <wwn:wwn>} vsan <vid:1-4093> [count <n:1-2147483647>] "
                   "[timeout <seconds:1-10>]",
     FCPING_HELP, cmd_fcping, CMD_PIPE, 0, 0},
    {M(MODE_EXEC), "show fcdomain domain-list vsan <vid:1-4093>",
     "fcdomain: Display fcdomain information\ndomain-list: Display the list of domain IDs\nvsan: VSAN of the domains\nvid: VSAN id",
     show_domains, CMD_PIPE, 0, 0},
    {0},
};
