/* `username`, `show user-account` and `show users`. */
#include "user.h"
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "lab/sessions.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* NX-OS user names: a letter first, then letters, digits, `_ - .`. */
static int check_name(struct session *s, const char *name)
{
    if (strlen(name) > USER_NAME_MAX)
        return cmd_error(s, "%% String exceeded max length of (%d)", USER_NAME_MAX);
    if (!isalpha((unsigned char)name[0]))
        return cmd_error(s, "%% Illegal first character (name must start with a letter)");
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
            return cmd_error(s, "%% Illegal character present in the name");
    return 0;
}

/* The role typed, else the user's current one; a new user is an operator
 * unless told otherwise, as on NX-OS. */
static enum role role_arg(const struct cmd_args *a, const struct user_account *old, bool exists)
{
    if (arg_has(a, "network-admin"))
        return ROLE_ADMIN;
    if (arg_has(a, "network-operator"))
        return ROLE_OPERATOR;
    return exists ? old->role : ROLE_OPERATOR;
}

/* Creates or changes the user: hash (`password 5`) or secret (clear
 * text) when given, the role typed or kept. */
static int put_user(struct session *s, const struct cmd_args *a, const char *hash, const char *secret)
{
    const char *name = arg_str(a, "name");
    struct user_account u;
    if (check_name(s, name) != 0)
        return -1;
    bool exists = user_get(s->lab, s->sw, name, &u);
    enum role role = role_arg(a, &u, exists);
    snprintf(u.name, sizeof u.name, "%s", name);
    if (hash) {
        if (!user_hash_valid(hash))
            return cmd_error(s, "%% Invalid encrypted password");
        snprintf(u.hash, sizeof u.hash, "%s", hash);
    } else if (secret) {
        if (strlen(secret) > 64)
            return cmd_error(s, "%% Password exceeded max length of (64)");
        if (!user_hash_password(secret, u.hash, sizeof u.hash))
            return cmd_error(s, "%% Cannot hash the password");
    } else if (!exists) {
        return cmd_error(s, "%% User %s does not exist; give it a password", name);
    }
    if (strcmp(name, "admin") == 0 && role != ROLE_ADMIN)
        return cmd_error(s, "%% Cannot change the role of user admin");
    u.role = role;
    user_put(s->lab, s->sw, &u);
    return 0;
}

static int cmd_username_secret(struct session *s, const struct cmd_args *a)
{
    return put_user(s, a, NULL, arg_str(a, "secret"));
}

static int cmd_username_hash(struct session *s, const struct cmd_args *a)
{
    return put_user(s, a, arg_str(a, "hash"), NULL);
}

static int cmd_username_role(struct session *s, const struct cmd_args *a) { return put_user(s, a, NULL, NULL); }

static int cmd_no_username(struct session *s, const struct cmd_args *a)
{
    const char *name = arg_str(a, "name");
    struct user_account u;
    if (strcmp(name, "admin") == 0)
        return cmd_error(s, "%% Cannot delete user admin");
    if (!user_get(s->lab, s->sw, name, &u))
        return cmd_error(s, "%% User %s does not exist", name);
    user_delete(s->lab, s->sw, name);
    return 0;
}

static int show_user_account(struct session *s, const struct cmd_args *a)
{
    (void)a;
    sqlite3_stmt *st = lab_stmt(s->lab, "SELECT name, role FROM user_account WHERE switch_id = ?"
                                        " ORDER BY name <> 'admin', name");
    sqlite3_bind_int(st, 1, lab_switch_id(s->lab, s->sw));
    while (sqlite3_step(st) == SQLITE_ROW)
        cmd_printf(s, "user:%s\n        this user account has no expiry date\n        roles:%s \n\n",
                   (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1));
    return 0;
}

/* IDLE as `who` shows it: "." under a minute, else hours:minutes. */
static void idle_text(uint64_t idle_ns, char *buf, size_t n)
{
    uint64_t min = idle_ns / 60000000000u;
    if (min == 0)
        snprintf(buf, n, ".");
    else
        snprintf(buf, n, "%02u:%02u", (unsigned)(min / 60 % 100), (unsigned)(min % 60));
}

static void user_row(void *ctx, const struct labsess *e)
{
    struct session *s = ctx;
    char since[32], idle[16], line[16];
    struct tm tm;
    gmtime_r(&e->since, &tm);
    strftime(since, sizeof since, "%b %e %H:%M", &tm);
    idle_text(lab_now(s->lab) - e->last_ns, idle, sizeof idle);
    const char *me = e->s == s ? " *" : "";
    labsess_line(e, line, sizeof line);
    if (e->pts < 0) { /* the console: no peer */
        cmd_printf(s, "%-8s %-12s %-12s %7s %12d%s\n", e->user, line, since, idle, 9999, me);
        return;
    }
    cmd_printf(s, "%-8s %-12s %-12s %7s %12d (%s) session=%s%s\n", e->user, line, since, idle,
               10000 + e->pts, e->from, e->kind, me);
}

static int show_users(struct session *s, const struct cmd_args *a)
{
    (void)a;
    cmd_printf(s, "NAME     LINE         TIME             IDLE          PID COMMENT\n");
    labsess_each(s->lab, s->sw, user_row, s);
    return 0;
}

#define ROLES "[role {network-admin | network-operator}]"
#define ROLE_HELP "role: Role name\nnetwork-admin: Predefined network admin role\n" \
                  "network-operator: Predefined network operator role"

const struct cmd_def user_cmds[] = {
    {MODES(MODE_CONFIG), "username <name:word> password [0] <secret:word> " ROLES,
     "name: User name (max 32 characters)\n0: Indicates the password is in clear text\n"
     "secret: Password for the user (clear text)\n" ROLE_HELP,
     cmd_username_secret, 0, 0, 0},
    {MODES(MODE_CONFIG), "username <name:word> password 5 <hash:word> " ROLES,
     "name: User name (max 32 characters)\n5: Indicates the password is encrypted\n"
     "hash: Password for the user (encrypted)\n" ROLE_HELP,
     cmd_username_hash, 0, 0, 0},
    {MODES(MODE_CONFIG), "username <name:word> role {network-admin | network-operator}",
     "name: User name (max 32 characters)\n" ROLE_HELP, cmd_username_role, 0, 0, 0},
    {MODES(MODE_CONFIG), "no username <name:word>", "name: User name", cmd_no_username, 0, 0, 0},
    {MODES(MODE_EXEC), "show user-account", NULL, show_user_account, CMD_PIPE, 0, 0},
    {MODES(MODE_EXEC), "show users", NULL, show_users, CMD_PIPE, 0, 0},
    {0},
};
