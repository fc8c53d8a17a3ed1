/* The lab's recording (series.h): on and off, numbered samples that a
 * reader polling with series_write_json_from can follow, the ring that
 * drops the oldest, and a lab that frees it when it closes. */
#include "lab_fixture.h"
#include "series/series.h"

#define SEC 1000000000ULL

static char *json_from(const struct series *s, uint64_t next)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ck_assert(series_write_json_from(s, next, f));
    fclose(f);
    return buf;
}

START_TEST(test_on_off_numbering)
{
    lab_lock(lab);
    ck_assert_ptr_null(series_of_lab(lab));
    ck_assert(series_lab_start(lab));
    struct series *s = series_of_lab(lab);
    ck_assert(series_running(s));
    lab_advance_to(lab, 5 * SEC);
    ck_assert_int_eq(series_rows(s), 5);
    ck_assert_uint_eq(series_first_index(s), 0);
    ck_assert_uint_eq(series_samples_taken(s), 5);
    ck_assert_uint_eq(series_row_time_ns(s, 4), 5 * SEC);

    series_lab_stop(lab);
    ck_assert(!series_running(s));
    lab_advance_to(lab, 9 * SEC);
    ck_assert_int_eq(series_rows(s), 5); /* off: nothing taken */

    ck_assert(series_lab_start(lab));
    ck_assert_ptr_eq(series_of_lab(lab), s);
    ck_assert_int_eq(series_rows(s), 0); /* started again: empty, numbers go on */
    lab_advance_to(lab, 12 * SEC);
    ck_assert_int_eq(series_rows(s), 3);
    ck_assert_uint_eq(series_first_index(s), 5);
    ck_assert_uint_eq(series_row_time_ns(s, 0), 10 * SEC);

    char *j = json_from(s, 6);
    ck_assert_msg(strstr(j, "\"first_index\": 6,\n  \"lab_time_s\": [11, 12]"), "%s", j);
    free(j);
    j = json_from(s, 0); /* older than the ring: from its first row */
    ck_assert_msg(strstr(j, "\"first_index\": 5,\n  \"lab_time_s\": [10, 11, 12]"), "%s", j);
    free(j);
    j = json_from(s, 99); /* nothing new yet */
    ck_assert_msg(strstr(j, "\"first_index\": 8,\n  \"lab_time_s\": []"), "%s", j);
    free(j);
    lab_unlock(lab);
}
END_TEST

START_TEST(test_ring_drops_oldest)
{
    lab_lock(lab);
    ck_assert(series_lab_start(lab));
    struct series *s = series_of_lab(lab);
    lab_advance_to(lab, (SERIES_CAPACITY + 100) * SEC);
    ck_assert_int_eq(series_rows(s), SERIES_CAPACITY);
    ck_assert_uint_eq(series_first_index(s), 100);
    ck_assert_uint_eq(series_row_time_ns(s, 0), 101 * SEC);
    lab_unlock(lab); /* teardown closes the lab with the recording on */
}
END_TEST

int main(void)
{
    (void)capture; /* the fixture's session sink: these tests run no command */
    Suite *su = suite_create("series_lab");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_on_off_numbering);
    tcase_add_test(tc, test_ring_drops_oldest);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
