/* Hardware the lab can hold: chassis and line-card models. */
#ifndef MDSIM_CATALOG_H
#define MDSIM_CATALOG_H

struct module_model {
    const char *model;       /* part number, e.g. DS-X9308-SMIP */
    const char *type;        /* Module-Type column of `show module` */
    int ge_ports;            /* Gigabit Ethernet (IPS) ports */
    int supervisor;          /* 1 for a supervisor */
    const char *hw;          /* hardware revision shown */
};

struct chassis_model {
    const char *model;       /* DS-C9509 */
    const char *name;        /* MDS 9509 */
    int slots;
};

const struct module_model *catalog_module(const char *model);
const struct chassis_model *catalog_chassis(const char *model);

#endif
