/* What a switch logs as its port-channels' members come and go: NX-OS's
 * PORT-CHANNEL messages (severity 5) and the channel's own interface
 * lines; the words are recalled from the NX-OS system messages [P]
 * (docs/port-channel.md). */
#include "pc_log.h"
#include "logging/syslog.h"

void pc_log_change(void *ctx, const struct pchan_change *c)
{
    struct lab *lab = ctx;
    switch (c->ev) {
    case PCHAN_MEMBER_UP:
        syslog_emit(lab, c->sw, "PORT-CHANNEL", SEV_NOTICE, "PORT_UP", 0, "port-channel%d: fcip%d is up", c->channel,
                    c->member);
        break;
    case PCHAN_MEMBER_DOWN:
        syslog_emit(lab, c->sw, "PORT-CHANNEL", SEV_NOTICE, "PORT_DOWN", 0, "port-channel%d: fcip%d is down",
                    c->channel, c->member);
        break;
    case PCHAN_FOP_CHANGED:
        syslog_emit(lab, c->sw, "PORT-CHANNEL", SEV_NOTICE, "FOP_CHANGED", 0,
                    "port-channel%d: first operational port changed from fcip%d to fcip%d", c->channel, c->fop_from,
                    c->fop_to);
        break;
    case PCHAN_UP:
        syslog_emit(lab, c->sw, "PORT", SEV_NOTICE, "IF_UP", 0, "Interface port-channel%d is up in mode %s",
                    c->channel, c->trunking ? "TE" : "E");
        break;
    case PCHAN_DOWN:
        syslog_emit(lab, c->sw, "PORT", SEV_NOTICE, "IF_DOWN_NONE", 0,
                    "Interface port-channel%d is down(No operational members)", c->channel);
        break;
    }
}
