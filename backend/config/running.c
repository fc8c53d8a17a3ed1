#include "running.h"
#include "session.h"
#include "lab/lab.h"
#include "system/system.h"
#include "feature.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The gates turned on, then each section with the features in list order;
 * with `all`, a feature's defaults too where it can spell them out. */
static void render_body(struct lab *lab, int sw, strbuf *out, bool all)
{
    sb_printf(out, "version %s\n", SYSTEM_RELEASE);
    for (const struct feature *const *f = features; *f; f++)
        if ((*f)->declares && lab_feature_enabled(lab, sw, (*f)->declares))
            sb_printf(out, "%s\n", (*f)->declares->line);
    for (int sec = 0; sec < SECTION_COUNT; sec++)
        for (const struct feature *const *f = features; *f; f++)
            if (all && (*f)->render_all[sec])
                (*f)->render_all[sec](lab, sw, out);
            else if ((*f)->render[sec])
                (*f)->render[sec](lab, sw, out);
}

void running_config_body(struct lab *lab, int sw, strbuf *out) { render_body(lab, sw, out, false); }

void running_config_all(struct lab *lab, int sw, strbuf *out) { render_body(lab, sw, out, true); }

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

bool running_config_unsaved(struct lab *lab, int sw)
{
    strbuf now, saved;
    sb_init(&now);
    sb_init(&saved);
    running_config_body(lab, sw, &now);
    char *text = startup_text(lab, sw);
    if (text) {
        sb_printf(&saved, "%s", text);
    } else { /* nothing saved: a reload gives the factory configuration */
        lab_txn_begin(lab);
        lab_factory_reset(lab, sw);
        running_config_body(lab, sw, &saved);
        lab_txn_end(lab, false);
    }
    bool differ = strcmp(sb_str(&now), sb_str(&saved)) != 0;
    free(text);
    sb_free(&now);
    sb_free(&saved);
    return differ;
}

int running_config_reload(struct lab *lab, int sw, strbuf *report)
{
    lab_factory_reset(lab, sw);
    lab_reboot(lab, sw);
    return running_config_merge_startup(lab, sw, report);
}

int running_config_merge_startup(struct lab *lab, int sw, strbuf *report)
{
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
        if (line[0] == '!') /* a comment: NX-OS's `!Active Zone Database Section ...` */
            continue;
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
