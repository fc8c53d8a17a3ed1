/* Help text of keywords shared by many commands. A command whose keyword
 * means something else there gives its own line in cmd_def.help. */
#include "grammar.h"
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *kw, *help;
} words[] = {
    /* keep sorted: looked up by binary search */
    {"address", "Configure IP address"},
    {"begin", "Begin with the line that matches"},
    {"brief", "Show brief info of interface"},
    {"clock", "Manage the system clock"},
    {"clock set", "Set the time and date"},
    {"configure", "Enter configuration mode"},
    {"configure terminal", "Configure from the terminal"},
    {"copy", "Copy from one file to another"},
    {"count", "Count number of lines"},
    {"description", "Enter description of maximum 254 characters"},
    {"do", "EXEC command"},
    {"dont-ask", "Don't ask confirmation questions"},
    {"egrep", "Egrep - print lines matching a pattern"},
    {"end", "Exit to the exec mode"},
    {"erase", "Erase the startup configuration"},
    {"exclude", "Exclude lines that match"},
    {"exit", "Exit from command interpreter"},
    {"gigabitethernet", "Gigabit Ethernet interface"},
    {"grep", "Grep - print lines matching a pattern"},
    {"head", "Display first lines"},
    {"include", "Include lines that match"},
    {"interface", "Interface configuration"},
    {"ip", "Configure IP features"},
    {"ip address", "Configure IP address"},
    {"last", "Display last lines"},
    {"length", "Set number of lines on screen"},
    {"module", "Show module information"},
    {"mtu", "Enter MTU"},
    {"network-admin", "Predefined network admin role"},
    {"network-operator", "Predefined network operator role"},
    {"no", "Negate a command or set its defaults"},
    {"no-more", "Turn-off pagination for command output"},
    {"packet-size", "Size of packets to send"},
    {"password", "Password for the user"},
    {"ping", "Test network reachability"},
    {"reload", "Reboot the entire box"},
    {"role", "Role name"},
    {"running-config", "Current operating configuration"},
    {"section", "Show lines that include the pattern as well as the subsequent lines that are more indented than matching line"},
    {"set", "Set the time and date"},
    {"show", "Show running system information"},
    {"show clock", "Display current system clock"},
    {"show interface", "Display interface information"},
    {"show module", "Display module information"},
    {"show running-config", "Current operating configuration"},
    {"show startup-config", "Contents of startup configuration"},
    {"show switchname", "Display system's host name"},
    {"show terminal", "Display terminal configuration parameters"},
    {"show user-account", "Show information about user accounts"},
    {"show users", "Show the current users logged in the system"},
    {"show version", "Display software and hardware version"},
    {"shutdown", "Enable/disable an interface"},
    {"size", "Size of packets to send"},
    {"sleep", "Sleep for the specified number of seconds"},
    {"sort", "Stream Sorter"},
    {"startup-config", "Contents of startup configuration"},
    {"switchname", "Configure system's host name"},
    {"switchport", "Configure switchport parameters"},
    {"terminal", "Set terminal line parameters"},
    {"terminal length", "Set number of lines on screen"},
    {"timeout", "Seconds to wait for a reply"},
    {"uniq", "Discard all but one of successive identical lines"},
    {"username", "Configure user information"},
    {"version", "Show the software version"},
    {"wc", "Count words, lines, characters"},
    {"width", "Set width of the display terminal"},
    {"write", "Write current configuration"},
    {"write erase", "Erase the startup configuration"},
};

static int cmp(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

const char *keyword_help(const char *kw)
{
    const char *const *hit = bsearch(kw, words, sizeof words / sizeof words[0], sizeof words[0], cmp);
    return hit ? hit[1] : NULL;
}
