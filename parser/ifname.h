/* Interface types: typed names (`g2/2`, `gig 2/2`) and canonical ones. */
#ifndef MDSIM_IFNAME_H
#define MDSIM_IFNAME_H
#include <stddef.h>
#include <stdbool.h>

/* An interface type is declared by the feature that has such interfaces
 * (its folder) and handed to the parser at start-up (ifname_use_types);
 * (config-if) commands and sub-mode checks name it by its address. */
struct iftype {
    const char *keyword;   /* as declared in the grammar */
    const char *canonical; /* as the switch prints it */
    bool slot_port;        /* numbered slot/port, else a single id */
};

/* The interface type whose keyword starts with s[0..n) when unique, or the
 * first of several (the matcher reports the ambiguity, not the lexer). */
const struct iftype *iftype_by_prefix(const char *s, size_t n);
const struct iftype *iftype_by_keyword(const char *kw);

/* The program's interface types, NULL-terminated, in the registry's order
 * (backend/features.c), given once before the first line is lexed; the
 * first call wins. */
void ifname_use_types(const struct iftype *const *types);

/* "GigabitEthernet2/2", "fcip1": port is ignored for single-id types. */
void ifname_format(char *buf, size_t n, const struct iftype *t, int a, int b);

/* Parses the ports of `interface gigabitethernet 2/1-3, gigabitethernet
 * 2/5` after the first type keyword ("2/1-3, gigabitethernet 2/5"): items
 * separated by commas, each an optional abbreviation of type t's keyword
 * then a number or range. Fills ports (slot/port, or id and 0), without
 * repeats, in the order typed. Returns how many, or -1 with the NX-OS
 * error in err. */
int ifname_parse_list(const struct iftype *t, const char *text, int (*ports)[2], int max, char *err,
                      size_t n);

#endif
