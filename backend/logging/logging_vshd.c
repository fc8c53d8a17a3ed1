/* The message NX-OS logs when a session leaves configuration mode:
 * `%VSHD-5-VSHD_SYSLOG_CONFIG_I: Configured from vty by admin on
 * 10.0.0.5@pts/1` (console0 for the console). The session layer calls
 * it (session_on_config_exit) after `end`, `exit` or Ctrl-Z took a line
 * back to exec, under the lab lock; a replay's session, on no line of
 * `show users`, is named as the console. */
#include "logging.h"
#include "session.h"
#include "lab/lab.h"
#include "lab/sessions.h"
#include <stdio.h>
#include <string.h>

void logging_config_exit(struct session *s)
{
    const struct labsess *e = labsess_of(s->lab, s);
    char where[96] = "console0";
    if (e && e->pts >= 0 && strcmp(e->kind, "console") != 0) {
        char line[16];
        labsess_line(e, line, sizeof line);
        snprintf(where, sizeof where, "%s@%s", e->from, line);
    }
    syslog_emit(s->lab, s->sw, "VSHD", SEV_NOTICE, "VSHD_SYSLOG_CONFIG_I", 0, "Configured from vty by %s on %s",
                s->user, where);
}
