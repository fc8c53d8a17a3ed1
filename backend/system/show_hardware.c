/* `show version` and `show module`: the switch's software and hardware;
 * the module list and serial numbers `show inventory` shares. */
#include "session.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include "system.h"
#include <stdio.h>

int system_show_version(struct session *s, const struct cmd_args *a)
{
    (void)a;
    const struct chassis_model *ch = catalog_chassis(lab_switch_chassis(s->lab, s->sw));
    uint64_t up = (lab_now(s->lab) - lab_boot_ns(s->lab, s->sw)) / 1000000000u;
    int id = lab_switch_id(s->lab, s->sw);
    cmd_printf(s,
               "Cisco Nexus Operating System (NX-OS) Software\n"
               "TAC support: http://www.cisco.com/tac\n"
               "Copyright (c) 2002-2013, Cisco Systems, Inc. All rights reserved.\n"
               "(this is mdsim, an emulator; no Cisco software is included)\n\n"
               "Software\n"
               "  BIOS:      version 1.0.10\n"
               "  loader:    version N/A\n"
               "  kickstart: version " SYSTEM_RELEASE "\n"
               "  system:    version " SYSTEM_RELEASE "\n"
               "  BIOS compile time:       01/08/09\n"
               "  kickstart image file is: bootflash:///m9500-sf2ek9-kickstart-mz.5.2.8.bin\n"
               "  kickstart compile time:  6/24/2013 23:00:00 [07/26/2013 03:30:36]\n"
               "  system image file is:    bootflash:///m9500-sf2ek9-mz.5.2.8.bin\n"
               "  system compile time:     6/24/2013 23:00:00 [07/26/2013 04:49:41]\n\n"
               "Hardware\n"
               "  cisco %s (%d Slot) Chassis (\"Supervisor/Fabric-2\")\n"
               "  Motorola, e500v2 with 1033948 kB of memory.\n"
               "  Processor Board ID JAE%08d\n\n"
               "  Device name: %s\n"
               "  bootflash:    1000440 kB\n"
               "Kernel uptime is %llu day(s), %llu hour(s), %llu minute(s), %llu second(s)\n",
               ch ? ch->name : "MDS 9000", ch ? ch->slots : 9, 1000000 + id, lab_hostname(s->lab, s->sw),
               (unsigned long long)(up / 86400), (unsigned long long)(up / 3600 % 24),
               (unsigned long long)(up / 60 % 60), (unsigned long long)(up % 60));
    return 0;
}

int system_modules(struct session *s, struct module_row *rows, int max)
{
    int n = 0;
    for (int slot = 1; slot <= SYSTEM_MAX_SLOTS && n < max; slot++) {
        const char *model = lab_module(s->lab, s->sw, slot);
        if (model)
            rows[n++] = (struct module_row){slot, catalog_module(model)};
    }
    return n;
}

void system_module_serial(struct session *s, int slot, char *buf, size_t n)
{
    int id = lab_switch_id(s->lab, s->sw);
    snprintf(buf, n, "JAB%02d%02d%04d", id % 100, slot % 100, (1000 + id) % 10000);
}

void system_chassis_serial(struct session *s, char *buf, size_t n)
{
    snprintf(buf, n, "FOX%08d", 1000000 + lab_switch_id(s->lab, s->sw) % 1000000);
}

static const char *module_status(const struct module_row *r, int first_sup_slot)
{
    if (!r->m->supervisor)
        return "ok";
    return r->slot == first_sup_slot ? "active *" : "ha-standby";
}

int system_show_module(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct module_row rows[SYSTEM_MAX_SLOTS];
    int n = system_modules(s, rows, SYSTEM_MAX_SLOTS), id = lab_switch_id(s->lab, s->sw), sup = 0;
    for (int i = 0; i < n && !sup; i++)
        sup = rows[i].m->supervisor ? rows[i].slot : 0;
    cmd_printf(s, "Mod  Ports  Module-Type                      Model              Status\n"
                  "---  -----  -------------------------------- ------------------ ------------\n");
    for (int i = 0; i < n; i++)
        cmd_printf(s, "%-4d %-6d %-32s %-18s %s\n", rows[i].slot, rows[i].m->ge_ports, rows[i].m->type,
                   rows[i].m->model, module_status(&rows[i], sup));
    cmd_printf(s, "\nMod  Sw           Hw      World-Wide-Name(s) (WWN)\n"
                  "---  -----------  ------  --------------------------------------------------\n");
    for (int i = 0; i < n; i++) {
        cmd_printf(s, "%-4d %-12s %-7s ", rows[i].slot, SYSTEM_RELEASE, rows[i].m->hw);
        if (rows[i].m->ge_ports)
            cmd_printf(s, "20:%02x:00:0d:ec:%02x:%02x:c0 to 20:%02x:00:0d:ec:%02x:%02x:c0\n",
                       rows[i].slot * 0x20 + 1, id, rows[i].slot, rows[i].slot * 0x20 + rows[i].m->ge_ports,
                       id, rows[i].slot);
        else
            cmd_printf(s, "--\n");
    }
    cmd_printf(s, "\nMod  MAC-Address(es)                        Serial-Num\n"
                  "---  -------------------------------------- ----------\n");
    for (int i = 0; i < n; i++) {
        char sn[16];
        system_module_serial(s, rows[i].slot, sn, sizeof sn);
        cmd_printf(s, "%-4d 00-05-30-%02x-%02x-00 to 00-05-30-%02x-%02x-0f %s\n", rows[i].slot, id, rows[i].slot,
                   id, rows[i].slot, sn);
    }
    cmd_printf(s, "\n* this terminal session\n");
    return 0;
}
