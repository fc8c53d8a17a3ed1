/* The system log (docs/logging.md): its commands, its lines of the
 * running configuration, its tables, and its engine state (the queue of
 * messages on their way to the store and the ring the terminals read),
 * flushed to the store by the lab once no command's savepoint is open. */
#include "feature.h"
#include "logging.h"

/* A reload clears the logfile, as a switch's lives in memory until it
 * reboots (mds-cli-15-failures.md §15.2); `write erase` leaves it. */
static const struct owned_table tables[] = {{"syslog_message", NULL}, {"logging_config", NULL}, {NULL, NULL}};

static void *state_new(struct lab *lab, engine_t *e, struct ipnet *net)
{
    (void)e;
    (void)net;
    return logging_engine_new(lab);
}

const struct feature logging_feature = {
    .name = "logging",
    .cmds = logging_cmds,
    .render = {[SECTION_LINES] = logging_render_config},
    .tables = tables,
    .engine_new = state_new,
    .engine_free = logging_engine_free,
    .flush = logging_flush,
};
