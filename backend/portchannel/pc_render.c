/* A port-channel's running-config block (before the fcip interfaces that
 * are its members). */
#include "portchannel.h"
#include "pc_render.h"
#include <stdio.h>

void pc_render_one(struct lab *lab, int sw, int id, strbuf *out)
{
    static const char *const trunk[] = {"on", "off", "auto"};
    struct pc_conf c;
    if (!pc_get(lab, sw, id, &c))
        return;
    sb_printf(out, "\ninterface port-channel%d\n", id);
    if (c.mode_active)
        sb_printf(out, "  channel mode active\n");
    if (c.trunk_mode != FCIP_TRUNK_ON)
        sb_printf(out, "  switchport trunk mode %s\n", trunk[c.trunk_mode]);
    fcip_render_allowed(out, &c.allowed);
    sb_printf(out, c.shutdown ? "  shutdown\n" : "  no shutdown\n"); /* created up: both are said */
}

void pc_render(struct lab *lab, int sw, strbuf *out)
{
    int ids[PC_ID_MAX], n = pc_ids(lab, sw, ids);
    for (int i = 0; i < n; i++)
        pc_render_one(lab, sw, ids[i], out);
}
