/* The SAN Extension Tuner's commands: `[no] san-ext-tuner enable` (the gate
 * of the tuner and of the IP Network Simulator), `san-ext-tuner` ->
 * (san-ext)#: `nwwn`, `[no] nport ...` -> (san-ext-nport)#: read, write,
 * tape-read, tape-write, stop, clear counters, data-pattern-file. Choices
 * where the reference is silent: docs/tuner.md. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "interface/ge.h"
#include "sanext.h"
#include "sanext_store.h"
#include "tuner.h"
#include "bootflash/bootflash.h"
#include "fabric/fabric.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmd_enable(struct session *s, const struct cmd_args *a)
{
    lab_set_feature(s->lab, s->sw, &sanext_gate, !a->negated);
    return 0;
}

static int cmd_tuner(struct session *s, const struct cmd_args *a)
{
    (void)a;
    s->mode = &sanext_mode;
    return 0;
}

static int cmd_nwwn(struct session *s, const struct cmd_args *a)
{
    sanext_nwwn_set(s->lab, s->sw, arg_get(a, "wwn")->wwn);
    return 0;
}

/* Creates the N port, or enters an existing one (as the capture does). */
/* (san-ext-nport): the N port's pWWN and VSAN, the session's sub-mode key. */
struct nport_key {
    uint8_t pwwn[8];
    int vsan;
};
_Static_assert(sizeof(struct nport_key) <= MODE_CTX_KEY, "an N port's key fits a session's mode context");

static int cmd_nport(struct session *s, const struct cmd_args *a)
{
    const uint8_t *pwwn = arg_get(a, "wwn")->wwn;
    int vsan = (int)arg_num(a, "vid", 1);
    const struct cmd_arg *p = arg_get(a, "port");
    struct sanext_nport_row r;
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface format");
    bool have = sanext_nport_get(s->lab, s->sw, pwwn, vsan, &r);
    if (a->negated) {
        if (!have)
            return cmd_error(s, "%% nport does not exist");
        sanext_nport_delete(s->lab, s->sw, pwwn, vsan);
        return 0;
    }
    if (have && (r.slot != p->slot || r.port != p->port))
        return cmd_error(s, "%% nport exists on interface GigabitEthernet%d/%d", r.slot, r.port);
    if (!have) {
        memset(&r, 0, sizeof r);
        if (!sanext_nwwn(s->lab, s->sw, r.nwwn))
            return cmd_error(s, "%% Configure the node name first (nwwn)");
        memcpy(r.pwwn, pwwn, 8);
        r.vsan = vsan;
        r.slot = p->slot;
        r.port = p->port;
        sanext_nport_add(s->lab, s->sw, &r);
    }
    s->mode = &sanext_nport_mode;
    struct nport_key k = {.vsan = vsan};
    memcpy(k.pwwn, pwwn, 8);
    mode_ctx_key_set(&s->ctx, &k, sizeof k);
    return 0;
}

/* The N port of the sub-mode. Another session may have removed it:
 * nport_ok, the mode's check, refuses the mode's commands then. */
static bool current(struct session *s, struct sanext_nport_row *r)
{
    struct nport_key k;
    mode_ctx_key_get(&s->ctx, &k, sizeof k);
    return sanext_nport_get(s->lab, s->sw, k.pwwn, k.vsan, r);
}

static int cmd_io(struct session *s, const struct cmd_args *a)
{
    static const char *const ops[] = {"read", "write", "tape-read", "tape-write"};
    struct sanext_nport_row np;
    current(s, &np);
    struct sanext_cmd_row r = {.id = (int)arg_num(a, "id", 1),
                               .size = arg_num(a, "bytes", 0),
                               .outstanding = (int)arg_num(a, "n", 1),
                               .transactions = arg_num(a, "count", 0)};
    for (int i = 0; i < 4; i++)
        if (arg_has(a, ops[i]))
            r.op = i;
    memcpy(r.target, arg_get(a, "target-wwn")->wwn, 8);
    if (sanext_cmd_exists(s->lab, s->sw, np.pwwn, np.vsan, r.id))
        return cmd_error(s, "%% Command id %d is in use, stop it first", r.id);
    sanext_cmd_add(s->lab, s->sw, np.pwwn, np.vsan, &r);
    return 0;
}

static int cmd_stop(struct session *s, const struct cmd_args *a)
{
    struct sanext_nport_row np;
    current(s, &np);
    int id = arg_has(a, "all") ? 0 : (int)arg_num(a, "id", 0);
    if (!sanext_cmd_delete(s->lab, s->sw, np.pwwn, np.vsan, id) && id)
        return cmd_error(s, "%% Command id %d is not running", id);
    return 0;
}

static int cmd_clear(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct sanext_nport_row np;
    current(s, &np);
    struct tuner *t = sanext_tuner(s->lab);
    if (t)
        tuner_clear(t, s->sw, np.pwwn, np.vsan);
    return 0;
}

/* `data-pattern-file bootflash:NAME`: the N port's data is that file's
 * bytes, repeated (its compressibility is what compression sees). */
static int cmd_pattern(struct session *s, const struct cmd_args *a)
{
    struct sanext_nport_row np;
    current(s, &np);
    if (a->negated) {
        sanext_nport_pattern(s->lab, s->sw, np.pwwn, np.vsan, NULL);
        return 0;
    }
    const char *uri = arg_str(a, "uri");
    if (strncmp(uri, "bootflash:", 10) != 0 || !bootflash_name_ok(uri + 10))
        return cmd_error(s, "%% Invalid URI: %s (bootflash:NAME)", uri);
    if (!bootflash_exists(s->lab, s->sw, uri + 10))
        return cmd_error(s, "%% No such file: %s", uri);
    sanext_nport_pattern(s->lab, s->sw, np.pwwn, np.vsan, uri + 10);
    return 0;
}

/* Exec commands from the tuner's modes: `do LINE` and `show ...` run at
 * exec as from a configuration mode, and the session comes back to the
 * tuner's mode and N port (even after `do configure terminal`). The parser
 * gives configuration modes these; the tuner's modes are entered from exec
 * and are not configuration, so the tuner declares them (docs/tuner.md). */
static int run_at_exec(struct session *s, const char *line, size_t offset)
{
    const struct mode_info *m = s->mode;
    struct mode_ctx ctx = s->ctx;
    int rc = session_exec_in(s, MODE_EXEC, line, offset);
    s->mode = m;
    s->ctx = ctx;
    return rc ? -1 : 0;
}

static int cmd_do(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *line = arg_get(a, "command");
    return run_at_exec(s, line->str, (size_t)(a->offset + line->off));
}

/* The line from `show` on, as typed (`sh`, `SHOW`) and at the same columns,
 * so that exec's matcher places its caret where the user typed. */
static int cmd_show(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *kw = arg_get(a, "show"), *rest = arg_get(a, "what");
    int gap = rest->off - kw->off;
    size_t n = (size_t)gap + strlen(rest->str) + 1;
    char *line = malloc(n);
    if (!line)
        abort();
    snprintf(line, n, "%-*s%s", gap, kw->str, rest->str);
    int rc = run_at_exec(s, line, (size_t)(a->offset + kw->off));
    free(line);
    return rc;
}

#define IO_SYNTAX                                                                                                  \
    "{read | write | tape-read | tape-write} command-id <id:1-2147483647> target <target-wwn:wwn> "               \
    "transfer-size <bytes:512-16777216> outstanding-ios <n:1-64> {continuous | num-transactions <count:1-2147483647>}"
#define IO_HELP                                                                                                    \
    "read: Start a SCSI read command\nwrite: Start a SCSI write command\ntape-read: Start a sequential read "      \
    "command\ntape-write: Start a sequential write command\ncommand-id: Command identifier\nid: Command "           \
    "identifier\ntarget: Target port WWN\ntarget-wwn: Target port WWN\ntransfer-size: Bytes per I/O\nbytes: "     \
    "Bytes per I/O\noutstanding-ios: I/Os kept in flight\nn: I/Os kept in flight\ncontinuous: Run until "          \
    "stopped\nnum-transactions: Stop after this many I/Os\ncount: Number of I/Os"

const struct cmd_def sanext_cmds[] = {
    {MODES(MODE_CONFIG), "[no] san-ext-tuner enable",
     "san-ext-tuner: SAN extension tuner\nenable: Enable/disable the SAN extension tuner and IP network simulator",
     cmd_enable, 0, 0, 0},
    {MODES(MODE_EXEC), "san-ext-tuner", "san-ext-tuner: Enter the SAN extension tuner", cmd_tuner, 0, &sanext_gate, 0},
    {MODES(&sanext_mode), "nwwn <wwn:wwn>", "nwwn: Node WWN of the virtual N ports\nwwn: Node WWN", cmd_nwwn, 0,
     &sanext_gate, 0},
    {MODES(&sanext_mode, &sanext_nport_mode),
     "[no] nport pwwn <wwn:wwn@sanext-pwwn> vsan <vid:1-4093@sanext-vsan> interface gigabitethernet "
     "<port:slot/port>",
     "nport: Virtual N port\npwwn: Port WWN\nwwn: Port WWN\nvsan: VSAN of the N port\nvid: VSAN id\n"
     "interface: Interface of the N port\ngigabitethernet: Gigabit Ethernet interface\nport: Slot/port",
     cmd_nport, 0, &sanext_gate, 0},
    {MODES(&sanext_nport_mode), IO_SYNTAX, IO_HELP, cmd_io, 0, &sanext_gate, 0},
    {MODES(&sanext_nport_mode), "stop {command-id <id:1-2147483647> | all}",
     "stop: Stop commands\ncommand-id: Command identifier\nid: Command identifier\nall: Every command", cmd_stop,
     0, &sanext_gate, 0},
    {MODES(&sanext_nport_mode), "clear counters", "clear: Clear\ncounters: The N port's counters", cmd_clear, 0,
     &sanext_gate, 0},
    {MODES(&sanext_nport_mode), "data-pattern-file <uri:word>",
     "data-pattern-file: Data pattern of the N port's I/O\nuri: bootflash:NAME", cmd_pattern, 0, &sanext_gate, 0},
    {MODES(&sanext_nport_mode), "no data-pattern-file [<uri:word>]",
     "data-pattern-file: Data pattern of the N port's I/O (all zeros without)\nuri: bootflash:NAME", cmd_pattern, 0,
     &sanext_gate, 0},
    {MODES(&sanext_mode, &sanext_nport_mode), "do <command:line>", "command: Exec command", cmd_do, CMD_PIPE, 0, 0},
    {MODES(&sanext_mode, &sanext_nport_mode), "show <what:line>", "what: Show command", cmd_show, CMD_PIPE, 0, 0},
    SANEXT_SHOW_CMDS,
    {0},
};

/* ---- what the lab knows, for `?` and Tab; the (san-ext-nport) check ---- */

struct nport_list {
    bool (*add)(void *ctx, const char *value);
    void *ctx;
    const uint8_t *pwwn; /* the VSANs of this pWWN's N ports; NULL: their pWWNs */
    bool full;
};

static void list_one(void *ctx, const struct sanext_nport_row *r)
{
    struct nport_list *l = ctx;
    char text[24];
    if (l->full || (l->pwwn && memcmp(l->pwwn, r->pwwn, 8) != 0))
        return;
    if (l->pwwn)
        snprintf(text, sizeof text, "%d", r->vsan);
    else
        fabric_wwn_text(r->pwwn, text);
    l->full = !l->add(l->ctx, text);
}

static void list_pwwns(struct lab *lab, int sw, const struct cmd_args *so_far, const char *prefix,
                       bool (*add)(void *ctx, const char *value), void *ctx)
{
    (void)so_far, (void)prefix;
    struct nport_list l = {add, ctx, NULL, false};
    sanext_nports_each(lab, sw, list_one, &l);
}

/* `nport pwwn W vsan <TAB>`: the VSANs W has N ports in. */
static void list_vsans(struct lab *lab, int sw, const struct cmd_args *so_far, const char *prefix,
                       bool (*add)(void *ctx, const char *value), void *ctx)
{
    (void)prefix;
    const struct cmd_arg *w = arg_get(so_far, "wwn");
    struct nport_list l = {add, ctx, w ? w->wwn : NULL, false};
    if (w)
        sanext_nports_each(lab, sw, list_one, &l);
}

const struct value_source sanext_values[] = {
    {"sanext-pwwn", "Existing N port", list_pwwns},
    {"sanext-vsan", "VSAN of an existing N port", list_vsans},
    {NULL, NULL, NULL},
};

static bool nport_ok(struct session *s)
{
    struct sanext_nport_row r;
    if (current(s, &r))
        return true;
    cmd_error(s, "%% nport does not exist");
    return false;
}

const struct mode_check sanext_mode_checks[] = {
    {&sanext_nport_mode, NULL, nport_ok},
    {MODE_EXEC, NULL, NULL},
};
