/* `show feature` (the gates of the registry) and `show license usage`
 * (SAN_EXTN_OVER_IP in use once the switch has an fcip interface). */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "lab/catalog.h"
#include "fcip/fcip.h"
#include "license.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int by_name(const void *x, const void *y)
{
    return strcmp((*(const struct gate *const *)x)->name, (*(const struct gate *const *)y)->name);
}

static int show_feature(struct session *s, const struct cmd_args *a)
{
    (void)a;
    const struct gate *gates[GATE_MAX];
    int n = 0;
    for (const struct gate *const *g = feature_gates(); *g && n < GATE_MAX; g++)
        gates[n++] = *g;
    qsort(gates, (size_t)n, sizeof gates[0], by_name);
    cmd_printf(s, "Feature Name          Instance  State\n--------------------  --------  --------\n");
    for (int i = 0; i < n; i++)
        cmd_printf(s, "%-21s %-9s %s\n", gates[i]->name, "1",
                   lab_feature_enabled(s->lab, s->sw, gates[i]) ? "enabled" : "disabled");
    return 0;
}

/* SAN_EXTN_OVER_IP is a license per IPS module. */
static int ips_modules(struct lab *lab, int sw)
{
    int n = 0;
    for (int slot = 1; slot <= 13; slot++) {
        const char *model = lab_module(lab, sw, slot);
        const struct module_model *m = model ? catalog_module(model) : NULL;
        n += m && m->ge_ports > 0;
    }
    return n;
}

struct license {
    const char *name;
    bool installed;
    int count;               /* -1: none shown; SAN_EXTN_OVER_IP counts IPS modules */
    const char *application; /* what uses it, when it is in use */
};

static const struct license licenses[] = {
    {"FM_SERVER_PKG", false, -1, NULL},
    {"MAINFRAME_PKG", false, -1, NULL},
    {"ENTERPRISE_PKG", true, -1, NULL},
    {"SAN_EXTN_OVER_IP", true, -1, "FCIP"},
    {"PORT_ACTIVATION_PKG", false, 0, NULL},
};

static bool in_use(struct session *s, const struct license *l)
{
    return l->application && lab_feature_enabled(s->lab, s->sw, &fcip_gate) && fcip_if_count(s->lab, s->sw) > 0;
}

static const char *const rule = "--------------------------------------------------------------------------------\n";

static int show_usage(struct session *s, const struct cmd_args *a)
{
    const char *which = arg_str(a, "name");
    int n = (int)(sizeof licenses / sizeof licenses[0]);
    if (which) {
        for (int i = 0; i < n; i++)
            if (strcasecmp(which, licenses[i].name) == 0) {
                cmd_printf(s, "Application\n-----------\n");
                if (in_use(s, &licenses[i]))
                    cmd_printf(s, "%s\n", licenses[i].application);
                cmd_printf(s, "-----------\n");
                return 0;
            }
        return cmd_error(s, "%% Invalid license feature name");
    }
    cmd_printf(s, "Feature                      Ins  Lic   Status Expiry Date Comments\n"
                  "                                 Count\n%s", rule);
    for (int i = 0; i < n; i++) {
        const struct license *l = &licenses[i];
        char count[16] = "-";
        int c = l->application ? ips_modules(s->lab, s->sw) : l->count;
        if (c >= 0)
            snprintf(count, sizeof count, "%d", c);
        cmd_printf(s, "%-30s%-6s%-4s%-7s%-12s-\n", l->name, l->installed ? "Yes" : "No", count,
                   in_use(s, l) ? "In use" : "Unused", l->installed ? "never" : "");
    }
    cmd_printf(s, "%s", rule);
    return 0;
}

const struct cmd_def license_cmds[] = {
    {MODES(MODE_EXEC), "show feature", "feature: Show feature status", show_feature, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show license usage [<name:word>]",
     "license: Show license information\nusage: Show license usage\nname: License feature name", show_usage,
     CMD_PIPE, 0, 0},
    {0},
};
