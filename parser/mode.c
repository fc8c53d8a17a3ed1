#include "mode.h"

static const struct mode_info modes[MODE_COUNT] = {
    [MODE_EXEC] = {"exec", "", MODE_EXEC, 0},
    [MODE_CONFIG] = {"config", "(config)", MODE_EXEC, 1},
    [MODE_IF] = {"config-if", "(config-if)", MODE_CONFIG, 1},
    [MODE_PROFILE] = {"config-profile", "(config-profile)", MODE_CONFIG, 1},
    [MODE_VSAN_DB] = {"config-vsan-db", "(config-vsan-db)", MODE_CONFIG, 1},
    [MODE_LINE] = {"config-line", "(config-line)", MODE_CONFIG, 1},
    [MODE_SANEXT] = {"san-ext", "(san-ext)", MODE_EXEC, 0},
    [MODE_SANEXT_NPORT] = {"san-ext-nport", "(san-ext-nport)", MODE_SANEXT, 0},
    [MODE_ZONE] = {"config-zone", "(config-zone)", MODE_CONFIG, 1},
    [MODE_ZONESET] = {"config-zoneset", "(config-zoneset)", MODE_CONFIG, 1},
    [MODE_HOST] = {"host", ":~", MODE_HOST, 0},
    [MODE_ARRAY] = {"smcli", "(smcli)", MODE_ARRAY, 0},
    [MODE_FILTER] = {"filter", "", MODE_FILTER, 0},
    [MODE_LAB] = {"lab", "", MODE_LAB, 0},
};

const struct mode_info *mode_info(enum mode m) { return &modes[m]; }
