#include "labcmd.h"
#include "lab/lab.h"
#include "lab/topology.h"
#include <string.h>

static int lab_list(struct lab *lab, FILE *out, FILE *err)
{
    (void)err;
    lab_lock(lab);
    fprintf(out, "%-10s %-10s %s\n", "Switch", "Hostname", "Chassis");
    for (int i = 0; i < lab_switch_count(lab); i++)
        fprintf(out, "%-10s %-10s %s\n", lab_switch_name(lab, i), lab_hostname(lab, i),
                lab_switch_chassis(lab, i));
    lab_unlock(lab);
    return 0;
}

static int lab_show(struct lab *lab, FILE *out, FILE *err)
{
    (void)err;
    lab_lock(lab);
    topology_print(lab, out);
    lab_unlock(lab);
    return 0;
}

static int lab_reset(struct lab *lab, FILE *out, FILE *err) { return labcmd_reset(lab, -1, out, err); }

int labcmd_reset(struct lab *lab, int sw, FILE *out, FILE *err)
{
    char why[4600];
    if (!topology_reset(lab, sw, out, why, sizeof why)) { /* it takes the lab lock itself */
        fprintf(err, "mdsim: lab reset: %s; nothing was reset\n", why);
        return 1;
    }
    return 0;
}

static const struct {
    const char *name;
    int (*fn)(struct lab *lab, FILE *out, FILE *err);
} cmds[] = {
    {"list", lab_list},
    {"show", lab_show},
    {"reset", lab_reset},
};

int labcmd_run(struct lab *lab, const char *what, FILE *out, FILE *err)
{
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(cmds[i].name, what) == 0)
            return cmds[i].fn(lab, out, err);
    return -1;
}
