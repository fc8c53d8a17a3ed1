#include "lex.h"
#include "ifname.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void push(struct words *ws, const char *s, size_t len, size_t off)
{
    if (ws->n == ws->cap) {
        ws->cap = ws->cap ? ws->cap * 2 : 16;
        ws->w = realloc(ws->w, (size_t)ws->cap * sizeof *ws->w);
        if (!ws->w)
            abort();
    }
    ws->w[ws->n++] = (struct word){s, len, off};
}

/* Length of the interface-type prefix of a glued name like `gig2/2`, or 0. */
static size_t glued_iftype(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (isalpha((unsigned char)s[i]) || s[i] == '-'))
        i++;
    if (i == 0 || i == len || !isdigit((unsigned char)s[i]))
        return 0;
    bool slash = false, list = false;
    for (size_t j = i; j < len; j++) {
        bool next_type = list && isalpha((unsigned char)s[j]); /* `g2/1,g2/3` */
        if (!isdigit((unsigned char)s[j]) && !strchr("/.-,", s[j]) && !next_type)
            return 0;
        slash |= s[j] == '/';
        list |= s[j] == '-' || s[j] == ',';
    }
    if (list && !slash) /* `g2/1-3,` is a list of ports; `fc1-2` may be a name */
        return 0;
    return iftype_by_prefix(s, i) ? i : 0;
}

void lex_line(struct words *out, const char *line, size_t len)
{
    out->n = 0;
    out->line = line;
    size_t i = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        if (i == start)
            break;
        size_t cut = glued_iftype(line + start, i - start);
        if (cut) {
            push(out, line + start, cut, start);
            push(out, line + start + cut, i - start - cut, start + cut);
        } else {
            push(out, line + start, i - start, start);
        }
    }
}

void lex_free(struct words *w)
{
    free(w->w);
    w->w = NULL;
    w->n = w->cap = 0;
}
