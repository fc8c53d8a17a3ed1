/* Hosts: always on (no gate), no configuration of their own; the lab's
 * hosts are topology, declared to the data plane when the engine starts,
 * after the routers their cables may reach. */
#include "feature.h"
#include "host.h"
#include "lab/lab.h"

static void *host_engine_new(struct lab *lab, engine_t *e, struct ipnet *net)
{
    (void)e;
    return lab_host_count(lab) ? host_declare(lab, net) : NULL;
}

static void host_engine_free(void *state) { hostnet_free(state); }

struct hostnet *host_engine(struct lab *lab)
{
    lab_ipnet(lab); /* the engine in line with the store first */
    return hostnet_of_lab(lab);
}

struct hostnet *hostnet_of_lab(struct lab *lab) { return lab_feature_state(lab, &host_feature); }

const struct mode_info host_mode = {.name = "host", .prompt = ":~", .parent = &host_mode, .shell = SHELL_HOST};
static const struct mode_info *const modes[] = {&host_mode, NULL};

/* A host that is a storage array runs the array's shell instead. */
static const struct mode_info *node_mode(const struct lab *lab, int sw)
{
    return lab_is_host(lab, sw) && !lab_is_array(lab, sw) ? &host_mode : NULL;
}

const struct feature host_feature = {
    .name = "host",
    .modes = modes,
    .node_mode = node_mode,
    .cmds = host_cmds,
    .engine_new = host_engine_new,
    .engine_free = host_engine_free,
};
