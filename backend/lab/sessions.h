/*
 * The live sessions of this process's lab, for `show users`: the served
 * ones and the consoles (all of them, as every mdsim on a lab runs its
 * sessions in the lab's owner, docs/lab-owner.md). Front-ends add and remove their sessions;
 * every call is made under the lab lock.
 */
#ifndef MDSIM_LAB_SESSIONS_H
#define MDSIM_LAB_SESSIONS_H
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct lab;
struct session;

struct labsess {
    const struct session *s; /* to mark the session asking with `*` */
    int sw;
    int pts;          /* pts/N, assigned by labsess_add, unique in the lab;
                       * -1 for the switch's first console (ttyS0) */
    char user[33];
    char from[64];    /* peer address */
    char kind[8];     /* "telnet", "ssh" or "console" */
    time_t since;     /* lab calendar time of the login */
    uint64_t last_ns; /* lab clock at the last command, for IDLE */
    struct labsess *next;
};

void labsess_add(struct lab *lab, struct labsess *e);
void labsess_remove(struct lab *lab, struct labsess *e);
/* Marks activity now (lab clock). */
void labsess_touch(struct lab *lab, struct labsess *e);
/* Calls fn for each session on switch sw, oldest first. */
void labsess_each(struct lab *lab, int sw, void (*fn)(void *ctx, const struct labsess *e), void *ctx);
/* The line a session is on, as `show users` and `show terminal` name it:
 * "ttyS0" for the console, "pts/N" for telnet and SSH. */
void labsess_line(const struct labsess *e, char *buf, size_t n);
/* The registered session of s, or NULL (replay, batch). */
const struct labsess *labsess_of(struct lab *lab, const struct session *s);

#endif
