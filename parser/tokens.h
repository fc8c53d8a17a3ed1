/* The kinds of words a command's syntax names (grammar.h, enum tok_kind):
 * one table, tokens.c, says for each how a typed word is parsed, which
 * characters a value still being typed may hold, how `?` shows it, and its
 * type name in the syntax. A new kind is one entry there. Internal to the
 * parser. */
#ifndef MDSIM_TOKENS_H
#define MDSIM_TOKENS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "grammar.h"
#include "lex.h"
#include "strbuf.h"

/* How well a word matches a token; higher wins when several commands could
 * take the word (a keyword typed in full beats one typed as a prefix, which
 * beats a typed value, which beats a free word). */
enum level { L_NONE, L_WORD, L_TYPED, L_PARTIAL, L_EXACT };

/* The value a word gave its token. */
struct value {
    long num;
    uint32_t ip;
    int slot, port;
    uint8_t wwn[8];
    bool range_err;
};

struct tok_kind_def {
    const char *type;  /* <name:TYPE> in a syntax; NULL: a keyword, or a range <name:lo-hi> */
    const char *help;  /* a variable's help when its command gives none */
    const char *shown; /* how `?` shows the variable; NULL: <lo-hi> */
    const char *chars; /* what a value being typed may hold; NULL: anything */
    enum level (*match)(const struct gtoken *t, const struct word *w, struct value *v);
    /* Writes a matched value in canonical form (parser/canon.c): as the
     * parser read it, so that two spellings of one value are one text. */
    void (*canon)(strbuf *out, const struct gtoken *t, const struct cmd_arg *a);
};

const struct tok_kind_def *tok_kind(enum tok_kind k);
/* The kind whose syntax type is TYPE[0..n), or false. */
bool tok_kind_named(const char *type, size_t n, enum tok_kind *out);
enum level match_token(const struct gtoken *t, const struct word *w, struct value *v);
void tok_canon(strbuf *out, const struct gtoken *t, const struct cmd_arg *a);
/* Could the partial word p[0..n) still become a value of this variable? */
bool tok_accepts_prefix(const struct gtoken *t, const char *p, size_t n);

#endif
