#include "catalog.h"
#include <string.h>

static const struct module_model modules[] = {
    {"DS-X9308-SMIP", "IP Storage Services Module", 8, 0, "0.5"},
    {"DS-X9304-SMIP", "IP Storage Services Module", 4, 0, "0.5"},
    {"DS-X9530-SF2-K9", "Supervisor/Fabric-2", 0, 1, "1.4"},
};

static const struct chassis_model chassis[] = {
    {"DS-C9509", "MDS 9509", 9},
    {"DS-C9506", "MDS 9506", 6},
};

const struct module_model *catalog_module(const char *model)
{
    for (size_t i = 0; i < sizeof modules / sizeof modules[0]; i++)
        if (strcmp(modules[i].model, model) == 0)
            return &modules[i];
    return NULL;
}

const struct chassis_model *catalog_chassis(const char *model)
{
    for (size_t i = 0; i < sizeof chassis / sizeof chassis[0]; i++)
        if (strcmp(chassis[i].model, model) == 0)
            return &chassis[i];
    return NULL;
}
