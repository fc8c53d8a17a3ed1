/* VSAN lists: a bitmap per list, parsed from and printed as `1-10,20`. */
#include "vsan.h"
#include "grammar.h"
#include <string.h>

void vsan_set_add(struct vsan_set *v, int first, int last)
{
    for (int id = first < 0 ? 0 : first; id <= last && id < 4096; id++)
        v->bit[id >> 3] |= (uint8_t)(1u << (id & 7));
}

void vsan_set_all(struct vsan_set *v)
{
    memset(v, 0, sizeof *v);
    vsan_set_add(v, 1, VSAN_MAX_USER);
}

static void add_range(void *ctx, long first, long last) { vsan_set_add(ctx, (int)first, (int)last); }

bool vsan_set_parse(struct vsan_set *v, const char *text)
{
    memset(v, 0, sizeof *v);
    if (!*text)
        return true; /* the empty list */
    if (arg_rangelist_each(text, strlen(text), 1, VSAN_MAX_USER, NULL, add_range, v))
        return true;
    memset(v, 0, sizeof *v);
    return false;
}

void vsan_set_format(const struct vsan_set *v, strbuf *out)
{
    bool first = true;
    for (int id = 0; id < 4096; id++) {
        if (!vsan_set_has(v, id))
            continue;
        int last = id;
        while (last + 1 < 4096 && vsan_set_has(v, last + 1))
            last++;
        sb_printf(out, first ? "%d" : ",%d", id);
        if (last > id)
            sb_printf(out, "-%d", last);
        first = false;
        id = last;
    }
}

bool vsan_trunk_allowed_apply(struct vsan_set *allowed, const struct cmd_args *a)
{
    struct vsan_set list = {{0}}, all;
    vsan_set_all(&all);
    const char *text = arg_str(a, "vsans");
    if (text && !vsan_set_parse(&list, text))
        return false;
    if (arg_has(a, "all"))
        list = all;
    bool bare_no = a->negated && !text && !arg_has(a, "all");
    for (size_t i = 0; i < sizeof list.bit; i++) {
        uint8_t *bits = &allowed->bit[i];
        if (bare_no)
            *bits = all.bit[i];
        else if (a->negated || arg_has(a, "remove"))
            *bits &= (uint8_t)~list.bit[i];
        else if (arg_has(a, "add"))
            *bits |= list.bit[i];
        else if (arg_has(a, "except"))
            *bits = all.bit[i] & (uint8_t)~list.bit[i];
        else
            *bits = list.bit[i];
    }
    return true;
}
