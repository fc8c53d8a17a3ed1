/* Command modes: the prompt suffix and the way `exit` climbs out of each.
 * A mode is an object declared where it belongs: the parser's own here
 * (exec, config, config-if, the filter words, the lab file's lines), a
 * feature's in its folder, listed in its struct feature (docs/registry.md).
 * The program hands the parser every feature's modes (mode_use) before the
 * grammar is compiled; the grammar gives each an index then. */
#ifndef MDSIM_MODE_H
#define MDSIM_MODE_H
#include <stdbool.h>

/* What a mode's shell is, when not NX-OS's: how the session prompts and
 * reports a line it cannot read (parser/session.c). */
enum mode_shell {
    SHELL_NXOS,
    SHELL_HOST,  /* a lab host's root shell (docs/hosts.md) */
    SHELL_SMCLI, /* a storage array's SMcli (docs/array.md) */
};

/* A set of modes a command may name instead of listing them, derived from
 * the registered modes: every configuration mode (is_config), or every
 * mode below exec (exec is their top mode). */
enum mode_set { MODE_SET_NONE, MODE_SET_CONFIG, MODE_SET_UNDER_EXEC };

struct mode_info {
    const char *name;               /* as in the prompt and the command reference */
    const char *prompt;             /* suffix after the host name, before "# " */
    const struct mode_info *parent; /* where `exit` goes; itself for a top mode (exec's ends the session) */
    bool is_config;                 /* under `configure terminal`: needs network-admin */
    enum mode_shell shell;
    /* How replay's --follow-prompts enters it from its parent: a fixed
     * line ("vsan database"), else the line that last entered it on that
     * switch, which names what about says ("fcip profile"). */
    const char *way_in;
    const char *about;
    enum mode_set set; /* MODE_SET_NONE for a mode; else this object names a set */
};

extern const struct mode_info mode_exec, mode_config, mode_if, mode_filter, mode_lab;
#define MODE_EXEC (&mode_exec)
#define MODE_CONFIG (&mode_config)
#define MODE_IF (&mode_if)
#define MODE_FILTER (&mode_filter) /* the words after `|`; never a session's mode */
#define MODE_LAB (&mode_lab)       /* the lines of a lab file (backend/lab/topology.c); never a session's mode */

/* The modes of a command (cmd_def.modes): a NULL-terminated list. */
#define MODES(...) ((const struct mode_info *const[]){__VA_ARGS__, NULL})
extern const struct mode_info modes_config, modes_under_exec;
#define M_CONFIG_ALL MODES(&modes_config)
#define M_NOT_EXEC MODES(&modes_under_exec)

/* The features' modes, NULL-terminated, given once before the first
 * grammar is compiled (their indices are its); the first call wins. */
void mode_use(const struct mode_info *const *feature_modes);

/* Every mode, the parser's and the features', in index order: exec,
 * config and config-if, then the features' in list order, then the
 * filter's and the lab file's. */
enum { MODE_MAX = 32 };
int mode_count(void);
const struct mode_info *mode_at(int index);
int mode_index(const struct mode_info *m); /* -1: not registered */

/* A sub-mode about one object (config-if, config-profile, san-ext-nport):
 * its parent is another mode, not exec. */
bool mode_is_sub(const struct mode_info *m);
/* Does mode m belong to the list (a mode of it, or of a set in it)? */
bool mode_in(const struct mode_info *const *list, const struct mode_info *m);

#endif
