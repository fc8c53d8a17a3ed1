/*
 * The command grammar. Every command is declared once, as data (struct
 * cmd_def): the modes it lives in, its syntax, help for its words, its
 * handler. The syntax language:
 *
 *   keyword            matched by unique prefix, case-insensitively
 *   <name:1-255>       integer in a range
 *   <name:ipv4>        A.B.C.D            <name:netmask>  contiguous mask
 *   <name:wwn>         hh:hh:hh:hh:hh:hh:hh:hh
 *   <name:slot/port>   interface number   <name:hh:mm:ss> time of day
 *   <name:word>        one word           <name:line>     rest of the line
 *   <name:list:1-4093> comma-separated numbers and ranges (`1-10,20`)
 *   [ ... ]            optional part      { a | b }       one of
 *   <name:type@source> a variable whose values the lab knows: `?` and Tab
 *                      offer them from the value source the program
 *                      registered under that name (session_host.h); any
 *                      value of the type is still accepted
 *
 * The variable types are the entries of parser/tokens.c, one each.
 * A leading "[no]" gives the command its `no` form. Help for a word comes
 * from the command's own help lines ("word: text", one per line) or, for
 * keywords, from the shared keyword dictionary (keyword_help.c). Matching,
 * `?`, Tab, errors and the command reference are all derived from this.
 */
#ifndef MDSIM_GRAMMAR_H
#define MDSIM_GRAMMAR_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "mode.h"

struct session;
struct cmd_args;
struct iftype;
struct gate;

typedef int (*cmd_fn)(struct session *s, const struct cmd_args *a);

enum cmd_flags {
    CMD_PIPE = 1 << 0,   /* produces output: accepts `| include ...` */
    CMD_HIDDEN = 1 << 1, /* accepted, not offered by ? or Tab */
    CMD_ADMIN = 1 << 2,  /* changes the switch: network-admin only */
    CMD_FREES = 1 << 3,  /* frees space in the lab: runs on a full disk (docs/durability.md) */
};

struct cmd_def {
    const struct mode_info *const *modes; /* MODES(...), NULL-terminated */
    const char *syntax;
    const char *help;
    cmd_fn fn;
    unsigned flags;
    const struct gate *gate; /* NULL, or the gate that must be on on the switch (backend/feature.h) */
    const struct iftype *iftype; /* in (config-if): only that type's interfaces; NULL: any */
};

enum tok_kind {
    TOK_KEYWORD,
    TOK_INT,
    TOK_IPV4,
    TOK_NETMASK,
    TOK_WWN,
    TOK_SLOTPORT,
    TOK_TIME,
    TOK_WORD,
    TOK_LINE,
    TOK_RANGELIST,
    TOK_KIND_COUNT /* parser/tokens.c has one entry for each kind above */
};

struct gtoken {
    enum tok_kind kind;
    const char *text; /* keyword text, or the variable's name */
    const char *help;
    long lo, hi;      /* TOK_INT and TOK_RANGELIST range */
    const char *source; /* a variable's value source (`@name`), or NULL */
};

/* One fully expanded form of a command: no optional parts left. */
struct variant {
    const struct cmd_def *cmd;
    int ntok;
    struct gtoken *tok;
};

struct grammar;

/* Compiles the given tables (each ending in a zeroed entry). Aborts with a
 * message on a malformed syntax string: a grammar bug, found at start-up. */
struct grammar *grammar_compile(const struct cmd_def *const *tables);
void grammar_free(struct grammar *g);
int grammar_variants(const struct grammar *g, const struct variant **out);
/* The variants a mode offers, in grammar order. */
int grammar_mode_variants(const struct grammar *g, const struct mode_info *m, const struct variant *const **out);

/* Keyword dictionary: default help text for a keyword. */
const char *keyword_help(const char *kw);

/* Parsed argument values handed to a handler. Keywords matched are present
 * too (by their text), so a handler can tell which alternative was typed. */
struct cmd_arg {
    const char *name;
    enum tok_kind kind;
    long num;          /* TOK_INT, TOK_TIME (seconds of day) */
    uint32_t ip;       /* TOK_IPV4/TOK_NETMASK, host order */
    int slot, port;    /* TOK_SLOTPORT */
    uint8_t wwn[8];    /* TOK_WWN */
    const char *str;   /* the word as typed (rest of line for TOK_LINE) */
    int off;           /* where it starts in the line */
};

struct cmd_args {
    const struct cmd_def *cmd; /* the command they were matched for */
    int n;
    bool negated; /* the `no` form */
    struct cmd_arg *v;
    int offset;   /* screen column of the line's first character */
};

/* Arguments by name. In a debug build (NDEBUG not defined) asking for a
 * name that none of the command's syntax words has aborts, naming both: a
 * handler shared by several commands must not read another's arguments. */
const struct cmd_arg *arg_get(const struct cmd_args *a, const char *name);
bool arg_has(const struct cmd_args *a, const char *name);
long arg_num(const struct cmd_args *a, const char *name, long dflt);
const char *arg_str(const struct cmd_args *a, const char *name);
/* Walks a range list such as `1-10,20` (n bytes), calling fn (when not
 * NULL) for each range as it goes: first <= last, both in [lo, hi]. False
 * when malformed or out of range (*range_err is then true for the latter);
 * a caller discards what fn collected when it returns false. */
bool arg_rangelist_each(const char *s, size_t n, long lo, long hi, bool *range_err,
                        void (*fn)(void *ctx, long first, long last), void *ctx);

#endif
