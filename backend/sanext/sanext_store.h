/* The tuner's tables (schema/008_sanext.sql): SQL for the sanext folder. */
#ifndef MDSIM_SANEXT_STORE_H
#define MDSIM_SANEXT_STORE_H
#include <stdbool.h>
#include <stdint.h>

struct lab;

struct sanext_nport_row {
    uint8_t pwwn[8], nwwn[8];
    int vsan, slot, port;
    char pattern[64]; /* "" for the default */
};

struct sanext_cmd_row {
    int id, op;
    uint8_t target[8];
    long size;
    int outstanding;
    long long transactions;
    long long start;
};

bool wwn_parse(const char *text, uint8_t w[8]);

/* The switch's node WWN; false when `nwwn` was never given. */
bool sanext_nwwn(struct lab *lab, int sw, uint8_t w[8]);
void sanext_nwwn_set(struct lab *lab, int sw, const uint8_t w[8]);

bool sanext_nport_get(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, struct sanext_nport_row *r);
void sanext_nport_add(struct lab *lab, int sw, const struct sanext_nport_row *r);
void sanext_nport_delete(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan);
void sanext_nport_pattern(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, const char *name);
/* Every N port of the switch, in creation order. */
void sanext_nports_each(struct lab *lab, int sw, void (*fn)(void *ctx, const struct sanext_nport_row *r), void *ctx);

bool sanext_cmd_exists(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, int id);
/* Adds the command with the next start number of the switch. */
void sanext_cmd_add(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, const struct sanext_cmd_row *r);
/* id 0: every command of the N port. Returns how many were deleted. */
int sanext_cmd_delete(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan, int id);
void sanext_cmds_each(struct lab *lab, int sw, const uint8_t pwwn[8], int vsan,
                      void (*fn)(void *ctx, const struct sanext_cmd_row *r), void *ctx);

#endif
