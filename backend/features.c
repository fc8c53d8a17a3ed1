/* The ordered list of features (backend/feature.h). */
#include "feature.h"
#include "parser_cmds.h"
#include "session.h"
#include "ifname.h"
#include "array/array.h"
#include "bootflash/bootflash.h"
#include "capture/capture.h"
#include "config/running.h"
#include "fabric/fabric_feature.h"
#include "fcdomain/fcdomain.h"
#include "fcip/fcip.h"
#include "fctimer/fctimer.h"
#include "fspf/fspf_conf.h"
#include "host/host.h"
#include "interface/ge.h"
#include "interface/mgmt.h"
#include "ipnet/ping_cmds.h"
#include "iscsi/iscsi.h"
#include "license/license.h"
#include "line/line.h"
#include "logging/logging.h"
#include "netsim/netsim.h"
#include "portchannel/portchannel.h"
#include "route/route.h"
#include "sanext/sanext.h"
#include "series/series.h"
#include "system/system.h"
#include "user/user.h"
#include "vsan/vsan.h"
#include "zone/zone.h"
#include <stddef.h>
#include <string.h>

/* Reconcile order: the data plane's ports first, then what rides on them. */
const struct feature *const features[] = {
    &system_feature,
    &config_feature,
    &user_feature,
    &interface_feature,
    &mgmt_feature,
    &ipnet_feature,
    &route_feature, /* after the ports: its routes name them */
    &host_feature, /* after the routers: its cables may reach their ports */
    &netsim_feature,
    &fabric_feature, /* before fcip: its engine and VSANs are what the tunnels join */
    &portchannel_feature, /* its blocks before the fcip interfaces that are its members */
    &fcip_feature,
    &iscsi_feature,
    &vsan_feature,
    &fcdomain_feature, /* after vsan: its lines follow the vsan database */
    &fctimer_feature,
    &fspf_feature, /* after fabric and fcip: it hands the fabric their links' costs */
    &zone_feature,
    &sanext_feature,
    &array_feature, /* after the fabric: its arrays' FC ports log in to it */
    &line_feature,
    &license_feature,
    &bootflash_feature,
    &series_feature, /* its export writes to bootflash: */
    &capture_feature, /* ethanalyzer writes to bootflash: */
    &logging_feature, /* last: its running-config lines follow the lines' */
    NULL,
};

const struct gate *const *feature_gates(void)
{
    static const struct gate *gates[GATE_MAX + 1];
    if (!gates[0]) {
        int n = 0;
        for (const struct feature *const *f = features; *f && n < GATE_MAX; f++)
            if ((*f)->declares)
                gates[n++] = (*f)->declares;
    }
    return gates;
}

int gate_index(const struct gate *g)
{
    const struct gate *const *all = feature_gates();
    for (int i = 0; g && all[i]; i++)
        if (all[i] == g)
            return i;
    return -1;
}

const struct cmd_def *const *command_tables(void)
{
    enum { MAX = 64 };
    static const struct cmd_def *tables[MAX];
    if (!tables[0]) {
        int n = 0;
        tables[n++] = session_cmds;
        tables[n++] = filter_cmds;
        for (const struct feature *const *f = features; *f && n < MAX - 1; f++)
            if ((*f)->cmds)
                tables[n++] = (*f)->cmds;
    }
    return tables;
}

const struct mode_info *feature_node_mode(const struct lab *lab, int sw)
{
    for (const struct feature *const *f = features; *f; f++) {
        const struct mode_info *m = (*f)->node_mode ? (*f)->node_mode(lab, sw) : NULL;
        if (m)
            return m;
    }
    return NULL;
}

const struct iftype *const *interface_types(void)
{
    enum { MAX = 16 };
    static const struct iftype *types[MAX];
    if (!types[0]) {
        int n = 0;
        for (const struct feature *const *f = features; *f && n < MAX - 1; f++)
            if ((*f)->iftype)
                types[n++] = (*f)->iftype;
    }
    return types;
}

static const struct mode_info *const *feature_modes(void)
{
    static const struct mode_info *modes[MODE_MAX];
    if (!modes[0]) {
        int n = 0;
        for (const struct feature *const *f = features; *f; f++)
            for (const struct mode_info *const *m = (*f)->modes; m && *m && n < MODE_MAX - 1; m++)
                modes[n++] = *m;
    }
    return modes;
}

void features_install(void)
{
    mode_use(feature_modes());
    session_use_commands(command_tables());
    ifname_use_types(interface_types());
}

const struct value_source *feature_value_source(const char *name)
{
    for (const struct feature *const *f = features; *f; f++)
        for (const struct value_source *v = (*f)->values; v && v->name; v++)
            if (strcmp(v->name, name) == 0)
                return v;
    return NULL;
}

const struct mode_check *feature_mode_check(const struct mode_info *m, const struct iftype *iftype)
{
    for (const struct feature *const *f = features; *f; f++)
        for (const struct mode_check *c = (*f)->mode_checks; c && c->ok; c++)
            if (c->mode == m && c->iftype == iftype)
                return c;
    return NULL;
}
