/* Command modes: the prompt suffix and the way `exit` climbs out of each. */
#ifndef MDSIM_MODE_H
#define MDSIM_MODE_H

enum mode {
    MODE_EXEC,
    MODE_CONFIG,
    MODE_IF,
    MODE_PROFILE,
    MODE_VSAN_DB,
    MODE_LINE,
    MODE_SANEXT,
    MODE_SANEXT_NPORT,
    MODE_ZONE,
    MODE_ZONESET,
    MODE_HOST,   /* a lab host's shell (docs/hosts.md): its only mode */
    MODE_ARRAY,  /* a storage array's SMcli shell (docs/array.md): its only mode */
    MODE_FILTER, /* the words after `|`; never a session's mode */
    MODE_LAB,    /* the lines of a lab file (backend/lab/topology.c); never a session's mode */
    MODE_COUNT
};

#define M(x) (1u << (x))
#define M_CONFIG_ALL                                                                                         \
    (M(MODE_CONFIG) | M(MODE_IF) | M(MODE_PROFILE) | M(MODE_VSAN_DB) | M(MODE_LINE) | M(MODE_ZONE) |         \
     M(MODE_ZONESET))
#define M_SUBMODES                                                                                           \
    (M(MODE_IF) | M(MODE_PROFILE) | M(MODE_VSAN_DB) | M(MODE_LINE) | M(MODE_SANEXT_NPORT) | M(MODE_ZONE) |   \
     M(MODE_ZONESET))
#define M_NOT_EXEC (M_CONFIG_ALL | M(MODE_SANEXT) | M(MODE_SANEXT_NPORT))

struct mode_info {
    const char *name;   /* as in the prompt and the command reference */
    const char *prompt; /* suffix after the host name, before "# " */
    enum mode parent;   /* where `exit` goes; EXEC's parent ends the session */
    int is_config;      /* under `configure terminal`: needs network-admin */
};

const struct mode_info *mode_info(enum mode m);

#endif
