/* The read model (record/record.h): every registered field says its unit,
 * and a show, the records and the time series give the same figure for
 * the same object at the same lab time, since they read one source. */
#include "lab_fixture.h"
#include "feature.h"
#include "record/record.h"
#include "series/series.h"
#include <inttypes.h>

#define SEC 1000000000ULL

static const char *const lab_text =
    "switch MDS1 chassis DS-C9509\n module 2 DS-X9308-SMIP\n module 5 DS-X9530-SF2-K9\n"
    "switch MDS2 chassis DS-C9509\n module 2 DS-X9308-SMIP\n module 5 DS-X9530-SF2-K9\n"
    "link MDS1 g2/2 MDS2 g2/2\n";

static bool has_unit(const char *name)
{
    static const char *const units[] = {"_bytes", "_frames", "_packets", "_segments", "_ios", "_us", "_ns",
                                        "_ms", "_per_s", "errors", NULL};
    size_t n = strlen(name);
    for (const char *const *u = units; *u; u++)
        if (n >= strlen(*u) && strcmp(name + n - strlen(*u), *u) == 0)
            return true;
    return false;
}

START_TEST(test_fields_name_units)
{
    lab_fixture_open(NULL); /* for the fixture's teardown */
    int types = 0;
    for (const struct feature *const *f = features; *f; f++)
        for (const struct record_type *const *t = (*f)->records; t && *t; t++, types++)
            for (const struct record_field *a = (*t)->fields; a->name; a++) {
                ck_assert_msg(has_unit(a->name), "%s: field %s names no unit", (*t)->name, a->name);
                for (const struct record_field *b = a + 1; b->name; b++)
                    ck_assert_msg(strcmp(a->name, b->name) != 0, "%s: %s twice", (*t)->name, a->name);
            }
    ck_assert_int_ge(types, 4); /* fcip, Gigabit Ethernet, netsim, tuner */
}
END_TEST

static void tunnel_end(int sw, const char *ip, const char *peer)
{
    char addr[64], prof[64], pi[64];
    snprintf(addr, sizeof addr, "ip address %s 255.255.255.0", ip);
    snprintf(prof, sizeof prof, "ip address %s", ip);
    snprintf(pi, sizeof pi, "peer-info ipaddr %s", peer);
    const char *const lines[] = {"configure terminal", "interface gigabitethernet 2/2", addr, "no shutdown", "exit",
                                 "fcip enable", "fcip profile 1", prof, "exit", "interface fcip1", "use-profile 1",
                                 pi, "no shutdown", "end", NULL};
    lab_fixture_run(sw, lines);
}

struct found {
    const char *key;
    const struct record_type *type;
    uint64_t value;
    const char *field;
};

static void find(void *ctx, const struct record_type *t, const char *key, const void *rec)
{
    struct found *f = ctx;
    if (strcmp(key, f->key) != 0)
        return;
    for (const struct record_field *a = t->fields; a->name; a++)
        if (strcmp(a->name, f->field) == 0)
            f->type = t, f->value = record_value(rec, a);
}

static uint64_t record(const char *key, const char *field)
{
    struct found f = {key, NULL, 0, field};
    lab_lock(lab);
    record_walk(lab, lab_ipnet(lab), find, &f);
    lab_unlock(lab);
    ck_assert_msg(f.type, "no record %s with %s", key, field);
    return f.value;
}

static uint64_t series_total(const char *column)
{
    const struct series *s = series_of_lab(lab);
    for (int c = 0; c < series_columns(s); c++) {
        if (strcmp(series_column_name(s, c), column) != 0)
            continue;
        uint64_t sum = 0;
        int64_t v;
        for (int r = 0; r < series_rows(s); r++)
            sum += series_value(s, r, c, &v) ? (uint64_t)v : 0;
        return sum;
    }
    ck_abort_msg("no series %s", column);
    return 0;
}

START_TEST(test_show_record_series_agree)
{
    lab_fixture_open(lab_text);
    lab_lock(lab);
    ck_assert(series_lab_start(lab));
    lab_unlock(lab);
    tunnel_end(0, "10.1.1.1", "10.1.1.2");
    tunnel_end(1, "10.1.1.2", "10.1.1.1");
    const char *const wait[] = {"sleep 30", NULL};
    lab_fixture_run(0, wait); /* the tunnel comes up; its class F flows; 30 samples */

    uint64_t tx = record("MDS1.fcip1", "tx_bytes");
    ck_assert_uint_gt(tx, 0);
    const char *const fcip[] = {"show interface fcip1 counters", NULL};
    sb_clear(&out);
    lab_fixture_run(0, fcip);
    const char *o = strstr(out.data, "frames output, ");
    ck_assert_msg(o, "%s", out.data);
    ck_assert_uint_eq(strtoull(o + strlen("frames output, "), NULL, 10), tx);
    ck_assert_uint_eq(series_total("MDS1.fcip1.tx_bytes"), tx);

    uint64_t rx = record("MDS2.GigabitEthernet2/2", "rx_bytes");
    const char *const ge[] = {"show interface gigabitethernet 2/2", NULL};
    sb_clear(&out);
    lab_fixture_run(1, ge);
    o = strstr(out.data, "packets input, ");
    ck_assert_msg(o, "%s", out.data);
    ck_assert_uint_eq(strtoull(o + strlen("packets input, "), NULL, 10), rx);
    ck_assert_uint_eq(series_total("MDS2.GigabitEthernet2/2.rx_bytes"), rx);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("records");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fields_name_units);
    tcase_add_test(tc, test_show_record_series_agree);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
