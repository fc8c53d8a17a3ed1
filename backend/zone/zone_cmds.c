/* `zone default-zone permit vsan N` and `show zone status [vsan N]`. */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "vsan/vsan.h"
#include "vsan/vsan_store.h"
#include "zone.h"
#include <stdio.h>
#include <string.h>

static int cmd_default_zone(struct session *s, const struct cmd_args *a)
{
    zone_default_set(s->lab, s->sw, (int)arg_num(a, "vsan-id", 1), !a->negated);
    return 0;
}

/* The layout of NX-OS 5.2 for a VSAN without zonesets (basic mode, no
 * full or active database): only the default zone policy varies. */
static void show_status(struct session *s, int vsan)
{
    bool permit = zone_default_permits(s->lab, s->sw, vsan);
    cmd_printf(s, "VSAN: %d default-zone: %s distribute: active only Interop: default\n", vsan,
               permit ? "permit" : "deny");
    cmd_printf(s, "    mode: basic merge-control: allow\n"
                  "    session: none\n"
                  "    hard-zoning: enabled broadcast: unsupported\n"
                  "    smart-zoning: disabled\n"
                  "    rscn-format: fabric-address\n"
                  "    activation overwrite control: disabled\n"
                  "Default zone:\n"
                  "    qos: none broadcast: unsupported ronly: unsupported\n"
                  "Full Zoning Database :\n"
                  "    DB size: 4 bytes\n"
                  "    Zonesets: 0 Zones: 0 Aliases: 0\n"
                  "Active Zoning Database :\n"
                  "    Database Not Available\n"
                  "Status:\n");
}

/* A VSAN has a status when it exists or its default zone was configured
 * ahead of it. */
static bool has_status(struct session *s, int vsan)
{
    if (vsan == VSAN_EVFP) /* reserved: no zone server */
        return false;
    return vsan_exists(s->lab, s->sw, vsan) || zone_default_permits(s->lab, s->sw, vsan);
}

static int show_zone_status(struct session *s, const struct cmd_args *a)
{
    if (arg_has(a, "vsan")) {
        int vsan = (int)arg_num(a, "id", 1);
        if (!has_status(s, vsan))
            return cmd_error(s, "%% vsan not present");
        show_status(s, vsan);
        return 0;
    }
    /* the VSANs with a status, read once: two store lookups for each of
     * 4,093 ids were most of this command's time */
    struct vsan_set has;
    memset(&has, 0, sizeof has);
    vsan_set_add(&has, 1, 1);
    int ids[VSAN_MAX_USER];
    for (int i = 0, n = vsan_ids(s->lab, s->sw, ids, VSAN_MAX_USER); i < n; i++)
        vsan_set_add(&has, ids[i], ids[i]);
    for (int i = 0, n = zone_permit_vsans(s->lab, s->sw, ids, VSAN_MAX_USER); i < n; i++)
        vsan_set_add(&has, ids[i], ids[i]);
    for (int vsan = 1; vsan <= VSAN_MAX_USER; vsan++)
        if (vsan != VSAN_EVFP && vsan_set_has(&has, vsan)) {
            if (vsan > 1)
                cmd_printf(s, "\n");
            show_status(s, vsan);
        }
    return 0;
}

static const char *const dz_help = "zone: Zone configuration commands\n"
                                   "default-zone: Configure default zone policy\n"
                                   "permit: Permit traffic between members of the default zone\n"
                                   "vsan: Specify the VSAN\nvsan-id: VSAN id";

const struct cmd_def zone_cmds[] = {
    {M_CONFIG_ALL, "[no] zone default-zone permit vsan <vsan-id:1-4093>", dz_help, cmd_default_zone, 0, 0, 0},
    {M(MODE_EXEC), "show zone status [vsan <id:1-4093>]",
     "zone: Zone server information\nstatus: Show zone server status\nvsan: Specify the VSAN\nid: VSAN id",
     show_zone_status, CMD_PIPE, 0, 0},
    {0},
};
