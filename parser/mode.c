#include "mode.h"
#include <stddef.h>
#include <stdlib.h>

const struct mode_info mode_exec = {.name = "exec", .prompt = "", .parent = &mode_exec};
const struct mode_info mode_config = {
    .name = "config",
    .prompt = "(config)",
    .parent = &mode_exec,
    .is_config = true,
    .way_in = "configure terminal",
};
const struct mode_info mode_if = {
    .name = "config-if",
    .prompt = "(config-if)",
    .parent = &mode_config,
    .is_config = true,
    .about = "interface",
};
const struct mode_info mode_filter = {.name = "filter", .prompt = "", .parent = &mode_filter};
const struct mode_info mode_lab = {.name = "lab", .prompt = "", .parent = &mode_lab};
const struct mode_info modes_config = {.name = "(every configuration mode)", .prompt = "", .set = MODE_SET_CONFIG};
const struct mode_info modes_under_exec = {
    .name = "(every mode below exec)",
    .prompt = "",
    .set = MODE_SET_UNDER_EXEC,
};

/* The parser's own modes, and the features' inserted before the filter's
 * by mode_use: a parser unit test that registers none still has these. */
static const struct mode_info *table[MODE_MAX] = {&mode_exec, &mode_config, &mode_if, &mode_filter, &mode_lab};
static int count = 5;
static bool used;

void mode_use(const struct mode_info *const *feature_modes)
{
    if (used)
        return;
    used = true;
    count = 3;
    for (const struct mode_info *const *m = feature_modes; m && *m; m++)
        if (count < MODE_MAX - 2)
            table[count++] = *m;
    table[count++] = &mode_filter;
    table[count++] = &mode_lab;
}

int mode_count(void) { return count; }

const struct mode_info *mode_at(int index) { return index >= 0 && index < count ? table[index] : NULL; }

int mode_index(const struct mode_info *m)
{
    for (int i = 0; i < count; i++)
        if (table[i] == m)
            return i;
    return -1;
}

bool mode_is_sub(const struct mode_info *m) { return m->parent != m && m->parent != &mode_exec; }

static const struct mode_info *top(const struct mode_info *m)
{
    for (int depth = 0; m->parent != m && depth < MODE_MAX; depth++)
        m = m->parent;
    return m;
}

static bool in_set(enum mode_set set, const struct mode_info *m)
{
    switch (set) {
    case MODE_SET_CONFIG:
        return m->is_config;
    case MODE_SET_UNDER_EXEC:
        return m != &mode_exec && top(m) == &mode_exec;
    case MODE_SET_NONE:
        break;
    }
    return false;
}

bool mode_in(const struct mode_info *const *list, const struct mode_info *m)
{
    for (const struct mode_info *const *l = list; l && *l; l++)
        if (*l == m || in_set((*l)->set, m))
            return true;
    return false;
}
