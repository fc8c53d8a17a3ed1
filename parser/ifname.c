#include "ifname.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

static const struct iftype *const none[] = {NULL};
static const struct iftype *const *types = none;

void ifname_use_types(const struct iftype *const *list)
{
    if (types == none && list)
        types = list;
}

const struct iftype *iftype_by_prefix(const char *s, size_t n)
{
    if (n == 0)
        return NULL;
    for (const struct iftype *const *t = types; *t; t++)
        if (strlen((*t)->keyword) >= n && strncasecmp((*t)->keyword, s, n) == 0)
            return *t;
    return NULL;
}

const struct iftype *iftype_by_keyword(const char *kw)
{
    for (const struct iftype *const *t = types; *t; t++)
        if (strcasecmp((*t)->keyword, kw) == 0)
            return *t;
    return NULL;
}

void ifname_format(char *buf, size_t n, const struct iftype *t, int a, int b)
{
    if (t->slot_port)
        snprintf(buf, n, "%s%d/%d", t->canonical, a, b);
    else
        snprintf(buf, n, "%s%d", t->canonical, a);
}

static bool number(const char **p, int *v)
{
    if (!isdigit((unsigned char)**p))
        return false;
    long x = 0;
    while (isdigit((unsigned char)**p) && x < 100000)
        x = x * 10 + (*(*p)++ - '0');
    *v = (int)x;
    return x < 100000;
}

static void skip_blanks(const char **p)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
}

/* One item: [keyword-prefix] a[/b][-c]. The range runs over the last number. */
static int parse_item(const struct iftype *t, const char **p, int *a, int *lo, int *hi)
{
    const char *w = *p;
    while (isalpha((unsigned char)**p) || **p == '-')
        (*p)++;
    if (*p > w && iftype_by_prefix(w, (size_t)(*p - w)) != t)
        return -1;
    skip_blanks(p);
    *a = 0;
    if (!number(p, lo))
        return -1;
    if (t->slot_port) {
        *a = *lo;
        if (*(*p)++ != '/' || !number(p, lo))
            return -1;
    }
    *hi = *lo;
    skip_blanks(p);
    if (**p == '-') { /* `2/1-3`, `2/1 - 3` */
        (*p)++;
        skip_blanks(p);
        if (!number(p, hi))
            return -1;
        if (*hi < *lo)
            return -2;
    }
    skip_blanks(p);
    return 0;
}

int ifname_parse_list(const struct iftype *t, const char *text, int (*ports)[2], int max, char *err,
                      size_t n)
{
    const char *p = text;
    int count = 0;
    for (;;) {
        int a, lo, hi;
        skip_blanks(&p);
        int rc = parse_item(t, &p, &a, &lo, &hi);
        if (rc < 0) {
            snprintf(err, n, rc == -2 ? "%% Invalid range" : "%% Invalid interface format");
            return -1;
        }
        for (int v = lo; v <= hi; v++) {
            int x = t->slot_port ? a : v, y = t->slot_port ? v : 0, k = 0;
            while (k < count && !(ports[k][0] == x && ports[k][1] == y))
                k++;
            if (k < count)
                continue;
            if (count == max) {
                snprintf(err, n, "%% Too many interfaces (limit is %d)", max);
                return -1;
            }
            ports[count][0] = x;
            ports[count++][1] = y;
        }
        if (*p == '\0')
            return count;
        if (*p++ != ',') {
            snprintf(err, n, "%% Invalid interface format");
            return -1;
        }
    }
}
