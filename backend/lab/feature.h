/* Optional features a switch enables (`feature fcip`, `san-ext-tuner enable`);
 * commands of a disabled feature are invalid commands. */
#ifndef MDSIM_FEATURES_H
#define MDSIM_FEATURES_H

enum feature {
    FEAT_NONE,
    FEAT_FCIP,
    FEAT_ISCSI,
    FEAT_SANEXT,
    FEAT_COUNT
};

#endif
