#include "running.h"
#include "session.h"
#include "lab/lab.h"
#include "system/system.h"
#include "interface/ge.h"
#include "user/user.h"
#include "line/line.h"
#include "lab/feature.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void render_features(struct lab *lab, int sw, strbuf *out)
{
    for (int f = 1; f < FEAT_COUNT; f++)
        if (lab_feature_enabled(lab, sw, f))
            sb_printf(out, "%s\n", lab_feature_config_line(f));
}

static void render_switchname(struct lab *lab, int sw, strbuf *out)
{
    sb_printf(out, "switchname %s\n", lab_hostname(lab, sw));
}

static void render_interfaces(struct lab *lab, int sw, strbuf *out)
{
    ge_render_config(lab, sw, out, 0, 0);
}

/* Sections in NX-OS order; a feature adds its renderer here. */
static void (*const sections[])(struct lab *, int, strbuf *) = {
    render_features,
    user_render_config,
    render_switchname,
    render_interfaces,
    line_render_config,
};

void running_config_body(struct lab *lab, int sw, strbuf *out)
{
    sb_printf(out, "version %s\n", SYSTEM_RELEASE);
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        sections[i](lab, sw, out);
}

static void discard(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    (void)s;
    (void)n;
}

static char *startup_text(struct lab *lab, int sw)
{
    sqlite3_stmt *st = lab_stmt(lab, "SELECT body FROM startup_config WHERE switch_id = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    if (sqlite3_step(st) != SQLITE_ROW)
        return NULL;
    return strdup((const char *)sqlite3_column_text(st, 0));
}

int running_config_reload(struct lab *lab, int sw, strbuf *report)
{
    lab_factory_reset(lab, sw);
    lab_reboot(lab, sw);
    char *text = startup_text(lab, sw);
    if (!text)
        return 0;
    struct session in;
    session_init(&in, lab, sw, (struct session_io){.write = discard});
    in.mode = MODE_CONFIG;
    in.dont_ask = true;
    int failed = 0, ln = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        ln++;
        if (session_exec_in(&in, in.mode, line, 0) != 0) {
            failed++;
            sb_printf(report, "%% startup-config line %d (%s): %s\n", ln, line, in.last_error);
        }
        sb_clear(&in.out);
    }
    session_free(&in);
    free(text);
    return failed;
}
