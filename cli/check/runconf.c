/* The running configuration as a tree of canonical lines. */
#include "runconf.h"
#include "canon.h"
#include <stdlib.h>
#include <string.h>

struct rc_line {
    char *key; /* NULL: a line the grammar does not read, equal to none */
    int indent, parent;
    const struct mode_info *mode;
};

struct runconf {
    struct rc_line *l;
    int n;
};

static void add(struct runconf *rc, const char *text, int indent)
{
    int parent = rc->n - 1;
    while (parent >= 0 && rc->l[parent].indent >= indent)
        parent = rc->l[parent].parent;
    strbuf key;
    sb_init(&key);
    struct canon_error e;
    const struct mode_info *m;
    bool ok = canon_config(parent < 0 ? NULL : &rc->l[parent].mode, text, &key, &m, &e);
    if (!(rc->l = realloc(rc->l, sizeof *rc->l * (size_t)(rc->n + 1))))
        abort();
    rc->l[rc->n++] = (struct rc_line){ok ? strdup(sb_str(&key)) : NULL, indent, parent, m};
    sb_free(&key);
}

struct runconf *runconf_read(const char *text)
{
    struct runconf *rc = calloc(1, sizeof *rc);
    if (!rc)
        abort();
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n"), indent = strspn(l, " ");
        if (indent < n && l[indent] != '!') {
            char *line = strndup(l + indent, n - indent);
            if (!line)
                abort();
            add(rc, line, (int)indent);
            free(line);
        }
        l += n + (l[n] == '\n');
    }
    return rc;
}

void runconf_free(struct runconf *rc)
{
    if (!rc)
        return;
    for (int i = 0; i < rc->n; i++)
        free(rc->l[i].key);
    free(rc->l);
    free(rc);
}

/* The longest part of keys found under line `parent` (-1: the top). */
static int find_under(const struct runconf *rc, int parent, char *const *keys, int n)
{
    int best = 0;
    for (int i = parent + 1; i < rc->n && n > 0 && best < n; i++)
        if (rc->l[i].parent == parent && rc->l[i].key && strcmp(rc->l[i].key, keys[0]) == 0) {
            int got = 1 + find_under(rc, i, keys + 1, n - 1);
            best = got > best ? got : best;
        }
    return best;
}

int runconf_find(const struct runconf *rc, char *const *keys, int n) { return find_under(rc, -1, keys, n); }
