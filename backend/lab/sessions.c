/* Registry of live sessions. A process serves one lab, so one list,
 * remembered with the lab it belongs to. The lab lock guards it: no lock
 * of its own. */
#include "sessions.h"
#include "lab.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static struct lab *owner;
static struct labsess *head;

/* A switch has one console port: the first console session on it is
 * ttyS0, later ones (attached from other terminals) get a pts. */
static bool console_taken(int sw)
{
    for (struct labsess *e = head; e; e = e->next)
        if (e->sw == sw && e->pts < 0)
            return true;
    return false;
}

static bool pts_taken(int n)
{
    for (struct labsess *e = head; e; e = e->next)
        if (e->pts == n)
            return true;
    return false;
}

void labsess_add(struct lab *lab, struct labsess *e)
{
    if (owner != lab) { /* a lab opened anew: sessions of an old one are gone */
        owner = lab;
        head = NULL;
    }
    int n = 0;
    while (pts_taken(n)) /* like a pty: the lowest free number */
        n++;
    e->pts = strcmp(e->kind, "console") == 0 && !console_taken(e->sw) ? -1 : n;
    e->since = lab_time(lab, e->sw, NULL);
    e->last_ns = lab_now(lab);
    e->next = NULL;
    struct labsess **p = &head;
    while (*p)
        p = &(*p)->next;
    *p = e;
}

void labsess_remove(struct lab *lab, struct labsess *e)
{
    if (owner != lab)
        return;
    for (struct labsess **p = &head; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            return;
        }
}

void labsess_touch(struct lab *lab, struct labsess *e) { e->last_ns = lab_now(lab); }

void labsess_each(struct lab *lab, int sw, void (*fn)(void *ctx, const struct labsess *e), void *ctx)
{
    if (owner != lab)
        return;
    for (struct labsess *e = head; e; e = e->next)
        if (e->sw == sw)
            fn(ctx, e);
}

void labsess_line(const struct labsess *e, char *buf, size_t n)
{
    if (e->pts < 0)
        snprintf(buf, n, "ttyS0");
    else
        snprintf(buf, n, "pts/%d", e->pts);
}

const struct labsess *labsess_of(struct lab *lab, const struct session *s)
{
    for (struct labsess *e = owner == lab ? head : NULL; e; e = e->next)
        if (e->s == s)
            return e;
    return NULL;
}
