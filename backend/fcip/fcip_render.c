/* FCIP running-config blocks. A setting at its default prints nothing; a
 * default that is "on" and was turned off prints its `no` form. */
#include "fcip.h"
#include "fcip_store.h"
#include "ipnet/ip_text.h"
#include "fspf/fspf_conf.h"
#include "portchannel/portchannel.h"
#include <stdio.h>
#include <string.h>

/* Bandwidth in Mbps and the RTT in ms when they divide evenly, as typed
 * most often; else kbps and us, so every value renders exactly. */
static void render_bandwidth(strbuf *out, const struct fcip_profile_conf *c)
{
    if (c->max_bw_kbps == 1000000 && c->min_bw_kbps == 500000 && c->rtt_us == 1000)
        return;
    bool mbps = c->max_bw_kbps % 1000 == 0 && c->min_bw_kbps % 1000 == 0;
    unsigned div = mbps ? 1000 : 1;
    const char *u = mbps ? "mbps" : "kbps";
    sb_printf(out, "  tcp max-bandwidth-%s %u min-available-bandwidth-%s %u ", u, c->max_bw_kbps / div, u,
              c->min_bw_kbps / div);
    if (c->rtt_us % 1000 == 0)
        sb_printf(out, "round-trip-time-ms %u\n", c->rtt_us / 1000);
    else
        sb_printf(out, "round-trip-time-us %u\n", c->rtt_us);
}

static void render_profile(strbuf *out, const struct fcip_profile_conf *c)
{
    char ip[16];
    sb_printf(out, "fcip profile %d\n", c->id);
    if (c->has_ip) {
        ip_text(c->ip, ip, sizeof ip);
        sb_printf(out, "  ip address %s\n", ip);
    }
    if (c->port != FCIP_DEFAULT_PORT)
        sb_printf(out, "  port %d\n", c->port);
    if (c->keepalive_s != 60)
        sb_printf(out, "  tcp keepalive-timeout %d\n", c->keepalive_s);
    if (c->max_retrans != 4)
        sb_printf(out, "  tcp max-retransmissions %d\n", c->max_retrans);
    if (c->min_rto_ms != 200)
        sb_printf(out, "  tcp min-retransmit-time %d\n", c->min_rto_ms);
    if (!c->pmtu)
        sb_printf(out, "  no tcp pmtu-enable\n");
    else if (c->pmtu_reset_s != 3600)
        sb_printf(out, "  tcp pmtu-enable reset-timeout %d\n", c->pmtu_reset_s);
    if (!c->sack)
        sb_printf(out, "  no tcp sack-enable\n");
    render_bandwidth(out, c);
    if (!c->cwm)
        sb_printf(out, "  no tcp cwm\n");
    else if (c->cwm_burst_bytes != 50 * 1024)
        sb_printf(out, "  tcp cwm burstsize %u\n", c->cwm_burst_bytes / 1024);
    if (c->max_jitter_us != 1000)
        sb_printf(out, "  tcp max-jitter %u\n", c->max_jitter_us);
    if (c->send_buf_bytes != 0)
        sb_printf(out, "  tcp send-buffer-size %u\n", c->send_buf_bytes / 1024);
}

void fcip_render_profiles(struct lab *lab, int sw, strbuf *out)
{
    int ids[255], n = fcip_profile_ids(lab, sw, ids);
    struct fcip_profile_conf c;
    for (int i = 0; i < n; i++)
        if (fcip_profile_get(lab, sw, ids[i], &c)) {
            sb_printf(out, "\n");
            render_profile(out, &c);
        }
}

/* A long list is cut at commas into a first line and `add` lines, so no
 * line grows past what a terminal (or the parser) takes comfortably. */
void fcip_render_allowed(strbuf *out, const struct vsan_set *allowed)
{
    struct vsan_set all = {{0}};
    vsan_set_all(&all);
    if (memcmp(&all, allowed, sizeof all) == 0)
        return;
    strbuf list;
    sb_init(&list);
    vsan_set_format(allowed, &list);
    const char *p = sb_str(&list);
    if (!*p)
        sb_printf(out, "  no switchport trunk allowed vsan all\n");
    for (bool first = true; *p; first = false) {
        size_t n = strlen(p);
        if (n > 200) {
            n = 200;
            while (p[n] != ',')
                n--;
        }
        sb_printf(out, "  switchport trunk allowed vsan %s%.*s\n", first ? "" : "add ", (int)n, p);
        p += n + (p[n] == ',');
    }
    sb_free(&list);
}

static void render_if(struct lab *lab, int sw, strbuf *out, const struct fcip_if_conf *c)
{
    static const char *const comp[] = {"", "auto", "mode1", "mode2", "mode3"};
    static const char *const trunk[] = {"on", "off", "auto"};
    char ip[16];
    sb_printf(out, "\ninterface fcip%d\n", c->id);
    if (c->description[0])
        sb_printf(out, "  switchport description %s\n", c->description);
    if (c->profile)
        sb_printf(out, "  use-profile %d\n", c->profile);
    if (c->has_peer) {
        ip_text(c->peer_ip, ip, sizeof ip);
        sb_printf(out, "  peer-info ipaddr %s", ip);
        if (c->peer_port != FCIP_DEFAULT_PORT)
            sb_printf(out, " port %d", c->peer_port);
        sb_printf(out, "\n");
    }
    if (c->passive)
        sb_printf(out, "  passive-mode\n");
    if (c->special_frame) {
        const uint8_t *w = c->sf_peer_wwn;
        sb_printf(out, "  special-frame peer-wwn %02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x", w[0], w[1], w[2], w[3],
                  w[4], w[5], w[6], w[7]);
        if (c->sf_profile)
            sb_printf(out, " profile-id %d", c->sf_profile);
        sb_printf(out, "\n");
    }
    if (c->tcp_connections != 2)
        sb_printf(out, "  tcp-connections %d\n", c->tcp_connections);
    if (c->compression != FCIP_COMP_OFF)
        sb_printf(out, "  ip-compression %s\n", comp[c->compression]);
    if (c->write_acc && c->tape_acc && c->tape_buf_kb)
        sb_printf(out, "  write-accelerator tape-accelerator flow-control-buffer-size %u\n", c->tape_buf_kb);
    else if (c->write_acc)
        sb_printf(out, "  write-accelerator%s\n", c->tape_acc ? " tape-accelerator" : "");
    if (c->time_stamp && c->ts_diff_ms != 2000)
        sb_printf(out, "  time-stamp acceptable-diff %d\n", c->ts_diff_ms);
    else if (c->time_stamp)
        sb_printf(out, "  time-stamp\n");
    if (c->trunk_mode != FCIP_TRUNK_ON)
        sb_printf(out, "  switchport trunk mode %s\n", trunk[c->trunk_mode]);
    fcip_render_allowed(out, &c->allowed);
    pc_render_member(lab, sw, c->id, out);
    char ifname[16];
    snprintf(ifname, sizeof ifname, "fcip%d", c->id);
    fspf_render_if(lab, sw, ifname, out);
    if (!c->shutdown)
        sb_printf(out, "  no shutdown\n");
}

struct render_ctx {
    struct lab *lab;
    int sw;
    strbuf *out;
};

static void render_one(void *ctx, const struct fcip_if_conf *c)
{
    struct render_ctx *x = ctx;
    render_if(x->lab, x->sw, x->out, c);
}

void fcip_render_ifs(struct lab *lab, int sw, strbuf *out, int id)
{
    struct fcip_if_conf c;
    struct render_ctx x = {lab, sw, out};
    if (!id)
        fcip_ifs_each(lab, sw, render_one, &x);
    else if (fcip_if_get(lab, sw, id, &c))
        render_if(lab, sw, out, &c);
}
