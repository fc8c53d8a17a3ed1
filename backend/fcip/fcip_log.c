/* What an FCIP end logs when its state changes (mds-cli-15-failures.md
 * §15.2; the [G] choices in docs/failures.md): the engine tells each
 * change (fcip_engine_on_change), this writes the switch's lines. */
#include "fcip_log.h"
#include "fcip_cause.h"
#include "logging/syslog.h"
#include <stdio.h>

static bool is_down(enum fcip_state s) { return s <= FCIP_ISOLATED; }

/* An end that never came up says so once, not at every attempt. */
static bool worth_a_line(const struct fcip_change *c)
{
    if (c->to == FCIP_INIT)
        return false;
    if (c->cause == FCIP_CAUSE_NOT_CONNECTED && is_down(c->from))
        return false;
    return true;
}

/* The link's line, then one per VSAN the trunk carried (§15.3 case A). */
static void log_down(struct lab *lab, const struct fcip_change *c)
{
    const struct fcip_cause_words *w = fcip_cause_words(c->cause);
    if (!w->mnemonic)
        return;
    syslog_emit(lab, c->sw, "PORT", SEV_NOTICE, w->mnemonic, w->vsan_tag ? c->port_vsan : 0,
                "Interface fcip%d is down%s(%s)", c->id, w->tight ? "" : " ", w->reason);
    if (c->from != FCIP_TRUNKING)
        return;
    for (int v = 1; v < 4094; v++)
        if (vsan_set_has(c->was_up, v))
            syslog_emit(lab, c->sw, "PORT", SEV_NOTICE, "IF_TRUNK_DOWN", v, "Interface fcip%d, vsan %d is down (%s)",
                        c->id, v, w->reason);
}

static const char *isolation(const struct fcip_change *c, int v)
{
    return vsan_set_has(c->overlap, v)         ? "Isolation due to domain overlap"
           : vsan_set_has(c->zone_conflict, v) ? "Isolation due to zone merge failure"
                                               : "Isolation due to vsan not configured on peer";
}

/* Each VSAN of a trunk that came up, and each one isolated; for a trunk
 * that was up already, only the VSANs that changed (one gone from its
 * lists altogether, as when its own end stops allowing it, says nothing
 * [G]). */
static void log_trunk(struct lab *lab, const struct fcip_change *c)
{
    bool again = c->from == FCIP_TRUNKING;
    for (int v = 1; v < 4094; v++) {
        if (vsan_set_has(c->up, v) && !(again && vsan_set_has(c->was_up, v)))
            syslog_emit(lab, c->sw, "PORT", SEV_NOTICE, "IF_TRUNK_UP", v, "Interface fcip%d, vsan %d is up", c->id,
                        v);
        else if (vsan_set_has(c->isolated, v) && !(again && vsan_set_has(c->was_isolated, v)))
            syslog_emit(lab, c->sw, "PORT", SEV_NOTICE, "IF_TRUNK_DOWN", v, "Interface fcip%d, vsan %d is down (%s)",
                        c->id, v, isolation(c, v));
    }
}

/* The zone server's line for each VSAN newly isolated by a merge that
 * failed, after the link's coming up and before the VSAN's own line
 * (S61: severity 2, so on the console too). */
static void log_zone_merge(struct lab *lab, const struct fcip_change *c)
{
    bool again = c->from == c->to;
    if (c->to != FCIP_TRUNKING && c->to != FCIP_UP && c->cause != FCIP_CAUSE_ZONE_MERGE)
        return; /* a link going down, or isolated for another reason, merged nothing */
    for (int v = 1; v < 4094; v++)
        if (vsan_set_has(c->zone_conflict, v) && !(again && vsan_set_has(c->was_isolated, v)))
            syslog_emit(lab, c->sw, "ZONE", SEV_CRIT, "ZS_MERGE_FAILED", v,
                        "Zone merge failure, isolating interface fcip%d received reason: Member mismatch Received "
                        "rjt from adjacent switch:[reason:0]",
                        c->id);
}

void fcip_log_change(void *ctx, const struct fcip_change *c)
{
    struct lab *lab = ctx;
    if (!worth_a_line(c))
        return;
    if (is_down(c->to)) {
        log_zone_merge(lab, c);
        log_down(lab, c);
        return;
    }
    bool trunk = c->to == FCIP_TRUNKING;
    if (c->from != c->to)
        syslog_emit(lab, c->sw, "PORT", SEV_NOTICE, "IF_UP", c->port_vsan, "Interface fcip%d is up in mode %s", c->id,
                    trunk ? "TE" : "E");
    log_zone_merge(lab, c);
    if (trunk)
        log_trunk(lab, c);
}
