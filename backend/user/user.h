/*
 * Local users of a switch (`username ... role ...`): accounts kept in the
 * store as crypt(3) hashes, and the login check the servers use.
 */
#ifndef MDSIM_USER_H
#define MDSIM_USER_H
#include <stdbool.h>
#include <stddef.h>
#include "session.h"
#include "strbuf.h"
#include "grammar.h"

struct lab;

enum { USER_NAME_MAX = 32, USER_HASH_MAX = 128,
       USER_PASSWORD_MAX = 128 /* longer ones are refused unhashed: crypt's cost grows with the length */ };

struct user_account {
    char name[USER_NAME_MAX + 1];
    char hash[USER_HASH_MAX];
    enum role role;
};

/* Store access: the caller holds the lab lock. */
bool user_get(struct lab *lab, int sw, const char *name, struct user_account *out);
void user_put(struct lab *lab, int sw, const struct user_account *u);
void user_delete(struct lab *lab, int sw, const char *name);
/* `username` lines of the running configuration. */
void user_render_config(struct lab *lab, int sw, strbuf *out);

/* What user_login hashes an unknown user's password with, so that a
 * stranger's login costs the crypt a user's does; the hash is thrown away
 * (the fuzz targets skip that crypt: tests/fuzz/fuzz_wrap.c). */
#define USER_NOBODY_SETTING "$5$mdsimdflt$"
/* A new SHA-256 crypt hash with a random salt; false when crypt fails. */
bool user_hash_password(const char *password, char *out, size_t n);
/* A hash as `password 5 HASH` may give it: $5$ or $6$, well formed. */
bool user_hash_valid(const char *hash);

/* A login on switch sw: takes the lab lock itself, runs crypt outside it.
 * Failures are counted and slowed by the caller (cli/login_throttle.c). */
bool user_login(struct lab *lab, int sw, const char *name, const char *password, enum role *role);

/* session.check_account for a logged-in user: its role as the store has
 * it now; false when the account is gone. Under the lab lock. */
bool user_check_session(struct session *s);

/* True while some switch of the lab still lets admin in with "admin". */
bool user_default_admin_left(struct lab *lab);

/* The feature's entry in the registry (backend/features.c) and its tables. */
struct feature;
extern const struct feature user_feature;
extern const struct cmd_def user_cmds[];

#endif
