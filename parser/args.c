#include "grammar.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NDEBUG
/* Is name one of the syntax's keywords or variables? Read from the text
 * itself, so every variant of the command counts, optional parts too. */
static bool syntax_has(const char *syn, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = syn; *p;) {
        p += strspn(p, " []{}|");
        bool var = *p == '<';
        size_t k = var ? strcspn(++p, ":>") : strcspn(p, " []{}|<>");
        if (k == n && strncmp(p, name, n) == 0)
            return true;
        p += var ? strcspn(p, ">") : k;
        p += *p == '>';
    }
    return false;
}

/* A handler asking for a name its command cannot have is a bug that only
 * shows as a silent default: found by the debug build's tests instead. */
static void check_name(const struct cmd_args *a, const char *name)
{
    if (a->cmd && a->cmd->syntax && !syntax_has(a->cmd->syntax, name)) {
        fprintf(stderr, "mdsim: the handler of \"%s\" asks for \"%s\", which its syntax does not have\n",
                a->cmd->syntax, name);
        abort();
    }
}
#else
static void check_name(const struct cmd_args *a, const char *name)
{
    (void)a;
    (void)name;
}
#endif

const struct cmd_arg *arg_get(const struct cmd_args *a, const char *name)
{
    check_name(a, name);
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

static bool rl_number(const char *s, size_t n, size_t *i, long *v)
{
    size_t start = *i;
    *v = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9' && *i - start < 10)
        *v = *v * 10 + (s[(*i)++] - '0');
    return *i > start && (*i == n || s[*i] < '0' || s[*i] > '9');
}

bool arg_rangelist_each(const char *s, size_t n, long lo, long hi, bool *range_err,
                        void (*fn)(void *ctx, long first, long last), void *ctx)
{
    bool err = false;
    size_t i = 0;
    for (;;) {
        long a, b;
        if (!rl_number(s, n, &i, &a))
            return false;
        b = a;
        if (i < n && s[i] == '-') {
            i++;
            if (!rl_number(s, n, &i, &b))
                return false;
        }
        if (a < lo || a > hi || b < lo || b > hi)
            err = true;
        else if (b < a)
            return false;
        else if (fn)
            fn(ctx, a, b);
        if (i == n)
            break;
        if (s[i] != ',' || i + 1 == n)
            return false;
        i++;
    }
    if (range_err)
        *range_err = err;
    return !err;
}
