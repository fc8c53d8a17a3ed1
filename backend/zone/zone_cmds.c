/* Zoning commands: the default zone, zones and zonesets with their
 * sub-modes, activation, `clear zone database` (docs/zoning.md). The
 * shows are zone_show.c's. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "zone.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int cmd_default_zone(struct session *s, const struct cmd_args *a)
{
    zone_default_set(s->lab, s->sw, (int)arg_num(a, "vsan-id", 1), !a->negated);
    return 0;
}

/* NX-OS's rules and words (mds-cli.md §13.7). */
static int bad_name(struct session *s, const char *name)
{
    if (strlen(name) > 64)
        return cmd_error(s, "%% String exceeded max length of (64)");
    if (!isalpha((unsigned char)name[0]))
        return cmd_error(s, "%% Illegal first character (name must start with a letter)");
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_-$^", *p))
            return cmd_error(s, "%% Illegal character present in the name");
    return 0;
}

static int room_for(struct session *s, bool is_set)
{
    if (zone_count_of(s->lab, s->sw, is_set ? ZK_SETS : ZK_ZONES) >= (is_set ? ZONE_MAX_SETS : ZONE_MAX_ZONES))
        return cmd_error(s, "%% Maximum number of %s (%d) reached", is_set ? "zonesets" : "zones",
                         is_set ? ZONE_MAX_SETS : ZONE_MAX_ZONES);
    return 0;
}

/* (config-zone), (config-zoneset): the zone's or zoneset's name and VSAN,
 * the session's sub-mode key. */
struct zone_key {
    int vsan;
    char name[65];
};
_Static_assert(sizeof(struct zone_key) <= MODE_CTX_KEY, "a zone's key fits a session's mode context");

static struct zone_key zone_key(const struct session *s)
{
    struct zone_key k;
    mode_ctx_key_get(&s->ctx, &k, sizeof k);
    return k;
}

/* `zone name Z vsan N` and `zoneset name S vsan N`: into the sub-mode, the
 * object made when new; the `no` form deletes it. */
static int object_cmd(struct session *s, const struct cmd_args *a, bool is_set)
{
    const char *name = arg_str(a, is_set ? "sname" : "zname");
    int vsan = (int)arg_num(a, "vsan-id", 1);
    if (bad_name(s, name))
        return -1;
    bool exists = is_set ? zoneset_exists(s->lab, s->sw, vsan, name) : zone_exists(s->lab, s->sw, vsan, name);
    if (a->negated) {
        if (!exists)
            return cmd_error(s, "%% %s %s not present in vsan %d", is_set ? "Zoneset" : "Zone", name, vsan);
        zone_delete(s->lab, s->sw, vsan, name, is_set);
        return 0;
    }
    if (!exists && room_for(s, is_set))
        return -1;
    zone_create(s->lab, s->sw, vsan, name, is_set);
    s->mode = is_set ? &zoneset_mode : &zone_mode;
    struct zone_key k = {vsan, ""};
    snprintf(k.name, sizeof k.name, "%s", name);
    mode_ctx_key_set(&s->ctx, &k, sizeof k);
    return 0;
}

static int cmd_zone(struct session *s, const struct cmd_args *a) { return object_cmd(s, a, false); }
static int cmd_zoneset(struct session *s, const struct cmd_args *a) { return object_cmd(s, a, true); }

/* A member's value as the store keeps it. */
static int member_value(struct session *s, const struct cmd_args *a, bool pwwn, const char **kind, char *value,
                        size_t n)
{
    if (pwwn) {
        const struct cmd_arg *w = arg_get(a, "wwn");
        *kind = "pwwn";
        snprintf(value, n, "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x", w->wwn[0], w->wwn[1], w->wwn[2], w->wwn[3],
                 w->wwn[4], w->wwn[5], w->wwn[6], w->wwn[7]);
        return 0;
    }
    const char *text = arg_str(a, "fcid-value");
    char *end;
    unsigned long v = strtoul(text, &end, 16);
    if (strncasecmp(text, "0x", 2) != 0 || *end || end - text > 8 || end - text < 3 || v > 0xFFFFFFu)
        return cmd_error(s, "%% Invalid FCID: %s", text);
    *kind = "fcid";
    snprintf(value, n, "0x%06lx", v);
    return 0;
}

static int zone_member(struct session *s, const struct cmd_args *a, bool pwwn)
{
    const char *kind = NULL;
    char value[32];
    if (member_value(s, a, pwwn, &kind, value, sizeof value))
        return -1;
    struct zone_key k = zone_key(s);
    bool has = zone_member_has(s->lab, s->sw, k.vsan, k.name, kind, value);
    if (a->negated && !has)
        return cmd_error(s, "%% Member %s %s not present in zone %s", kind, value, k.name);
    if (!a->negated && !has && zone_count_of(s->lab, s->sw, ZK_MEMBERS) >= ZONE_MAX_MEMBERS)
        return cmd_error(s, "%% Maximum number of zone members (%d) reached", ZONE_MAX_MEMBERS);
    zone_member_set(s->lab, s->sw, k.vsan, k.name, kind, value, !a->negated);
    return 0;
}

static int cmd_member_pwwn(struct session *s, const struct cmd_args *a) { return zone_member(s, a, true); }
static int cmd_member_fcid(struct session *s, const struct cmd_args *a) { return zone_member(s, a, false); }

static int cmd_zoneset_member(struct session *s, const struct cmd_args *a)
{
    const char *zone = arg_str(a, "zname");
    if (bad_name(s, zone))
        return -1;
    struct zone_key k = zone_key(s);
    bool has = zoneset_member_has(s->lab, s->sw, k.vsan, k.name, zone);
    if (a->negated && !has)
        return cmd_error(s, "%% Zone %s not present in zoneset %s", zone, k.name);
    zoneset_member_set(s->lab, s->sw, k.vsan, k.name, zone, !a->negated);
    return 0;
}

/* The active zoneset is a copy: later edits of the full database change
 * nothing active until the next activation. */
static int cmd_activate(struct session *s, const struct cmd_args *a)
{
    const char *name = arg_str(a, "sname");
    int vsan = (int)arg_num(a, "vsan-id", 1);
    if (a->negated) {
        char active[65];
        if (!zone_active_name(s->lab, s->sw, vsan, active, sizeof active, NULL) || strcmp(active, name) != 0)
            return cmd_error(s, "%% Zoneset %s is not active in vsan %d", name, vsan);
        zone_deactivate(s->lab, s->sw, vsan);
        cmd_printf(s, "Zoneset deactivation initiated. check zone status\n");
        return 0;
    }
    if (!zone_activate(s->lab, s->sw, vsan, name, (int64_t)lab_now(s->lab)))
        return cmd_error(s, "%% Zoneset %s not present in vsan %d", name, vsan);
    cmd_printf(s, "Zoneset activation initiated. check zone status\n");
    return 0;
}

static int cmd_clear_db(struct session *s, const struct cmd_args *a)
{
    zone_clear_database(s->lab, s->sw, (int)arg_num(a, "vsan-id", 1));
    return 0;
}

/* A sub-mode's zone or zoneset may be deleted by another session. */
static bool zone_ok(struct session *s)
{
    struct zone_key k = zone_key(s);
    if (zone_exists(s->lab, s->sw, k.vsan, k.name))
        return true;
    cmd_error(s, "%% Zone %s not present in vsan %d", k.name, k.vsan);
    return false;
}

static bool zoneset_ok(struct session *s)
{
    struct zone_key k = zone_key(s);
    if (zoneset_exists(s->lab, s->sw, k.vsan, k.name))
        return true;
    cmd_error(s, "%% Zoneset %s not present in vsan %d", k.name, k.vsan);
    return false;
}

const struct mode_check zone_mode_checks[] = {
    {&zone_mode, NULL, zone_ok},
    {&zoneset_mode, NULL, zoneset_ok},
    {MODE_EXEC, NULL, NULL},
};

static const char *const dz_help = "zone: Zone configuration commands\n"
                                   "default-zone: Configure default zone policy\n"
                                   "permit: Permit traffic between members of the default zone\n"
                                   "vsan: Specify the VSAN\nvsan-id: VSAN id";
#define VSAN_HELP "vsan: Specify the VSAN\nvsan-id: VSAN id"
#define ZONE_HELP "zone: Zone configuration commands\nname: Name of the zone\nzname: Zone name\n" VSAN_HELP
#define SET_HELP "zoneset: Zoneset configuration commands\nname: Name of the zoneset\nsname: Zoneset name\n" VSAN_HELP
#define MEMBER_HELP                                                                                                \
    "member: Add a member to the zone\npwwn: Add a port WWN\nwwn: Port WWN (hh:hh:hh:hh:hh:hh:hh:hh)\nfcid: Add an " \
    "FCID\nfcid-value: FCID (0xhhhhhh)"
#define SHOW_VSAN "vsan: Specify the VSAN\nvid: VSAN id"

const struct cmd_def zone_cmds[] = {
    {M_CONFIG_ALL, "[no] zone default-zone permit vsan <vsan-id:1-4093>", dz_help, cmd_default_zone, 0, 0, 0},
    {M_CONFIG_ALL, "[no] zone name <zname:word> vsan <vsan-id:1-4093>", ZONE_HELP, cmd_zone, 0, 0, 0},
    {M_CONFIG_ALL, "[no] zoneset name <sname:word> vsan <vsan-id:1-4093>", SET_HELP, cmd_zoneset, 0, 0, 0},
    {M_CONFIG_ALL, "[no] zoneset activate name <sname:word> vsan <vsan-id:1-4093>",
     SET_HELP "\nactivate: Activate a zoneset", cmd_activate, CMD_PIPE, 0, 0},
    {MODES(&zone_mode), "[no] member pwwn <wwn:wwn>", MEMBER_HELP, cmd_member_pwwn, 0, 0, 0},
    {MODES(&zone_mode), "[no] member fcid <fcid-value:word>", MEMBER_HELP, cmd_member_fcid, 0, 0, 0},
    {MODES(&zoneset_mode), "[no] member <zname:word>", "member: Add a zone to the zoneset\nzname: Zone name",
     cmd_zoneset_member, 0, 0, 0},
    {MODES(MODE_EXEC), "clear zone database vsan <vsan-id:1-4093>",
     "clear: Reset functions\nzone: Zone server\ndatabase: Clear the full zone database\n" VSAN_HELP, cmd_clear_db,
     0, 0, 0},
    {MODES(MODE_EXEC), "show zone status [vsan <id:1-4093>]",
     "zone: Zone server information\nstatus: Show zone server status\nvsan: Specify the VSAN\nid: VSAN id",
     zone_show_status, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show zone [name <zname:word>] [vsan <vid:1-4093>]",
     "zone: Zone server information\nname: Show one zone\nzname: Zone name\n" SHOW_VSAN, zone_show_zone, CMD_PIPE,
     0, 0},
    {MODES(MODE_EXEC), "show zoneset [name <sname:word>] [vsan <vid:1-4093>]",
     "zoneset: Zoneset information\nname: Show one zoneset\nsname: Zoneset name\n" SHOW_VSAN, zone_show_zoneset,
     CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show zoneset active [vsan <vid:1-4093>]",
     "zoneset: Zoneset information\nactive: Show the active zoneset\n" SHOW_VSAN, zone_show_active, CMD_PIPE, 0, 0},
    {0},
};
