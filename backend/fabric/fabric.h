/*
 * The Fibre Channel fabric of the lab: per switch and VSAN a domain, the
 * ISLs between switches (FCIP links register theirs), the N ports logged
 * in, and the forwarding of frames by destination domain along the
 * shortest path of ISLs that carry the frame's VSAN. An engine object: no
 * store, no session (the features reconcile it).
 *
 * Domains (docs/fcdomain.md). A switch has, per VSAN, a configured
 * domain (`fcdomain domain`, none by default) and a running one, which it
 * takes when the VSAN appears on it, when it boots, and at a disruptive
 * restart: its configured domain, else its default 0xEF - i for switch i
 * (so a lab without configuration never collides). A preferred domain that
 * another switch of its fabric holds yields to the highest free one; a
 * static one is kept, and the switch's ISLs then isolate the VSAN. An ISL
 * that would join two parts of a VSAN whose domains overlap does not carry
 * it (fabric_domains_overlap). mdsim does not run the principal-switch
 * election: the switch with the lowest index in a connected VSAN is its
 * principal.
 *
 * A switch's domain controller (0xFFFCdd) answers ELS ECHO after
 * FABRIC_DC_SERVICE_NS, so a path can be tested before any N port exists.
 */
#ifndef MDSIM_FABRIC_H
#define MDSIM_FABRIC_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "fc_frame.h"
#include "vsan/vsan.h" /* struct vsan_set */

#define FABRIC_VSAN_MAX 4094
#define FABRIC_DC_SERVICE_NS 50000u /* the domain controller's echo service time */
#define FABRIC_FIRST_DOMAIN 0xEF

struct fabric;


/* A WWN as the switch prints it: lower-case hh:hh:hh:hh:hh:hh:hh:hh. */
void fabric_wwn_text(const uint8_t w[8], char out[24]);

struct fabric *fabric_new(engine_t *e, int nswitches);
void fabric_free(struct fabric *fab);

/* Frames come from the fabric's pool and go back to it. */
struct fc_frame *fabric_frame_new(struct fabric *fab);
void fabric_frame_free(struct fabric *fab, struct fc_frame *f);

/* The VSANs that exist on a switch (VSAN 1 always does). */
void fabric_set_vsans(struct fabric *fab, int sw, const struct vsan_set *vsans);
bool fabric_has_vsan(const struct fabric *fab, int sw, int vsan);
/* The VSANs whose default zone permits on switch sw (`zone default-zone
 * permit vsan N`); in the others (all, at first) frames between two N
 * ports are dropped where they enter the fabric. */
void fabric_set_zone_permit(struct fabric *fab, int sw, const struct vsan_set *permit);
/* The switch's running domain in a VSAN, 0 when the VSAN is not on it. */
int fabric_domain(const struct fabric *fab, int sw, int vsan);
/* Its configured domains (the fabric feature's reconcile): none in any
 * VSAN, then one (1-239) per VSAN that has one. A running domain changes
 * only when taken again (above), never by this. */
void fabric_domains_unconfigure(struct fabric *fab, int sw);
void fabric_domain_configure(struct fabric *fab, int sw, int vsan, int domain, bool is_static);
/* When the switch last booted (lab time): a new boot takes the domain of
 * every VSAN again. */
void fabric_set_boot(struct fabric *fab, int sw, uint64_t boot_ns);
/* `fcdomain restart [disruptive] vsan N`: the VSANs' fabrics are built
 * again. Disruptive, the switch takes its domain in each again; not
 * disruptive, it keeps the ones it runs (the configuration guide: a new
 * domain ID needs a disruptive restart). Either way every ISL checks its
 * VSANs again. VSANs not on the switch are passed over. */
void fabric_restart(struct fabric *fab, int sw, const struct vsan_set *vsans, bool disruptive);
/* Would an ISL between switches a and b join two parts of the VSAN where
 * two different switches hold one domain? Every ISL between a and b is
 * left out, so both ends of a link get the same answer, up or not. */
bool fabric_domains_overlap(const struct fabric *fab, int a, int b, int vsan);
/* Who hears that running domains changed or a fabric was built again (the
 * FCIP links, which check the VSANs they carry then). One listener. */
typedef void (*fabric_rebuilt_fn)(void *ctx);
void fabric_on_rebuilt(struct fabric *fab, fabric_rebuilt_fn fn, void *ctx);
/* The switch's WWN, as `show fcdomain` prints it. */
void fabric_switch_wwn(const struct fabric *fab, int sw, char *buf, int n);

/* An ISL from switch sw to peer_sw carrying `vsans`; send() takes the
 * frame (and frees it, or hands it on). Returns the ISL's id (> 0). */
typedef void (*fabric_send_fn)(void *ctx, struct fc_frame *f);
int fabric_isl_up(struct fabric *fab, int sw, int peer_sw, const struct vsan_set *vsans, fabric_send_fn send,
                  void *ctx);
void fabric_isl_down(struct fabric *fab, int id);
/* The VSANs an up ISL carries change (a port-channel's members come and
 * go, docs/port-channel.md): its switch's LSR changes only when they do. */
void fabric_isl_vsans(struct fabric *fab, int id, const struct vsan_set *vsans);

/* FSPF (docs/fspf.md). What an ISL's end is, as its link-state record
 * and `show topology` name it: its interface, the addresses of its two
 * ends (FCIP; they pair it with the peer's end), and the cost its
 * bandwidth gives (FSPF_COST_REF / Mb/s). */
#define FABRIC_COST_REF_MBPS 1000000u /* 1 Gb/s: 1000, 2 Gb/s: 500 */
#define FABRIC_COST_MAX 65535u
struct fabric_isl_info {
    char ifname[16]; /* "fcip1" */
    uint32_t ifindex;
    uint32_t local_ip, peer_ip;
    uint32_t cost; /* the default, 1 to FABRIC_COST_MAX */
};
void fabric_isl_describe(struct fabric *fab, int id, const struct fabric_isl_info *info);
uint32_t fabric_cost_of_bandwidth(uint64_t bps);
/* FSPF's configuration of an interface of sw in a VSAN, 0 for each
 * default: `fspf cost N vsan V` replaces the cost of its ISL there; the
 * hello and dead intervals are its hellos' (backend/fcip/fspf.c). The
 * fspf feature's reconcile gives a switch's as a whole: clear, set each,
 * done (which forgets those not set again). */
#define FABRIC_FSPF_HELLO_S 20u
#define FABRIC_FSPF_DEAD_S 80u
struct fabric_if_fspf {
    uint32_t cost, hello_s, dead_s;
};
void fabric_costs_clear(struct fabric *fab, int sw);
void fabric_if_fspf_set(struct fabric *fab, int sw, const char *ifname, int vsan, const struct fabric_if_fspf *c);
void fabric_cost_set(struct fabric *fab, int sw, const char *ifname, int vsan, uint32_t cost);
void fabric_costs_done(struct fabric *fab, int sw);
/* The configuration in force, the defaults filled in (cost 0: none
 * configured, the bandwidth's). */
void fabric_if_fspf_get(const struct fabric *fab, int sw, const char *ifname, int vsan, struct fabric_if_fspf *c);
/* The cost the interface's up ISL has in the VSAN (0: it has none). */
uint32_t fabric_if_cost(const struct fabric *fab, int sw, const char *ifname, int vsan);
/* The interface's end refuses its neighbor's hellos in the VSAN (their
 * intervals differ from its own): no adjacency, so its ISL leaves the LSR
 * there until a hello is accepted again. */
void fabric_fspf_refuse(struct fabric *fab, int sw, const char *ifname, int vsan, bool refused);

/* A link of sw's link-state record in a VSAN: each of its up ISLs that
 * carries the VSAN to a switch that has it. */
struct fabric_link {
    int isl;          /* its id */
    int peer_sw, peer_domain;
    uint32_t cost;
    const char *ifname, *peer_ifname; /* peer_ifname "" when its end is not known */
    uint32_t ifindex, peer_ifindex, peer_ip;
};
int fabric_lsr(const struct fabric *fab, int sw, int vsan, struct fabric_link *out, int max);
/* The shortest paths from sw in a VSAN (Dijkstra over the LSRs): per
 * switch the path's cost, hops and first ISL (-1 unreachable; sw itself
 * cost 0, isl -2). Ties go to fewer hops, then to the ISL registered
 * first, so equal paths always pick the same one. */
struct fabric_route {
    int first_isl; /* index in the fabric's ISL table, as fabric_paths gives */
    int isl_id;    /* its id (0 for none) */
    uint32_t cost;
    int hops;
};
void fabric_spf(const struct fabric *fab, int sw, int vsan, struct fabric_route *out);
int fabric_switch_count(const struct fabric *fab);
/* When sw's link-state record last changed (an ISL of its came or went,
 * in any VSAN [G]) and how many times it did. */
struct fabric_lsr_stamp {
    uint64_t changed_ns;
    uint32_t changes;
};
void fabric_lsr_stamp(const struct fabric *fab, int sw, int vsan, struct fabric_lsr_stamp *st);
/* The next switch from sw toward the switch holding `domain` in the
 * VSAN (-1: unreachable; sw itself when it holds it). */
int fabric_next_hop(const struct fabric *fab, int sw, int vsan, int domain);

/* Domains of a VSAN reachable from sw (sw's own first): fills doms with
 * up to max switch indexes; returns how many. */
int fabric_reachable(const struct fabric *fab, int sw, int vsan, int *sws, int max);
/* The principal switch of sw's part of the VSAN (its lowest index). */
int fabric_principal(const struct fabric *fab, int sw, int vsan);

/* N ports. A port logs in on switch sw in a VSAN and gets an FCID; its
 * rx() gets (and owns) each frame addressed to it. */
typedef void (*fabric_rx_fn)(void *ctx, struct fc_frame *f);
uint32_t fabric_login(struct fabric *fab, int sw, int vsan, const uint8_t pwwn[8], fabric_rx_fn rx, void *ctx);
void fabric_logout(struct fabric *fab, int sw, int vsan, uint32_t fcid);
/* The name server as seen from sw: the FCID of pwwn in the VSAN, when a
 * port with it is logged in on a switch reachable in that VSAN. */
bool fabric_lookup(const struct fabric *fab, int sw, int vsan, const uint8_t pwwn[8], uint32_t *fcid);

/* What `show flogi database` and `show fcns database` print of a port
 * besides its pWWN: its node name, the interface it logged in on, its
 * FC4-TYPE:FEATURE ("scsi-fcp:init"). The strings must outlive the login
 * (fc4) or are copied (ifname). */
void fabric_port_describe(struct fabric *fab, int sw, uint32_t fcid, const uint8_t nwwn[8], const char *ifname,
                          const char *fc4);
/* The logins seen from sw in a VSAN (0: every VSAN), in login order: on sw
 * itself or on a switch reachable in that VSAN (fabric_lookup's rule). */
struct fabric_port {
    int sw, vsan;
    uint32_t fcid;
    uint8_t pwwn[8], nwwn[8];
    const char *ifname, *fc4;
};
typedef void (*fabric_port_fn)(void *ctx, const struct fabric_port *p);
void fabric_ports_each(const struct fabric *fab, int sw, int vsan, fabric_port_fn fn, void *ctx);

/* Tells the frame's origin it arrived (once; delivery calls it). */
void fabric_frame_left(struct fc_frame *f);

/* Forwards a frame entering the fabric at switch sw (from a local port, or
 * arriving over an ISL): delivered locally when its domain is sw's, else
 * over the next ISL toward it; dropped (and counted) when no path. */
void fabric_send(struct fabric *fab, int sw, struct fc_frame *f);

struct fabric_stats {
    uint64_t forwarded, delivered, no_route;
    uint64_t zone_drops; /* between N ports of a VSAN whose default zone denies */
};
void fabric_stats_get(const struct fabric *fab, struct fabric_stats *st);

/* fcping (engine part): ELS ECHO from sw's domain controller to d_id in
 * vsan, `count` frames one second apart, each awaited up to timeout_ns.
 *   fabric_echo_start returns -1 when sw has no domain in the VSAN;
 *   fabric_echo_wait runs the engine until frame seq is answered or timed
 *     out and returns its round trip (UINT64_MAX when lost);
 *   fabric_echo_end forgets it (late answers are then ignored). */
struct fabric_echo {
    int vsan;
    uint32_t d_id;
    int count;
    uint32_t size; /* payload bytes of the ELS */
    uint64_t timeout_ns;
    /* the rest is the fabric's */
    int sw, id, sent;
    uint64_t t0;
    uint64_t *rtt_ns;
    struct fabric_echo *next;
};
int fabric_echo_start(struct fabric *fab, int sw, struct fabric_echo *e);
uint64_t fabric_echo_send_time(const struct fabric_echo *e, int seq);
uint64_t fabric_echo_wait(struct fabric *fab, struct fabric_echo *e, int seq);
void fabric_echo_end(struct fabric *fab, struct fabric_echo *e);

#endif
