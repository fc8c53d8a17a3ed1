/* `fctimer e_d_tov|r_a_tov <ms>` (global) and `show fctimer`
 * (mds-cli-14-fcip.md §14.2-E). The VSANs need not be suspended first,
 * as the configuration guide asks on an MDS [G: mdsim accepts the change
 * at once; a running link follows it through its ELP]. */
#include "session.h"
#include "feature.h"
#include "fctimer.h"

static int cmd_timer(struct session *s, const struct cmd_args *a)
{
    struct fctimer_conf c;
    fctimer_get(s->lab, s->sw, &c);
    bool edtov = arg_has(a, "e_d_tov");
    int *v = edtov ? &c.e_d_tov_ms : &c.r_a_tov_ms;
    *v = a->negated ? (edtov ? FCTIMER_E_D_TOV_MS : FCTIMER_R_A_TOV_MS) : (int)arg_num(a, "ms", 0);
    fctimer_set(s->lab, s->sw, &c);
    return 0;
}

/* The published example's spacing was lost; columns two spaces apart [G].
 * F_S_TOV and D_S_TOV are printed at their defaults (not configurable). */
static int show_fctimer(struct session *s, const struct cmd_args *a)
{
    (void)a;
    struct fctimer_conf c;
    fctimer_get(s->lab, s->sw, &c);
    cmd_printf(s, "F_S_TOV  D_S_TOV  E_D_TOV  R_A_TOV\n----------------------------------------\n"
                  "5000 ms  5000 ms  %d ms  %d ms\n",
               c.e_d_tov_ms, c.r_a_tov_ms);
    return 0;
}

#define TIMER_HELP "fctimer: Configure fibre channel timers\n"
const struct cmd_def fctimer_cmds[] = {
    {MODES(MODE_CONFIG), "[no] fctimer e_d_tov <ms:1000-4000>",
     TIMER_HELP "e_d_tov: Error detect timeout\nms: Milliseconds (default 2000)", cmd_timer, 0, 0, 0},
    {MODES(MODE_CONFIG), "[no] fctimer r_a_tov <ms:5000-100000>",
     TIMER_HELP "r_a_tov: Resource allocation timeout\nms: Milliseconds (default 10000)", cmd_timer, 0, 0, 0},
    {MODES(MODE_EXEC), "show fctimer", "fctimer: Display fibre channel timers", show_fctimer, CMD_PIPE, 0, 0},
    {0},
};
