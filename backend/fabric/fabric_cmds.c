/* `fcping`, `show flogi database` and `show fcns database`: the fabric
 * seen from a switch (`show fcdomain` is the fcdomain feature's). */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "fabric.h"
#include "fabric_feature.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ECHO_PAYLOAD 4u /* the ELS ECHO command word: 28 bytes with the header */

static struct fabric *fabric_of(struct session *s)
{
    lab_reconcile(s->lab);
    return fabric_of_lab(s->lab);
}

/* The destination: an FCID typed in hex, or a pWWN the name server knows. */
static int destination(struct session *s, const struct cmd_args *a, struct fabric *fab, int vsan, uint32_t *d_id,
                       char *shown, size_t n)
{
    const struct cmd_arg *w = arg_get(a, "wwn");
    if (w) {
        char text[24];
        fabric_wwn_text(w->wwn, text);
        snprintf(shown, n, "%s", text);
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

/* The logins a show lists, sorted by VSAN then FCID. */
struct port_list {
    struct fabric_port *v;
    int n, cap;
    int only_sw; /* flogi: the switch's own logins; -1: every one seen */
};

static void port_add(void *ctx, const struct fabric_port *p)
{
    struct port_list *l = ctx;
    if (l->only_sw >= 0 && p->sw != l->only_sw)
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, sizeof *l->v * (size_t)l->cap);
        if (!l->v)
            abort();
    }
    l->v[l->n++] = *p;
}

static int port_cmp(const void *a, const void *b)
{
    const struct fabric_port *x = a, *y = b;
    if (x->vsan != y->vsan)
        return x->vsan < y->vsan ? -1 : 1;
    return x->fcid < y->fcid ? -1 : x->fcid > y->fcid;
}

static int ports_seen(struct session *s, const struct cmd_args *a, bool own, struct port_list *l)
{
    struct fabric *fab = fabric_of(s);
    int vsan = (int)arg_num(a, "vid", 0);
    if (vsan && !fabric_has_vsan(fab, s->sw, vsan))
        return cmd_error(s, "%% vsan %d is not configured", vsan);
    *l = (struct port_list){NULL, 0, 0, own ? s->sw : -1};
    fabric_ports_each(fab, s->sw, vsan, port_add, l);
    if (l->n)
        qsort(l->v, (size_t)l->n, sizeof *l->v, port_cmp);
    return 0;
}

/* mds-cli §10, the NX-OS shape: a column never runs into the next one
 * (GigabitEthernet2/2 is wider than the published interface column). */
static int show_flogi(struct session *s, const struct cmd_args *a)
{
    struct port_list l;
    if (ports_seen(s, a, true, &l) != 0)
        return -1;
    const char *rule = "--------------------------------------------------------------------------------\n";
    cmd_printf(s, "%sINTERFACE        VSAN    FCID           PORT NAME               NODE NAME\n%s", rule, rule);
    for (int i = 0; i < l.n; i++) {
        char pw[32], nw[32], fcid[16];
        fabric_wwn_text(l.v[i].pwwn, pw);
        fabric_wwn_text(l.v[i].nwwn, nw);
        snprintf(fcid, sizeof fcid, "0x%06x", l.v[i].fcid);
        cmd_printf(s, "%-16s %-5d %-9s %s %s\n", l.v[i].ifname, l.v[i].vsan, fcid, pw, nw);
    }
    cmd_printf(s, "\nTotal number of flogi = %d.\n", l.n);
    free(l.v);
    return 0;
}

/* mds-cli §10: a block per VSAN with entries; the vendor column blank (a
 * tuner N port has no vendor OUI to name). */
static int show_fcns(struct session *s, const struct cmd_args *a)
{
    struct port_list l;
    if (ports_seen(s, a, false, &l) != 0)
        return -1;
    const char *rule = "--------------------------------------------------------------------------\n";
    for (int i = 0; i < l.n;) {
        int vsan = l.v[i].vsan, k = i;
        cmd_printf(s, "%sVSAN %d:\n%sFCID        TYPE  PWWN                    (VENDOR)        FC4-TYPE:FEATURE\n%s",
                   i ? "\n" : "", vsan, rule, rule);
        for (; k < l.n && l.v[k].vsan == vsan; k++) {
            char pw[32], fcid[16];
            fabric_wwn_text(l.v[k].pwwn, pw);
            snprintf(fcid, sizeof fcid, "0x%06x", l.v[k].fcid);
            cmd_printf(s, "%-11s N     %s %-16s%s\n", fcid, pw, "", l.v[k].fc4);
        }
        cmd_printf(s, "\nTotal number of entries = %d\n", k - i);
        i = k;
    }
    free(l.v);
    return 0;
}

#define FCPING_HELP                                                                                                \
    "fcping: Ping an N port\nfcid: Destination FCID\nid: FCID in hex (0xhhhhhh)\npwwn: Destination port WWN\nwwn: Port WWN\nvsan: VSAN of the destination\nvid: VSAN id\n"   \
    "count: Number of frames to send\nn: Number of frames to send\ntimeout: Seconds to wait for each answer\n"      \
    "seconds: Seconds to wait for each answer"

const struct cmd_def fabric_cmds[] = {
    {MODES(MODE_EXEC), "fcping {fcid <id:word> | pwwn <wwn:wwn>} vsan <vid:1-4093> [count <n:1-2147483647>] "
                   "[timeout <seconds:1-10>]",
     FCPING_HELP, cmd_fcping, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show flogi database [vsan <vid:1-4093>]",
     "flogi: Display FLOGI information\ndatabase: The N ports logged in on this switch\nvsan: Only one VSAN\nvid: VSAN id",
     show_flogi, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show fcns database [vsan <vid:1-4093>]",
     "fcns: Display the name server\ndatabase: The N ports of the fabric\nvsan: Only one VSAN\nvid: VSAN id", show_fcns,
     CMD_PIPE, 0, 0},
    {0},
};
