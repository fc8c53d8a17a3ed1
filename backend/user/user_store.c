/* User accounts in the store, password hashing and the login check. */
#include "user.h"
#include "lab/lab.h"
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *user_role_name(enum role r) { return r == ROLE_OPERATOR ? "network-operator" : "network-admin"; }

static enum role role_from(const char *s)
{
    return s && strcmp(s, "network-operator") == 0 ? ROLE_OPERATOR : ROLE_ADMIN;
}

bool user_get(struct lab *lab, int sw, const char *name, struct user_account *out)
{
    static const char *const q = "SELECT hash, role FROM user_account WHERE switch_id = ? AND name = ?";
    sqlite3_stmt *st = lab_stmt(lab, q);
    /* a lab host (docs/hosts.md) has no accounts of its own: it takes the
     * first switch's, as hosts on a lab's directory would */
    sqlite3_bind_int(st, 1, lab_switch_id(lab, lab_is_host(lab, sw) ? 0 : sw));
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_ROW)
        return false;
    snprintf(out->name, sizeof out->name, "%s", name);
    snprintf(out->hash, sizeof out->hash, "%s", (const char *)sqlite3_column_text(st, 0));
    out->role = role_from((const char *)sqlite3_column_text(st, 1));
    return true;
}

void user_put(struct lab *lab, int sw, const struct user_account *u)
{
    sqlite3_stmt *st = lab_stmt(lab, "INSERT OR REPLACE INTO user_account VALUES (?, ?, ?, ?)");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, u->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, u->hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, user_role_name(u->role), -1, SQLITE_STATIC);
    lab_step_done(lab, st);
}

void user_delete(struct lab *lab, int sw, const char *name)
{
    sqlite3_stmt *st = lab_stmt(lab, "DELETE FROM user_account WHERE switch_id = ? AND name = ?");
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    lab_step_done(lab, st);
}

void user_render_config(struct lab *lab, int sw, strbuf *out)
{
    /* admin first, as NX-OS lists it */
    static const char *const q = "SELECT name, hash, role FROM user_account WHERE switch_id = ?"
                                 " ORDER BY name <> 'admin', name";
    sqlite3_stmt *st = lab_stmt(lab, q);
    sqlite3_bind_int(st, 1, lab_switch_id(lab, sw));
    while (sqlite3_step(st) == SQLITE_ROW)
        sb_printf(out, "username %s password 5 %s role %s\n", (const char *)sqlite3_column_text(st, 0),
                  (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2));
}

/* crypt_rn with its state on the heap: struct crypt_data is 32 KB, too
 * big for the stacks of the server's threads to carry lightly. */
static bool hash_with(const char *password, const char *setting, char *out, size_t n)
{
    struct crypt_data *cd = calloc(1, sizeof *cd);
    if (!cd)
        abort();
    const char *h = crypt_rn(password, setting, cd, (int)sizeof *cd);
    bool ok = h && h[0] == '$' && strlen(h) < n;
    if (ok)
        memcpy(out, h, strlen(h) + 1);
    free(cd);
    return ok;
}

bool user_hash_password(const char *password, char *out, size_t n)
{
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    if (!crypt_gensalt_rn("$5$", 0, NULL, 0, salt, (int)sizeof salt))
        return false;
    return hash_with(password, salt, out, n);
}

bool user_hash_valid(const char *hash)
{
    size_t len = strlen(hash);
    if (len >= USER_HASH_MAX || (strncmp(hash, "$5$", 3) != 0 && strncmp(hash, "$6$", 3) != 0))
        return false;
    const char *last = strrchr(hash, '$');
    if (last == hash + 2 || strlen(last + 1) < 40) /* no salt, or a short digest */
        return false;
    if (strspn(hash, "$./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != len)
        return false;
    /* libxcrypt calls SHA-256/512 crypt "legacy" next to yescrypt; NX-OS
     * still writes $5$, so both are accepted */
    int rc = crypt_checksalt(hash);
    return rc == CRYPT_SALT_OK || rc == CRYPT_SALT_METHOD_LEGACY;
}

/* Compares without an early exit, so timing does not tell how much of
 * the hash matched. */
static bool same_hash(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned char diff = (unsigned char)(la != lb);
    for (size_t i = 0; i < la && i < lb; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

bool user_login(struct lab *lab, int sw, const char *name, const char *password, enum role *role)
{
    struct user_account u;
    char got[USER_HASH_MAX] = "";
    if (strlen(password) > USER_PASSWORD_MAX) /* no account has one: refused without the crypt */
        return false;
    lab_lock(lab);
    bool known = strlen(name) <= USER_NAME_MAX && user_get(lab, sw, name, &u);
    lab_unlock(lab);
    /* an unknown user costs the same crypt as a known one */
    bool ok = hash_with(password, known ? u.hash : USER_NOBODY_SETTING, got, sizeof got) && known &&
              same_hash(got, u.hash);
    if (ok)
        *role = u.role;
    return ok;
}

/* One lookup by primary key per command: cheap beside the command, and
 * it sees changes made by any session or process at once. */
bool user_check_session(struct session *s)
{
    struct user_account u;
    if (!user_get(s->lab, s->sw, s->user, &u))
        return false;
    s->role = u.role;
    return true;
}

bool user_default_admin_left(struct lab *lab)
{
    for (int sw = 0; sw < lab_switch_count(lab); sw++) {
        struct user_account u;
        lab_lock(lab);
        bool has = user_get(lab, sw, "admin", &u);
        lab_unlock(lab);
        char got[USER_HASH_MAX];
        if (has && hash_with("admin", u.hash, got, sizeof got) && same_hash(got, u.hash))
            return true;
    }
    return false;
}
