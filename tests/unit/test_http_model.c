/* What the browser's page is built from (cli/http_model.c, cli/http_sessions.c):
 * the login table's tokens, bounds and idle limit; the topology's JSON
 * following a tunnel from shut to trunking; the series from a sample
 * number on; JSON strings that stay valid whatever a name holds. */
#include "lab_fixture.h"
#include "http_model.h"
#include "http_sessions.h"
#include "series/series.h"

#define SEC 1000000000ULL

static void tunnel_end(int sw, const char *me, const char *peer, bool shut)
{
    char ip[64], prof[64], info[64];
    snprintf(ip, sizeof ip, "ip address %s 255.255.255.0", me);
    snprintf(prof, sizeof prof, "ip address %s", me);
    snprintf(info, sizeof info, "peer-info ipaddr %s", peer);
    const char *const lines[] = {"configure terminal", "fcip enable", "interface gigabitethernet 2/2", ip,
                                 "no shutdown", "exit", "vsan database", "vsan 100", "exit", "fcip profile 1", prof,
                                 "exit", "interface fcip1", "use-profile 1", info,
                                 "switchport trunk allowed vsan 100", shut ? "shutdown" : "no shutdown", "end",
                                 NULL};
    lab_fixture_run(sw, lines);
}

static char *topology(void)
{
    strbuf b;
    sb_init(&b);
    lab_lock(lab);
    http_topology_json(lab, &b);
    lab_unlock(lab);
    return b.data;
}

START_TEST(test_topology_follows_the_tunnel)
{
    char *j = topology();
    ck_assert_msg(strstr(j, "{\"name\": \"MDS1\", \"hostname\": \"MDS1\", \"ports\": [\"GigabitEthernet2/2\", "
                            "\"GigabitEthernet2/3\", \"GigabitEthernet2/4\"]}"), "%s", j);
    ck_assert_msg(strstr(j, "{\"a\": \"MDS1\", \"a_port\": \"GigabitEthernet2/4\", \"b\": \"MDS2\", "
                            "\"b_port\": \"GigabitEthernet2/2\"}"), "%s", j);
    ck_assert_msg(strstr(j, "\"netsim\": [],\n\"tunnels\": []}"), "%s", j);
    free(j);
    tunnel_end(0, "192.168.10.1", "192.168.10.2", false);
    tunnel_end(1, "192.168.10.2", "192.168.10.1", true);
    const char *const sim[] = {"configure terminal", "san-ext-tuner enable", "end",
                               "ips netsim enable interface g2/3 g2/4", NULL}; /* netsim comes with the tuner */
    lab_fixture_run(0, sim);
    lab_lock(lab);
    lab_advance_to(lab, 10 * SEC);
    lab_unlock(lab);
    j = topology();
    ck_assert_msg(strstr(j, "{\"switch\": \"MDS1\", \"a_port\": \"GigabitEthernet2/3\", "
                            "\"b_port\": \"GigabitEthernet2/4\"}"), "%s", j);
    ck_assert_msg(strstr(j, "{\"switch\": \"MDS2\", \"name\": \"fcip1\", \"port\": \"GigabitEthernet2/2\", "
                            "\"peer\": \"\", \"state\": \"down\", \"reason\": \"Administratively down\"}"), "%s", j);
    ck_assert_msg(!strstr(j, "trunking"), "%s", j);
    free(j);
    const char *const up[] = {"configure terminal", "interface fcip1", "no shutdown", "end", NULL};
    lab_fixture_run(1, up);
    lab_lock(lab);
    lab_advance_to(lab, 30 * SEC);
    lab_unlock(lab);
    j = topology();
    ck_assert_msg(strstr(j, "{\"switch\": \"MDS1\", \"name\": \"fcip1\", \"port\": \"GigabitEthernet2/2\", "
                            "\"peer\": \"MDS2\", \"state\": \"trunking\", \"reason\": \"\"}"), "%s", j);
    free(j);
}
END_TEST

START_TEST(test_series_from_a_number)
{
    strbuf b;
    sb_init(&b);
    uint64_t next = 0;
    lab_lock(lab);
    ck_assert(!http_series_json(lab, &next, 3, &b)); /* no recording */
    ck_assert(series_lab_start(lab));
    lab_advance_to(lab, 10 * SEC);
    ck_assert(http_series_json(lab, &next, 3, &b)); /* a new reader: the last three */
    ck_assert_msg(strstr(sb_str(&b), "\"first_index\": 7,\n  \"lab_time_s\": [8, 9, 10]"), "%s", sb_str(&b));
    ck_assert_uint_eq(next, 10);
    sb_clear(&b);
    ck_assert(!http_series_json(lab, &next, 3, &b)); /* nothing new */
    lab_advance_to(lab, 11 * SEC);
    ck_assert(http_series_json(lab, &next, 3, &b));
    ck_assert_msg(strstr(sb_str(&b), "\"first_index\": 10,\n  \"lab_time_s\": [11]"), "%s", sb_str(&b));
    lab_unlock(lab);
    sb_free(&b);
}
END_TEST

START_TEST(test_json_strings)
{
    strbuf b;
    sb_init(&b);
    http_json_str(&b, "a\"b\\c\n\x01\xff</script>");
    ck_assert_str_eq(sb_str(&b), "\"a\\\"b\\\\c\\u000a\\u0001\\u00ff</script>\"");
    sb_free(&b);
}
END_TEST

START_TEST(test_sessions)
{
    http_sessions_reset();
    struct http_login l = {.user = "admin", .allowed = 3}, got;
    char first[HTTP_TOKEN_HEX + 1], t[HTTP_TOKEN_HEX + 1], again[HTTP_TOKEN_HEX + 1];
    ck_assert(http_sessions_add(&l, 1000, first));
    ck_assert_int_eq((int)strlen(first), HTTP_TOKEN_HEX);
    ck_assert(http_sessions_add(&l, 1001, again));
    ck_assert_str_ne(first, again); /* random, not counted */
    ck_assert(http_sessions_find(first, 2000, 0, &got));
    ck_assert_str_eq(got.user, "admin");
    ck_assert_uint_eq(got.allowed, 3);
    /* malformed tokens: short, long, upper case, not hex, empty, NULL */
    char bad[HTTP_TOKEN_HEX + 2];
    snprintf(bad, sizeof bad, "%.*s", HTTP_TOKEN_HEX - 1, first);
    ck_assert(!http_sessions_find(bad, 2000, 0, &got));
    snprintf(bad, sizeof bad, "%s0", first);
    ck_assert(!http_sessions_find(bad, 2000, 0, &got));
    snprintf(bad, sizeof bad, "%s", first);
    bad[0] = 'A';
    ck_assert(!http_sessions_find(bad, 2000, 0, &got));
    bad[0] = 'g';
    ck_assert(!http_sessions_find(bad, 2000, 0, &got));
    ck_assert(!http_sessions_find("", 2000, 0, &got));
    ck_assert(!http_sessions_find(NULL, 2000, 0, &got));
    /* bounded: the least recently used goes (again, not first, used at 2000) */
    for (int i = 2; i < HTTP_SESSIONS_MAX + 1; i++)
        ck_assert(http_sessions_add(&l, 3000 + (uint64_t)i, t));
    ck_assert_int_eq(http_sessions_count(), HTTP_SESSIONS_MAX);
    ck_assert(!http_sessions_find(again, 9000, 0, &got));
    ck_assert(http_sessions_find(first, 9000, 0, &got));
    /* idle for longer than the limit: forgotten */
    ck_assert(!http_sessions_find(first, 9000 + 5001, 5000, &got));
    ck_assert(!http_sessions_find(first, 9000, 0, &got));
    ck_assert(http_sessions_find(t, 9000, 0, &got));
    http_sessions_remove(t);
    ck_assert(!http_sessions_find(t, 9000, 0, &got));
    ck_assert_int_eq(http_sessions_count(), HTTP_SESSIONS_MAX - 2);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("http_model");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_topology_follows_the_tunnel);
    tcase_add_test(tc, test_series_from_a_number);
    tcase_add_test(tc, test_json_strings);
    tcase_add_test(tc, test_sessions);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
