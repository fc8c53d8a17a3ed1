/* The lines of a lab file, declared as grammar data in MODE_LAB. The
 * handlers live in topology.c, found by each command's first keyword:
 * they work on a lab being built, not on a switch session. */
#include "topology.h"
#include <stddef.h>

const struct cmd_def topology_cmds[] = {
    {MODES(MODE_LAB), "seed <n:0-4294967295>",
     "seed: Seed of the lab's random streams (default 1)\n"
     "n: Seed",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "switch <name:word> chassis <model:word>",
     "switch: Declare a switch; the module lines that follow are its line cards\n"
     "name: Switch name, also its factory host name (a letter, then letters, digits, - or _; up to 32)\n"
     "chassis: Chassis of the switch\n"
     "model: Chassis model, e.g. DS-C9509",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "module <slot:1-13> <model:word>",
     "module: A module in a slot of the switch declared last\n"
     "slot: Slot number\n"
     "model: Module model, e.g. DS-X9308-SMIP",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "link <a:word> <aport:word> <b:word> <bport:word>",
     "link: A cable between two Gigabit Ethernet ports of IPS modules, or to a router's port\n"
     "a: Switch (or router) at one end\n"
     "aport: Its port, e.g. GigabitEthernet2/2 or g2/2 (a router's: eth1, a host's: eth0)\n"
     "b: Switch (or router) at the other end\n"
     "bport: Its port",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "router <name:word> [no-icmp]",
     "router: Declare an IP router (docs/routing.md); the interface and route lines that follow are its own\n"
     "name: Router name (as a switch name; unique among switches and routers)\n"
     "no-icmp: It sends no ICMP error (a firewall that drops them: path MTU black hole)",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "host <name:word>",
     "host: Declare an IP host with netperf and netserver (docs/hosts.md); the interface lines that follow are its own\n"
     "name: Host name (as a switch name; unique among switches, routers and hosts)",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "array <name:word> [controllers <n:1-2>] [disks <count:2-45>]",
     "array: Declare a storage array of the DS3300 / MD3000i family (docs/array.md); the interface (its iSCSI ports),"
     " logical-drive and fc-port lines that follow are its own\n"
     "name: Array name (as a host name)\n"
     "controllers: RAID controllers (default 2)\n"
     "n: 1 or 2\n"
     "disks: 7.2k rpm SATA disks of 1 TB (default 15)\n"
     "count: Disks",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "logical-drive <name:word> raid <level:0-10> disks <n:2-45> capacity-gb <gb:1-65536> [owner {a|b}]",
     "logical-drive: A logical drive of the array declared last, the FC port's LUN 0 first\n"
     "name: Its name (up to 30 characters)\n"
     "raid: Its RAID level\n"
     "level: 5 or 10\n"
     "disks: Disks it takes\n"
     "n: RAID 5: 3 or more; RAID 10: even\n"
     "capacity-gb: Its capacity\n"
     "gb: Gigabytes\n"
     "owner: Its preferred controller (default a)\n"
     "a: Controller A\n"
     "b: Controller B",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "fc-port <pwwn:wwn> switch <sw:word> vsan <v:1-4094>",
     "fc-port: The array's FC host port: a target N port logged in on a switch's VSAN\n"
     "pwwn: Its port WWN\n"
     "switch: The switch it is cabled to\n"
     "sw: Switch name\n"
     "vsan: The VSAN it logs in to\n"
     "v: VSAN",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB),
     "interface <port:word> <ip:ipv4> <mask:netmask> [gateway <gw:ipv4>] [mtu <bytes:576-9216>] [delay-ms <ms:0-150>]"
     " [max-bandwidth-kbps <kbps:1000-1000000>] [qsize <kb:1-1000>] [drop-random <p:0-10000>]",
     "interface: A port of the router or host declared last, with its address; impairments apply each way through a"
     " router's\n"
     "port: eth1 to eth8 (a host's: eth0 to eth3)\n"
     "ip: Its address\n"
     "mask: Its subnet mask\n"
     "gateway: A host's default gateway, on this port's subnet\n"
     "gw: Its address\n"
     "mtu: The largest datagram it sends (default 1500)\n"
     "bytes: Bytes (576-9216)\n"
     "delay-ms: One-way delay each way, as ips netsim delay-ms\n"
     "ms: Milliseconds\n"
     "max-bandwidth-kbps: Rate each way, as ips netsim max-bandwidth-kbps\n"
     "kbps: Kilobits per second\n"
     "qsize: Queue each way, as ips netsim qsize\n"
     "kb: Kilobytes\n"
     "drop-random: Drops each way, as ips netsim drop random\n"
     "p: Packets per 10000",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "route <dest:ipv4> <mask:netmask> <nexthop:ipv4>",
     "route: A static route of the router declared last\n"
     "dest: Destination network\n"
     "mask: Its mask\n"
     "nexthop: Next hop, on the subnet of one of the router's ports",
     NULL, 0, 0, 0},
    {MODES(MODE_LAB), "config <name:word>",
     "config: The starting configuration of a switch declared above, in the switch's own syntax, on the lines"
     " that follow up to a line end-config\n"
     "name: Switch name",
     NULL, 0, 0, 0},
    {0},
};
