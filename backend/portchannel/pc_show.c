/* The port-channel shows: `show port-channel summary|database`, `show
 * interface port-channel N` (the fc interface template of mds-cli.md
 * with `Member[i] :` lines), its table in `show interface brief`. The
 * live values come from the engine's channel and its member tunnels;
 * the layouts are recalled from MDS outputs [P] (docs/port-channel.md). */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "system/system.h"
#include "portchannel.h"
#include "pc_show.h"
#include "pc_render.h"
#include "fcip/fcip_engine.h"
#include "fcip/tunnel.h"
#include "fcip/fcip_record.h"
#include "fcip/pchan.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

struct pc_view {
    struct pc_conf c;
    int members[PC_MEMBERS_MAX], n;
    bool member_up[PC_MEMBERS_MAX];
    struct pchan_status st;
    /* its members' records added up */
    uint64_t in_rate_bits_per_s, out_rate_bits_per_s, in_rate_frames_per_s, out_rate_frames_per_s;
    uint64_t rx_frames, rx_bytes, tx_frames, tx_bytes;
};

static bool view_get(struct session *s, int id, struct pc_view *v)
{
    memset(v, 0, sizeof *v);
    if (!pc_get(s->lab, s->sw, id, &v->c))
        return false;
    v->n = pc_members(s->lab, s->sw, id, v->members);
    struct pchan_set *ps = fcip_live_pchans(s->lab);
    if (ps)
        pchan_status_get(ps, s->sw, id, &v->st);
    for (int i = 0; i < v->n; i++) {
        for (int k = 0; k < v->st.nup; k++)
            v->member_up[i] |= v->st.up_ids[k] == v->members[i];
        struct fcip_record r;
        if (!fcip_record_get(s->lab, s->sw, v->members[i], &r))
            continue;
        v->in_rate_bits_per_s += r.in_rate_bits_per_s, v->out_rate_bits_per_s += r.out_rate_bits_per_s;
        v->in_rate_frames_per_s += r.in_rate_frames_per_s, v->out_rate_frames_per_s += r.out_rate_frames_per_s;
        v->rx_frames += r.rx_frames, v->rx_bytes += r.rx_bytes;
        v->tx_frames += r.tx_frames, v->tx_bytes += r.tx_bytes;
    }
    return true;
}

static const char *status_word(const struct pc_view *v)
{
    return !v->st.up ? "down" : v->st.trunking ? "trunking" : "up";
}

int pc_show_summary(struct session *s, const struct cmd_args *a)
{
    (void)a;
    int ids[PC_ID_MAX], n = pc_ids(s->lab, s->sw, ids);
    cmd_printf(s, "------------------------------------------------------------------------------\n"
                  "Interface                 Total Ports        Oper Ports        First Oper Port\n"
                  "------------------------------------------------------------------------------\n");
    for (int i = 0; i < n; i++) {
        struct pc_view v;
        view_get(s, ids[i], &v);
        char name[24], fop[16] = "--";
        snprintf(name, sizeof name, "port-channel %d", ids[i]);
        if (v.st.fop)
            snprintf(fop, sizeof fop, "fcip%d", v.st.fop);
        cmd_printf(s, "%-26s%-19d%-18d%s\n", name, v.n, v.st.nup, fop);
    }
    return 0;
}

static void database_one(struct session *s, int id)
{
    struct pc_view v;
    view_get(s, id, &v);
    const char *mode = v.c.mode_active ? "active" : "on";
    cmd_printf(s, "port-channel %d\n    Administrative channel mode is %s\n    Operational channel mode is %s\n", id,
               mode, mode);
    cmd_printf(s, "    Last membership update %s\n", "succeeded");
    if (v.st.fop)
        cmd_printf(s, "    First operational port is fcip%d\n", v.st.fop);
    cmd_printf(s, "    %d ports in total, %d ports up\n", v.n, v.st.nup);
    for (int i = 0; i < v.n; i++) {
        char name[16];
        snprintf(name, sizeof name, "fcip%d", v.members[i]);
        cmd_printf(s, "    %s%-8s [%s]%s\n", i ? "         " : "Ports:   ", name, v.member_up[i] ? "up" : "down",
                   v.members[i] == v.st.fop ? " *" : "");
    }
}

int pc_show_database(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0);
    struct pc_conf c;
    if (id) {
        if (!pc_get(s->lab, s->sw, id, &c))
            return cmd_error(s, "%% port-channel %d does not exist", id);
        database_one(s, id);
        return 0;
    }
    int ids[PC_ID_MAX], n = pc_ids(s->lab, s->sw, ids);
    for (int i = 0; i < n; i++) {
        database_one(s, ids[i]);
        if (i + 1 < n)
            cmd_printf(s, "\n");
    }
    return 0;
}

static void trunk_line(struct session *s, const char *label, const struct vsan_set *set)
{
    cmd_printf(s, "    Trunk vsans (%s)%*s(", label, (int)(25 - strlen(label)), "");
    vsan_set_format(set, &s->out);
    cmd_printf(s, ")\n");
}

static void interface_one(struct session *s, int id)
{
    static const char *const trunk[] = {"on", "off", "auto"};
    struct pc_view v;
    char when[40];
    view_get(s, id, &v);
    const char *why = v.st.up ? "" : v.c.shutdown ? " (Administratively down)" : " (No operational members)";
    cmd_printf(s, "port-channel%d is %s%s\n    Hardware is Fibre Channel\n", id, status_word(&v), why);
    cmd_printf(s, "    Port WWN is 24:%02x:00:05:30:00:%02x:5e\n", id > 255 ? 255 : id, s->sw + 1);
    cmd_printf(s, "    Admin port mode is auto, trunk mode is %s\n    snmp link state traps are enabled\n",
               trunk[v.c.trunk_mode]);
    if (v.st.up) {
        cmd_printf(s, "    Port mode is %s\n", v.st.trunking ? "TE" : "E");
        cmd_printf(s, "    Port vsan is 1\n    Speed is %d Gbps\n", v.st.nup); /* 1 Gbps a member */
        struct vsan_set active = {{0}}, isolated = {{0}}, none = {{0}};
        for (int vs = 1; vs <= VSAN_MAX_USER; vs++)
            if (vsan_set_has(&v.c.allowed, vs) && vsan_exists(s->lab, s->sw, vs)) {
                vsan_set_add(&active, vs, vs);
                if (!vsan_set_has(&v.st.vsans, vs))
                    vsan_set_add(&isolated, vs, vs);
            }
        if (v.st.trunking) {
            trunk_line(s, "admin allowed and active", &active);
            trunk_line(s, "up", &v.st.vsans);
            trunk_line(s, "isolated", &isolated);
            trunk_line(s, "initializing", &none);
        }
    } else {
        cmd_printf(s, "    Port vsan is 1\n");
    }
    cmd_printf(s, "    5 minutes input rate %llu bits/sec,%llu bytes/sec, %llu frames/sec\n",
               (unsigned long long)v.in_rate_bits_per_s, (unsigned long long)v.in_rate_bits_per_s / 8,
               (unsigned long long)v.in_rate_frames_per_s);
    cmd_printf(s, "    5 minutes output rate %llu bits/sec,%llu bytes/sec, %llu frames/sec\n",
               (unsigned long long)v.out_rate_bits_per_s, (unsigned long long)v.out_rate_bits_per_s / 8,
               (unsigned long long)v.out_rate_frames_per_s);
    cmd_printf(s, "      %llu frames input,%llu bytes\n", (unsigned long long)v.rx_frames,
               (unsigned long long)v.rx_bytes);
    cmd_printf(s, "      %llu frames output,%llu bytes\n", (unsigned long long)v.tx_frames,
               (unsigned long long)v.tx_bytes);
    for (int i = 0; i < v.n; i++)
        cmd_printf(s, "    Member[%d] : fcip%d\n", i + 1, v.members[i]);
    time_t t = lab_time(s->lab, s->sw, NULL) - (time_t)((lab_now(s->lab) - v.st.last_change_ns) / ENGINE_NS_PER_SEC);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);
    if (v.st.up)
        cmd_printf(s, "    Interface last changed at %s\n", when);
}

static void brief_header(struct session *s)
{
    cmd_printf(s, "\n-------------------------------------------------------------------------------\n"
                  "Interface      Vsan   Admin  Status          Oper   Oper     IP\n"
                  "                      Trunk                  Mode   Speed    Address\n"
                  "                      Mode                          (Gbps)\n"
                  "-------------------------------------------------------------------------------\n");
}

static void brief_row(struct session *s, int id)
{
    static const char *const trunk[] = {"on", "off", "auto"};
    struct pc_view v;
    view_get(s, id, &v);
    char name[24], speed[24] = "--";
    snprintf(name, sizeof name, "port-channel%d", id);
    if (v.st.up)
        snprintf(speed, sizeof speed, "%d", v.st.nup);
    cmd_printf(s, "%-14s %-6d %-6s %-15s %-6s %-8s --\n", name, 1, trunk[v.c.trunk_mode], status_word(&v),
               !v.st.up ? "--" : v.st.trunking ? "TE" : "E", speed);
}

int pc_show_interface(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0);
    struct pc_conf c;
    if (!pc_get(s->lab, s->sw, id, &c))
        return cmd_error(s, "%% Invalid interface format");
    if (arg_has(a, "brief")) {
        brief_header(s);
        brief_row(s, id);
    } else {
        interface_one(s, id);
    }
    return 0;
}

void pc_show_brief(struct session *s)
{
    int ids[PC_ID_MAX], n = pc_ids(s->lab, s->sw, ids);
    if (!n)
        return;
    brief_header(s);
    for (int i = 0; i < n; i++)
        brief_row(s, ids[i]);
}

void pc_show_interfaces(struct session *s)
{
    int ids[PC_ID_MAX], n = pc_ids(s->lab, s->sw, ids);
    for (int i = 0; i < n; i++) {
        cmd_printf(s, "\n"); /* as the fcip blocks: a blank line before each */
        interface_one(s, ids[i]);
    }
}

int pc_show_running(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0);
    struct pc_conf c;
    char t[64];
    if (!pc_get(s->lab, s->sw, id, &c))
        return cmd_error(s, "%% Interface port-channel%d does not exist", id);
    system_ctime(s->lab, s->sw, t, sizeof t);
    cmd_printf(s, "!Command: show running-config interface port-channel%d\n!Time: %s\n\nversion %s\n", id, t,
               SYSTEM_RELEASE);
    pc_render_one(s->lab, s->sw, id, &s->out);
    return 0;
}
