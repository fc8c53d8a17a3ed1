/*
 * A CLI session on one switch: its mode, its terminal settings, and the
 * execution of one line (match, run under the lab lock in a savepoint,
 * then, with the lab released, filter and page). Front-ends call the
 * functions below, set the terminal and login fields (io, term_length,
 * term_width, interactive, no_prompt, role, user) and read the results
 * (closed, mode, last_error); the rest is the session's own.
 */
#ifndef MDSIM_SESSION_H
#define MDSIM_SESSION_H
#ifdef MDSIM_ENGINE_OBJECT /* defined for the engine objects only: CMakeLists.txt */
#error "an engine object includes neither the lab nor a session (docs/include-layers.md)"
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "grammar.h"
#include "strbuf.h"

struct lab;

struct session_io {
    void (*write)(void *ctx, const char *s, size_t n);
    /* Shows `--More--` and waits: returns lines to show next (0 = stop).
     * NULL: no pager (batch). */
    int (*more)(void *ctx, int page);
    /* Yes/no question; NULL answers yes (batch runs are unattended). */
    bool (*confirm)(void *ctx, const char *question);
    /* Waits up to ns of wall time for a command that lasts (`ping`,
     * `sleep`); false when the user interrupted it (Ctrl-C) or the
     * session is ending. NULL: a plain sleep. */
    bool (*wait)(void *ctx, uint64_t ns);
    void *ctx;
};

/* What the current sub-mode is about, e.g. the interface being configured. */
enum { MODE_CTX_PORTS = 64, MODE_CTX_KEY = 96 };
struct mode_ctx {
    char ifname[32];
    const struct iftype *iftype; /* the interface's type (parser/ifname.h) */
    int a, b;    /* slot/port, or id and 0 */
    /* `interface g2/1-3, g2/5`: every port an interface command applies
     * to (run once per port, a,b and ifname set to each); 0 or 1: a,b only */
    int nports;
    int ports[MODE_CTX_PORTS][2];
    /* Another sub-mode's object (a zone's name and VSAN, an N port's
     * pWWN and VSAN), as its feature keeps it: bytes only that feature
     * reads and writes, with mode_ctx_key_set and mode_ctx_key_get. */
    unsigned char key[MODE_CTX_KEY];
};

/* A feature's key for the sub-mode it enters, a struct of its own copied
 * in and out (a feature asserts at compile time that it fits
 * MODE_CTX_KEY; a larger n aborts). get gives what set put. */
void mode_ctx_key_set(struct mode_ctx *c, const void *key, size_t n);
void mode_ctx_key_get(const struct mode_ctx *c, void *key, size_t n);

enum role { ROLE_ADMIN, ROLE_OPERATOR };

struct session {
    struct lab *lab;
    int sw; /* switch index in the lab */
    const struct mode_info *mode;
    struct mode_ctx ctx;
    int term_length, term_width;
    int idle_timeout; /* seconds without input before logout, 0 = none; kept by the front-end */
    bool dont_ask;
    bool closed;      /* `exit` at exec: the front-end ends the session */
    bool no_more;     /* this command's output skips the pager */
    bool interactive; /* a person is at the other end */
    bool no_prompt;   /* lines arrive without a prompt shown (SSH exec): carets count from 0 */
    enum role role;
    char user[33]; /* a name of up to 32 characters, as accounts have */
    /* A logged-in user's account, checked under the lab lock before each
     * line: updates role from the store, false when the account is gone
     * (the session then ends). NULL: no account (console, replay). */
    bool (*check_account)(struct session *s);
    /* Where relative host paths resolve (an attached mdsim's working
     * directory, docs/lab-owner.md); NULL: this process's. */
    const char *cwd;
    struct session_io io;
    strbuf out;            /* the running command's output not yet shown */
    char last_error[128];  /* the `%` line of the last failure, for replay */
    bool filtered;         /* the line has output filters: shown at its end */
    bool stopped;          /* Ctrl-C, or `q` at --More--: the command ends */
    int page_left;         /* lines the pager shows before its next --More-- */
    bool name_port;        /* errors name ctx.ifname: a command on a port list */
};

void session_init(struct session *s, struct lab *lab, int sw, struct session_io io);
void session_free(struct session *s);

/* "MDS1(config-if)# " */
void session_prompt(const struct session *s, char *buf, size_t n);

/* Runs one line and writes its output. Returns 0, or 1 when it failed. */
int session_exec(struct session *s, const char *line);
/* For a session waiting for input: false, with a message written and the
 * session closed, when its user's account has been deleted meanwhile. */
bool session_account_ok(struct session *s);

/* Answers `?` for the line typed so far (without the `?`). */
void session_help(struct session *s, const char *line);

/* Candidates to complete the last (partial) word of `line`. Caller frees
 * each string and the array. */
int session_complete(struct session *s, const char *line, char ***out);

/* For handlers. */
void cmd_printf(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints an error line and returns -1, the handler's failure code. */
int cmd_error(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Asks the front-end unless `terminal dont-ask` is set. */
bool cmd_confirm(struct session *s, const char *question);
/* For a command that lasts: lets lab time reach t. In replay the engine
 * simply runs to t. On a real-time lab the output so far is shown, the lab
 * is released to the other sessions, and the session waits for the wall
 * clock. Returns false when the user interrupted: the handler stops there
 * and prints what a real switch prints on Ctrl-C. */
bool cmd_wait_until(struct session *s, uint64_t t);
/* Runs `line` in mode m within the command that calls it (`do`, a reload
 * replaying the startup configuration): the caller holds the lab, and the
 * output goes to s->out for the caller to show. A pipe is refused there:
 * filters belong to the typed line. offset places carets. */
int session_exec_in(struct session *s, const struct mode_info *m, const char *line, size_t offset);

/* Called under the lab lock after a line took the session from a
 * configuration mode back to exec (`end`, `exit`, Ctrl-Z): the switch
 * logs it (backend/logging). The first call wins. */
void session_on_config_exit(void (*fn)(struct session *s));

/* The program's command tables, the parser's own (parser_cmds.h) among
 * them, given once before the first session; the first call wins. */
void session_use_commands(const struct cmd_def *const *tables);
const struct cmd_def *const *session_commands(void);
/* The grammar compiled from them, built on first use. */
const struct grammar *session_grammar(void);

#endif
