/* FSPF seen from a switch: `fspf cost` on an interface, `show fspf`,
 * `show fspf interface`, `show fspf database`, `show topology` and
 * `fctrace`. Routing is the fabric's (backend/fabric/spf.c); the hellos
 * and neighbors are the FCIP links' (backend/fcip/fspf.c). Layouts and
 * choices: docs/fspf.md. */
#include "session.h"
#include "feature.h"
#include "ifname.h"
#include "lab/lab.h"
#include "fabric/fabric.h"
#include "fcip/fcip.h"
#include "fcip/fcip_engine.h"
#include "fcip/tunnel.h"
#include "fcip/fspf.h"
#include "interface/mgmt.h"
#include "ipnet/ip_text.h"
#include "vsan/vsan.h"
#include "fspf_conf.h"
#include "portchannel/portchannel.h"
#include "fabric/fabric_feature.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LINKS_MAX 512 /* an LSR's links shown: 255 fcip interfaces, twice over */
#define LS_REFRESH_S 1800u
#define RETRANSMIT_S 5u

struct fabric *fspf_fabric(struct session *s)
{
    lab_reconcile(s->lab);
    return fabric_of_lab(s->lab);
}

static void dom_text(int dom, char *buf, size_t n) { snprintf(buf, n, "0x%02x(%d)", dom, dom); }

static int by_ifindex(const void *a, const void *b)
{
    const struct fabric_link *x = a, *y = b;
    return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

/* sw's links in the VSAN, by interface: how many (at most LINKS_MAX). */
static int links_of(struct fabric *fab, int sw, int vsan, struct fabric_link *l)
{
    int n = fabric_lsr(fab, sw, vsan, l, LINKS_MAX);
    n = n < LINKS_MAX ? n : LINKS_MAX;
    qsort(l, (size_t)n, sizeof *l, by_ifindex);
    return n;
}

/* `fspf cost|hello-interval|dead-interval N vsan V` in interface mode;
 * the `no` forms whatever N. The dead interval must stay above the hello
 * interval, defaults counted [G: the guide says it must be greater]. */
static int cmd_if(struct session *s, const struct cmd_args *a)
{
    int vsan = (int)arg_num(a, "vid", 1), n = a->negated ? 0 : (int)arg_num(a, "n", 0);
    if (vsan == VSAN_EVFP || !vsan_exists(s->lab, s->sw, vsan))
        return cmd_error(s, "%% vsan %d is not configured", vsan);
    struct fspf_if_conf c;
    fspf_if_get(s->lab, s->sw, s->ctx.ifname, vsan, &c);
    if (arg_has(a, "cost"))
        c.cost = n;
    else if (arg_has(a, "hello-interval"))
        c.hello = n;
    else
        c.dead = n;
    if ((c.dead ? c.dead : FSPF_DEAD_S) <= (c.hello ? c.hello : FSPF_HELLO_S))
        return cmd_error(s, "%% Dead interval must be greater than hello interval");
    fspf_if_put(s->lab, s->sw, &c);
    return 0;
}

/* The VSANs a show covers: the one asked (which must be on the switch),
 * else every one the switch has. */
static int show_vsans(struct session *s, const struct cmd_args *a, struct fabric *fab, int *v, int max)
{
    int vsan = (int)arg_num(a, "vid", 0), n = 0;
    if (vsan) {
        if (!fabric_has_vsan(fab, s->sw, vsan))
            return cmd_error(s, "%% vsan %d is not configured", vsan);
        v[0] = vsan;
        return 1;
    }
    for (int id = 1; id <= VSAN_MAX_USER && n < max; id++)
        if (fabric_has_vsan(fab, s->sw, id))
            v[n++] = id;
    return n;
}

/* An LSR as FC-SW-4 §8.5 lays it out (header without its age, then each
 * link), for its checksum: Fletcher's, as FSPF's. */
static uint16_t lsr_checksum(int dom, uint32_t incarnation, const struct fabric_link *l, int n)
{
    uint32_t c0 = 0, c1 = 0;
    uint32_t words[4 + 4 * LINKS_MAX];
    int k = 0;
    words[k++] = 0x01000000u | (uint32_t)dom;
    words[k++] = incarnation;
    words[k++] = (uint32_t)dom;
    words[k++] = (uint32_t)n;
    for (int i = 0; i < n && i < LINKS_MAX; i++) {
        words[k++] = (uint32_t)l[i].peer_domain;
        words[k++] = l[i].ifindex;
        words[k++] = l[i].peer_ifindex;
        words[k++] = 0x01000000u | l[i].cost;
    }
    for (int i = 0; i < k; i++)
        for (int b = 3; b >= 0; b--) {
            c0 = (c0 + ((words[i] >> (8 * b)) & 0xffu)) % 255u;
            c1 = (c1 + c0) % 255u;
        }
    return (uint16_t)(c1 << 8 | c0);
}

/* A switch's LSR is its links now; it was last originated when one of
 * them changed, and again every LS_REFRESH_TIME since. */
static void show_lsr(struct session *s, struct fabric *fab, int sw, int vsan)
{
    static struct fabric_link l[LINKS_MAX];
    int n = links_of(fab, sw, vsan, l), dom = fabric_domain(fab, sw, vsan);
    struct fabric_lsr_stamp st;
    fabric_lsr_stamp(fab, sw, vsan, &st);
    uint64_t age = (lab_now(s->lab) - st.changed_ns) / ENGINE_NS_PER_SEC;
    uint32_t inc = 0x80000000u + st.changes + (uint32_t)(age / LS_REFRESH_S);
    char d[16];
    dom_text(dom, d, sizeof d);
    cmd_printf(s, "\nFSPF Link State Database for VSAN %d Domain %s\n", vsan, d);
    cmd_printf(s, "LSR Type                = 1\nAdvertising domain ID   = %s\n", d);
    cmd_printf(s, "LSR Age                 = %llu\n", (unsigned long long)(age % LS_REFRESH_S));
    cmd_printf(s, "LSR Incarnation number  = 0x%08x\n", inc);
    cmd_printf(s, "LSR Checksum            = 0x%04x\n", lsr_checksum(dom, inc, l, n));
    cmd_printf(s, "Number of links         = %d\n", n);
    cmd_printf(s, " NbrDomainId    IfIndex  NbrIfIndex  Link Type     Cost\n"
                  "-----------------------------------------------------------------------------\n");
    for (int i = 0; i < n; i++) {
        dom_text(l[i].peer_domain, d, sizeof d);
        cmd_printf(s, "%12s 0x%08x  0x%08x %10d %8u\n", d, l[i].ifindex, l[i].peer_ifindex, 1, l[i].cost);
    }
}

/* The LSRs the switch holds in each VSAN: its own and those of every
 * switch it reaches there, by domain. */
static int show_database(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fspf_fabric(s);
    int v[VSAN_MAX_USER], nv = show_vsans(s, a, fab, v, VSAN_MAX_USER), only = (int)arg_num(a, "dom", 0);
    for (int i = 0; i < nv; i++) {
        int sws[256], n = fabric_reachable(fab, s->sw, v[i], sws, 256);
        for (int dom = 1; dom <= 239; dom++)
            for (int k = 0; k < n; k++)
                if (fabric_domain(fab, sws[k], v[i]) == dom && (!only || only == dom))
                    show_lsr(s, fab, sws[k], v[i]);
    }
    return nv < 0 ? -1 : 0;
}

/* Hellos sent and heard on the switch's links in a VSAN. */
struct hello_count {
    int vsan;
    uint64_t in, out, errors;
};

static void count_if(void *ctx, const struct fcip_if_conf *c)
{
    struct hello_count *h = ((void **)ctx)[0];
    struct session *s = ((void **)ctx)[1];
    struct fcip_tunnel *t = fcip_live(s->lab, s->sw, c->id);
    struct fspf_nbr nb[64];
    int n = t ? fspf_link_nbrs(fcip_tunnel_fspf(t), nb, 64) : 0;
    for (int i = 0; i < n && i < 64; i++)
        if (nb[i].vsan == h->vsan) {
            h->in += nb[i].hellos_in;
            h->out += nb[i].hellos_out;
            h->errors += nb[i].errors;
        }
}

static int show_fspf(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fspf_fabric(s);
    int v[VSAN_MAX_USER], nv = show_vsans(s, a, fab, v, VSAN_MAX_USER);
    for (int i = 0; i < nv; i++) {
        int sws[256], dom = fabric_domain(fab, s->sw, v[i]);
        int nlsr = fabric_reachable(fab, s->sw, v[i], sws, 256);
        struct hello_count h = {v[i], 0, 0, 0};
        void *ctx[2] = {&h, s};
        if (lab_feature_enabled(s->lab, s->sw, &fcip_gate))
            fcip_ifs_each(s->lab, s->sw, count_if, ctx);
        cmd_printf(s, "%sFSPF routing for VSAN %d\n", i ? "\n" : "", v[i]);
        cmd_printf(s, "FSPF routing administration status is enabled\n"
                      "FSPF routing operational status is UP\n"
                      "It is an intra-domain router\nAutonomous region is 0\n"
                      "MinLsArrival = 1000 msec , MinLsInterval = 2000 msec\n");
        cmd_printf(s, "Local Domain is 0x%02x(%d)\nNumber of LSRs = %d\n", dom, dom, nlsr);
        cmd_printf(s, "\nProtocol constants :\n     LS_REFRESH_TIME = 30 minutes (1800 sec)\n"
                      "     MAX_AGE         = 60 minutes (3600 sec)\n");
        cmd_printf(s, "\nStatistics counters :\n"
                      "     Number of Transmitted packets : LSU 0 LSA 0 Hello %llu Retranmsitted LSU 0\n"
                      "     Number of received packets : LSU 0 LSA 0 Hello %llu Error packets %llu\n",
                   (unsigned long long)h.out, (unsigned long long)h.in, (unsigned long long)h.errors);
    }
    return nv < 0 ? -1 : 0;
}

/* `show fspf interface`: each FCIP link up, per VSAN it carries. */
struct if_show {
    struct session *s;
    struct fabric *fab;
    int vsan, id;                       /* 0: all */
    bool channel_shown[PC_ID_MAX + 1]; /* port-channels listed already */
};

static void show_if_vsan(struct if_show *x, const char *ifname, const struct fspf_nbr *nb)
{
    struct session *s = x->s;
    static struct fabric_link l[LINKS_MAX];
    int n = fabric_lsr(x->fab, s->sw, nb->vsan, l, LINKS_MAX);
    uint32_t cost = fabric_if_cost(x->fab, s->sw, ifname, nb->vsan), nbr_if = 0;
    for (int i = 0; i < n && i < LINKS_MAX; i++)
        if (strcmp(l[i].ifname, ifname) == 0)
            nbr_if = l[i].peer_ifindex;
    static const char *const state[] = {"DOWN", "INIT", "FULL"};
    enum fspf_nbr_state ns = fspf_nbr_state(nb, lab_now(s->lab));
    cmd_printf(s, "\nFSPF interface %s in VSAN %d\nFSPF routing administrative state is active\n", ifname, nb->vsan);
    cmd_printf(s, "Interface cost is %u\n", cost);
    struct fabric_if_fspf conf;
    fabric_if_fspf_get(x->fab, s->sw, ifname, nb->vsan, &conf);
    cmd_printf(s, "Timer intervals configured, Hello %u s, Dead %u s, Retransmit %u s\n", conf.hello_s, conf.dead_s,
               RETRANSMIT_S);
    cmd_printf(s, "FSPF State is %s\n", state[ns]);
    if (ns != FSPF_NBR_DOWN)
        cmd_printf(s, "Neighbor Domain Id is 0x%02x(%d), Neighbor Interface index is 0x%08x\n", nb->nbr_domain,
                   nb->nbr_domain, nbr_if);
    cmd_printf(s, "\nStatistics counters :\n"
                  "     Number of packets received : LSU 0 LSA 0 Hello %llu Error packets %llu\n"
                  "     Number of packets transmitted : LSU 0 LSA 0 Hello %llu Retransmitted LSU 0\n",
               (unsigned long long)nb->hellos_in, (unsigned long long)nb->errors, (unsigned long long)nb->hellos_out);
}

/* A port-channel's members make one FSPF interface, the channel's: it is
 * listed once, under its name and cost, from the first member with
 * neighbors; a member asked for by name has none of its own. */
static void show_if_one(void *ctx, const struct fcip_if_conf *c)
{
    struct if_show *x = ctx;
    if (x->id && c->id != x->id)
        return;
    int ch = pc_channel_of(x->s->lab, x->s->sw, c->id);
    if (ch && (x->id || x->channel_shown[ch]))
        return;
    struct fcip_tunnel *t = fcip_live(x->s->lab, x->s->sw, c->id);
    struct fspf_nbr nb[FABRIC_VSAN_MAX];
    int n = t ? fspf_link_nbrs(fcip_tunnel_fspf(t), nb, FABRIC_VSAN_MAX) : 0;
    char ifname[24];
    if (ch)
        snprintf(ifname, sizeof ifname, "port-channel%d", ch);
    else
        snprintf(ifname, sizeof ifname, "fcip%d", c->id);
    x->channel_shown[ch] = ch && n;
    for (int i = 0; i < n && i < FABRIC_VSAN_MAX; i++)
        if (!x->vsan || nb[i].vsan == x->vsan)
            show_if_vsan(x, ifname, &nb[i]);
}

static int show_interface(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fspf_fabric(s);
    struct if_show x = {.s = s, .fab = fab, .vsan = (int)arg_num(a, "vid", 0), .id = (int)arg_num(a, "id", 0)};
    if (x.vsan && !fabric_has_vsan(fab, s->sw, x.vsan))
        return cmd_error(s, "%% vsan %d is not configured", x.vsan);
    if (x.id && (!lab_feature_enabled(s->lab, s->sw, &fcip_gate) || !fcip_if_get(s->lab, s->sw, x.id, &(struct fcip_if_conf){0})))
        return cmd_error(s, "%% Interface fcip%d does not exist", x.id);
    if (lab_feature_enabled(s->lab, s->sw, &fcip_gate))
        fcip_ifs_each(s->lab, s->sw, show_if_one, &x);
    return 0;
}

/* `show topology`: the switch's neighbors per VSAN. The peer's address is
 * its management address, as on the switch (0.0.0.0 without one). */
static int show_topology(struct session *s, const struct cmd_args *a)
{
    struct fabric *fab = fspf_fabric(s);
    int v[VSAN_MAX_USER], nv = show_vsans(s, a, fab, v, VSAN_MAX_USER);
    static struct fabric_link l[LINKS_MAX];
    const char *rule = "--------------------------------------------------------------------------------\n";
    for (int i = 0; i < nv; i++) {
        int n = links_of(fab, s->sw, v[i], l);
        if (!n)
            continue;
        cmd_printf(s, "\nFC Topology for VSAN %d :\n%s       Interface  Peer Domain Peer Interface     Peer IP "
                      "Address(Switch Name)\n%s",
                   v[i], rule, rule);
        for (int k = 0; k < n; k++) {
            char d[16], ip[16];
            uint32_t addr = 0, mask;
            if (!mgmt_get(s->lab, l[k].peer_sw, &addr, &mask))
                addr = 0;
            ip_text(addr, ip, sizeof ip);
            dom_text(l[k].peer_domain, d, sizeof d);
            cmd_printf(s, "%16s  %-11s %14s  %s(%s)\n", l[k].ifname, d, l[k].peer_ifname, ip,
                       lab_hostname(s->lab, l[k].peer_sw));
        }
    }
    return nv < 0 ? -1 : 0;
}

#define VSAN_HELP "vsan: Only one VSAN\nvid: VSAN id\n"
#define FCTRACE_HELP                                                                                               \
    "fctrace: Trace the route to an N port\nfcid: Destination FCID\nid: FCID in hex (0xhhhhhh)\npwwn: "            \
    "Destination port WWN\nwwn: Port WWN\nvsan: VSAN of the destination\nvid: VSAN id\ntimeout: Seconds to "      \
    "wait for each answer\nseconds: Seconds to wait for each answer"
#define IF_HELP                                                                                                    \
    "fspf: Configure FSPF on the interface\ncost: Cost of the interface's link\nhello-interval: Seconds between "   \
    "hellos\ndead-interval: Seconds without a hello before the neighbor is down\nn: Enter the value\n" VSAN_HELP

const struct cmd_def fspf_cmds[] = {
#define FSPF_IF(syntax) {MODES(MODE_IF), syntax, IF_HELP, cmd_if, 0, &fcip_gate, &fcip_iftype}
    FSPF_IF("fspf {cost <n:1-65535> | hello-interval <n:1-65535> | dead-interval <n:2-65535>} vsan <vid:1-4093>"),
    FSPF_IF("no fspf {cost [<n:1-65535>] | hello-interval [<n:1-65535>] | dead-interval [<n:2-65535>]} vsan "
            "<vid:1-4093>"),
    {MODES(MODE_EXEC), "show fspf [vsan <vid:1-4093>]", "fspf: Display FSPF information\n" VSAN_HELP, show_fspf, CMD_PIPE, 0,
     0},
    {MODES(MODE_EXEC), "show fspf database [vsan <vid:1-4093>] [domain <dom:1-239>]",
     "fspf: Display FSPF information\ndatabase: The link state records\n" VSAN_HELP
     "domain: Only one domain's record\ndom: Domain id",
     show_database, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show fspf interface [fcip <id:1-255@fcip-if>] [vsan <vid:1-4093>]",
     "fspf: Display FSPF information\ninterface: FSPF on the interfaces\nfcip: FCIP interface\nid: Interface "
     "number\n" VSAN_HELP,
     show_interface, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show topology [vsan <vid:1-4093>]", "topology: Display the switch's neighbors per VSAN\n" VSAN_HELP,
     show_topology, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "fctrace {fcid <id:word> | pwwn <wwn:wwn>} vsan <vid:1-4093> [timeout <seconds:1-10>]",
     FCTRACE_HELP, fspf_fctrace, CMD_PIPE, 0, 0},
    {0},
};
