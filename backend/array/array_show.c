/* `show storageSubsystem profile`: a trimmed profile in SMcli's layout
 * [G]: summary, controllers, logical drives with RAID level, capacity and
 * cache settings, and the write mode the model runs now. */
#include "feature.h"
#include "array.h"
#include "lab/lab.h"
#include "session.h"

static const char *enabled(bool on) { return on ? "Enabled" : "Disabled"; }

static const char *const mode_text[] = {"write-back, mirrored to the partner", "write-back, not mirrored",
                                        "write-through"};

static void controllers(struct session *s, const struct array_row *r)
{
    cmd_printf(s, "CONTROLLERS------------------------------\n   Number of controllers: %d\n\n", r->conf.controllers);
    for (int c = 0; c < r->conf.controllers; c++)
        cmd_printf(s, "   Controller in Enclosure 0, Slot %c\n      Status:                     %s\n"
                      "      Cache\n         Total data cache:        512 MB\n\n",
                   'A' + c, r->conf.online[c] ? "Online" : "Offline");
}

static void drive(struct session *s, struct array *a, const struct array_row *r, int i)
{
    const struct array_ld_conf *d = &r->conf.ld[i];
    int cur = a ? array_ld_controller(a, i) : -1;
    cmd_printf(s, "   Logical Drive name: %s\n", d->name);
    cmd_printf(s, "      Logical Drive status:           Optimal\n");
    cmd_printf(s, "      Capacity:                       %u.000 GB\n", d->capacity_gb);
    cmd_printf(s, "      RAID level:                     %d\n", d->raid);
    cmd_printf(s, "      Drive type:                     Serial ATA (SATA), 7200 rpm\n");
    cmd_printf(s, "      Number of drives:               %d\n", d->disks);
    cmd_printf(s, "      Segment size:                   %u KB\n", ARRAY_SEGMENT / 1024);
    cmd_printf(s, "      Preferred owner:                Controller in slot %c\n", 'A' + d->owner);
    if (cur < 0)
        cmd_printf(s, "      Current owner:                  none\n");
    else
        cmd_printf(s, "      Current owner:                  Controller in slot %c\n", 'A' + cur);
    cmd_printf(s, "      Read cache:                     %s\n", enabled(d->read_cache));
    cmd_printf(s, "      Write cache:                    %s\n", enabled(d->write_cache));
    cmd_printf(s, "      Write cache with mirroring:     %s\n", enabled(d->mirror_cache));
    if (a)
        cmd_printf(s, "      Write cache in force:           %s\n", mode_text[array_write_mode(a, i)]);
    cmd_printf(s, "\n");
}

int array_cmd_profile(struct session *s, const struct cmd_args *args)
{
    (void)args;
    int h = s->sw - lab_switch_count(s->lab);
    struct array_row r;
    if (!array_row_get(s->lab, h, &r))
        return cmd_error(s, "Error: no storage subsystem");
    struct array *a = array_engine(s->lab, h);
    cmd_printf(s, "PROFILE FOR STORAGE SUBSYSTEM: %s\n\n", lab_hostname(s->lab, s->sw));
    cmd_printf(s, "SUMMARY------------------------------\n   Number of controllers:          %d\n"
                  "   Number of logical drives:       %d\n   Total number of drives:         %d\n"
                  "   Drive type:                     Serial ATA (SATA)\n\n",
               r.conf.controllers, r.conf.nld, r.disks);
    controllers(s, &r);
    cmd_printf(s, "LOGICAL DRIVES------------------------------\n   Number of logical drives: %d\n\n", r.conf.nld);
    cmd_printf(s, "   NAME             STATUS   CAPACITY       RAID LEVEL\n");
    for (int i = 0; i < r.conf.nld; i++)
        cmd_printf(s, "   %-16s Optimal  %8u.000 GB  %d\n", r.conf.ld[i].name, r.conf.ld[i].capacity_gb,
                   r.conf.ld[i].raid);
    cmd_printf(s, "\n   DETAILS\n\n");
    for (int i = 0; i < r.conf.nld; i++)
        drive(s, a, &r, i);
    if (r.has_fc)
        cmd_printf(s, "HOST PORTS------------------------------\n   Fibre Channel port: %s, VSAN %d\n", r.pwwn,
                   r.vsan);
    return 0;
}
