/* Matching a line against the grammar, and what `?` and Tab offer. */
#ifndef MDSIM_MATCH_H
#define MDSIM_MATCH_H
#include "grammar.h"
#include "lex.h"

enum match_status {
    MATCH_OK,
    MATCH_INVALID,
    MATCH_INCOMPLETE,
    MATCH_AMBIGUOUS,
    MATCH_RANGE,
};

struct match_env {
    const struct grammar *g;
    const struct mode_info *mode;
    /* false hides a command as if it did not exist (session.c: a disabled
     * feature's, or one not for this interface type); NULL = all */
    bool (*allowed)(void *ctx, const struct cmd_def *cmd);
    /* The lab's values for a variable with a value source (`@name`): calls
     * add for each (add returns false when the list is full), with the
     * words before it as so_far; returns the help shown beside them, or
     * NULL for no such source. NULL: values are not offered. */
    const char *(*values)(void *ctx, const struct gtoken *t, const struct cmd_args *so_far, const char *prefix,
                          bool (*add)(void *actx, const char *value), void *actx);
    void *ctx;
};

struct match_result {
    enum match_status status;
    size_t err_off;  /* byte offset in the line where the problem is */
    long lo, hi;     /* MATCH_RANGE: the range the number missed */
    const struct variant *var;
    struct cmd_args args;
    char *strings;   /* storage behind args.v[].str */
    const char *kw0; /* the keyword the first word matched (one only), or NULL */
    bool kw0_exact;  /* ... typed in full */
};

enum match_status match_line(const struct match_env *e, const struct words *w,
                             struct match_result *r);
void match_result_free(struct match_result *r);
/* The `%` line the switch prints for a line that did not match. */
void match_error_text(enum match_status st, long lo, long hi, char *buf, size_t n);

struct help_item {
    const char *word; /* keyword, a variable's display form, or a value */
    const char *help;
    const struct gtoken *tok;
    bool value;       /* a value the lab knows for the variable tok */
};

/* At most this many values in one list: `?` and Tab stay bounded however
 * many objects the lab holds. */
enum { HELP_VALUES_MAX = 64 };

struct help_list {
    struct help_item *items;
    int n, cap;
    bool cr;   /* the words so far form a complete command */
    bool pipe; /* ... that accepts output filters */
    enum match_status status; /* of the words before the one being helped */
    size_t err_off;
    int nvalues;
};

/* What may follow the first `nfull` words, restricted to those starting
 * with `partial` (plen 0: all). Sorted: keywords, variables, then the
 * values the lab knows for them (e->values). */
void match_help(const struct match_env *e, const struct words *w, int nfull,
                const char *partial, size_t plen, struct help_list *out);
void help_list_free(struct help_list *h);
/* Adds from's candidates missing in into, keeping it sorted. */
void help_list_merge(struct help_list *into, const struct help_list *from);

/* Display form of a variable: `<1-255>`, `A.B.C.D`, `WORD`, `LINE` ... */
void gtoken_display(const struct gtoken *t, char *buf, size_t n);

#endif
