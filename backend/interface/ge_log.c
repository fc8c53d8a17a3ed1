/* What a Gigabit Ethernet port logs when its link changes (mds-cli-15
 * cases A and B; [G] wording, docs/failures.md). The data plane tells
 * each change once the ports and the bridges are reconciled; the lab's
 * first reconcile only learns them: opening a lab is no event. */
#include "ge_log.h"
#include "lab/lab.h"
#include "logging/syslog.h"
#include <stdlib.h>

struct ge_log {
    struct lab *lab;
    int reconciles;
};

static void told(void *ctx, int sw, int slot, int port, enum ipnet_link now)
{
    static const struct {
        const char *mnemonic, *text;
    } lines[] = {
        [IPNET_UP] = {"IF_UP", "is up"},
        [IPNET_ADMIN_DOWN] = {"IF_DOWN_ADMIN_DOWN", "is down (Administratively down)"},
        [IPNET_NOT_CONNECTED] = {"IF_DOWN_LINK_FAILURE", "is down (Link failure)"},
    };
    struct ge_log *g = ctx;
    if (g->reconciles > 1)
        syslog_emit(g->lab, sw, "PORT", SEV_NOTICE, lines[now].mnemonic, 0, "Interface GigabitEthernet%d/%d %s", slot,
                    port, lines[now].text);
}

void *ge_log_new(struct lab *lab, struct ipnet *net)
{
    struct ge_log *g = calloc(1, sizeof *g);
    if (!g)
        abort();
    g->lab = lab;
    ipnet_on_link(net, told, g);
    return g;
}

void ge_log_free(void *state) { free(state); }

void ge_log_reconciling(void *state) { ((struct ge_log *)state)->reconciles++; }
