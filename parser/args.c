#include "grammar.h"
#include <string.h>

const struct cmd_arg *arg_get(const struct cmd_args *a, const char *name)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->v[i].name, name) == 0)
            return &a->v[i];
    return NULL;
}

bool arg_has(const struct cmd_args *a, const char *name) { return arg_get(a, name) != NULL; }

long arg_num(const struct cmd_args *a, const char *name, long dflt)
{
    const struct cmd_arg *v = arg_get(a, name);
    return v ? v->num : dflt;
}

const char *arg_str(const struct cmd_args *a, const char *name)
{
    const struct cmd_arg *v = arg_get(a, name);
    return v ? v->str : NULL;
}
