/* Interface types: typed names (`g2/2`, `gig 2/2`) and canonical ones. */
#ifndef MDSIM_IFNAME_H
#define MDSIM_IFNAME_H
#include <stddef.h>
#include <stdbool.h>

/* Index of each type in the table; (config-if) commands name them in iftypes. */
enum { IFT_GE, IFT_FCIP, IFT_ISCSI, IFT_MGMT };
#define IFT(x) (1u << (x))

struct iftype {
    const char *keyword;   /* as declared in the grammar */
    const char *canonical; /* as the switch prints it */
    bool slot_port;        /* numbered slot/port, else a single id */
};

/* The interface type whose keyword starts with s[0..n) when unique, or the
 * first of several (the matcher reports the ambiguity, not the lexer). */
const struct iftype *iftype_by_prefix(const char *s, size_t n);
const struct iftype *iftype_by_keyword(const char *kw);
int iftype_index(const struct iftype *t);

/* "GigabitEthernet2/2", "fcip1": port is ignored for single-id types. */
void ifname_format(char *buf, size_t n, const struct iftype *t, int a, int b);

#endif
