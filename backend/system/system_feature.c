/* The switch's identity, clock and terminal (`switchname`, `show version`...). */
#include "feature.h"
#include "lab/lab.h"
#include "system.h"

static void render_switchname(struct lab *lab, int sw, strbuf *out)
{
    sb_printf(out, "switchname %s\n", lab_hostname(lab, sw));
}

const struct feature system_feature = {
    .name = "system",
    .cmds = system_cmds,
    .render = {[SECTION_SWITCHNAME] = render_switchname},
};
