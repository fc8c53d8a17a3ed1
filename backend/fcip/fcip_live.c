/* The FCIP shows with live values from the tunnels (mds-cli.md §6.2,
 * §6.3, §7): `show interface fcipN` and its variants, the fcip table of
 * `show interface brief`, `show fcip summary`, `show ips stats tcp`. The
 * layouts are [G] in the reference; docs/fcip-engine.md says what each
 * value means here. */
#include "session.h"
#include "feature.h"
#include "fcip.h"
#include "fcip_engine.h"
#include "tunnel.h"
#include "compress.h"
#include "fcip_cause.h"
#include "fcip_record.h"
#include "lab/lab.h"
#include "system/system.h"
#include "ipnet/ip_text.h"
#include "portchannel/portchannel.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *const trunk_names[] = {[FCIP_TRUNK_ON] = "on", [FCIP_TRUNK_OFF] = "off",
                                          [FCIP_TRUNK_AUTO] = "auto"};
static const char *const comp_names[] = {[FCIP_COMP_OFF] = "disabled", [FCIP_COMP_AUTO] = "auto",
                                         [FCIP_COMP_MODE1] = "mode1", [FCIP_COMP_MODE2] = "mode2",
                                         [FCIP_COMP_MODE3] = "mode3"};

/* What a show needs of one interface: its configuration and live state. */
struct view {
    struct fcip_if_conf ic;
    struct fcip_profile_conf pc;
    bool has_profile;
    struct fcip_record r;
    int port_vsan;
};

static bool view_get(struct session *s, int id, struct view *v)
{
    memset(v, 0, sizeof *v);
    if (!fcip_if_get(s->lab, s->sw, id, &v->ic))
        return false;
    v->has_profile = v->ic.profile && fcip_profile_get(s->lab, s->sw, v->ic.profile, &v->pc);
    fcip_record_get(s->lab, s->sw, id, &v->r);
    char ifname[16];
    snprintf(ifname, sizeof ifname, "fcip%d", id);
    v->port_vsan = vsan_port_vsan(s->lab, s->sw, ifname);
    return true;
}

/* "down (Administratively down)", "trunking (Not all VSANs UP on the
 * trunk)", "up"... */
static void state_line(const struct view *v, char *buf, size_t n)
{
    const char *why = fcip_cause_words(v->r.cause)->reason;
    if (*why)
        snprintf(buf, n, "%s (%s)", fcip_state_text(v->r.state), why);
    else
        snprintf(buf, n, "%s", fcip_state_text(v->r.state));
}

static void vsans(const struct vsan_set *set, strbuf *out)
{
    sb_printf(out, "(");
    vsan_set_format(set, out);
    sb_printf(out, ")");
}

static void changed_at(struct session *s, uint64_t at_ns, char *buf, size_t n)
{
    time_t t = lab_time(s->lab, s->sw, NULL) - (time_t)((lab_now(s->lab) - at_ns) / ENGINE_NS_PER_SEC);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%a %b %e %H:%M:%S %Y", &tm);
}

static void trunk_lines(struct session *s, const struct view *v)
{
    struct vsan_set active;
    memset(&active, 0, sizeof active);
    for (int id = 1; id <= VSAN_MAX_USER; id++)
        if (id != VSAN_EVFP && vsan_set_has(&v->ic.allowed, id) && vsan_exists(s->lab, s->sw, id))
            vsan_set_add(&active, id, id);
    bool up = v->r.state >= FCIP_ISOLATED; /* connected: the lists are known */
    static const struct vsan_set none;
    cmd_printf(s, "    Trunk vsans (admin allowed and active) ");
    vsans(&active, &s->out);
    cmd_printf(s, "\n    Trunk vsans (up)                       ");
    vsans(up ? &v->r.up_vsans : &none, &s->out);
    cmd_printf(s, "\n    Trunk vsans (isolated)                 ");
    vsans(up ? &v->r.isolated_vsans : &none, &s->out);
    cmd_printf(s, "\n    Trunk vsans (initializing)             ");
    vsans(up ? &none : &active, &s->out);
    cmd_printf(s, "\n");
}

static void peer_lines(struct session *s, const struct view *v)
{
    char ip[16];
    ip_text(v->ic.peer_ip, ip, sizeof ip);
    cmd_printf(s, "    Peer Information\n");
    if (v->ic.has_peer)
        cmd_printf(s, "      Peer Internet address is %s and port is %d\n", ip, v->ic.peer_port);
    cmd_printf(s, "      Write acceleration mode is configured %s%s\n", v->ic.write_acc ? "on" : "off",
               v->ic.write_acc && v->r.state >= FCIP_UP && !v->r.write_acc_active ? ", operationally off" : "");
    cmd_printf(s, "      Tape acceleration mode is configured %s%s\n", v->ic.tape_acc ? "on" : "off",
               v->ic.tape_acc && v->r.state >= FCIP_UP && !v->r.tape_acc_active ? ", operationally off" : "");
    if (v->ic.tape_buf_kb)
        cmd_printf(s, "      Tape Accelerator flow control buffer size is %u KBytes\n", v->ic.tape_buf_kb);
    else
        cmd_printf(s, "      Tape Accelerator flow control buffer size is automatic\n");
    if (v->ic.compression == FCIP_COMP_OFF)
        cmd_printf(s, "      IP Compression is disabled\n");
    else
        cmd_printf(s, "      IP Compression is enabled and set for %s\n", comp_names[v->ic.compression]);
    cmd_printf(s, "      Maximum number of TCP connections is %d\n", v->ic.tcp_connections);
    cmd_printf(s, "      Time Stamp is %s\n", v->ic.time_stamp ? "enabled" : "disabled");
    cmd_printf(s, "      QOS control code point is 0\n      QOS data code point is 0\n      B-port mode disabled\n");
}

static void tcp_lines(struct session *s, const struct view *v)
{
    static const char *const names[2] = {"Control", "Data"};
    cmd_printf(s, "      TCP Connection Information\n        %d Active TCP connections\n", v->r.tcp_connections_up);
    for (int i = 0; i < 2; i++) {
        const struct fcip_tcp_record *c = &v->r.conn[i];
        if (!c->present || c->state != TCP_ESTABLISHED)
            continue;
        char l[16], r[16];
        ip_text(c->local_ip, l, sizeof l);
        ip_text(c->remote_ip, r, sizeof r);
        cmd_printf(s, "          %s connection: Local %s:%u, Remote %s:%u\n", names[i], l, c->local_port, r,
                   c->remote_port);
    }
    cmd_printf(s, "        %llu Attempts for active connections, %llu close of connections\n",
               (unsigned long long)v->r.connect_attempts, (unsigned long long)v->r.connection_closes);
    const struct fcip_tcp_record *t = &v->r.conn[v->r.conn[1].present ? 1 : 0];
    if (!t->present)
        return;
    cmd_printf(s, "      TCP Parameters\n");
    cmd_printf(s, "        Path MTU %llu bytes\n", (unsigned long long)(t->mss_bytes + TCP_HDR_BYTES));
    cmd_printf(s, "        Current retransmission timeout is %llu ms\n", (unsigned long long)(t->rto_ns / 1000000));
    cmd_printf(s, "        Round trip time: Smoothed %llu ms, Variance: %llu\n",
               (unsigned long long)(t->srtt_ns / 1000000), (unsigned long long)(t->rttvar_ns / 1000000));
    cmd_printf(s, "        Advertized window: Current: %llu KB, Maximum: %llu KB, Scale: %u\n",
               (unsigned long long)(t->advertised_window_bytes / 1024),
               (unsigned long long)(t->advertised_window_max_bytes / 1024), t->window_scale);
    cmd_printf(s, "        Peer receive window: Current: %llu KB, Maximum: %llu KB, Scale: %u\n",
               (unsigned long long)(t->peer_window_bytes / 1024),
               (unsigned long long)(t->peer_window_max_bytes / 1024), t->peer_window_scale);
    /* before the first loss the threshold is unbounded: shown as the window cap */
    uint64_t ssthresh = t->ssthresh_bytes < t->send_window_bytes ? t->ssthresh_bytes : t->send_window_bytes;
    cmd_printf(s, "        Congestion window: Current: %llu KB, Slow start threshold: %llu KB\n",
               (unsigned long long)(t->cwnd_bytes / 1024), (unsigned long long)(ssthresh / 1024));
    cmd_printf(s, "        Current Send Buffer Size: %llu KB, Requested Send Buffer Size: %u KB\n",
               (unsigned long long)(t->send_window_bytes / 1024), v->has_profile ? v->pc.send_buf_bytes / 1024 : 0);
    cmd_printf(s, "        CWM Burst Size: %u KB\n", v->has_profile ? v->pc.cwm_burst_bytes / 1024 : 50);
    /* both connections': class F (fcping, ELP) rides the control one */
    uint64_t fast = v->r.conn[0].fast_retransmits + v->r.conn[1].fast_retransmits;
    uint64_t timeouts = v->r.conn[0].timeouts + v->r.conn[1].timeouts;
    cmd_printf(s, "        Retransmitted segments %llu, fast retransmits %llu, timeouts %llu\n",
               (unsigned long long)v->r.retx_segments, (unsigned long long)fast, (unsigned long long)timeouts);
}

static void counter_lines(struct session *s, const struct view *v)
{
    const struct fcip_record *r = &v->r;
    cmd_printf(s, "    5 minutes input rate %llu bits/sec, %llu bytes/sec, %llu frames/sec\n",
               (unsigned long long)r->in_rate_bits_per_s, (unsigned long long)r->in_rate_bits_per_s / 8,
               (unsigned long long)r->in_rate_frames_per_s);
    cmd_printf(s, "    5 minutes output rate %llu bits/sec, %llu bytes/sec, %llu frames/sec\n",
               (unsigned long long)r->out_rate_bits_per_s, (unsigned long long)r->out_rate_bits_per_s / 8,
               (unsigned long long)r->out_rate_frames_per_s);
    if (r->compress_out_bytes)
        cmd_printf(s, "    IP compression ratio %.2f : 1 (%llu bytes in, %llu bytes out)\n",
                   (double)r->compress_in_bytes / (double)r->compress_out_bytes,
                   (unsigned long long)r->compress_in_bytes, (unsigned long long)r->compress_out_bytes);
    cmd_printf(s, "      %llu frames input, %llu bytes\n", (unsigned long long)r->rx_frames,
               (unsigned long long)r->rx_bytes);
    cmd_printf(s, "         %llu Class F frames input, %llu bytes\n", (unsigned long long)r->rx_classf_frames,
               (unsigned long long)r->rx_classf_bytes);
    cmd_printf(s, "         %llu Class 2/3 frames input, %llu bytes\n",
               (unsigned long long)(r->rx_frames - r->rx_classf_frames),
               (unsigned long long)(r->rx_bytes - r->rx_classf_bytes));
    cmd_printf(s, "         0 Reass frames\n         %llu Error frames timestamp error %llu\n",
               (unsigned long long)r->timestamp_error_frames, (unsigned long long)r->timestamp_error_frames);
    cmd_printf(s, "      %llu frames output, %llu bytes\n", (unsigned long long)r->tx_frames,
               (unsigned long long)r->tx_bytes);
    cmd_printf(s, "         %llu Class F frames output, %llu bytes\n", (unsigned long long)r->tx_classf_frames,
               (unsigned long long)r->tx_classf_bytes);
    cmd_printf(s, "         %llu Class 2/3 frames output, %llu bytes\n",
               (unsigned long long)(r->tx_frames - r->tx_classf_frames),
               (unsigned long long)(r->tx_bytes - r->tx_classf_bytes));
    cmd_printf(s, "         %llu Error frames\n", (unsigned long long)r->error_frames);
}

/* `show interface fcipN counters` with tape acceleration on (S15). */
static void tape_lines(struct session *s, const struct view *v)
{
    const struct fcip_tape_stats *t = &v->r.tape;
    if (!v->ic.tape_acc)
        return;
    cmd_printf(s, "    Tape Accelerator statistics\n");
    cmd_printf(s, "      %llu Host Tape Sessions\n      %llu Target Tape Sessions\n",
               (unsigned long long)t->host_sessions, (unsigned long long)t->target_sessions);
    cmd_printf(s, "      Host End statistics\n");
    cmd_printf(s, "        Received %llu writes, %llu good status, %llu bad status\n", (unsigned long long)t->writes,
               (unsigned long long)t->good_status, (unsigned long long)t->bad_status);
    cmd_printf(s, "        Sent %llu proxy status, %llu not proxied\n", (unsigned long long)t->proxy_status,
               (unsigned long long)t->not_proxied);
    cmd_printf(s, "        Estimated Write buffer %llu writes %llu bytes\n", (unsigned long long)t->write_buf_writes,
               (unsigned long long)t->write_buf_bytes);
    cmd_printf(s, "        Received %llu reads, %llu status\n", (unsigned long long)t->reads,
               (unsigned long long)t->read_status);
    cmd_printf(s, "        Sent %llu cached reads\n", (unsigned long long)t->cached_reads);
    cmd_printf(s, "        Read buffer %llu reads, %llu bytes\n", (unsigned long long)t->read_buf_reads,
               (unsigned long long)t->read_buf_bytes);
    cmd_printf(s, "      Target End statistics\n");
    cmd_printf(s, "        Sent %llu read-ahead reads\n", (unsigned long long)t->ahead_reads);
}

static void show_one(struct session *s, int id)
{
    struct view v;
    char line[96], when[40], ge[64] = "";
    if (!view_get(s, id, &v))
        return;
    state_line(&v, line, sizeof line);
    cmd_printf(s, "fcip%d is %s\n    Hardware is GigabitEthernet\n", id, line);
    cmd_printf(s, "    Port WWN is 20:%02x:00:05:30:00:%02x:5e\n", id, s->sw + 1);
    if (v.r.state >= FCIP_UP)
        cmd_printf(s, "    Peer port WWN is 20:%02x:00:05:30:00:%02x:5e\n", id, v.r.peer_sw + 1);
    cmd_printf(s, "    Admin port mode is auto, trunk mode is %s\n", trunk_names[v.ic.trunk_mode]);
    cmd_printf(s, "    snmp link state traps are enabled\n");
    if (v.r.state >= FCIP_UP)
        cmd_printf(s, "    Port mode is %s\n", v.r.state == FCIP_TRUNKING ? "TE" : "E");
    cmd_printf(s, "    Port vsan is %d\n    Speed is 1 Gbps\n", v.port_vsan);
    trunk_lines(s, &v);
    changed_at(s, v.r.last_change_ns, when, sizeof when);
    cmd_printf(s, "    Interface last changed at %s\n\n", when);
    if (v.has_profile) {
        int slot, port;
        if (v.pc.has_ip && fcip_ge_of_ip(s->lab, s->sw, v.pc.ip, &slot, &port))
            snprintf(ge, sizeof ge, "  (interface GigabitEthernet%d/%d)", slot, port);
        cmd_printf(s, "    Using Profile id %d%s\n", v.ic.profile, ge);
    }
    peer_lines(s, &v);
    tcp_lines(s, &v);
    counter_lines(s, &v);
}

static void brief_header(struct session *s)
{
    cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                  "Interface  Vsan   Admin  Admin   Status          Oper  Profile  Port-channel\n"
                  "                  Mode   Trunk                   Mode\n"
                  "                         Mode\n"
                  "-------------------------------------------------------------------------------\n");
}

static void brief_row(void *ctx, const struct fcip_if_conf *ic);

static void description_row(void *ctx, const struct fcip_if_conf *ic)
{
    struct session *s = ctx;
    char name[16];
    snprintf(name, sizeof name, "fcip%d", ic->id);
    cmd_printf(s, "%-18s %s\n", name, ic->description[0] ? ic->description : "--");
}

/* Its rows of `show interface description` and blocks of `show interface
 * counters` (the registry's hooks). */
void fcip_show_descriptions(struct session *s)
{
    if (lab_feature_enabled(s->lab, s->sw, &fcip_gate))
        fcip_ifs_each(s->lab, s->sw, description_row, s);
}

static void counters_each(void *ctx, const struct fcip_if_conf *ic)
{
    struct session *s = ctx;
    struct view v;
    view_get(s, ic->id, &v);
    cmd_printf(s, "fcip%d\n", ic->id);
    tcp_lines(s, &v);
    counter_lines(s, &v);
    tape_lines(s, &v);
    cmd_printf(s, "\n");
}

void fcip_show_counters(struct session *s)
{
    if (lab_feature_enabled(s->lab, s->sw, &fcip_gate))
        fcip_ifs_each(s->lab, s->sw, counters_each, s);
}

int fcip_show_interface(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0);
    struct fcip_if_conf ic;
    if (!fcip_if_get(s->lab, s->sw, id, &ic))
        return cmd_error(s, "%% Invalid interface format");
    if (arg_has(a, "brief")) {
        brief_header(s);
        brief_row(s, &ic);
    } else if (arg_has(a, "counters")) {
        struct view v;
        view_get(s, id, &v);
        cmd_printf(s, "fcip%d\n", id);
        tcp_lines(s, &v);
        counter_lines(s, &v);
        tape_lines(s, &v);
    } else if (arg_has(a, "description")) {
        cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                      "Interface          Description\n"
                      "-------------------------------------------------------------------------------\n");
        description_row(s, &ic);
    } else if (arg_has(a, "trunk")) {
        struct view v;
        view_get(s, id, &v);
        char line[64];
        state_line(&v, line, sizeof line);
        cmd_printf(s, "fcip%d is %s\n    Port vsan is %d\n", id, line, v.port_vsan);
        trunk_lines(s, &v);
    } else {
        show_one(s, id);
    }
    return 0;
}

static void brief_row(void *ctx, const struct fcip_if_conf *ic)
{
    struct session *s = ctx;
    struct view v;
    view_get(s, ic->id, &v);
    static const char *const st[] = {[FCIP_ADMIN_DOWN] = "down", [FCIP_DOWN] = "down", [FCIP_INIT] = "init",
                                     [FCIP_ISOLATED] = "isolated", [FCIP_UP] = "up", [FCIP_TRUNKING] = "trunking"};
    char name[16], prof[8], channel[8] = "--";
    snprintf(name, sizeof name, "fcip%d", ic->id);
    snprintf(prof, sizeof prof, "%d", ic->profile);
    int ch = pc_channel_of(s->lab, s->sw, ic->id);
    if (ch)
        snprintf(channel, sizeof channel, "%d", ch);
    cmd_printf(s, "%-10s %-6d %-6s %-7s %-15s %-5s %-8s %s\n", name, v.port_vsan, "auto",
               trunk_names[ic->trunk_mode], st[v.r.state],
               v.r.state == FCIP_TRUNKING ? "TE" : v.r.state == FCIP_UP ? "E" : "--", ic->profile ? prof : "--",
               channel);
}

void fcip_show_brief(struct session *s)
{
    if (!lab_feature_enabled(s->lab, s->sw, &fcip_gate) || !fcip_if_count(s->lab, s->sw))
        return;
    brief_header(s);
    fcip_ifs_each(s->lab, s->sw, brief_row, s);
}

static void show_each(void *ctx, const struct fcip_if_conf *ic)
{
    struct session *s = ctx;
    cmd_printf(s, "\n");
    show_one(s, ic->id);
}

void fcip_show_interfaces(struct session *s)
{
    if (lab_feature_enabled(s->lab, s->sw, &fcip_gate))
        fcip_ifs_each(s->lab, s->sw, show_each, s);
}

static void summary_row(void *ctx, const struct fcip_if_conf *ic)
{
    struct session *s = ctx;
    struct view v;
    char peer[16] = "--", eth[16] = "--", bw[24] = "--", prof[8] = "--";
    view_get(s, ic->id, &v);
    if (ic->has_peer)
        ip_text(ic->peer_ip, peer, sizeof peer);
    if (v.has_profile) {
        int slot, port;
        if (v.pc.has_ip && fcip_ge_of_ip(s->lab, s->sw, v.pc.ip, &slot, &port))
            snprintf(eth, sizeof eth, "GE%d/%d", slot, port);
        snprintf(bw, sizeof bw, "%uM/%uM", v.pc.max_bw_kbps / 1000, v.pc.min_bw_kbps / 1000);
        snprintf(prof, sizeof prof, "%d", ic->profile);
    }
    const struct fcip_tcp_record *c = &v.r.conn[0];
    static const char *const st[] = {[FCIP_ADMIN_DOWN] = "DOWN", [FCIP_DOWN] = "DOWN", [FCIP_INIT] = "INIT",
                                     [FCIP_ISOLATED] = "ISOL", [FCIP_UP] = "UP", [FCIP_TRUNKING] = "TRNK"};
    cmd_printf(s, "%-3d %-5s %-13s %-16s %-6s %c %c %c %c   %c    %-11s %llu\n", ic->id, prof, eth, peer,
               st[v.r.state], ic->time_stamp ? 'Y' : 'N', ic->write_acc ? 'Y' : 'N', ic->tape_acc ? 'Y' : 'N', 'N',
               ic->compression ? 'Y' : 'N', bw,
               (unsigned long long)(c->present ? c->srtt_ns / 1000 : v.has_profile ? v.pc.rtt_us : 0));
}

int fcip_show_summary(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                  "Tun prof  Eth-if        peer-ip          Status T W T Enc Comp Bandwidth   rtt\n"
                  "                                                E A A          max/min     (us)\n"
                  "-------------------------------------------------------------------------------\n");
    fcip_ifs_each(s->lab, s->sw, summary_row, s);
    return 0;
}

/* `show ips stats tcp interface gigabitethernet S/P`: the TCP connections
 * of the tunnels whose profile address is on that port, added up. */
struct tcp_sum {
    struct session *s;
    int slot, port, conns;
    uint64_t attempts, closes;
    struct fcip_tcp_record sum;
    bool detail;
};

static void add_conn(struct fcip_tcp_record *sum, const struct fcip_tcp_record *t)
{
    sum->segments_sent += t->segments_sent;
    sum->sent_bytes += t->sent_bytes;
    sum->segments_received += t->segments_received;
    sum->received_bytes += t->received_bytes;
    sum->retx_segments += t->retx_segments;
    sum->retx_bytes += t->retx_bytes;
    sum->fast_retransmits += t->fast_retransmits;
    sum->timeouts += t->timeouts;
    sum->dup_acks += t->dup_acks;
    sum->out_of_order_segments += t->out_of_order_segments;
    sum->keepalives += t->keepalives;
    sum->sack_recoveries += t->sack_recoveries;
}

static void sum_conns(void *ctx, const struct fcip_if_conf *ic)
{
    struct tcp_sum *x = ctx;
    struct view v;
    int slot, port;
    view_get(x->s, ic->id, &v);
    if (!v.has_profile || !v.pc.has_ip || !fcip_ge_of_ip(x->s->lab, x->s->sw, v.pc.ip, &slot, &port) ||
        slot != x->slot || port != x->port)
        return;
    x->attempts += v.r.connect_attempts;
    x->closes += v.r.connection_closes;
    for (int i = 0; i < 2; i++)
        if (v.r.conn[i].present) {
            x->conns += v.r.conn[i].state == TCP_ESTABLISHED;
            add_conn(&x->sum, &v.r.conn[i]);
        }
}

int fcip_show_tcp_stats(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    struct tcp_sum x = {.s = s, .slot = p->slot, .port = p->port, .detail = arg_has(a, "detail")};
    if (!lab_module(s->lab, s->sw, p->slot))
        return cmd_error(s, "%% Invalid interface format");
    if (lab_feature_enabled(s->lab, s->sw, &fcip_gate))
        fcip_ifs_each(s->lab, s->sw, sum_conns, &x);
    const struct fcip_tcp_record *t = &x.sum;
    cmd_printf(s, "TCP Statistics for port GigabitEthernet%d/%d\n", p->slot, p->port);
    cmd_printf(s, "    Connection Stats\n      %llu active openings, %llu closes, %d established\n",
               (unsigned long long)x.attempts, (unsigned long long)x.closes, x.conns);
    cmd_printf(s, "    Segment stats\n      %llu received, %llu sent, %llu retransmitted\n",
               (unsigned long long)t->segments_received, (unsigned long long)t->segments_sent,
               (unsigned long long)t->retx_segments);
    if (x.detail)
        cmd_printf(s, "    Data\n      %llu bytes sent, %llu bytes received, %llu bytes retransmitted\n"
                      "    Loss recovery\n      %llu fast retransmits, %llu SACK recoveries, %llu timeouts\n"
                      "      %llu duplicate ACKs received, %llu out of order segments received\n"
                      "    Keepalive\n      %llu probes sent\n",
                   (unsigned long long)t->sent_bytes, (unsigned long long)t->received_bytes,
                   (unsigned long long)t->retx_bytes, (unsigned long long)t->fast_retransmits,
                   (unsigned long long)t->sack_recoveries, (unsigned long long)t->timeouts,
                   (unsigned long long)t->dup_acks, (unsigned long long)t->out_of_order_segments,
                   (unsigned long long)t->keepalives);
    return 0;
}

/* A tunnel not running (shut, feature just enabled) has nothing to clear. */
static void clear_one(struct session *s, int id)
{
    struct fcip_tunnel *t = fcip_live(s->lab, s->sw, id);
    if (t)
        fcip_tunnel_clear_counters(t);
}

int fcip_clear_counters(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0);
    struct fcip_if_conf ic;
    if (!fcip_if_get(s->lab, s->sw, id, &ic))
        return cmd_error(s, "%% Interface fcip%d does not exist", id);
    clear_one(s, id);
    return 0;
}

static void clear_each(void *ctx, const struct fcip_if_conf *ic) { clear_one(ctx, ic->id); }

void fcip_clear_all_counters(struct session *s)
{
    if (lab_feature_enabled(s->lab, s->sw, &fcip_gate))
        fcip_ifs_each(s->lab, s->sw, clear_each, s);
}

/* `show fcip tape-session tunnel N {host-end | targ-end}` (S15). */
struct tape_walk {
    struct session *s;
    bool host_end;
    int n;
};

static void tape_session_row(void *ctx, const struct fcip_tape_session *t)
{
    struct tape_walk *w = ctx;
    cmd_printf(w->s, "%s Tape Session #%d\n", w->host_end ? "Host" : "Target", ++w->n);
    cmd_printf(w->s, "  FCID 0x%06X, VSAN %u, LUN 0x0000\n", t->target, t->vsan);
    cmd_printf(w->s, "  Outstanding Exchanges %u, Outstanding Writes %u\n", t->outstanding_exchanges,
               t->outstanding_writes);
    cmd_printf(w->s, "  Host End Read Buffering %llu Bytes, Auto Max Read Blocks %d\n",
               (unsigned long long)t->read_buf_bytes, t->max_read_blocks);
}

static void tape_session_count(void *ctx, const struct fcip_tape_session *t)
{
    (void)t;
    ((struct tape_walk *)ctx)->n++;
}

int fcip_show_tape_sessions(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0);
    struct fcip_if_conf ic;
    if (!fcip_if_get(s->lab, s->sw, id, &ic))
        return cmd_error(s, "%% Invalid interface format");
    struct fcip_tunnel *t = fcip_live(s->lab, s->sw, id);
    struct tape_walk w = {s, arg_has(a, "host-end"), 0};
    if (t)
        fcip_tunnel_tape_sessions(t, w.host_end, tape_session_count, &w);
    cmd_printf(s, "%s TAPE SESSIONS (%d entries TOTAL entries %d)\n", w.host_end ? "HOST" : "TARGET", w.n, w.n);
    w.n = 0;
    if (t)
        fcip_tunnel_tape_sessions(t, w.host_end, tape_session_row, &w);
    return 0;
}
