/* fctrace: the path FSPF gives from this switch to the destination's
 * domain and back, each switch asked in turn as the trace passes it.
 * Every hop is a real ELS ECHO to that switch's domain controller over the
 * fabric, so the latencies are the lab's and a path that does not answer
 * times out (docs/fspf.md). */
#include "session.h"
#include "lab/lab.h"
#include "fabric/fabric.h"
#include "fspf_conf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HOPS_MAX 64 /* a path longer than a lab's 64 switches is a loop */
#define ECHO_PAYLOAD 4u

/* The switches a frame crosses from `from` to the holder of `dom`, each
 * by its own next hop: how many, with *reached false when the route ends
 * before it. */
static int walk(struct fabric *fab, int from, int vsan, int dom, int *path, bool *reached)
{
    int n = 0, at = from;
    *reached = false;
    while (n < HOPS_MAX) {
        path[n++] = at;
        int next = fabric_next_hop(fab, at, vsan, dom);
        if (next == at) {
            *reached = true;
            return n;
        }
        if (next < 0)
            return n;
        at = next;
    }
    return n;
}

/* Round trip from sw's domain controller to `to`'s, UINT64_MAX when lost
 * or stopped. */
static uint64_t echo(struct session *s, int sw, int to, int vsan, uint64_t timeout_ns)
{
    struct fabric *fab = fspf_fabric(s);
    struct fabric_echo e = {.vsan = vsan,
                            .d_id = FC_DOMAIN_CONTROLLER(fabric_domain(fab, to, vsan)),
                            .count = 1,
                            .size = ECHO_PAYLOAD,
                            .timeout_ns = timeout_ns};
    if (fabric_echo_start(fab, sw, &e) < 0)
        return UINT64_MAX;
    uint64_t rtt = UINT64_MAX;
    if (cmd_wait_until(s, fabric_echo_send_time(&e, 0))) {
        rtt = fabric_echo_wait(fspf_fabric(s), &e, 0);
        if (!cmd_wait_until(s, lab_now(s->lab)))
            rtt = UINT64_MAX;
    }
    fabric_echo_end(fspf_fabric(s), &e);
    return rtt;
}

static void hop_line(struct session *s, struct fabric *fab, int sw, int vsan)
{
    char wwn[32];
    fabric_switch_wwn(fab, sw, wwn, sizeof wwn);
    cmd_printf(s, "%s(0x%06x)\n", wwn, FC_DOMAIN_CONTROLLER(fabric_domain(fab, sw, vsan)));
}

/* Prints the hops of one direction, measured from path[0]: each hop's
 * line, and before it the latency from the previous one (half the
 * difference of their round trips). `first`: print path[0] too. False
 * when a hop did not answer (the rest is not printed). */
static bool trace_leg(struct session *s, const int *path, int n, int vsan, uint64_t timeout_ns, bool first)
{
    uint64_t prev = 0;
    for (int i = 0; i < n; i++) {
        uint64_t rtt = echo(s, path[0], path[i], vsan, timeout_ns);
        if (rtt == UINT64_MAX)
            return false;
        if (i || first) {
            if (i)
                cmd_printf(s, "Latency: %llu msec\n",
                           (unsigned long long)((rtt > prev ? rtt - prev : 0) / 2 / ENGINE_NS_PER_MS));
            hop_line(s, fspf_fabric(s), path[i], vsan);
        }
        prev = rtt;
    }
    return true;
}

static int destination(struct session *s, const struct cmd_args *a, struct fabric *fab, int vsan, uint32_t *d_id)
{
    const struct cmd_arg *w = arg_get(a, "wwn");
    if (w) {
        char text[24];
        fabric_wwn_text(w->wwn, text);
        if (!fabric_lookup(fab, s->sw, vsan, w->wwn, d_id))
            return cmd_error(s, "%% pWWN %s is not in the name server of vsan %d", text, vsan);
        return 0;
    }
    const char *text = arg_str(a, "id");
    char *end;
    unsigned long v = strtoul(text, &end, 16);
    if (strncasecmp(text, "0x", 2) != 0 || *end || end - text > 8 || v > 0xFFFFFFu || !(v >> 16) ||
        (v >> 16) > 239)
        return cmd_error(s, "%% Invalid FCID: %s", text);
    *d_id = (uint32_t)v;
    return 0;
}

int fspf_fctrace(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fspf_fabric(s);
    int vsan = (int)arg_num(a, "vid", 1);
    uint64_t timeout_ns = (uint64_t)arg_num(a, "seconds", 5) * ENGINE_NS_PER_SEC;
    uint32_t d_id;
    if (!fabric_has_vsan(fab, s->sw, vsan))
        return cmd_error(s, "%% vsan %d is not configured", vsan);
    if (destination(s, a, fab, vsan, &d_id) != 0)
        return -1;
    s->no_more = true;
    int fwd[HOPS_MAX], back[HOPS_MAX], dom = (int)FC_DOMAIN_OF(d_id);
    bool reached;
    int nf = walk(fab, s->sw, vsan, dom, fwd, &reached);
    cmd_printf(s, "%s for : 0x%06x\n", reached ? "Route present" : "No route present", d_id);
    bool ok = reached;
    if (ok) {
        int nb = walk(fab, fwd[nf - 1], vsan, fabric_domain(fab, s->sw, vsan), back, &ok);
        ok = ok && trace_leg(s, fwd, nf, vsan, timeout_ns, true);
        if (ok && nf > 1) { /* the turn at the destination's switch, unless it is this one */
            cmd_printf(s, "Latency: %llu msec\n", (unsigned long long)(FABRIC_DC_SERVICE_NS / ENGINE_NS_PER_MS));
            ok = trace_leg(s, back, nb - 1, vsan, timeout_ns, true);
        }
    } else {
        for (int i = 0; i < nf; i++)
            hop_line(s, fab, fwd[i], vsan);
        cmd_wait_until(s, lab_now(s->lab) + timeout_ns); /* the trace frame was dropped: the originator waits */
    }
    if (!ok)
        cmd_printf(s, "Timeout\n");
    return 0;
}
