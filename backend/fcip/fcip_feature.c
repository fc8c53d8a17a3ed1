/* FCIP behind `feature fcip` (`fcip enable`): profiles and fcip interfaces.
 * The engine part (tunnels, their TCP, the FC frames they carry) reads the
 * configuration through fcip.h; its hooks are the engine's to fill. */
#include "feature.h"
#include "fcip.h"
#include "fcip_engine.h"
#include "fcip_record.h"

/* Interfaces before the profiles they use. */
static const struct owned_table tables[] = {{"fcip_if", NULL}, {"fcip_profile", NULL}, {NULL, NULL}};

/* Profiles after the Gigabit Ethernet blocks that hold their addresses (a
 * profile's `ip address` must be one of them), then the interfaces. */
static void render(struct lab *lab, int sw, strbuf *out)
{
    fcip_render_profiles(lab, sw, out);
    fcip_render_ifs(lab, sw, out, 0);
}

const struct gate fcip_gate = {"fcip", "feature fcip"};

const struct mode_info fcip_profile_mode = {
    .name = "config-profile",
    .prompt = "(config-profile)",
    .parent = &mode_config,
    .is_config = true,
    .about = "fcip profile",
};
static const struct mode_info *const modes[] = {&fcip_profile_mode, NULL};

const struct feature fcip_feature = {
    .name = "fcip",
    .modes = modes,
    .cmds = fcip_cmds,
    .iftype = &fcip_iftype,
    .gate = &fcip_gate,
    .declares = &fcip_gate,
    .render = {[SECTION_INTERFACES] = render},
    .tables = tables,
    .records = (const struct record_type *const[]){&fcip_record_type, NULL},
    .engine_new = fcip_engine_create,
    .engine_free = fcip_engine_destroy,
    .reconcile = fcip_engine_reconcile,
    .show_interfaces = fcip_show_interfaces,
    .show_brief = fcip_show_brief,
    .show_descriptions = fcip_show_descriptions,
    .show_counters = fcip_show_counters,
    .clear_counters = fcip_clear_all_counters,
    .values = fcip_values,
    .mode_checks = fcip_mode_checks,
};
