/* FCIP configuration commands: the gate (`feature fcip`, `fcip enable`),
 * `fcip profile N` and its (config-profile)#, `interface fcip N` and its
 * (config-if)#. Every `no` form returns its setting to the default. */
#include "session.h"
#include "feature.h"
#include "ifname.h"
#include "lab/lab.h"
#include "fcip.h"
#include "fcip_engine.h"
#include "fcip_store.h"
#include "ipnet/ip_text.h"
#include "portchannel/portchannel.h"
#include <stdio.h>
#include <string.h>

static int cmd_gate(struct session *s, const struct cmd_args *a)
{
    lab_set_feature(s->lab, s->sw, &fcip_gate, !a->negated);
    return 0;
}

/* ---- fcip profile ---- */

static int cmd_profile(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "pid", 0);
    if (a->negated) {
        if (!fcip_profile_exists(s->lab, s->sw, id))
            return cmd_error(s, "%% Profile %d does not exist", id);
        int user = fcip_profile_user(s->lab, s->sw, id);
        if (user)
            return cmd_error(s, "%% Profile %d is in use by interface fcip%d", id, user);
        fcip_profile_delete(s->lab, s->sw, id);
        return 0;
    }
    fcip_profile_create(s->lab, s->sw, id);
    s->mode = &fcip_profile_mode;
    s->ctx.a = id;
    return 0;
}

/* Sets a column of the profile being configured (which exists: the mode
 * check, profile_ok, runs before each command of the mode). */
static void pset(struct session *s, enum fcip_pcol col, long long v)
{
    fcip_profile_set(s->lab, s->sw, s->ctx.a, col, v < 0 ? NULL : &v);
}

static bool ip_host_ok(uint32_t ip)
{
    unsigned first = ip >> 24;
    return ip != 0 && first != 0 && first != 127 && first < 224 && ip != 0xffffffffu;
}

static int cmd_profile_ip(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *ip = arg_get(a, "addr");
    struct fcip_profile_conf c;
    fcip_profile_get(s->lab, s->sw, s->ctx.a, &c);
    if (a->negated) {
        if (ip && (!c.has_ip || c.ip != ip->ip))
            return cmd_error(s, "%% Address not configured on this profile");
        pset(s, FP_IP, -1);
        return 0;
    }
    if (!ip_host_ok(ip->ip))
        return cmd_error(s, "%% Invalid ip address");
    /* on no port yet is accepted, as the switch does: the tunnel reads
     * `Tunnel port src interface unbound` until a port has it */
    pset(s, FP_IP, ip->ip);
    return 0;
}

/* One integer setting: its column and the argument holding the value. */
static int profile_int(struct session *s, const struct cmd_args *a, enum fcip_pcol col, const char *arg)
{
    pset(s, col, a->negated ? fcip_pcol_default[col] : arg_num(a, arg, fcip_pcol_default[col]));
    return 0;
}

#define PROFILE_INT(fn, col, arg) \
    static int fn(struct session *s, const struct cmd_args *a) { return profile_int(s, a, col, arg); }
PROFILE_INT(cmd_port, FP_PORT, "portnum")
PROFILE_INT(cmd_keepalive, FP_KEEPALIVE, "seconds")
PROFILE_INT(cmd_max_retrans, FP_MAX_RETRANS, "count")
PROFILE_INT(cmd_min_rto, FP_MIN_RTO, "ms")
PROFILE_INT(cmd_jitter, FP_JITTER, "us")
PROFILE_INT(cmd_send_buf, FP_SEND_BUF, "kb")

static int cmd_sack(struct session *s, const struct cmd_args *a)
{
    pset(s, FP_SACK, !a->negated);
    return 0;
}

/* `tcp pmtu-enable [reset-timeout N]`; `no tcp pmtu-enable` turns it off
 * and forgets the timeout, `no tcp pmtu-enable reset-timeout` only
 * returns the timeout to 3600. */
static int cmd_pmtu(struct session *s, const struct cmd_args *a)
{
    bool timeout = arg_has(a, "reset-timeout");
    if (!a->negated || !timeout)
        pset(s, FP_PMTU, !a->negated);
    if (a->negated || timeout)
        pset(s, FP_PMTU_RESET, a->negated ? fcip_pcol_default[FP_PMTU_RESET] : arg_num(a, "seconds", 3600));
    return 0;
}

/* `tcp cwm [burstsize N]`, the same shape as pmtu-enable. */
static int cmd_cwm(struct session *s, const struct cmd_args *a)
{
    bool burst = arg_has(a, "burstsize");
    if (!a->negated || !burst)
        pset(s, FP_CWM, !a->negated);
    if (a->negated || burst)
        pset(s, FP_CWM_BURST, a->negated ? fcip_pcol_default[FP_CWM_BURST] : arg_num(a, "kb", 50));
    return 0;
}

/* The three bandwidth settings go together; mbps and ms are converted to
 * kbps and us, the units the store keeps. */
static int bandwidth(struct session *s, const struct cmd_args *a, long unit)
{
    long long max = fcip_pcol_default[FP_MAX_BW], min = fcip_pcol_default[FP_MIN_BW], rtt = fcip_pcol_default[FP_RTT];
    if (!a->negated) {
        max = arg_num(a, "max", 0) * unit;
        min = arg_num(a, "min", 0) * unit;
        rtt = arg_has(a, "ms") ? arg_num(a, "ms", 0) * 1000 : arg_num(a, "us", 0);
        if (min > max)
            return cmd_error(s, "%% min-available-bandwidth cannot be more than max-bandwidth");
    }
    fcip_profile_set_bandwidth(s->lab, s->sw, s->ctx.a, max, min, rtt);
    return 0;
}

static int cmd_bandwidth_mbps(struct session *s, const struct cmd_args *a) { return bandwidth(s, a, 1000); }
static int cmd_bandwidth_kbps(struct session *s, const struct cmd_args *a) { return bandwidth(s, a, 1); }

/* ---- interface fcip ---- */

const struct iftype fcip_iftype = {"fcip", "fcip", false};

static int cmd_interface(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "id", 0);
    if (a->negated) {
        if (!fcip_if_exists(s->lab, s->sw, id))
            return cmd_error(s, "%% Interface fcip%d does not exist", id);
        fcip_if_delete(s->lab, s->sw, id);
        return 0;
    }
    fcip_if_create(s->lab, s->sw, id);
    s->mode = MODE_IF;
    s->ctx.iftype = &fcip_iftype;
    s->ctx.a = id;
    s->ctx.b = 0;
    s->ctx.nports = 0; /* not the port list of an earlier `interface g2/1-3` */
    ifname_format(s->ctx.ifname, sizeof s->ctx.ifname, &fcip_iftype, id, 0);
    return 0;
}

/* The interface exists here: if_ok runs before each command of the mode. */
static void iset(struct session *s, enum fcip_icol col, long long v)
{
    fcip_if_set(s->lab, s->sw, s->ctx.a, col, v < 0 ? NULL : &v);
}

static void iset_text(struct session *s, enum fcip_icol col, const char *text)
{
    fcip_if_set_text(s->lab, s->sw, s->ctx.a, col, text);
}

static int cmd_use_profile(struct session *s, const struct cmd_args *a)
{
    int id = (int)arg_num(a, "pid", 0);
    if (a->negated) {
        iset(s, FI_PROFILE, -1);
        return 0;
    }
    iset(s, FI_PROFILE, id); /* a profile made later binds then (docs/failures.md) */
    return 0;
}

static int cmd_peer(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *ip = arg_get(a, "addr");
    if (a->negated) {
        iset(s, FI_PEER_IP, -1);
        iset(s, FI_PEER_PORT, FCIP_DEFAULT_PORT);
        return 0;
    }
    if (!ip_host_ok(ip->ip))
        return cmd_error(s, "%% Invalid ip address");
    iset(s, FI_PEER_IP, ip->ip);
    iset(s, FI_PEER_PORT, arg_num(a, "portnum", FCIP_DEFAULT_PORT));
    return 0;
}

static int cmd_passive(struct session *s, const struct cmd_args *a)
{
    iset(s, FI_PASSIVE, !a->negated);
    return 0;
}

static int cmd_tcp_conns(struct session *s, const struct cmd_args *a)
{
    iset(s, FI_TCP_CONNS, a->negated ? 2 : arg_num(a, "count", 2));
    return 0;
}

static int cmd_compression(struct session *s, const struct cmd_args *a)
{
    static const char *const modes[] = {"auto", "mode1", "mode2", "mode3"};
    long long mode = FCIP_COMP_AUTO; /* bare `ip-compression` */
    for (int i = 0; i < 4; i++)
        if (arg_has(a, modes[i]))
            mode = FCIP_COMP_AUTO + i;
    iset(s, FI_COMPRESSION, a->negated ? FCIP_COMP_OFF : mode);
    return 0;
}

/* Tape acceleration rides on write acceleration: turning it on turns WA on,
 * turning WA off turns it off. */
static int cmd_write_acc(struct session *s, const struct cmd_args *a)
{
    bool tape = arg_has(a, "tape-accelerator");
    if (a->negated) {
        iset(s, FI_TAPE_ACC, 0);
        iset(s, FI_TAPE_BUF, 0);
        if (!tape)
            iset(s, FI_WRITE_ACC, 0);
        return 0;
    }
    iset(s, FI_WRITE_ACC, 1);
    iset(s, FI_TAPE_ACC, tape);
    iset(s, FI_TAPE_BUF, arg_num(a, "kb", 0)); /* `auto` or none: 0 */
    return 0;
}

/* `no time-stamp` also forgets the difference; `no time-stamp
 * acceptable-diff` returns only the difference to 2000 ms. */
static int cmd_time_stamp(struct session *s, const struct cmd_args *a)
{
    bool diff = arg_has(a, "acceptable-diff");
    if (!a->negated || !diff)
        iset(s, FI_TIME_STAMP, !a->negated);
    if (a->negated || !diff)
        iset(s, FI_TS_DIFF, 2000);
    else
        iset(s, FI_TS_DIFF, arg_num(a, "ms", 2000));
    return 0;
}

/* The peer's switch WWN (and profile) that every connection this end
 * opens names in its special frame; `no special-frame` with or without
 * the WWN turns it off [G: the reference gives the form with it]. */
static int cmd_special_frame(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *wwn = arg_get(a, "pwwn");
    if (a->negated || !wwn) {
        iset_text(s, FI_SF_WWN, NULL);
        iset(s, FI_SF_PROFILE, -1);
        return 0;
    }
    char text[24];
    const uint8_t *w = wwn->wwn;
    snprintf(text, sizeof text, "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x", w[0], w[1], w[2], w[3], w[4], w[5], w[6],
             w[7]);
    iset_text(s, FI_SF_WWN, text);
    iset(s, FI_SF_PROFILE, arg_has(a, "profile-id") ? arg_num(a, "pid", 0) : -1);
    return 0;
}

/* A port-channel's member takes its switchport settings from the channel
 * (docs/port-channel.md): they are changed there, for every member. */
static bool member_refuses(struct session *s)
{
    int ch = pc_channel_of(s->lab, s->sw, s->ctx.a);
    if (ch)
        cmd_error(s, "%% %s is a member of port-channel %d: configure interface port-channel%d", s->ctx.ifname, ch,
                  ch);
    return ch != 0;
}

static int cmd_trunk_mode(struct session *s, const struct cmd_args *a)
{
    if (member_refuses(s))
        return -1;
    const char *mode = "on";
    if (!a->negated && arg_has(a, "off"))
        mode = "off";
    else if (!a->negated && arg_has(a, "auto"))
        mode = "auto";
    iset_text(s, FI_TRUNK_MODE, mode);
    return 0;
}

/* The allowed list (vsan_trunk_allowed_apply). */
static int cmd_trunk_allowed(struct session *s, const struct cmd_args *a)
{
    if (member_refuses(s))
        return -1;
    struct fcip_if_conf c;
    fcip_if_get(s->lab, s->sw, s->ctx.a, &c);
    if (!vsan_trunk_allowed_apply(&c.allowed, a))
        return cmd_error(s, "%% Invalid range"); /* the grammar checked it: not reached */
    strbuf canon;
    sb_init(&canon);
    vsan_set_format(&c.allowed, &canon);
    iset_text(s, FI_ALLOWED, sb_str(&canon));
    sb_free(&canon);
    return 0;
}

static int cmd_description(struct session *s, const struct cmd_args *a)
{
    const char *text = a->negated ? NULL : arg_str(a, "text");
    if (text && strlen(text) > 254)
        return cmd_error(s, "%% String exceeded max length of (254)");
    iset_text(s, FI_DESCRIPTION, text);
    return 0;
}

static int cmd_shutdown(struct session *s, const struct cmd_args *a)
{
    iset(s, FI_SHUTDOWN, !a->negated);
    lab_settle(s->lab); /* shut / no shut bounces the tunnel, even at one instant */
    return 0;
}

static int show_running(struct session *s, const struct cmd_args *a)
{
    (void)a;
    return fcip_show_running(s, 0);
}

static int show_running_if(struct session *s, const struct cmd_args *a)
{
    return fcip_show_running(s, (int)arg_num(a, "id", 0));
}

#define BW_ARGS(u, lo, hi)                                                                                    \
    "<max:" lo "-" hi "> min-available-bandwidth-" u " <min:" lo "-" hi "> {round-trip-time-ms <ms:0-300> |" \
    " round-trip-time-us <us:0-300000>}"
#define BW_HELP(u)                                                                                             \
    "tcp: Configure TCP parameters\nmax-bandwidth-" u ": Configure maximum available path bandwidth in " u     \
    "\nmax: Enter the bandwidth\nmin-available-bandwidth-" u ": Configure minimum slow start threshold in " u \
    "\nmin: Enter the bandwidth\nround-trip-time-ms: Configure estimated round trip time across the IP network" \
    " to reach the FCIP peer end point in ms\nms: Round trip time\nround-trip-time-us: Configure estimated"     \
    " round trip time across the IP network to reach the FCIP peer end point in us\nus: Round trip time"

#define TRUNK_HELP                                                                                       \
    "trunk: Configure trunking parameters on an interface\nallowed: Configure allowed list for interface(s)\n" \
    "vsan: Configure allowed list of VSANs\nadd: Add VSAN id(s) to the allowed list\nexcept: Allow all VSANs "  \
    "but these\nremove: Remove VSAN id(s) from the allowed list\nvsans: VSAN id range\nall: All VSANs (1-4093)"

#define SF_HELP                                                                                       \
    "special-frame: Configure special frame\npeer-wwn: Configure peer switch WWN\npwwn: Enter the peer "    \
    "switch WWN\nprofile-id: Configure peer profile id\npid: Enter the peer profile id"

static const char *const gate_help = "feature: Command to enable/disable features\nfcip: Enable/Disable FCIP";

const struct cmd_def fcip_cmds[] = {
    {MODES(MODE_CONFIG), "[no] feature fcip", gate_help, cmd_gate, 0, 0, 0},
    {MODES(MODE_CONFIG), "[no] fcip enable", "fcip: Configure FCIP\nenable: Enable/Disable FCIP", cmd_gate, 0, 0, 0},
    {M_CONFIG_ALL, "[no] fcip profile <pid:1-255@fcip-profile>",
     "fcip: Configure FCIP\nprofile: Configure FCIP profile\npid: Enter profile id", cmd_profile, 0, &fcip_gate, 0},

    {MODES(&fcip_profile_mode), "ip address <addr:ipv4>", "address: Configure IP address\naddr: Enter the IP address",
     cmd_profile_ip, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no ip address [<addr:ipv4>]", "address: Configure IP address\naddr: Enter the IP address",
     cmd_profile_ip, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "port <portnum:1-65535>", "port: Configure listening port\nportnum: Enter the port number",
     cmd_port, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no port [<portnum:1-65535>]", "port: Configure listening port\nportnum: Enter the port number",
     cmd_port, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "[no] tcp keepalive-timeout <seconds:1-7200>",
     "tcp: Configure TCP parameters\nkeepalive-timeout: Configure keep alive timeout in sec\nseconds: Enter the "
     "timeout in sec",
     cmd_keepalive, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp keepalive-timeout",
     "tcp: Configure TCP parameters\nkeepalive-timeout: Configure keep alive timeout in sec", cmd_keepalive, 0,
     &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "[no] tcp max-retransmissions <count:1-8>",
     "tcp: Configure TCP parameters\nmax-retransmissions: Configure maximum number of retransmissions\ncount: Enter "
     "the number of retransmissions",
     cmd_max_retrans, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp max-retransmissions",
     "tcp: Configure TCP parameters\nmax-retransmissions: Configure maximum number of retransmissions",
     cmd_max_retrans, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "[no] tcp min-retransmit-time <ms:200-5000>",
     "tcp: Configure TCP parameters\nmin-retransmit-time: Configure minimum retransmit timeout in ms\nms: Enter "
     "the time in ms",
     cmd_min_rto, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp min-retransmit-time",
     "tcp: Configure TCP parameters\nmin-retransmit-time: Configure minimum retransmit timeout in ms", cmd_min_rto,
     0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "[no] tcp pmtu-enable [reset-timeout <seconds:60-3600>]",
     "tcp: Configure TCP parameters\npmtu-enable: Enable PMTU discovery\nreset-timeout: Configure PMTU reset "
     "timeout\nseconds: Enter the timeout in sec",
     cmd_pmtu, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp pmtu-enable reset-timeout",
     "tcp: Configure TCP parameters\npmtu-enable: Enable PMTU discovery\nreset-timeout: Configure PMTU reset "
     "timeout",
     cmd_pmtu, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "[no] tcp sack-enable", "tcp: Configure TCP parameters\nsack-enable: Enable SACK option",
     cmd_sack, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "tcp max-bandwidth-mbps " BW_ARGS("mbps", "1", "1000"), BW_HELP("mbps"), cmd_bandwidth_mbps, 0,
     &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp max-bandwidth-mbps [" BW_ARGS("mbps", "1", "1000") "]", BW_HELP("mbps"),
     cmd_bandwidth_mbps, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "tcp max-bandwidth-kbps " BW_ARGS("kbps", "1000", "1000000"), BW_HELP("kbps"), cmd_bandwidth_kbps,
     0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp max-bandwidth-kbps [" BW_ARGS("kbps", "1000", "1000000") "]", BW_HELP("kbps"),
     cmd_bandwidth_kbps, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "[no] tcp cwm [burstsize <kb:10-100>]",
     "tcp: Configure TCP parameters\ncwm: Enable congestion window monitoring\nburstsize: Configure burst size\nkb: "
     "Enter the burst size in KB",
     cmd_cwm, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp cwm burstsize",
     "tcp: Configure TCP parameters\ncwm: Enable congestion window monitoring\nburstsize: Configure burst size",
     cmd_cwm, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "[no] tcp max-jitter <us:0-10000>",
     "tcp: Configure TCP parameters\nmax-jitter: Configure maximum delay jitter in us\nus: Enter the jitter in us",
     cmd_jitter, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp max-jitter",
     "tcp: Configure TCP parameters\nmax-jitter: Configure maximum delay jitter in us", cmd_jitter, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "[no] tcp send-buffer-size <kb:0-8192>",
     "tcp: Configure TCP parameters\nsend-buffer-size: Configure send buffer size in KB\nkb: Enter the buffer "
     "size in KB",
     cmd_send_buf, 0, &fcip_gate, 0},
    {MODES(&fcip_profile_mode), "no tcp send-buffer-size",
     "tcp: Configure TCP parameters\nsend-buffer-size: Configure send buffer size in KB", cmd_send_buf, 0,
     &fcip_gate, 0},

    {M_CONFIG_ALL, "[no] interface fcip <id:1-255@fcip-if>", "fcip: FCIP interface\nid: Enter the interface id",
     cmd_interface, 0, &fcip_gate, 0},
#define FCIP_IF(syntax, help, fn) {MODES(MODE_IF), syntax, help, fn, 0, &fcip_gate, &fcip_iftype}
    FCIP_IF("use-profile <pid:1-255@fcip-profile>", "use-profile: Configure FCIP profile to use\npid: Enter profile id",
            cmd_use_profile),
    FCIP_IF("no use-profile [<pid:1-255@fcip-profile>]", "use-profile: Configure FCIP profile to use\npid: Enter profile id",
            cmd_use_profile),
    FCIP_IF("peer-info ipaddr <addr:ipv4> [port <portnum:1-65535>]",
            "peer-info: Configure peer information\nipaddr: Configure peer IP address\naddr: Enter the peer IP "
            "address\nport: Configure peer port\nportnum: Enter the peer port number",
            cmd_peer),
    FCIP_IF("no peer-info ipaddr [<addr:ipv4> [port <portnum:1-65535>]]",
            "peer-info: Configure peer information\nipaddr: Configure peer IP address\naddr: Enter the peer IP "
            "address\nport: Configure peer port\nportnum: Enter the peer port number",
            cmd_peer),
    FCIP_IF("[no] passive-mode", "passive-mode: Configure passive mode (wait for the peer to connect)", cmd_passive),
    FCIP_IF("tcp-connections <count:1-2>",
            "tcp-connections: Configure number of TCP connections\ncount: Enter the number of TCP connections",
            cmd_tcp_conns),
    FCIP_IF("no tcp-connections [<count:1-2>]",
            "tcp-connections: Configure number of TCP connections\ncount: Enter the number of TCP connections",
            cmd_tcp_conns),
    FCIP_IF("[no] ip-compression [auto | mode1 | mode2 | mode3]",
            "ip-compression: Enable IP compression\nauto: Choose the compression mode automatically\nmode1: Fast "
            "compression for high bandwidth links\nmode2: Moderate compression for medium bandwidth links\nmode3: "
            "High compression for low bandwidth links",
            cmd_compression),
    FCIP_IF("[no] write-accelerator [tape-accelerator [flow-control-buffer-size {auto | <kb:64-32768>}]]",
            "write-accelerator: Enable write acceleration\ntape-accelerator: Enable tape acceleration\n"
            "flow-control-buffer-size: Set the tape acceleration flow control buffer size (KB)\n"
            "auto: Size the buffer from the link's bandwidth and round trip\nkb: Buffer size in KB",
            cmd_write_acc),
    FCIP_IF("time-stamp [acceptable-diff <ms:500-10000>]",
            "time-stamp: Enable time stamp checking\nacceptable-diff: Configure acceptable time difference\nms: "
            "Enter the time difference in ms",
            cmd_time_stamp),
    FCIP_IF("no time-stamp [acceptable-diff [<ms:500-10000>]]",
            "time-stamp: Enable time stamp checking\nacceptable-diff: Configure acceptable time difference\nms: "
            "Enter the time difference in ms",
            cmd_time_stamp),
    FCIP_IF("special-frame peer-wwn <pwwn:wwn> [profile-id <pid:1-255>]", SF_HELP, cmd_special_frame),
    FCIP_IF("no special-frame [peer-wwn <pwwn:wwn> [profile-id <pid:1-255>]]", SF_HELP, cmd_special_frame),
    FCIP_IF("switchport trunk mode {on | off | auto}",
            "trunk: Configure trunking parameters on an interface\nmode: Configure trunking mode\non: Trunking "
            "on\noff: Trunking off\nauto: Autosense trunking",
            cmd_trunk_mode),
    FCIP_IF("no switchport trunk mode [on | off | auto]",
            "trunk: Configure trunking parameters on an interface\nmode: Configure trunking mode\non: Trunking "
            "on\noff: Trunking off\nauto: Autosense trunking",
            cmd_trunk_mode),
    FCIP_IF("switchport trunk allowed vsan {[add | except | remove] <vsans:list:1-4093> | all}", TRUNK_HELP,
            cmd_trunk_allowed),
    FCIP_IF("no switchport trunk allowed vsan [<vsans:list:1-4093> | all]", TRUNK_HELP, cmd_trunk_allowed),
    FCIP_IF("switchport description <text:line>", "text: Description (up to 254 characters)", cmd_description),
    FCIP_IF("no switchport description [<text:line>]", "text: Description", cmd_description),
    FCIP_IF("[no] shutdown", NULL, cmd_shutdown),

    {MODES(MODE_EXEC), "show fcip profile [<pid:1-255@fcip-profile> | all]",
     "fcip: Show FCIP information\nprofile: Show FCIP profile information\npid: Enter profile id\nall: Show "
     "all profiles in detail",
     fcip_show_profile, CMD_PIPE, &fcip_gate, 0},
    {MODES(MODE_EXEC), "show running-config fcip", "fcip: Show FCIP configuration", show_running, CMD_PIPE,
     &fcip_gate, 0},
    {MODES(MODE_EXEC), "show running-config interface fcip <id:1-255@fcip-if>", "fcip: FCIP interface\nid: Enter the interface id",
     show_running_if, CMD_PIPE, &fcip_gate, 0},
    FCIP_LIVE_CMDS,
    {0},
};

/* ---- what the lab knows, for `?` and Tab; the modes' objects ---- */

static void list_ids(int *ids, int n, bool (*add)(void *ctx, const char *value), void *ctx)
{
    char text[8];
    for (int i = 0; i < n; i++) {
        snprintf(text, sizeof text, "%d", ids[i]);
        if (!add(ctx, text))
            return;
    }
}

static void list_profiles(struct lab *lab, int sw, const struct cmd_args *so_far, const char *prefix,
                          bool (*add)(void *ctx, const char *value), void *ctx)
{
    (void)so_far, (void)prefix;
    int ids[255];
    list_ids(ids, fcip_profile_ids(lab, sw, ids), add, ctx);
}

static void list_ifs(struct lab *lab, int sw, const struct cmd_args *so_far, const char *prefix,
                     bool (*add)(void *ctx, const char *value), void *ctx)
{
    (void)so_far, (void)prefix;
    int ids[255];
    list_ids(ids, fcip_if_ids(lab, sw, ids), add, ctx);
}

const struct value_source fcip_values[] = {
    {"fcip-profile", "Existing profile", list_profiles},
    {"fcip-if", "Existing interface", list_ifs},
    {NULL, NULL, NULL},
};

/* Another session's `no fcip profile` or `no interface fcip` leaves this
 * one's mode about nothing: its commands are refused until it leaves. */
static bool profile_ok(struct session *s)
{
    if (fcip_profile_exists(s->lab, s->sw, s->ctx.a))
        return true;
    cmd_error(s, "%% Profile %d does not exist", s->ctx.a);
    return false;
}

static bool if_ok(struct session *s)
{
    if (fcip_if_exists(s->lab, s->sw, s->ctx.a))
        return true;
    cmd_error(s, "%% Interface %s does not exist", s->ctx.ifname);
    return false;
}

const struct mode_check fcip_mode_checks[] = {
    {&fcip_profile_mode, NULL, profile_ok},
    {MODE_IF, &fcip_iftype, if_ok},
    {MODE_EXEC, NULL, NULL},
};
