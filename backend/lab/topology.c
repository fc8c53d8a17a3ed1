/* Reading lab files into the store, printing them back, factory reset. */
#include "topology.h"
#include "catalog.h"
#include "lab.h"
#include "match.h"
#include "ifname.h"
#include "store/store.h"
#include "config/running.h"
#include "session.h"
#include "strbuf.h"
#include "array/array.h"
#include "fabric/fabric.h"
#include "interface/ge.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum {
    MAX_SLOTS = 13,    /* as `module <slot:1-13>` */
    MAX_SWITCHES = 64, /* what `mdsim serve` can serve (a port pair each) */
    TEXT_MAX = 1 << 20,  /* bytes: 64 switches and every cable take ~300 KB */
    CONFIG_MAX = 1 << 18 /* bytes of one switch's starting configuration */
};

/* A switch's starting configuration is kept in lab_meta under this key and
 * its switch id: the lab's definition, which the switch's own
 * startup_config row (what `copy running-config startup-config` changes)
 * is reset to. */
#define CONFIG_KEY "config:"

struct tswitch {
    char name[33];
    const struct chassis_model *ch;
    const struct module_model *mod[MAX_SLOTS + 1]; /* by slot */
    int mod_line[MAX_SLOTS + 1];
    int line;
    int conf_line; /* its `config` line, 0 when it has none */
    strbuf conf;   /* the lines of its block, as written */
};

struct tport { /* a cabled port */
    int sw, slot, port, line;
};

enum { MAX_ROUTERS = 64, ROUTER_PORTS = 8, ROUTER_ROUTES = 64 }; /* as the data plane's */

struct trouter {
    char name[33];
    int line;
    int port_line[ROUTER_PORTS + 1]; /* 0: not declared */
    uint32_t ip[ROUTER_PORTS + 1], mask[ROUTER_PORTS + 1];
    int cable_line[ROUTER_PORTS + 1]; /* 0: not cabled */
    int nroutes;
};

enum { MAX_HOSTS = 64, HOST_PORTS = 4 }; /* as the data plane's (backend/host) */

struct thost {
    char name[33];
    int line;
    int port_line[HOST_PORTS]; /* eth0..: 0 not declared */
    uint32_t ip[HOST_PORTS], mask[HOST_PORTS];
    int cable_line[HOST_PORTS];
    int gw_line;
};

/* The storage array declared last: its host, disks and drives so far. */
struct tarray {
    int host; /* its host id (1..), 0: none */
    int disks, used, nld, fc_line;
    char ld[16][31];
};

/* A lab being built: what the lines so far declared, and where. */
struct topo {
    sqlite3 *db;
    const char *file;
    int line;
    char *err;
    size_t errlen;
    struct tswitch *sw;
    int nsw, capsw;
    struct tport *ports;
    int nports, capports;
    int nlinks;
    long long seed;
    int seed_line;
    int block; /* the switch whose `config` block is open, -1 when none */
    struct trouter *rt;
    int nrt;
    struct thost *ho;
    int nho;
    char last; /* 'r' a router, 'h' a host: whose `interface` lines follow */
    struct tarray arr; /* the storage array declared last (docs/array.md) */
};

static int topo_error(struct topo *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int topo_error(struct topo *t, const char *fmt, ...)
{
    int n = snprintf(t->err, t->errlen, "%s:%d: ", t->file, t->line);
    if (n >= 0 && (size_t)n < t->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->err + n, t->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Runs one INSERT with text and integer parameters: 'i' int, 's' text. */
static int db_insert(struct topo *t, const char *sql, const char *types, ...)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) != SQLITE_OK)
        return topo_error(t, "store: %s", sqlite3_errmsg(t->db));
    va_list ap;
    va_start(ap, types);
    for (int i = 0; types[i]; i++) {
        if (types[i] == 'i')
            sqlite3_bind_int64(st, i + 1, va_arg(ap, long long));
        else
            sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
    }
    va_end(ap);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return topo_error(t, "store: %s", sqlite3_errmsg(t->db));
    return 0;
}

static int find_switch(const struct topo *t, const char *name)
{
    for (int i = 0; i < t->nsw; i++)
        if (strcasecmp(t->sw[i].name, name) == 0)
            return i;
    return -1;
}

static int on_seed(struct topo *t, const struct cmd_args *a)
{
    if (t->seed_line)
        return topo_error(t, "seed already given at line %d", t->seed_line);
    t->seed = arg_num(a, "n", 1);
    t->seed_line = t->line;
    return 0;
}

/* The rules of `switchname`, so that the factory host name is valid. */
static const char *bad_name(const char *name)
{
    if (strlen(name) > 32)
        return "longer than 32 characters";
    if (!isalpha((unsigned char)name[0]))
        return "not starting with a letter";
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            return "with a character other than a letter, digit, - or _";
    return NULL;
}

static int find_router(const struct topo *t, const char *name)
{
    for (int i = 0; i < t->nrt; i++)
        if (strcasecmp(t->rt[i].name, name) == 0)
            return i;
    return -1;
}

static int find_host(const struct topo *t, const char *name)
{
    for (int i = 0; i < t->nho; i++)
        if (strcasecmp(t->ho[i].name, name) == 0)
            return i;
    return -1;
}

/* A name a switch, a router or a host already has, for the error. */
static int name_taken(struct topo *t, const char *name)
{
    int sw = find_switch(t, name), r = find_router(t, name), h = find_host(t, name);
    if (h >= 0)
        return topo_error(t, "host %s already declared at line %d", t->ho[h].name, t->ho[h].line);
    if (sw >= 0)
        return topo_error(t, "switch %s already declared at line %d", t->sw[sw].name, t->sw[sw].line);
    if (r >= 0)
        return topo_error(t, "router %s already declared at line %d", t->rt[r].name, t->rt[r].line);
    return 0;
}

static int on_switch(struct topo *t, const struct cmd_args *a)
{
    const char *name = arg_str(a, "name"), *model = arg_str(a, "model"), *why = bad_name(name);
    if (why)
        return topo_error(t, "bad switch name '%s': %s", name, why);
    if (name_taken(t, name) < 0)
        return -1;
    const struct chassis_model *ch = catalog_chassis(model);
    if (!ch)
        return topo_error(t, "unknown chassis '%s'", model);
    if (t->nsw == MAX_SWITCHES)
        return topo_error(t, "more than %d switches in one lab (mdsim serve serves at most %d)", MAX_SWITCHES,
                          MAX_SWITCHES);
    if (t->nsw == t->capsw) {
        t->capsw = t->capsw ? t->capsw * 2 : 8;
        t->sw = realloc(t->sw, (size_t)t->capsw * sizeof *t->sw);
        if (!t->sw)
            abort();
    }
    struct tswitch *w = &t->sw[t->nsw++];
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", name);
    w->ch = ch;
    w->line = t->line;
    if (db_insert(t, "INSERT INTO switch(id, name, chassis) VALUES (?, ?, ?)", "iss", (long long)t->nsw,
                  name, ch->model) < 0 ||
        db_insert(t, "INSERT INTO system_config(switch_id, hostname) VALUES (?, ?)", "is",
                  (long long)t->nsw, name) < 0)
        return -1;
    return 0;
}

static int on_module(struct topo *t, const struct cmd_args *a)
{
    if (t->nsw == 0)
        return topo_error(t, "module before any switch");
    struct tswitch *w = &t->sw[t->nsw - 1];
    int slot = (int)arg_num(a, "slot", 0);
    const char *model = arg_str(a, "model");
    const struct module_model *m = catalog_module(model);
    if (!m)
        return topo_error(t, "unknown module '%s'", model);
    if (slot > w->ch->slots)
        return topo_error(t, "slot %d is beyond the %d slots of %s's %s", slot, w->ch->slots, w->name,
                          w->ch->model);
    if (w->mod[slot])
        return topo_error(t, "slot %d of %s already holds %s (line %d)", slot, w->name, w->mod[slot]->model,
                          w->mod_line[slot]);
    w->mod[slot] = m;
    w->mod_line[slot] = t->line;
    return db_insert(t, "INSERT INTO module(switch_id, slot, model) VALUES (?, ?, ?)", "iis",
                     (long long)t->nsw, (long long)slot, m->model);
}

/* Digits only, as the CLI reads a number: no sign, no blank; more than
 * 10 digits is out of range rather than wrapped (g2/4294967297 is not
 * g2/1). False when s[0..n) is not a number. */
static bool port_number(const char *s, size_t n, long *v)
{
    if (n == 0 || strspn(s, "0123456789") < n)
        return false;
    *v = 0;
    for (size_t i = 0; i < n && *v <= 9999999999L; i++)
        *v = *v * 10 + (s[i] - '0');
    return true;
}

/* "2/2" after the type's letters: slot and port, each a number. */
static bool slot_port(const char *s, long *slot, long *num)
{
    const char *slash = strchr(s, '/');
    return slash && port_number(s, (size_t)(slash - s), slot) && port_number(slash + 1, strlen(slash + 1), num);
}

/* "GigabitEthernet2/2", "gig2/2", "g2/2": the Gigabit Ethernet port of an
 * IPS module of switch sw, in canonical form. Errors quote the port as
 * typed: its numbers may not fit an int. */
static int link_end(struct topo *t, const char *swname, const char *port, struct tport *out, char *canon,
                    size_t n)
{
    int sw = find_switch(t, swname);
    if (sw < 0)
        return topo_error(t, "unknown switch '%s' (declare it with a switch line first)", swname);
    size_t k = 0;
    while (isalpha((unsigned char)port[k]))
        k++;
    long slot, num;
    if (k == 0 || k > strlen(ge_iftype.keyword) || strncasecmp(port, ge_iftype.keyword, k) != 0 ||
        !slot_port(port + k, &slot, &num))
        return topo_error(t, "'%s' is not a Gigabit Ethernet port (e.g. GigabitEthernet2/2)", port);
    const struct tswitch *w = &t->sw[sw];
    if (slot < 1 || slot > MAX_SLOTS)
        return topo_error(t, "%s %s: slot %.*s is out of range (1-%d)", w->name, port,
                          (int)strcspn(port + k, "/"), port + k, MAX_SLOTS);
    const struct module_model *m = w->mod[slot];
    if (!m || m->ge_ports == 0)
        return topo_error(t, "%s %s: %s has no IPS module in slot %ld", w->name, port, w->name, slot);
    if (num < 1 || num > m->ge_ports)
        return topo_error(t, "%s %s: the %s in slot %ld has ports 1-%d", w->name, port, m->model, slot,
                          m->ge_ports);
    ifname_format(canon, n, &ge_iftype, (int)slot, (int)num);
    for (int i = 0; i < t->nports; i++)
        if (t->ports[i].sw == sw && t->ports[i].slot == slot && t->ports[i].port == num)
            return topo_error(t, "%s %s is already cabled (line %d)", w->name, canon, t->ports[i].line);
    *out = (struct tport){sw, (int)slot, (int)num, t->line};
    return 0;
}

static void add_port(struct topo *t, struct tport p)
{
    if (t->nports == t->capports) {
        t->capports = t->capports ? t->capports * 2 : 16;
        t->ports = realloc(t->ports, (size_t)t->capports * sizeof *t->ports);
        if (!t->ports)
            abort();
    }
    t->ports[t->nports++] = p;
}

static int router_link(struct topo *t, const struct cmd_args *a, int ra, int rb);
static int host_link(struct topo *t, const struct cmd_args *a, int ha, int hb);

static int on_link(struct topo *t, const struct cmd_args *a)
{
    int ha = find_host(t, arg_str(a, "a")), hb = find_host(t, arg_str(a, "b"));
    if (ha >= 0 || hb >= 0)
        return host_link(t, a, ha, hb);
    int ra = find_router(t, arg_str(a, "a")), rb = find_router(t, arg_str(a, "b"));
    if (ra >= 0 || rb >= 0)
        return router_link(t, a, ra, rb);
    struct tport pa, pb;
    char ca[32], cb[32];
    if (link_end(t, arg_str(a, "a"), arg_str(a, "aport"), &pa, ca, sizeof ca) < 0 ||
        link_end(t, arg_str(a, "b"), arg_str(a, "bport"), &pb, cb, sizeof cb) < 0)
        return -1;
    if (pa.sw == pb.sw && pa.slot == pb.slot && pa.port == pb.port)
        return topo_error(t, "a cable needs two different ports");
    add_port(t, pa);
    add_port(t, pb);
    t->nlinks++;
    return db_insert(t, "INSERT INTO link(a_switch, a_port, b_switch, b_port) VALUES (?, ?, ?, ?)", "isis",
                     (long long)pa.sw + 1, ca, (long long)pb.sw + 1, cb);
}

/* Routers (docs/routing.md) */

static const char *dotted(uint32_t ip, char *buf)
{
    snprintf(buf, 16, "%u.%u.%u.%u", ip >> 24, ip >> 16 & 255u, ip >> 8 & 255u, ip & 255u);
    return buf;
}

static int on_router(struct topo *t, const struct cmd_args *a)
{
    const char *name = arg_str(a, "name"), *why = bad_name(name);
    if (why)
        return topo_error(t, "bad router name '%s': %s", name, why);
    if (name_taken(t, name) < 0)
        return -1;
    if (t->nrt == MAX_ROUTERS)
        return topo_error(t, "more than %d routers in one lab", MAX_ROUTERS);
    t->rt = realloc(t->rt, (size_t)(t->nrt + 1) * sizeof *t->rt);
    if (!t->rt)
        abort();
    struct trouter *r = &t->rt[t->nrt++];
    t->last = 'r';
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->line = t->line;
    return db_insert(t, "INSERT INTO router(id, name, icmp) VALUES (?, ?, ?)", "isi", (long long)t->nrt, name,
                     (long long)!arg_has(a, "no-icmp"));
}

/* "eth3": a router's port number, 0 when the word is not one. */
static int router_port_number(const char *w)
{
    long n;
    return strncasecmp(w, "eth", 3) == 0 && port_number(w + 3, strlen(w + 3), &n) && n >= 1 &&
                   n <= ROUTER_PORTS
               ? (int)n
               : 0;
}

/* Another port of any router with this address, or of r whose subnet
 * meets ip/mask: an error naming it. */
static int router_addr_clash(struct topo *t, const struct trouter *r, uint32_t ip, uint32_t mask)
{
    char b[16];
    for (int i = 0; i < t->nrt; i++)
        for (int p = 1; p <= ROUTER_PORTS; p++) {
            const struct trouter *o = &t->rt[i];
            if (!o->port_line[p])
                continue;
            uint32_t m = o->mask[p] < mask ? o->mask[p] : mask; /* the shorter of the two */
            if (o->ip[p] == ip)
                return topo_error(t, "address %s is already router %s's eth%d (line %d)", dotted(ip, b), o->name,
                                  p, o->port_line[p]);
            if (o == r && (o->ip[p] & m) == (ip & m))
                return topo_error(t, "%s's subnet overlaps its eth%d (line %d)", r->name, p, o->port_line[p]);
        }
    return 0;
}

static int host_interface(struct topo *t, const struct cmd_args *a);
static int host_addr_clash(struct topo *t, const struct thost *h, uint32_t ip, uint32_t mask);

static int on_interface(struct topo *t, const struct cmd_args *a)
{
    if (t->last == 'h')
        return host_interface(t, a);
    if (t->nrt == 0)
        return topo_error(t, "interface before any router or host");
    if (arg_has(a, "gateway"))
        return topo_error(t, "a router has routes, not a gateway (gateway is for a host's interface)");
    struct trouter *r = &t->rt[t->nrt - 1];
    const char *w = arg_str(a, "port");
    int port = router_port_number(w);
    uint32_t ip = arg_get(a, "ip")->ip, mask = arg_get(a, "mask")->ip;
    char b[16];
    if (!port)
        return topo_error(t, "'%s' is not a router port (eth1 to eth%d)", w, ROUTER_PORTS);
    if (r->port_line[port])
        return topo_error(t, "%s eth%d already declared at line %d", r->name, port, r->port_line[port]);
    if (mask != 0xffffffffu && ((ip & ~mask) == 0 || (ip | mask) == 0xffffffffu))
        return topo_error(t, "%s is not a host address of its subnet", dotted(ip, b));
    if (router_addr_clash(t, r, ip, mask) < 0 || host_addr_clash(t, NULL, ip, mask) < 0)
        return -1;
    r->port_line[port] = t->line;
    r->ip[port] = ip;
    r->mask[port] = mask;
    return db_insert(t,
                     "INSERT INTO router_port(router_id, port, ip, mask, mtu, delay_us, rate_kbps, qsize_kb,"
                     " drop_random) VALUES (?, ?, ?, ?, ?, ?, nullif(?, 0), nullif(?, 0), ?)",
                     "iiiiiiiii", (long long)t->nrt, (long long)port, (long long)ip, (long long)mask,
                     (long long)arg_num(a, "bytes", 1500), (long long)arg_num(a, "ms", 0) * 1000,
                     (long long)arg_num(a, "kbps", 0), (long long)arg_num(a, "kb", 0), (long long)arg_num(a, "p", 0));
}

static int on_route(struct topo *t, const struct cmd_args *a)
{
    if (t->last == 'h')
        return topo_error(t, "a host has no route lines: its interface line gives its gateway");
    if (t->nrt == 0)
        return topo_error(t, "route before any router");
    struct trouter *r = &t->rt[t->nrt - 1];
    uint32_t dest = arg_get(a, "dest")->ip, mask = arg_get(a, "mask")->ip, hop = arg_get(a, "nexthop")->ip;
    char b[16], c[16];
    if (dest & ~mask)
        return topo_error(t, "%s has bits outside its mask %s", dotted(dest, b), dotted(mask, c));
    if (r->nroutes == ROUTER_ROUTES)
        return topo_error(t, "more than %d routes on router %s", ROUTER_ROUTES, r->name);
    if (!hop)
        return topo_error(t, "next hop 0.0.0.0 is not an address");
    r->nroutes++;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(t->db, "SELECT 1 FROM router_route WHERE router_id = ? AND dest = ? AND mask = ?", -1,
                           &st, NULL) != SQLITE_OK)
        return topo_error(t, "store: %s", sqlite3_errmsg(t->db));
    sqlite3_bind_int(st, 1, t->nrt);
    sqlite3_bind_int64(st, 2, dest);
    sqlite3_bind_int64(st, 3, mask);
    bool dup = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    if (dup)
        return topo_error(t, "router %s already has a route to %s %s", r->name, dotted(dest, b), dotted(mask, c));
    return db_insert(t, "INSERT INTO router_route(router_id, dest, mask, nexthop) VALUES (?, ?, ?, ?)", "iiii",
                     (long long)t->nrt, (long long)dest, (long long)mask, (long long)hop);
}

/* A router's end of a cable: its declared port, not cabled yet. */
static int router_end(struct topo *t, int r, const char *w, int *port)
{
    struct trouter *rt = &t->rt[r];
    *port = router_port_number(w);
    if (!*port)
        return topo_error(t, "'%s' is not a router port (eth1 to eth%d)", w, ROUTER_PORTS);
    if (!rt->port_line[*port])
        return topo_error(t, "%s eth%d has no interface line (declare it above)", rt->name, *port);
    if (rt->cable_line[*port])
        return topo_error(t, "%s eth%d is already cabled (line %d)", rt->name, *port, rt->cable_line[*port]);
    return 0;
}

/* `link` with a router at one end or both. */
static int router_link(struct topo *t, const struct cmd_args *a, int ra, int rb)
{
    const char *an = arg_str(a, "a"), *ap = arg_str(a, "aport"), *bn = arg_str(a, "b"), *bp = arg_str(a, "bport");
    if (ra < 0) { /* the router first */
        const char *x = an, *y = ap;
        an = bn, ap = bp, bn = x, bp = y;
        ra = rb, rb = -1;
    }
    int pa, pb = 0;
    struct tport sp;
    char canon[32];
    if (router_end(t, ra, ap, &pa) < 0 ||
        (rb >= 0 ? router_end(t, rb, bp, &pb) : link_end(t, bn, bp, &sp, canon, sizeof canon)) < 0)
        return -1;
    if (rb == ra && pb == pa)
        return topo_error(t, "a cable needs two different ports");
    t->rt[ra].cable_line[pa] = t->line;
    if (rb >= 0)
        t->rt[rb].cable_line[pb] = t->line;
    else
        add_port(t, sp);
    if (rb >= 0)
        return db_insert(t, "UPDATE router_port SET peer_router = ?, peer_rport = ? WHERE router_id = ? AND port = ?",
                         "iiii", (long long)rb + 1, (long long)pb, (long long)ra + 1, (long long)pa);
    return db_insert(t, "UPDATE router_port SET peer_switch = ?, peer_port = ? WHERE router_id = ? AND port = ?",
                     "isii", (long long)sp.sw + 1, canon, (long long)ra + 1, (long long)pa);
}

/* Hosts (docs/hosts.md) */

static int on_host(struct topo *t, const struct cmd_args *a)
{
    const char *name = arg_str(a, "name"), *why = bad_name(name);
    if (why)
        return topo_error(t, "bad host name '%s': %s", name, why);
    if (name_taken(t, name) < 0)
        return -1;
    if (t->nho == MAX_HOSTS)
        return topo_error(t, "more than %d hosts in one lab", MAX_HOSTS);
    t->ho = realloc(t->ho, (size_t)(t->nho + 1) * sizeof *t->ho);
    if (!t->ho)
        abort();
    struct thost *h = &t->ho[t->nho++];
    memset(h, 0, sizeof *h);
    snprintf(h->name, sizeof h->name, "%s", name);
    h->line = t->line;
    t->last = 'h';
    return db_insert(t, "INSERT INTO host(id, name) VALUES (?, ?)", "is", (long long)t->nho, name);
}

/* Storage arrays (docs/array.md): a host with controllers, disks,
 * logical drives and an FC port. */
static int on_array(struct topo *t, const struct cmd_args *a)
{
    if (on_host(t, a) < 0)
        return -1;
    t->arr = (struct tarray){.host = t->nho, .disks = (int)arg_num(a, "count", 15)};
    return db_insert(t, "INSERT INTO array(host_id, controllers, disks) VALUES (?, ?, ?)", "iii", (long long)t->nho,
                     (long long)arg_num(a, "n", 2), (long long)t->arr.disks);
}

static int on_logical_drive(struct topo *t, const struct cmd_args *a)
{
    struct tarray *r = &t->arr;
    const char *name = arg_str(a, "name");
    long raid = arg_num(a, "level", 5), n = arg_num(a, "n", 0), gb = arg_num(a, "gb", 0);
    if (t->last != 'h' || r->host != t->nho)
        return topo_error(t, "logical-drive outside an array");
    if (strlen(name) > 30)
        return topo_error(t, "logical drive name '%s' is longer than 30 characters", name);
    for (int i = 0; i < r->nld; i++)
        if (strcmp(r->ld[i], name) == 0)
            return topo_error(t, "logical drive %s is declared twice", name);
    if (r->nld == 16)
        return topo_error(t, "more than 16 logical drives in one array");
    if (raid != 5 && raid != 10)
        return topo_error(t, "RAID %ld: an array's drives are RAID 5 or RAID 10", raid);
    if ((raid == 5 && n < 3) || (raid == 10 && n % 2))
        return topo_error(t, "RAID %ld on %ld disks: RAID 5 takes 3 or more, RAID 10 an even number", raid, n);
    if (r->used + n > r->disks)
        return topo_error(t, "the array has %d disks; its logical drives would take %ld", r->disks, r->used + n);
    long usable = (raid == 5 ? n - 1 : n / 2) * 1000; /* 1 TB SATA disks */
    if (gb > usable)
        return topo_error(t, "%ld GB on RAID %ld of %ld disks: at most %ld GB (1 TB disks)", gb, raid, n, usable);
    snprintf(r->ld[r->nld], sizeof r->ld[0], "%s", name);
    r->used += (int)n;
    return db_insert(t, "INSERT INTO array_ld(host_id, idx, name, raid, disks, capacity_gb, owner) VALUES (?, ?, ?, ?, ?, ?, ?)",
                     "iisiiii", (long long)r->host, (long long)r->nld++, name, (long long)raid, (long long)n,
                     (long long)gb, (long long)(arg_has(a, "b") ? 1 : 0));
}

static int on_fc_port(struct topo *t, const struct cmd_args *a)
{
    struct tarray *r = &t->arr;
    if (t->last != 'h' || r->host != t->nho)
        return topo_error(t, "fc-port outside an array");
    if (r->fc_line)
        return topo_error(t, "the array has its FC port already (line %d)", r->fc_line);
    int sw = find_switch(t, arg_str(a, "sw"));
    if (sw < 0)
        return topo_error(t, "unknown switch '%s'", arg_str(a, "sw"));
    r->fc_line = t->line;
    char wwn[24];
    fabric_wwn_text(arg_get(a, "pwwn")->wwn, wwn);
    return db_insert(t, "INSERT INTO array_fc(host_id, pwwn, switch_id, vsan) VALUES (?, ?, ?, ?)", "isii",
                     (long long)r->host, wwn, (long long)sw + 1, arg_num(a, "v", 1));
}

/* "eth0": a host's port number 0-3, -1 when the word is not one. */
static int host_port_number(const char *w)
{
    long n;
    return strncasecmp(w, "eth", 3) == 0 && port_number(w + 3, strlen(w + 3), &n) && n >= 0 && n < HOST_PORTS
               ? (int)n
               : -1;
}

/* An address a router's or a host's port has already, or a subnet of h's
 * that meets ip/mask: an error naming it. */
static int host_addr_clash(struct topo *t, const struct thost *h, uint32_t ip, uint32_t mask)
{
    char b[16];
    if (router_addr_clash(t, NULL, ip, mask) < 0)
        return -1;
    for (int i = 0; i < t->nho; i++)
        for (int p = 0; p < HOST_PORTS; p++) {
            const struct thost *o = &t->ho[i];
            uint32_t m = o->mask[p] < mask ? o->mask[p] : mask;
            if (!o->port_line[p])
                continue;
            if (o->ip[p] == ip)
                return topo_error(t, "address %s is already host %s's eth%d (line %d)", dotted(ip, b), o->name, p,
                                  o->port_line[p]);
            if (o == h && (o->ip[p] & m) == (ip & m))
                return topo_error(t, "%s's subnet overlaps its eth%d (line %d)", h->name, p, o->port_line[p]);
        }
    return 0;
}

static int host_interface(struct topo *t, const struct cmd_args *a)
{
    struct thost *h = &t->ho[t->nho - 1];
    const char *w = arg_str(a, "port");
    int port = host_port_number(w);
    uint32_t ip = arg_get(a, "ip")->ip, mask = arg_get(a, "mask")->ip, gw = arg_has(a, "gw") ? arg_get(a, "gw")->ip : 0;
    char b[16];
    if (port < 0)
        return topo_error(t, "'%s' is not a host port (eth0 to eth%d)", w, HOST_PORTS - 1);
    if (arg_has(a, "delay-ms") || arg_has(a, "max-bandwidth-kbps") || arg_has(a, "qsize") || arg_has(a, "drop-random"))
        return topo_error(t, "a host's port has no impairments (give them to a router's port)");
    if (h->port_line[port])
        return topo_error(t, "%s eth%d already declared at line %d", h->name, port, h->port_line[port]);
    if (mask != 0xffffffffu && ((ip & ~mask) == 0 || (ip | mask) == 0xffffffffu))
        return topo_error(t, "%s is not a host address of its subnet", dotted(ip, b));
    if (gw && h->gw_line)
        return topo_error(t, "host %s has its gateway already (line %d)", h->name, h->gw_line);
    if (gw && ((gw & mask) != (ip & mask) || gw == ip))
        return topo_error(t, "gateway %s is not another address of eth%d's subnet", dotted(gw, b), port);
    if (host_addr_clash(t, h, ip, mask) < 0)
        return -1;
    h->port_line[port] = t->line;
    h->ip[port] = ip;
    h->mask[port] = mask;
    h->gw_line = gw ? t->line : h->gw_line;
    return db_insert(t, "INSERT INTO host_port(host_id, port, ip, mask, mtu, gateway) VALUES (?, ?, ?, ?, ?, nullif(?, 0))",
                     "iiiiii", (long long)t->nho, (long long)port, (long long)ip, (long long)mask,
                     (long long)arg_num(a, "bytes", 1500), (long long)gw);
}

/* A host's end of a cable: its declared port, not cabled yet. */
static int host_end(struct topo *t, int h, const char *w, int *port)
{
    struct thost *ho = &t->ho[h];
    *port = host_port_number(w);
    if (*port < 0)
        return topo_error(t, "'%s' is not a host port (eth0 to eth%d)", w, HOST_PORTS - 1);
    if (!ho->port_line[*port])
        return topo_error(t, "%s eth%d has no interface line (declare it above)", ho->name, *port);
    if (ho->cable_line[*port])
        return topo_error(t, "%s eth%d is already cabled (line %d)", ho->name, *port, ho->cable_line[*port]);
    return 0;
}

/* `link` with a host at one end or both; stored on the (first) host's port. */
static int host_link(struct topo *t, const struct cmd_args *a, int ha, int hb)
{
    const char *an = arg_str(a, "a"), *ap = arg_str(a, "aport"), *bn = arg_str(a, "b"), *bp = arg_str(a, "bport");
    if (ha < 0) { /* the host first */
        const char *x = an, *y = ap;
        an = bn, ap = bp, bn = x, bp = y;
        ha = hb, hb = -1;
    }
    int rb = hb < 0 ? find_router(t, bn) : -1, pa, pb = 0;
    struct tport sp;
    char canon[32];
    if (host_end(t, ha, ap, &pa) < 0)
        return -1;
    int rc = hb >= 0 ? host_end(t, hb, bp, &pb) : rb >= 0 ? router_end(t, rb, bp, &pb)
                                                            : link_end(t, bn, bp, &sp, canon, sizeof canon);
    if (rc < 0)
        return -1;
    if (hb == ha && pb == pa)
        return topo_error(t, "a cable needs two different ports");
    t->ho[ha].cable_line[pa] = t->line;
    if (hb >= 0) {
        t->ho[hb].cable_line[pb] = t->line;
        return db_insert(t, "UPDATE host_port SET peer_host = ?, peer_hport = ? WHERE host_id = ? AND port = ?",
                         "iiii", (long long)hb + 1, (long long)pb, (long long)ha + 1, (long long)pa);
    }
    if (rb >= 0) {
        t->rt[rb].cable_line[pb] = t->line;
        return db_insert(t, "UPDATE host_port SET peer_router = ?, peer_rport = ? WHERE host_id = ? AND port = ?",
                         "iiii", (long long)rb + 1, (long long)pb, (long long)ha + 1, (long long)pa);
    }
    add_port(t, sp);
    return db_insert(t, "UPDATE host_port SET peer_switch = ?, peer_port = ? WHERE host_id = ? AND port = ?", "isii",
                     (long long)sp.sw + 1, canon, (long long)ha + 1, (long long)pa);
}

/* `config NAME`: the lines up to `end-config` are NAME's starting
 * configuration (build_lines collects them). */
static int on_config(struct topo *t, const struct cmd_args *a)
{
    const char *name = arg_str(a, "name");
    int sw = find_switch(t, name);
    if (sw < 0)
        return topo_error(t, "unknown switch '%s' (declare it with a switch line first)", name);
    struct tswitch *w = &t->sw[sw];
    if (w->conf_line)
        return topo_error(t, "the configuration of %s is already given at line %d", w->name, w->conf_line);
    w->conf_line = t->line;
    sb_init(&w->conf);
    t->block = sw;
    return 0;
}

/* The handler of each line, by the first keyword of its syntax. */
static const struct {
    const char *keyword;
    int (*fn)(struct topo *t, const struct cmd_args *a);
} handlers[] = {
    {"seed", on_seed},
    {"switch", on_switch},
    {"module", on_module},
    {"link", on_link},
    {"router", on_router},
    {"host", on_host},
    {"array", on_array},
    {"logical-drive", on_logical_drive},
    {"fc-port", on_fc_port},
    {"interface", on_interface},
    {"route", on_route},
    {"config", on_config},
};

static int (*handler_for(const struct variant *v))(struct topo *, const struct cmd_args *)
{
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
        if (strcmp(handlers[i].keyword, v->tok[0].text) == 0)
            return handlers[i].fn;
    fprintf(stderr, "mdsim: lab-file command \"%s\" has no handler\n", v->cmd->syntax);
    abort(); /* a grammar bug */
}

static const struct grammar *topology_grammar(void)
{
    static struct grammar *g;
    if (!g) {
        static const struct cmd_def *const tables[] = {topology_cmds, NULL};
        g = grammar_compile(tables);
    }
    return g;
}

/* Words split at blanks only: unlike the CLI lexer, `g2/2` stays one word
 * (a port), and a switch may be called `g1`. */
static void split_words(struct words *w, const char *line)
{
    w->n = 0;
    w->line = line;
    for (size_t i = 0; line[i];) {
        while (line[i] == ' ' || line[i] == '\t')
            i++;
        size_t start = i;
        while (line[i] && line[i] != ' ' && line[i] != '\t')
            i++;
        if (i == start)
            break;
        if (w->n == w->cap) {
            w->cap = w->cap ? w->cap * 2 : 8;
            w->w = realloc(w->w, (size_t)w->cap * sizeof *w->w);
            if (!w->w)
                abort();
        }
        w->w[w->n++] = (struct word){line + start, i - start, start};
    }
}

/* "; expected switch, module, ..." from what the grammar offers after the
 * first n words, restricted to words starting with the partial one. */
static void expected(const struct match_env *e, const struct words *w, int n, const char *partial,
                     size_t plen, char *buf, size_t len)
{
    struct help_list h;
    match_help(e, w, n, partial, plen, &h);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < h.n && used < len; i++) {
        const struct gtoken *tk = h.items[i].tok;
        char name[48];
        if (tk->kind == TOK_KEYWORD || tk->kind == TOK_INT)
            snprintf(name, sizeof name, "%s", h.items[i].word);
        else
            snprintf(name, sizeof name, "<%s>", tk->text);
        int k = snprintf(buf + used, len - used, "%s%s", i == 0 ? "; expected " : i == h.n - 1 ? " or " : ", ",
                         name);
        used += k > 0 ? (size_t)k : 0;
    }
    if (h.n == 0 && h.cr)
        snprintf(buf, len, "; the line is complete without it");
    help_list_free(&h);
}

static int word_at(const struct words *w, size_t off)
{
    for (int i = 0; i < w->n; i++)
        if (w->w[i].off == off)
            return i;
    return w->n;
}

static int run_line(struct topo *t, const char *line, struct words *w)
{
    struct match_env e = {topology_grammar(), MODE_LAB, NULL, NULL, NULL};
    struct match_result r;
    split_words(w, line);
    enum match_status st = match_line(&e, w, &r);
    if (st != MATCH_OK) {
        int i = word_at(w, r.err_off);
        const char *word = i < w->n ? w->w[i].s : "";
        int wl = i < w->n ? (int)w->w[i].len : 0;
        char exp[160];
        expected(&e, w, i, word, st == MATCH_AMBIGUOUS ? (size_t)wl : 0, exp, sizeof exp);
        match_result_free(&r);
        switch (st) {
        case MATCH_INCOMPLETE: return topo_error(t, "incomplete line%s", exp);
        case MATCH_AMBIGUOUS: return topo_error(t, "ambiguous word '%.*s'%s", wl, word, exp);
        case MATCH_RANGE: return topo_error(t, "%.*s is out of range (%ld-%ld)", wl, word, r.lo, r.hi);
        default: return topo_error(t, "unexpected '%.*s'%s", wl, word, exp);
        }
    }
    int rc = handler_for(r.var)(t, &r.args);
    match_result_free(&r);
    return rc;
}

/* Checks that need the whole file: every switch has its supervisors. */
static int check_switches(struct topo *t)
{
    if (t->nsw == 0)
        return topo_error(t, "no switch declared");
    for (int i = 0; i < t->nsw; i++) {
        int sups = 0;
        for (int s = 1; s <= MAX_SLOTS; s++)
            sups += t->sw[i].mod[s] && t->sw[i].mod[s]->supervisor;
        t->line = t->sw[i].line;
        if (sups == 0)
            return topo_error(t, "switch %s has no supervisor module", t->sw[i].name);
        if (sups > 2)
            return topo_error(t, "switch %s has %d supervisor modules (at most 2)", t->sw[i].name, sups);
    }
    return 0;
}

/* A line of a `config` block: `end-config` (a comment after it allowed)
 * closes the block; any other line is the switch's, kept as written but
 * for blanks at its end, and checked when the lab applies it. */
static int block_line(struct topo *t, const char *p)
{
    struct tswitch *w = &t->sw[t->block];
    size_t len = strlen(p), lead = strspn(p, " \t"), end = lead;
    while (p[end] && p[end] != ' ' && p[end] != '\t' && p[end] != '\r')
        end++;
    if (end - lead == strlen("end-config") && strncmp(p + lead, "end-config", end - lead) == 0 &&
        (p[end + strspn(p + end, " \t\r")] == '\0' || p[end + strspn(p + end, " \t\r")] == '!')) {
        t->block = -1;
        return 0;
    }
    while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' || p[len - 1] == '\t'))
        len--;
    if (w->conf.len + len + 1 > CONFIG_MAX)
        return topo_error(t, "the configuration of %s (line %d) is over %d KiB", w->name, w->conf_line,
                          CONFIG_MAX >> 10);
    sb_add(&w->conf, p, len);
    sb_add(&w->conf, "\n", 1);
    return 0;
}

/* Each switch's starting configuration, into lab_meta. */
static int store_configs(struct topo *t)
{
    for (int i = 0; i < t->nsw; i++) {
        char key[32];
        snprintf(key, sizeof key, CONFIG_KEY "%d", i + 1);
        if (t->sw[i].conf_line &&
            db_insert(t, "INSERT INTO lab_meta(key, value) VALUES (?, ?)", "ss", key, sb_str(&t->sw[i].conf)) < 0)
            return -1;
    }
    return 0;
}

static int build_lines(struct topo *t, const char *text)
{
    struct words w = {0};
    char *copy = strdup(text);
    if (!copy)
        abort();
    int rc = 0;
    char *p = copy;
    for (t->line = 1; rc == 0 && *p; t->line++) {
        char *eol = strchr(p, '\n'), *next = eol ? eol + 1 : p + strlen(p);
        if (eol)
            *eol = '\0';
        if (t->block >= 0) {
            rc = block_line(t, p);
            p = next;
            continue;
        }
        for (char *c = p; *c; c++) /* `!` at the start of a word: a comment */
            if (*c == '!' && (c == p || c[-1] == ' ' || c[-1] == '\t')) {
                *c = '\0';
                break;
            }
        size_t len = strlen(p);
        while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' || p[len - 1] == '\t'))
            p[--len] = '\0';
        if (p[strspn(p, " \t")])
            rc = run_line(t, p, &w);
        p = next;
    }
    if (rc == 0 && t->block >= 0) {
        t->line = t->sw[t->block].conf_line;
        rc = topo_error(t, "config %s has no end-config line", t->sw[t->block].name);
    }
    if (rc == 0) {
        t->line--; /* the last line, for errors about the whole file */
        if (t->line < 1)
            t->line = 1;
        rc = check_switches(t);
    }
    if (rc == 0)
        rc = store_configs(t);
    if (rc == 0)
        rc = db_insert(t, "INSERT INTO lab_meta(key, value) VALUES ('seed', ?)", "i",
                       t->seed_line ? t->seed : 1LL);
    free(w.w);
    free(copy);
    return rc;
}

static void topo_free(struct topo *t)
{
    for (int i = 0; i < t->nsw; i++)
        if (t->sw[i].conf_line)
            sb_free(&t->sw[i].conf);
    free(t->sw);
    free(t->ports);
    free(t->rt);
    free(t->ho);
}

/* Builds the lab into t->db; t keeps what the file declared, for
 * apply_configs. */
static int build(struct topo *t, const char *text)
{
    char *msg = NULL;
    size_t len = strlen(text);
    if (len > TEXT_MAX) { /* also keeps the line numbers within an int */
        snprintf(t->err, t->errlen, "%s: over %d MiB (%zu bytes): not a lab file", t->file, TEXT_MAX >> 20, len);
        return -1;
    }
    if (sqlite3_exec(t->db, "SAVEPOINT topology", NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(t->err, t->errlen, "%s: store: %s", t->file, msg ? msg : "?");
        sqlite3_free(msg);
        return -1;
    }
    int rc = build_lines(t, text);
    if (rc != 0)
        sqlite3_exec(t->db, "ROLLBACK TO topology", NULL, NULL, NULL);
    if (sqlite3_exec(t->db, "RELEASE topology", NULL, NULL, &msg) != SQLITE_OK && rc == 0) {
        snprintf(t->err, t->errlen, "%s: store: %s", t->file, msg ? msg : "?");
        rc = -1;
    }
    sqlite3_free(msg);
    return rc;
}

int topology_build(sqlite3 *db, const char *file, const char *text, char *err, size_t errlen)
{
    struct topo t = {.db = db, .file = file, .err = err, .errlen = errlen, .block = -1};
    int rc = build(&t, text);
    topo_free(&t);
    return rc;
}

static void discard(void *ctx, const char *s, size_t n)
{
    (void)ctx, (void)s, (void)n;
}

/* The switch's error for a line: its `%` line, and the line with the
 * caret under the place when the switch points at one (its caret line
 * counts one column more than the line's: hence one blank less). */
static void line_error(struct session *in, const char *line, char *why, size_t n)
{
    const char *out = sb_str(&in->out), *caret = strchr(out, '^');
    if (caret && strstr(in->last_error, "'^'")) {
        const char *bol = caret;
        while (bol > out && bol[-1] != '\n')
            bol--;
        snprintf(why, n, "%s\n  %s\n %.*s^", in->last_error, line, (int)(caret - bol), bol);
    } else {
        snprintf(why, n, "%s", in->last_error[0] ? in->last_error : "% the line failed");
    }
}

/* Runs a starting configuration on switch sw as reload runs a
 * startup-config: from config mode, line by line, through the parser, so
 * it is checked exactly as typed input. Blank lines and `!` comments are
 * skipped. Returns 0, or the number of the line (within text) that
 * failed, with why set. */
static int replay_config(struct lab *lab, int sw, const char *text, char *why, size_t n)
{
    struct session in;
    session_init(&in, lab, sw, (struct session_io){.write = discard});
    in.mode = MODE_CONFIG;
    in.dont_ask = true;
    char *copy = strdup(text);
    if (!copy)
        abort();
    int bad = 0, k = 1;
    for (char *line = copy, *next; bad == 0 && *line; line = next, k++) {
        char *eol = strchr(line, '\n');
        next = eol ? eol + 1 : line + strlen(line);
        if (eol)
            *eol = '\0';
        const char *first = line + strspn(line, " \t");
        in.last_error[0] = '\0';
        sb_clear(&in.out);
        if (*first && *first != '!' && session_exec_in(&in, in.mode, line, 0) != 0) {
            line_error(&in, line, why, n);
            bad = k;
        }
    }
    free(copy);
    session_free(&in);
    return bad;
}

/* Switch sw back to where the lab starts: factory configuration, rebooted,
 * then its starting configuration `text` (NULL: none) replayed and saved
 * as its startup-config, as `copy running-config startup-config` would;
 * with none, no startup-config. The caller holds the lab and a
 * transaction. Returns 0 or replay_config's failing line. */
static int start_switch(struct lab *lab, int sw, const char *text, char *why, size_t n)
{
    lab_factory_reset(lab, sw);
    lab_reboot(lab, sw);
    sqlite3_stmt *st = lab_stmt(lab, "DELETE FROM startup_config WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    lab_step_done(lab, st);
    if (!text)
        return 0;
    int bad = replay_config(lab, sw, text, why, n);
    if (bad)
        return bad;
    strbuf body;
    sb_init(&body);
    running_config_body(lab, sw, &body);
    st = lab_stmt(lab, "INSERT INTO startup_config(switch_id, body, saved_at) VALUES (?, ?, ?)");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, sb_str(&body), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, (long long)lab_time(lab, sw, NULL));
    lab_step_done(lab, st);
    sb_free(&body);
    return 0;
}

/* Opens the lab just built at `path` and brings each switch with a
 * starting configuration to it; an error names the file's line. */
static int apply_configs(struct topo *t, const char *path)
{
    struct lab *lab = NULL;
    int rc = 0;
    for (int i = 0; rc == 0 && i < t->nsw; i++) {
        struct tswitch *w = &t->sw[i];
        if (!w->conf_line)
            continue;
        if (!lab && !(lab = lab_open(path, t->err, t->errlen)))
            return -1;
        char why[4400];
        lab_lock(lab);
        lab_txn_begin(lab);
        int bad = start_switch(lab, i, sb_str(&w->conf), why, sizeof why);
        bool ok = lab_txn_end(lab, bad == 0);
        if (bad) {
            t->line = w->conf_line + bad;
            rc = topo_error(t, "%s", why);
        } else if (!ok) {
            t->line = w->conf_line;
            rc = topo_error(t, "store: %s", lab_store_error(lab));
        }
        lab_unlock(lab);
    }
    lab_close(lab);
    return rc;
}

static void remove_db_files(const char *path)
{
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal", "-reserve"};
    char p[4200];
    for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        unlink(p);
    }
}

int topology_create(const char *path, const char *file, const char *text, char *err, size_t errlen)
{
    char tmp[4200], side[4200];
    if (access(path, F_OK) == 0) {
        snprintf(err, errlen, "%s already exists; not replacing it (remove it, or choose another --db)", path);
        return -1;
    }
    snprintf(side, sizeof side, "%s-wal", path);
    if (access(side, F_OK) == 0) {
        snprintf(err, errlen, "%s exists (a lab was there, or is open); not creating %s", side, path);
        return -1;
    }
    int n = snprintf(tmp, sizeof tmp, "%s.creating-%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp) {
        snprintf(err, errlen, "path too long: %s", path);
        return -1;
    }
    remove_db_files(tmp);
    bool created;
    sqlite3 *db = store_open(tmp, &created, err, errlen);
    if (!db) {
        remove_db_files(tmp);
        return -1;
    }
    struct topo t = {.db = db, .file = file, .err = err, .errlen = errlen, .block = -1};
    int rc = build(&t, text);
    if (sqlite3_close(db) != SQLITE_OK && rc == 0) {
        snprintf(err, errlen, "cannot close %s", tmp);
        rc = -1;
    }
    if (rc == 0)
        rc = apply_configs(&t, tmp);
    topo_free(&t);
    if (rc == 0 && rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        remove_db_files(tmp);
    return rc;
}

/* Switch sw's starting configuration from lab_meta, NULL when it has
 * none; the caller frees it. */
static char *config_text(struct lab *lab, int sw)
{
    char key[32];
    snprintf(key, sizeof key, CONFIG_KEY "%d", lab_switch_id(lab, sw));
    sqlite3_stmt *st = lab_stmt(lab, "SELECT value FROM lab_meta WHERE key = ?");
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    char *text = sqlite3_step(st) == SQLITE_ROW ? strdup((const char *)sqlite3_column_text(st, 0)) : NULL;
    sqlite3_reset(st);
    return text;
}

/* The routers, their ports and routes, as lines of a lab file. */
static void print_routers(struct lab *lab, FILE *out)
{
    static const char *const q_rt = "SELECT id, name, icmp FROM router ORDER BY id";
    static const char *const q_port = "SELECT port, ip, mask, mtu, delay_us, rate_kbps, qsize_kb, drop_random"
                                      " FROM router_port WHERE router_id = ? ORDER BY port";
    static const char *const q_route = "SELECT dest, mask, nexthop FROM router_route WHERE router_id = ?"
                                       " ORDER BY rowid";
    sqlite3_stmt *st = lab_stmt(lab, q_rt);
    char a[16], b[16], c[16];
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int id = sqlite3_column_int(st, 0);
        fprintf(out, "%srouter %s%s\n", n++ ? "" : "\n! routers (docs/routing.md)\n", sqlite3_column_text(st, 1),
                sqlite3_column_int(st, 2) ? "" : " no-icmp");
        sqlite3_stmt *pt = lab_stmt(lab, q_port);
        sqlite3_bind_int(pt, 1, id);
        while (sqlite3_step(pt) == SQLITE_ROW) {
            fprintf(out, "  interface eth%d %s %s", sqlite3_column_int(pt, 0),
                    dotted((uint32_t)sqlite3_column_int64(pt, 1), a), dotted((uint32_t)sqlite3_column_int64(pt, 2), b));
            static const char *const opt[] = {NULL, NULL, NULL, " mtu %d", " delay-ms %d", " max-bandwidth-kbps %d",
                                              " qsize %d", " drop-random %d"};
            for (int i = 3; i < 8; i++) {
                int v = sqlite3_column_int(pt, i);
                if (i == 4)
                    v /= 1000;
                if (sqlite3_column_type(pt, i) != SQLITE_NULL && (i == 3 ? v != 1500 : v != 0))
                    fprintf(out, opt[i], v);
            }
            fputc('\n', out);
        }
        sqlite3_stmt *rt = lab_stmt(lab, q_route);
        sqlite3_bind_int(rt, 1, id);
        while (sqlite3_step(rt) == SQLITE_ROW)
            fprintf(out, "  route %s %s %s\n", dotted((uint32_t)sqlite3_column_int64(rt, 0), a),
                    dotted((uint32_t)sqlite3_column_int64(rt, 1), b), dotted((uint32_t)sqlite3_column_int64(rt, 2), c));
    }
}

/* The cables of routers' ports, after the switches' (any first: none);
 * false once the cables' heading is out. */
static bool print_router_links(struct lab *lab, FILE *out, bool first)
{
    static const char *const q = "SELECT r.name, p.port, s.name, p.peer_port, o.name, p.peer_rport FROM router_port p"
                                 " JOIN router r ON r.id = p.router_id LEFT JOIN switch s ON s.id = p.peer_switch"
                                 " LEFT JOIN router o ON o.id = p.peer_router"
                                 " WHERE p.peer_switch IS NOT NULL OR p.peer_router IS NOT NULL"
                                 " ORDER BY p.router_id, p.port";
    sqlite3_stmt *st = lab_stmt(lab, q);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (first)
            fprintf(out, "\n! cables\n");
        first = false;
        if (sqlite3_column_type(st, 2) != SQLITE_NULL)
            fprintf(out, "link %s %s %s eth%d\n", sqlite3_column_text(st, 2), sqlite3_column_text(st, 3),
                    sqlite3_column_text(st, 0), sqlite3_column_int(st, 1));
        else
            fprintf(out, "link %s eth%d %s eth%d\n", sqlite3_column_text(st, 0), sqlite3_column_int(st, 1),
                    sqlite3_column_text(st, 4), sqlite3_column_int(st, 5));
    }
    return first;
}

/* The hosts and their ports, as lines of a lab file; storage arrays in
 * their place among them, so that the hosts keep their order. */
static void print_hosts(struct lab *lab, FILE *out)
{
    static const char *const q = "SELECT h.name, p.port, p.ip, p.mask, p.gateway, p.mtu, h.id, 0 FROM host h"
                                 " JOIN host_port p ON p.host_id = h.id"
                                 " WHERE h.id NOT IN (SELECT host_id FROM array)"
                                 " UNION ALL SELECT h.name, -1, 0, 0, NULL, 1500, h.id, 1 FROM host h"
                                 " JOIN array a ON a.host_id = h.id ORDER BY 7, 2";
    sqlite3_stmt *st = lab_stmt(lab, q);
    char a[16], b[16], c[16], last[33] = "";
    bool any = false;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        if (sqlite3_column_int(st, 7)) {
            array_print_one(lab, sqlite3_column_int(st, 6) - 1, out);
            continue;
        }
        if (strcmp(name, last) != 0)
            fprintf(out, "%shost %s\n", any ? "" : "\n! hosts (docs/hosts.md)\n", name);
        any = true;
        snprintf(last, sizeof last, "%s", name);
        fprintf(out, "  interface eth%d %s %s", sqlite3_column_int(st, 1),
                dotted((uint32_t)sqlite3_column_int64(st, 2), a), dotted((uint32_t)sqlite3_column_int64(st, 3), b));
        if (sqlite3_column_type(st, 4) != SQLITE_NULL)
            fprintf(out, " gateway %s", dotted((uint32_t)sqlite3_column_int64(st, 4), c));
        if (sqlite3_column_int(st, 5) != 1500)
            fprintf(out, " mtu %d", sqlite3_column_int(st, 5));
        fputc('\n', out);
    }
}

/* The cables of hosts' ports, last. */
static void print_host_links(struct lab *lab, FILE *out, bool first)
{
    static const char *const q = "SELECT h.name, p.port, s.name, p.peer_port, r.name, p.peer_rport, o.name,"
                                 " p.peer_hport FROM host_port p JOIN host h ON h.id = p.host_id"
                                 " LEFT JOIN switch s ON s.id = p.peer_switch LEFT JOIN router r ON r.id = p.peer_router"
                                 " LEFT JOIN host o ON o.id = p.peer_host"
                                 " WHERE p.peer_switch IS NOT NULL OR p.peer_router IS NOT NULL OR p.peer_host IS NOT NULL"
                                 " ORDER BY p.host_id, p.port";
    sqlite3_stmt *st = lab_stmt(lab, q);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (first)
            fprintf(out, "\n! cables\n");
        first = false;
        fprintf(out, "link %s eth%d ", sqlite3_column_text(st, 0), sqlite3_column_int(st, 1));
        if (sqlite3_column_type(st, 2) != SQLITE_NULL)
            fprintf(out, "%s %s\n", sqlite3_column_text(st, 2), sqlite3_column_text(st, 3));
        else if (sqlite3_column_type(st, 4) != SQLITE_NULL)
            fprintf(out, "%s eth%d\n", sqlite3_column_text(st, 4), sqlite3_column_int(st, 5));
        else
            fprintf(out, "%s eth%d\n", sqlite3_column_text(st, 6), sqlite3_column_int(st, 7));
    }
}

/* The switches' starting configurations, as blocks of a lab file. */
static void print_configs(struct lab *lab, FILE *out)
{
    for (int i = 0; i < lab_switch_count(lab); i++) {
        char *text = config_text(lab, i);
        if (text)
            fprintf(out, "\n! starting configuration of %s (lab create, lab reset)\nconfig %s\n%send-config\n",
                    lab_switch_name(lab, i), lab_switch_name(lab, i), text);
        free(text);
    }
}

void topology_print(struct lab *lab, FILE *out)
{
    static const char *const q_seed = "SELECT value FROM lab_meta WHERE key = 'seed'";
    static const char *const q_mod = "SELECT slot, model FROM module WHERE switch_id = ? ORDER BY slot";
    static const char *const q_link =
        "SELECT a.name, l.a_port, b.name, l.b_port FROM link l JOIN switch a ON a.id = l.a_switch"
        " JOIN switch b ON b.id = l.b_switch ORDER BY l.rowid";
    sqlite3_stmt *st = lab_stmt(lab, q_seed);
    fprintf(out, "! mdsim lab: %d switch%s\nseed %s\n", lab_switch_count(lab), lab_switch_count(lab) == 1 ? "" : "es",
            sqlite3_step(st) == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : "1");
    for (int i = 0; i < lab_switch_count(lab); i++) {
        const struct chassis_model *ch = catalog_chassis(lab_switch_chassis(lab, i));
        fprintf(out, "\n! %s, %d slots; host name now %s\n", ch ? ch->name : "unknown chassis", ch ? ch->slots : 0,
                lab_hostname(lab, i));
        fprintf(out, "switch %s chassis %s\n", lab_switch_name(lab, i), lab_switch_chassis(lab, i));
        st = lab_stmt(lab, q_mod);
        sqlite3_bind_int(st, 1, lab_switch_id(lab, i));
        while (sqlite3_step(st) == SQLITE_ROW) {
            const struct module_model *m = catalog_module((const char *)sqlite3_column_text(st, 1));
            fprintf(out, "  module %d %-18s ! %s\n", sqlite3_column_int(st, 0), sqlite3_column_text(st, 1),
                    m ? m->type : "unknown module");
        }
    }
    print_routers(lab, out);
    print_hosts(lab, out);
    st = lab_stmt(lab, q_link);
    bool first = true;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (first)
            fprintf(out, "\n! cables\n");
        first = false;
        fprintf(out, "link %s %s %s %s\n", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
                sqlite3_column_text(st, 2), sqlite3_column_text(st, 3));
    }
    print_host_links(lab, out, print_router_links(lab, out, first));
    print_configs(lab, out);
}

bool topology_reset(struct lab *lab, int sw, FILE *out, char *err, size_t errlen)
{
    if (sw >= lab_switch_count(lab)) { /* a host keeps no configuration (docs/hosts.md) */
        snprintf(err, errlen, "%s is a host: it has no configuration to reset", lab_switch_name(lab, sw));
        return false;
    }
    strbuf said;
    sb_init(&said);
    char why[4400];
    int bad = 0, at = 0;
    lab_lock(lab);
    lab_txn_begin(lab);
    for (int i = 0; bad == 0 && i < lab_switch_count(lab); i++) {
        if (sw >= 0 && i != sw)
            continue;
        char *text = config_text(lab, i);
        bad = start_switch(lab, i, text, why, sizeof why);
        at = i;
        sb_printf(&said, "lab reset: %s reset to %s\n", lab_switch_name(lab, i),
                  text ? "its starting configuration" : "factory configuration");
        free(text);
    }
    bool ok = lab_txn_end(lab, bad == 0) && bad == 0;
    if (bad)
        snprintf(err, errlen, "the starting configuration of %s fails at its line %d: %s", lab_switch_name(lab, at),
                 bad, why);
    else if (!ok)
        snprintf(err, errlen, "%s", lab_store_error(lab));
    lab_unlock(lab);
    if (ok) /* not under the lab lock: out may be a slow client */
        fputs(sb_str(&said), out);
    sb_free(&said);
    return ok;
}
