/* The feature registry and the store-to-engine rule: every table has one
 * owner, reload forgets every feature's rows, the engine is reconciled
 * only after a committed change, and a rolled-back command leaves the
 * engine in line with the restored store. */
#include <stdio.h>
#include <string.h>
#include "session.h"
#include "lab/lab.h"
#include "feature.h"
#include "ipnet/ipnet.h"
#include "ifname.h"
#include <strings.h>

#include "lab_fixture.h"

static int owners(const char *table)
{
    int n = 0;
    for (const char *const *t = lab_owned_tables; *t; t++)
        n += strcmp(*t, table) == 0;
    for (const struct feature *const *f = features; *f; f++)
        for (const struct owned_table *t = (*f)->tables; t && t->name; t++)
            n += strcmp(t->name, table) == 0;
    return n;
}

START_TEST(test_every_table_has_one_owner)
{
    sqlite3_stmt *st;
    sqlite3_prepare_v2(lab_db(lab),
                       "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                       " AND name <> 'schema_version'",
                       -1, &st, NULL);
    int tables = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        ck_assert_msg(owners(name) == 1, "table %s has %d owners", name, owners(name));
        tables++;
    }
    sqlite3_finalize(st);
    ck_assert_int_ge(tables, 10);
}
END_TEST

/* What a command or a mode check names (a gate, an interface type) is
 * declared by a feature of the list, once: else the command could never
 * run, or the parser would not lex its interfaces. */
static bool iftype_declared(const struct iftype *t)
{
    for (const struct iftype *const *i = interface_types(); *i; i++)
        if (*i == t)
            return true;
    return false;
}

START_TEST(test_what_commands_name_is_declared)
{
    int gated = 0, typed = 0;
    for (const struct cmd_def *const *t = command_tables(); *t; t++)
        for (const struct cmd_def *d = *t; d->syntax; d++) {
            ck_assert_msg(!d->gate || gate_index(d->gate) >= 0, "'%s': its gate is not declared", d->syntax);
            ck_assert_msg(!d->iftype || iftype_declared(d->iftype), "'%s': its type is not declared", d->syntax);
            gated += d->gate != NULL;
            typed += d->iftype != NULL;
        }
    ck_assert_int_ge(gated, 20);
    ck_assert_int_ge(typed, 20);
    for (const struct feature *const *f = features; *f; f++) {
        ck_assert_msg(!(*f)->gate || gate_index((*f)->gate) >= 0, "%s: its gate is not declared", (*f)->name);
        for (const struct mode_check *c = (*f)->mode_checks; c && c->ok; c++)
            ck_assert_msg(!c->iftype || iftype_declared(c->iftype), "%s: a check's type is not declared", (*f)->name);
    }
    const struct gate *const *g = feature_gates();
    for (int i = 0; g[i]; i++)
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(g[i]->name, g[j]->name) != 0, "gate %s declared twice", g[i]->name);
    const struct iftype *const *it = interface_types();
    for (int i = 0; it[i]; i++)
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcasecmp(it[i]->keyword, it[j]->keyword) != 0, "type %s declared twice", it[i]->keyword);
    ck_assert_ptr_nonnull(iftype_by_keyword("fcip")); /* installed: the parser lexes `fcip1` */
}
END_TEST

/* The features' modes are indexed once each, below a registered parent,
 * and the sets derive from them: (config-zone) is a configuration mode,
 * (san-ext-nport) is below exec but not one, a host's shell is neither. */
START_TEST(test_modes_are_registered)
{
    features_install();
    for (int i = 0; i < mode_count(); i++) {
        const struct mode_info *m = mode_at(i);
        ck_assert_int_eq(mode_index(m), i);
        ck_assert_msg(mode_index(m->parent) >= 0, "%s: its parent is not registered", m->name);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(mode_at(j)->name, m->name) != 0, "mode %s registered twice", m->name);
    }
    const struct mode_info *zone = NULL, *nport = NULL, *shell = NULL;
    for (int i = 0; i < mode_count(); i++) {
        const struct mode_info *m = mode_at(i);
        zone = strcmp(m->name, "config-zone") == 0 ? m : zone;
        nport = strcmp(m->name, "san-ext-nport") == 0 ? m : nport;
        shell = m->shell == SHELL_HOST ? m : shell;
    }
    ck_assert(zone && nport && shell);
    ck_assert(mode_in(M_CONFIG_ALL, zone) && !mode_in(M_CONFIG_ALL, nport) && !mode_in(M_CONFIG_ALL, shell));
    ck_assert(mode_in(M_NOT_EXEC, zone) && mode_in(M_NOT_EXEC, nport) && !mode_in(M_NOT_EXEC, shell));
    ck_assert(!mode_in(M_NOT_EXEC, MODE_EXEC) && !mode_in(M_CONFIG_ALL, MODE_FILTER));
    ck_assert(mode_is_sub(zone) && mode_is_sub(nport) && !mode_is_sub(shell) && !mode_is_sub(MODE_CONFIG));
}
END_TEST

static void run(struct session *s, const char *line)
{
    ck_assert_msg(session_exec(s, line) == 0, "'%s' failed: %s", line, s->last_error);
}

/* Rows of the switch in a table, but those a reset keeps. */
static int rows(const char *table, const char *keep)
{
    char sql[256];
    sqlite3_stmt *st;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE switch_id = 1%s%s%s", table, keep ? " AND NOT (" : "",
             keep ? keep : "", keep ? ")" : "");
    sqlite3_prepare_v2(lab_db(lab), sql, -1, &st, NULL);
    int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

START_TEST(test_reload_forgets_every_feature_table)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    const char *lines[] = {"configure terminal", "san-ext-tuner enable", "interface gigabitethernet 2/2",
                           "ip address 10.0.0.1 255.255.255.0", "exit", "line vty", "exec-timeout 5", "exit",
                           "username bob password secret role network-operator", "end",
                           "ips netsim enable interface g2/3 g2/4", "ips netsim delay-ms 5 ingress g2/3",
                           "copy running-config startup-config", "write erase", "reload"};
    int filled = 0;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        if (strcmp(lines[i], "copy running-config startup-config") == 0)
            for (const struct feature *const *f = features; *f; f++)
                for (const struct owned_table *t = (*f)->tables; t && t->name; t++)
                    filled += rows(t->name, t->keep) > 0;
        run(&s, lines[i]);
    }
    ck_assert_int_ge(filled, 5); /* each feature's table had rows before */
    for (const struct feature *const *f = features; *f; f++)
        for (const struct owned_table *t = (*f)->tables; t && t->name; t++)
            ck_assert_msg(rows(t->name, t->keep) == 0, "%s kept rows after reload", t->name);
    session_free(&s);
}
END_TEST

START_TEST(test_reconcile_only_after_a_committed_change)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    lab_ipnet(lab);
    uint64_t n = lab_reconcile_count(lab);
    run(&s, "show version");
    lab_history_add(lab, "show version");
    lab_ipnet(lab);
    ck_assert_int_eq(lab_reconcile_count(lab), n); /* nothing changed the configuration */
    run(&s, "configure terminal");
    run(&s, "switchname X");
    lab_ipnet(lab);
    ck_assert_int_eq(lab_reconcile_count(lab), n + 1);
    ck_assert_int_ne(session_exec(&s, "switchname 9bad"), 0); /* refused: nothing committed */
    lab_ipnet(lab);
    ck_assert_int_eq(lab_reconcile_count(lab), n + 1);
    session_free(&s);
}
END_TEST

/* An outer command that fails after a nested one committed and the engine
 * followed it: the rollback takes the engine back too. */
START_TEST(test_rollback_after_engine_read)
{
    struct session s;
    session_init(&s, lab, 0, (struct session_io){.write = capture});
    run(&s, "configure terminal");
    run(&s, "san-ext-tuner enable");
    run(&s, "end");
    lab_lock(lab);
    lab_txn_begin(lab); /* the outer command */
    ck_assert_int_eq(session_exec_in(&s, MODE_EXEC, "ips netsim enable interface g2/3 g2/4", 0), 0);
    ck_assert(ipnet_is_bridged(lab_ipnet(lab), 0, 2, 3)); /* it read the engine */
    lab_txn_end(lab, false);
    lab_unlock(lab);
    ck_assert(!ipnet_is_bridged(lab_ipnet(lab), 0, 2, 3));
    session_free(&s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("registry");
    TCase *tc = tcase_create("registry");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_every_table_has_one_owner);
    tcase_add_test(tc, test_what_commands_name_is_declared);
    tcase_add_test(tc, test_modes_are_registered);
    tcase_add_test(tc, test_reload_forgets_every_feature_table);
    tcase_add_test(tc, test_reconcile_only_after_a_committed_change);
    tcase_add_test(tc, test_rollback_after_engine_read);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
