/* What an FCIP end says about why it is not up: the words of `show
 * interface` and the log's mnemonic (mds-cli-15-failures.md §15.1/§15.2;
 * the [G] choices are recorded in docs/failures.md). */
#ifndef MDSIM_FCIP_CAUSE_H
#define MDSIM_FCIP_CAUSE_H
#include <stdbool.h>
#include "tunnel.h"

struct fcip_cause_words {
    const char *reason;   /* "TCP conn. closed by peer" */
    const char *mnemonic; /* "IF_DOWN_PEER_CLOSE"; NULL: not logged */
    bool tight;           /* logged as "is down(...)", without the space */
    bool vsan_tag;        /* the log line carries the port VSAN's tag */
};

const struct fcip_cause_words *fcip_cause_words(enum fcip_cause c);

#endif
