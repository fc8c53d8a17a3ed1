/* `show inventory` and `show license host-id`: what the switch is made
 * of, with the part and serial numbers `show module` prints. Automation
 * reads them first (Ansible's cisco.nxos takes the platform from the
 * Chassis entry's PID), so the layout is NX-OS's to the column. */
#include "session.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include "system.h"
#include <stdio.h>

static void inventory_entry(struct session *s, const char *name, const char *descr, const char *pid,
                            const char *sn)
{
    cmd_printf(s, "NAME: \"%s\",  DESCR: \"%s\"\n", name, descr);
    cmd_printf(s, "PID: %-20s,  VID: %-4s,  SN: %s\n\n", pid, "V01", sn);
}

/* Chassis, then the supervisors, then the other modules, each in slot
 * order. */
int system_show_inventory(struct session *s, const struct cmd_args *a)
{
    (void)a;
    const char *model = lab_switch_chassis(s->lab, s->sw);
    const struct chassis_model *ch = catalog_chassis(model);
    char descr[64], sn[16], name[16];
    snprintf(descr, sizeof descr, "%s (%d Slot) Chassis", ch ? ch->name : "MDS 9000", ch ? ch->slots : 9);
    system_chassis_serial(s, sn, sizeof sn);
    inventory_entry(s, "Chassis", descr, model, sn);
    struct module_row rows[SYSTEM_MAX_SLOTS];
    int n = system_modules(s, rows, SYSTEM_MAX_SLOTS);
    for (int sup = 1; sup >= 0; sup--)
        for (int i = 0; i < n; i++) {
            if (!rows[i].m || rows[i].m->supervisor != sup)
                continue;
            snprintf(name, sizeof name, "Slot %d", rows[i].slot);
            system_module_serial(s, rows[i].slot, sn, sizeof sn);
            inventory_entry(s, name, rows[i].m->type, rows[i].m->model, sn);
        }
    return 0;
}

/* The host ID licenses are tied to: the chassis serial number. */
int system_show_license_host_id(struct session *s, const struct cmd_args *a)
{
    (void)a;
    char sn[16];
    system_chassis_serial(s, sn, sizeof sn);
    cmd_printf(s, "License hostid: VDH=%s\n", sn);
    return 0;
}
