/* A lab host's shell (docs/hosts.md): netperf, netserver, ping, ip,
 * ifconfig, in host_mode. Options are parsed as the tools parse them,
 * with the tools' own errors; the grammar gives `?`, Tab and bash's
 * "command not found". */
#include "feature.h"
#include "host.h"
#include "ipnet/ip_text.h"
#include "lab/lab.h"
#include "session.h"
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_WORDS = 32, OPT_LEN = 64 };

/* The words of an option string, at most OPT_WORDS of OPT_LEN - 1 bytes. */
struct optv {
    char w[OPT_WORDS][OPT_LEN];
    int n;
};

static bool split_opts(const char *line, struct optv *o)
{
    o->n = 0;
    while (line && *line) {
        line += strspn(line, " \t");
        size_t n = strcspn(line, " \t");
        if (!n)
            break;
        if (o->n == OPT_WORDS || n >= OPT_LEN)
            return false;
        memcpy(o->w[o->n], line, n);
        o->w[o->n++][n] = '\0';
        line += n;
    }
    return true;
}

static int host_index(struct session *s) { return s->sw - lab_switch_count(s->lab); }

/* A whole number within lo..hi, as strtoul reads it; false otherwise. */
static bool number(const char *w, unsigned long lo, unsigned long hi, unsigned long *v)
{
    if (!isdigit((unsigned char)*w) || strlen(w) > 10)
        return false;
    char *end;
    *v = strtoul(w, &end, 10);
    return *end == '\0' && *v >= lo && *v <= hi;
}

/* An option's value: glued (-H10.0.0.1) or the next word. */
static const char *opt_value(const struct optv *o, int *i)
{
    if (o->w[*i][2])
        return o->w[*i] + 2;
    return *i + 1 < o->n ? o->w[++*i] : NULL;
}

/* ---- netperf -------------------------------------------------------------- */

struct np_cmd {
    struct netperf_conf c;
    char host[OPT_LEN];
    bool cpu_local, cpu_remote;
};

static const char *const test_names[] = {"TCP_STREAM", "TCP_RR", "UDP_RR"};
static const char *const test_titles[] = {"MIGRATED TCP STREAM TEST", "MIGRATED TCP REQUEST/RESPONSE TEST",
                                          "MIGRATED UDP REQUEST/RESPONSE TEST"};

/* A socket buffer size: bytes, or with K/M (netperf's units of 1024). */
static bool sock_size(const char *w, uint32_t *v)
{
    char buf[OPT_LEN];
    snprintf(buf, sizeof buf, "%s", w);
    size_t n = strlen(buf);
    unsigned long mul = 1, x;
    if (n && (buf[n - 1] == 'K' || buf[n - 1] == 'k'))
        mul = 1024, buf[n - 1] = '\0';
    else if (n && (buf[n - 1] == 'M' || buf[n - 1] == 'm'))
        mul = 1024 * 1024, buf[n - 1] = '\0';
    if (!number(buf, 1, HOST_SOCKBUF_MAX, &x) || x * mul < HOST_SOCKBUF_MIN || x * mul > HOST_SOCKBUF_MAX)
        return false;
    *v = (uint32_t)(x * mul);
    return true;
}

/* The test-specific options, after `--`. */
static int test_opts(struct session *s, const struct optv *o, int i, struct np_cmd *np)
{
    for (; i < o->n; i++) {
        const char *w = o->w[i], *v;
        unsigned long x, y;
        if (w[0] != '-' || !w[1] || !strchr("mrsS", w[1]))
            return cmd_error(s, "netperf: invalid test-specific option '%s' (mdsim knows -m, -r, -s, -S)", w);
        if (!(v = opt_value(o, &i)))
            return cmd_error(s, "netperf: option requires an argument -- '%c'", w[1]);
        if (w[1] == 'm') {
            if (!number(v, 1, 1048576, &x))
                return cmd_error(s, "netperf: -m %s: a send size of 1 to 1048576 bytes", v);
            np->c.send_size = (uint32_t)x;
        } else if (w[1] == 'r') {
            char a[OPT_LEN], *comma;
            snprintf(a, sizeof a, "%s", v);
            comma = strchr(a, ',');
            if (comma)
                *comma++ = '\0';
            if (!number(a, 1, 65536, &x) || (comma && !number(comma, 1, 65536, &y)))
                return cmd_error(s, "netperf: -r %s: request,response sizes of 1 to 65536 bytes", v);
            np->c.req = (uint32_t)x;
            np->c.resp = comma ? (uint32_t)y : (uint32_t)x;
        } else if (!sock_size(v, w[1] == 's' ? &np->c.lsock : &np->c.rsock)) {
            return cmd_error(s, "netperf: -%c %s: a socket buffer of %u to %u bytes", w[1], v, HOST_SOCKBUF_MIN,
                             HOST_SOCKBUF_MAX);
        }
    }
    return 0;
}

static int netperf_opts(struct session *s, const char *line, struct np_cmd *np)
{
    struct optv o;
    if (!split_opts(line, &o))
        return cmd_error(s, "netperf: too many or too long arguments");
    np->c.port = NETPERF_PORT;
    np->c.len_ns = 10 * ENGINE_NS_PER_SEC;
    snprintf(np->host, sizeof np->host, "localhost");
    for (int i = 0; i < o.n; i++) {
        const char *w = o.w[i], *v;
        unsigned long x;
        if (strcmp(w, "--") == 0)
            return test_opts(s, &o, i + 1, np);
        if (w[0] != '-' || !w[1])
            return cmd_error(s, "netperf: extra argument '%s'", w);
        if (w[1] == 'c' || w[1] == 'C') {
            if (w[2])
                return cmd_error(s, "netperf: invalid option -- '%s'", w + 1);
            *(w[1] == 'c' ? &np->cpu_local : &np->cpu_remote) = true;
            continue;
        }
        if (!strchr("HltpP", w[1]))
            return cmd_error(s, "netperf: invalid option -- '%c'", w[1]);
        if (!(v = opt_value(&o, &i)))
            return cmd_error(s, "netperf: option requires an argument -- '%c'", w[1]);
        if (w[1] == 'H') {
            snprintf(np->host, sizeof np->host, "%s", v);
        } else if (w[1] == 'l') {
            if (!number(v, 1, 3600, &x))
                return cmd_error(s, "netperf: -l %s: a test length of 1 to 3600 seconds", v);
            np->c.len_ns = x * ENGINE_NS_PER_SEC;
        } else if (w[1] == 'p') {
            if (!number(v, 1, 65535, &x))
                return cmd_error(s, "netperf: -p %s: a port of 1 to 65535", v);
            np->c.port = (uint16_t)x;
        } else if (w[1] == 'P') {
            if (strcmp(v, "1") != 0)
                return cmd_error(s, "netperf: -P %s: mdsim prints the banner (-P 1)", v);
        } else {
            size_t k = 0;
            while (k < 3 && strcasecmp(v, test_names[k]) != 0)
                k++;
            if (k == 3)
                return cmd_error(s, "netperf: invalid test type '%s' (mdsim runs TCP_STREAM, TCP_RR, UDP_RR)", v);
            np->c.test = (enum netperf_test)k;
        }
    }
    return 0;
}

/* What netperf's -H names: an address, or a lab host (as /etc/hosts would). */
static bool resolve(struct session *s, const char *name, uint32_t *ip)
{
    if (strcmp(name, "localhost") == 0) {
        *ip = 0x7f000001u;
        return true;
    }
    return ip_parse(name, ip) || (*ip = host_address_of(s->lab, name)) != 0;
}

static void print_cpu_fields(struct session *s, bool rr)
{
    cmd_printf(s, rr ? "%-6.2f %-6.2f %-6.3f  %-6.3f \n" : "%-6.2f   %-6.2f   %-6.3f  %-6.3f \n", -1.0, -1.0,
               -1.0, -1.0);
}

/* netperf 2.7's report (src/nettest_bsd.c, nettest_omni.c), verbosity 1. */
static void report(struct session *s, const struct np_cmd *np, const struct netperf_result *r)
{
    char from[16];
    ip_text(r->local_ip, from, sizeof from);
    double secs = (double)r->elapsed_ns / 1e9;
    bool cpu = np->cpu_local || np->cpu_remote, rr = np->c.test != NETPERF_TCP_STREAM;
    cmd_printf(s, "%s from 0.0.0.0 (0.0.0.0) port 0 AF_INET to %s () port 0 AF_INET%s\n", test_titles[np->c.test],
               np->host, rr ? " : first burst 0" : "");
    if (!rr && !cpu) {
        cmd_printf(s, "Recv   Send    Send                          \nSocket Socket  Message  Elapsed              \n"
                      "Size   Size    Size     Time     Throughput  \nbytes  bytes   bytes    secs.    10^6bits/sec  \n\n");
        cmd_printf(s, "%6u %6u %6u    %-6.2f   %7.2f   \n", r->rsr, r->lss, r->send_size, secs,
                   secs > 0 ? (double)r->bytes * 8 / 1e6 / secs : 0.0);
    } else if (!rr) {
        cmd_printf(s, "Recv   Send    Send                          Utilization       Service Demand\n"
                      "Socket Socket  Message  Elapsed              Send     Recv     Send    Recv\n"
                      "Size   Size    Size     Time     Throughput  local    remote   local   remote\n"
                      "bytes  bytes   bytes    secs.    10^6bits/s  %% U      %% U      us/KB   us/KB\n\n");
        cmd_printf(s, "%6u %6u %6u    %-6.2f     %7.2f   ", r->rsr, r->lss, r->send_size, secs,
                   secs > 0 ? (double)r->bytes * 8 / 1e6 / secs : 0.0);
        print_cpu_fields(s, false);
    } else {
        double rate = secs > 0 ? (double)r->transactions / secs : 0.0;
        if (cpu) {
            cmd_printf(s, "Local /Remote\nSocket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   S.dem\n"
                          "Send   Recv   Size    Size   Time    Rate     local  remote local   remote\n"
                          "bytes  bytes  bytes   bytes  secs.   per sec  %% U    %% U    us/Tr   us/Tr\n\n");
            cmd_printf(s, "%-6u %-6u %-6u  %-6u %-6.2f  %-6.2f  ", r->lss, r->lsr, r->req, r->resp, secs, rate);
            print_cpu_fields(s, true);
        } else {
            cmd_printf(s, "Local /Remote\nSocket Size   Request  Resp.   Elapsed  Trans.\n"
                          "Send   Recv   Size     Size    Time     Rate         \n"
                          "bytes  Bytes  bytes    bytes   secs.    per sec   \n\n");
            cmd_printf(s, "%-6u %-6u %-6u   %-6u  %-6.2f   %7.2f   \n", r->lss, r->lsr, r->req, r->resp, secs, rate);
        }
        cmd_printf(s, "%-6u %-6u\n", r->rss, r->rsr);
    }
}

/* netperf's two lines, longer than an error line: the first is the
 * failure replay names. */
static int control_failed(struct session *s, const struct np_cmd *np)
{
    cmd_printf(s, "establish control: are you sure there is a netserver listening on %s at port %u?\n", np->host,
               np->c.port);
    cmd_printf(s, "establish_control could not establish the control connection from 0.0.0.0 port 0 address"
                  " family AF_UNSPEC to %s port %u address family AF_UNSPEC\n", np->host, np->c.port);
    snprintf(s->last_error, sizeof s->last_error,
             "establish control: are you sure there is a netserver listening on %.40s at port %u?", np->host, np->c.port);
    return -1;
}

enum { SLICE_NS = 100000000 };

/* Runs the test on lab time, a slice at a time on a real-time lab so
 * that Ctrl-C stops it and other sessions take turns. */
static bool wait_test(struct session *s, struct netperf *np, struct netperf_result *r)
{
    uint64_t deadline = netperf_deadline(np);
    while (!netperf_done(np, r)) {
        uint64_t now = lab_now(s->lab), t = lab_realtime(s->lab) ? now + SLICE_NS : deadline;
        if (t > deadline)
            t = deadline;
        if (!cmd_wait_until(s, t) || lab_now(s->lab) >= deadline)
            return netperf_done(np, r);
    }
    return true;
}

static int cmd_netperf(struct session *s, const struct cmd_args *a)
{
    struct np_cmd np = {0};
    if (netperf_opts(s, arg_has(a, "options") ? arg_str(a, "options") : "", &np) < 0)
        return -1;
    struct hostnet *hn = host_engine(s->lab);
    if (!resolve(s, np.host, &np.c.remote))
        return cmd_error(s, "netperf: could not resolve host '%s'", np.host);
    np.c.host = host_index(s);
    s->no_more = true;
    struct netperf_result r = {0};
    struct netperf *run = np.c.remote == 0x7f000001u ? NULL : netperf_start(hn, &np.c, &r);
    if (!run)
        return control_failed(s, &np);
    bool done = wait_test(s, run, &r);
    netperf_free(run);
    if (!done) /* Ctrl-C, or the lab's clock ran out */
        return cmd_error(s, "netperf: interrupted");
    if (r.error == NETPERF_REFUSED || r.error == NETPERF_TIMEOUT || r.error == NETPERF_UNREACHABLE)
        return control_failed(s, &np);
    if (r.error)
        return cmd_error(s, "netperf: the test's connection failed (send_data: data send error)");
    report(s, &np, &r);
    return 0;
}

/* ---- netserver, ping, ip, ifconfig ---------------------------------------- */

static int cmd_netserver(struct session *s, const struct cmd_args *a)
{
    struct optv o;
    unsigned long port = NETPERF_PORT;
    if (!split_opts(arg_has(a, "options") ? arg_str(a, "options") : "", &o))
        return cmd_error(s, "netserver: too many or too long arguments");
    for (int i = 0; i < o.n; i++) {
        const char *v;
        if (o.w[i][0] != '-' || o.w[i][1] != 'p')
            return cmd_error(s, "netserver: invalid option -- '%s' (mdsim knows -p PORT)", o.w[i] + (o.w[i][0] == '-'));
        if (!(v = opt_value(&o, &i)) || !number(v, 1, 65535, &port))
            return cmd_error(s, "netserver: -p needs a port of 1 to 65535");
    }
    struct hostnet *hn = host_engine(s->lab);
    uint16_t running = hn ? hostnet_netserver_port(hn, host_index(s)) : 0;
    if (running && running != port) /* mdsim's bound, not netserver's */
        return cmd_error(s, "netserver: one netserver a host, and %s's listens on port %u", lab_hostname(s->lab, s->sw),
                         running);
    if (!hn || !hostnet_netserver(hn, host_index(s), (uint16_t)port))
        return cmd_error(s, "Unable to start netserver with  'IN(6)ADDR_ANY' port '%lu' and family AF_UNSPEC", port);
    cmd_printf(s, "Starting netserver with host 'IN(6)ADDR_ANY' port '%lu' and family AF_UNSPEC\n", port);
    return 0;
}

static const char *link_flags(struct session *s, int eth)
{
    return ipnet_link_state(lab_ipnet(s->lab), lab_switch_count(s->lab) + host_index(s), 1, eth + 1) == IPNET_UP
               ? "UP"
               : "NO-CARRIER";
}

static int prefix_len(uint32_t mask) { return __builtin_popcount(mask); }

static int cmd_ip_addr(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct host_port_row p[HOSTNET_PORTS];
    int n = host_ports(s->lab, host_index(s), p);
    cmd_printf(s, "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n"
                  "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n"
                  "    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n");
    for (int i = 0; i < n; i++) {
        char ip[16], brd[16];
        bool up = strcmp(link_flags(s, p[i].eth), "UP") == 0;
        ip_text(p[i].ip, ip, sizeof ip);
        ip_text(p[i].ip | ~p[i].mask, brd, sizeof brd);
        cmd_printf(s, "%d: eth%d: <%sBROADCAST,MULTICAST,UP%s> mtu %u qdisc mq state %s group default qlen 1000\n",
                   i + 2, p[i].eth, up ? "" : "NO-CARRIER,", up ? ",LOWER_UP" : "", p[i].mtu, up ? "UP" : "DOWN");
        uint8_t m[6];
        hostnet_mac(host_index(s), p[i].eth, m);
        cmd_printf(s, "    link/ether %02x:%02x:%02x:%02x:%02x:%02x brd ff:ff:ff:ff:ff:ff\n", m[0], m[1], m[2], m[3],
                   m[4], m[5]);
        cmd_printf(s, "    inet %s/%d brd %s scope global eth%d\n       valid_lft forever preferred_lft forever\n", ip,
                   prefix_len(p[i].mask), brd, p[i].eth);
    }
    return 0;
}

static int cmd_ip_route(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct host_port_row p[HOSTNET_PORTS];
    int n = host_ports(s->lab, host_index(s), p);
    char x[16], y[16];
    for (int i = 0; i < n; i++)
        if (p[i].gateway) {
            ip_text(p[i].gateway, x, sizeof x);
            cmd_printf(s, "default via %s dev eth%d\n", x, p[i].eth);
        }
    for (int i = 0; i < n; i++) {
        ip_text(p[i].ip & p[i].mask, x, sizeof x);
        ip_text(p[i].ip, y, sizeof y);
        cmd_printf(s, "%s/%d dev eth%d proto kernel scope link src %s\n", x, prefix_len(p[i].mask), p[i].eth, y);
    }
    return 0;
}

static int cmd_ifconfig(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct host_port_row p[HOSTNET_PORTS];
    int n = host_ports(s->lab, host_index(s), p), node = lab_switch_count(s->lab) + host_index(s);
    for (int i = 0; i < n; i++) {
        char ip[16], mask[16], brd[16];
        bool up = strcmp(link_flags(s, p[i].eth), "UP") == 0;
        struct ipnet_port_stats st;
        ipnet_port_stats(lab_ipnet(s->lab), node, 1, p[i].eth + 1, &st);
        ip_text(p[i].ip, ip, sizeof ip);
        ip_text(p[i].mask, mask, sizeof mask);
        ip_text(p[i].ip | ~p[i].mask, brd, sizeof brd);
        cmd_printf(s, "eth%d: flags=%d<UP,BROADCAST%s,MULTICAST>  mtu %u\n", p[i].eth, up ? 4163 : 4099,
                   up ? ",RUNNING" : "", p[i].mtu);
        cmd_printf(s, "        inet %s  netmask %s  broadcast %s\n", ip, mask, brd);
        uint8_t m[6];
        hostnet_mac(host_index(s), p[i].eth, m);
        cmd_printf(s, "        ether %02x:%02x:%02x:%02x:%02x:%02x  txqueuelen 1000  (Ethernet)\n", m[0], m[1], m[2], m[3],
                   m[4], m[5]);
        cmd_printf(s, "        RX packets %llu  bytes %llu\n", (unsigned long long)st.in_pkts,
                   (unsigned long long)st.in_bytes);
        cmd_printf(s, "        TX packets %llu  bytes %llu\n\n", (unsigned long long)st.out_pkts,
                   (unsigned long long)st.out_bytes);
    }
    return 0;
}

static int cmd_hostname(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "%s\n", lab_hostname(s->lab, s->sw));
    return 0;
}

static int cmd_sleep(struct session *s, const struct cmd_args *a)
{
    uint64_t t = lab_now(s->lab) + (uint64_t)arg_num(a, "seconds", 1) * ENGINE_NS_PER_SEC;
    return cmd_wait_until(s, t) ? 0 : cmd_error(s, "^C");
}

static int cmd_logout(struct session *s, const struct cmd_args *a)
{
    (void)a;
    s->closed = true;
    return 0;
}

const struct cmd_def host_cmds[] = {
    {MODES(&host_mode), "netperf [<options:line>]",
     "netperf: Network benchmark against a netserver (netperf 2.7)\n"
     "options: -H host [-l secs] [-t TCP_STREAM|TCP_RR|UDP_RR] [-c] [-C] [-p port] [-- -m bytes -r req,resp -s bytes"
     " -S bytes]",
     cmd_netperf, CMD_PIPE, 0, 0},
    {MODES(&host_mode), "netserver [<options:line>]",
     "netserver: Start netperf's server (control port 12865)\noptions: [-p port]", cmd_netserver, 0, 0, 0},
    {MODES(&host_mode), "ping [<options:line>]",
     "ping: Send ICMP echo requests (iputils)\noptions: [-c count] [-s bytes] [-W secs] destination", host_cmd_ping,
     CMD_PIPE, 0, 0},
    {MODES(&host_mode), "ip address [show]", "ip: Show or manipulate routing and devices\naddress: Protocol addresses\nshow: Show them",
     cmd_ip_addr, CMD_PIPE, 0, 0},
    {MODES(&host_mode), "ip route [show]", "ip: Show or manipulate routing and devices\nroute: The routing table\nshow: Show it",
     cmd_ip_route, CMD_PIPE, 0, 0},
    {MODES(&host_mode), "ifconfig", "ifconfig: Network interfaces and their counters", cmd_ifconfig, CMD_PIPE, 0, 0},
    {MODES(&host_mode), "hostname", "hostname: The host's name", cmd_hostname, CMD_PIPE, 0, 0},
    {MODES(&host_mode), "sleep <seconds:1-86400>", "sleep: Wait, on lab time\nseconds: Seconds", cmd_sleep, 0, 0, 0},
    {MODES(&host_mode), "exit", "exit: Leave the shell", cmd_logout, 0, 0, 0},
    {MODES(&host_mode), "logout", "logout: Leave the shell", cmd_logout, 0, 0, 0},
    {0},
};
