#include "cmdref.h"
#include "mode.h"
#include "match.h"
#include "session.h"
#include <string.h>

/* Each distinct word of a command, once, with its help. */
static void print_words(FILE *out, const struct cmd_def *d, const struct variant *all, int n)
{
    const char *seen[64];
    int nseen = 0;
    for (int i = 0; i < n; i++) {
        if (all[i].cmd != d)
            continue;
        for (int t = 0; t < all[i].ntok; t++) {
            const struct gtoken *tk = &all[i].tok[t];
            char disp[64];
            int j = 0;
            while (j < nseen && strcmp(seen[j], tk->text) != 0)
                j++;
            if (j < nseen || nseen == 64)
                continue;
            seen[nseen++] = tk->text;
            gtoken_display(tk, disp, sizeof disp);
            if (tk->kind == TOK_KEYWORD)
                fprintf(out, "  - `%s`: %s\n", disp, tk->help);
            else
                fprintf(out, "  - `%s` (%s): %s\n", tk->text, disp, tk->help);
        }
    }
}

/* One mode's section: its commands in grammar order. */
static void print_mode(FILE *out, const struct mode_info *m, const struct variant *all, int n)
{
    fprintf(out, "\n## %s mode%s%s%s\n\n", m->name,
            m == MODE_FILTER              ? ""
            : m->shell == SHELL_HOST  ? " (a lab host's shell, `root@host"
            : m->shell == SHELL_SMCLI ? " (a storage array's shell, `array"
                                      : " (`switch",
            m == MODE_FILTER ? " (after `|` on a show command)" : m->prompt, m == MODE_FILTER ? "" : "#`)");
    for (const struct cmd_def *const *t = session_commands(); *t; t++)
        for (const struct cmd_def *d = *t; d->syntax; d++) {
            if (!mode_in(d->modes, m) || (d->flags & CMD_HIDDEN))
                continue;
            fprintf(out, "- `%s`%s%s\n", d->syntax, d->gate ? " (needs its feature enabled)" : "",
                    d->flags & CMD_ADMIN ? " (network-admin only)" : "");
            print_words(out, d, all, n);
        }
}

/* A mode, then its sub-modes, each followed by its own (registry order). */
static void print_tree(FILE *out, const struct mode_info *m, const struct variant *all, int n, int depth)
{
    print_mode(out, m, all, n);
    for (int c = 0; c < mode_count() && depth < MODE_MAX; c++)
        if (mode_at(c)->parent == m && mode_at(c) != m)
            print_tree(out, mode_at(c), all, n, depth + 1);
}

int cmdref_print(FILE *out)
{
    const struct grammar *g = session_grammar();
    const struct variant *all;
    int n = grammar_variants(g, &all);
    fprintf(out, "# mdsim command reference\n\n"
                 "Generated from the grammar by `mdsim commands` (`make docs`); do not edit by hand.\n"
                 "Syntax: `<name:range>` a number, `[x]` optional, `{a | b}` one of; keywords\n"
                 "may be abbreviated to any unique prefix; `<name:type@source>`: `?` and Tab also offer\n"
                 "the values the lab has (any value of the type is taken). Behaviour notes:\n"
                 "`docs/cli-behaviour.md`.\n");
    for (int m = 0; m < mode_count(); m++)
        if (mode_at(m)->parent == mode_at(m) && mode_at(m) != MODE_LAB) /* lab files: docs/lab-files.md */
            print_tree(out, mode_at(m), all, n, 0);
    return 0;
}
