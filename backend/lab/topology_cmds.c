/* The lines of a lab file, declared as grammar data in MODE_LAB. The
 * handlers live in topology.c, found by each command's first keyword:
 * they work on a lab being built, not on a switch session. */
#include "topology.h"
#include <stddef.h>

const struct cmd_def topology_cmds[] = {
    {M(MODE_LAB), "seed <n:0-4294967295>",
     "seed: Seed of the lab's random streams (default 1)\n"
     "n: Seed",
     NULL, 0, 0, 0},
    {M(MODE_LAB), "switch <name:word> chassis <model:word>",
     "switch: Declare a switch; the module lines that follow are its line cards\n"
     "name: Switch name, also its factory host name (a letter, then letters, digits, - or _; up to 32)\n"
     "chassis: Chassis of the switch\n"
     "model: Chassis model, e.g. DS-C9509",
     NULL, 0, 0, 0},
    {M(MODE_LAB), "module <slot:1-13> <model:word>",
     "module: A module in a slot of the switch declared last\n"
     "slot: Slot number\n"
     "model: Module model, e.g. DS-X9308-SMIP",
     NULL, 0, 0, 0},
    {M(MODE_LAB), "link <a:word> <aport:word> <b:word> <bport:word>",
     "link: A cable between two Gigabit Ethernet ports of IPS modules\n"
     "a: Switch at one end\n"
     "aport: Its port, e.g. GigabitEthernet2/2 or g2/2\n"
     "b: Switch at the other end\n"
     "bport: Its port",
     NULL, 0, 0, 0},
    {M(MODE_LAB), "config <name:word>",
     "config: The starting configuration of a switch declared above, in the switch's own syntax, on the lines"
     " that follow up to a line end-config\n"
     "name: Switch name",
     NULL, 0, 0, 0},
    {0},
};
