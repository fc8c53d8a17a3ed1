/* The configuration-only FCIP shows: `show fcip profile [N | all]`,
 * `show running-config fcip`, `show running-config interface fcipN`. */
#include "session.h"
#include "lab/lab.h"
#include "system/system.h"
#include "fcip.h"
#include "fcip_store.h"
#include "ipnet/ip_text.h"
#include <stdio.h>

static const char *on_off(bool on) { return on ? "enabled" : "disabled"; }

static void show_detail(struct session *s, const struct fcip_profile_conf *c)
{
    char ip[16];
    int slot, port;
    cmd_printf(s, "FCIP Profile %d\n", c->id);
    if (!c->has_ip) {
        cmd_printf(s, "    Internet Address is not configured\n");
    } else {
        ip_text(c->ip, ip, sizeof ip);
        cmd_printf(s, "    Internet Address is %s", ip);
        if (fcip_ge_of_ip(s->lab, s->sw, c->ip, &slot, &port))
            cmd_printf(s, " (interface GigabitEthernet%d/%d)", slot, port);
        cmd_printf(s, "\n");
    }
    cmd_printf(s, "    Listen Port is %d\n    TCP parameters\n        SACK is %s\n", c->port, on_off(c->sack));
    if (c->pmtu)
        cmd_printf(s, "        PMTU discovery is enabled, reset timeout is %d sec\n", c->pmtu_reset_s);
    else
        cmd_printf(s, "        PMTU discovery is disabled\n");
    cmd_printf(s,
               "        Keep alive is %d sec\n"
               "        Minimum retransmission timeout is %d ms\n"
               "        Maximum number of re-transmissions is %d\n"
               "        Send buffer size is %u KB\n"
               "        Maximum allowed bandwidth is %u kbps\n"
               "        Minimum available bandwidth is %u kbps\n"
               "        Estimated round trip time is %u usec\n",
               c->keepalive_s, c->min_rto_ms, c->max_retrans, c->send_buf_bytes / 1024, c->max_bw_kbps,
               c->min_bw_kbps, c->rtt_us);
    if (c->cwm)
        cmd_printf(s, "        Congestion window monitoring is enabled, burst size is %u KB\n",
                   c->cwm_burst_bytes / 1024);
    else
        cmd_printf(s, "        Congestion window monitoring is disabled\n");
    cmd_printf(s, "        Max jitter is %u us\n", c->max_jitter_us);
}

static const char *const rule = "-------------------------------------------------------------------------------\n";

int fcip_show_profile(struct session *s, const struct cmd_args *a)
{
    struct fcip_profile_conf c;
    int id = (int)arg_num(a, "pid", 0);
    if (id) {
        if (!fcip_profile_get(s->lab, s->sw, id, &c))
            return cmd_error(s, "Profile %d does not exist", id);
        show_detail(s, &c);
        return 0;
    }
    int ids[255], n = fcip_profile_ids(s->lab, s->sw, ids);
    if (arg_has(a, "all")) {
        for (int i = 0; i < n; i++)
            if (fcip_profile_get(s->lab, s->sw, ids[i], &c)) {
                cmd_printf(s, "%s", i ? "\n" : "");
                show_detail(s, &c);
            }
        return 0;
    }
    cmd_printf(s, "%sProfileId       Ipaddr          TcpPort\n%s", rule, rule);
    for (int i = 0; i < n; i++) {
        char ip[16] = "";
        if (fcip_profile_get(s->lab, s->sw, ids[i], &c) && c.has_ip)
            ip_text(c.ip, ip, sizeof ip);
        cmd_printf(s, "%-15d %-15s %d\n", ids[i], ip, c.port);
    }
    return 0;
}

/* `show running-config fcip` (id 0): the feature line, the profiles and
 * the fcip interfaces; `... interface fcipN`: that interface's block. */
int fcip_show_running(struct session *s, int id)
{
    char t[64], cmd[64];
    if (id && !fcip_if_exists(s->lab, s->sw, id))
        return cmd_error(s, "%% Interface fcip%d does not exist", id);
    if (id)
        snprintf(cmd, sizeof cmd, "show running-config interface fcip%d", id);
    else
        snprintf(cmd, sizeof cmd, "show running-config fcip");
    system_ctime(s->lab, s->sw, t, sizeof t);
    cmd_printf(s, "!Command: %s\n!Time: %s\n\nversion %s\n", cmd, t, SYSTEM_RELEASE);
    if (!id) {
        cmd_printf(s, "feature fcip\n");
        fcip_render_profiles(s->lab, s->sw, &s->out);
    }
    fcip_render_ifs(s->lab, s->sw, &s->out, id);
    return 0;
}
