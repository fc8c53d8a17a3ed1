/* Storage arrays: always on (no gate); the lab's arrays are topology with
 * settings their SMcli shell changes. The engine holds one model per
 * array, its FC port logged in to its switch's VSAN; listed after the
 * fabric, whose engine it joins. */
#include "feature.h"
#include "array.h"
#include "array_iscsi.h"
#include "host/hostnet.h"
#include "fabric/fabric.h"
#include "lab/lab.h"
#include "fabric/fabric_feature.h"
#include "host/host.h"
#include <stdlib.h>
#include <string.h>

static const struct owned_table tables[] = {{NULL, NULL}}; /* its tables are the lab's (topology) */

struct arrays {
    int n;
    int host[64];
    struct array *a[64];
    struct iscsi_target *iscsi[64]; /* on the array's host ports */
};

static void *create(struct lab *lab, engine_t *e, struct ipnet *net)
{
    (void)net;
    struct arrays *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->n = array_hosts(lab, s->host, 64);
    struct hostnet *hn = hostnet_of_lab(lab); /* declared before: its list place */
    for (int i = 0; i < s->n; i++) {
        s->a[i] = array_new(e);
        s->iscsi[i] = hn ? iscsi_target_new(s->a[i], hn, s->host[i]) : NULL;
    }
    return s;
}

static void destroy(void *state)
{
    struct arrays *s = state;
    for (int i = 0; s && i < s->n; i++) {
        iscsi_target_free(s->iscsi[i]); /* before the hosts' stack, freed after this feature */
        array_free(s->a[i]);
    }
    free(s);
}

static bool parse_wwn(const char *t, uint8_t w[8])
{
    unsigned v[8];
    if (sscanf(t, "%2x:%2x:%2x:%2x:%2x:%2x:%2x:%2x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
        return false;
    for (int i = 0; i < 8; i++)
        w[i] = (uint8_t)v[i];
    return true;
}

static void attach(struct lab *lab, struct array *a, const struct array_row *r)
{
    uint8_t pwwn[8], nwwn[8];
    int sw = -1;
    for (int i = 0; i < lab_switch_count(lab); i++)
        if (lab_switch_id(lab, i) == r->fc_switch_id)
            sw = i;
    if (!r->has_fc || sw < 0 || !parse_wwn(r->pwwn, pwwn))
        return;
    memcpy(nwwn, pwwn, 8);
    nwwn[1] &= 0x0f; /* the node name: 20:14:... -> 20:04:..., as the DS3000 family's [G] */
    array_fc_attach(a, fabric_of_lab(lab), sw, r->vsan, pwwn, nwwn,
                    lab_switch_name(lab, lab_switch_count(lab) + r->host));
}

static void reconcile(struct lab *lab, struct ipnet *net, void *state)
{
    (void)net;
    struct arrays *s = state;
    for (int i = 0; i < s->n; i++) {
        struct array_row r;
        if (!array_row_get(lab, s->host[i], &r))
            continue;
        array_configure(s->a[i], &r.conf);
        attach(lab, s->a[i], &r);
    }
}

struct array *array_engine(struct lab *lab, int h)
{
    lab_reconcile(lab);
    struct arrays *s = lab_feature_state(lab, &array_feature);
    for (int i = 0; s && i < s->n; i++)
        if (s->host[i] == h)
            return s->a[i];
    return NULL;
}

const struct mode_info array_mode = {
    .name = "smcli",
    .prompt = "(smcli)",
    .parent = &array_mode,
    .shell = SHELL_SMCLI,
};
static const struct mode_info *const modes[] = {&array_mode, NULL};

static const struct mode_info *node_mode(const struct lab *lab, int sw)
{
    return lab_is_array(lab, sw) ? &array_mode : NULL;
}

const struct feature array_feature = {
    .name = "array",
    .modes = modes,
    .node_mode = node_mode,
    .cmds = array_cmds,
    .tables = tables,
    .engine_new = create,
    .engine_free = destroy,
    .reconcile = reconcile,
};
