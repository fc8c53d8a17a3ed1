#include "grammar.h"
#include <string.h>

/* A variable of that name, else a keyword: `switchport mtu <mtu:576-9000>`
 * names its number after the keyword before it. */
const struct cmd_arg *arg_get(const struct cmd_args *a, const char *name)
{
    const struct cmd_arg *kw = NULL;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->v[i].name, name) == 0) {
            if (a->v[i].kind != TOK_KEYWORD)
                return &a->v[i];
            kw = kw ? kw : &a->v[i];
        }
    return kw;
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
