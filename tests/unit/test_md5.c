/* MD5 against the test suite of RFC 1321 (A.5) and lengths around the
 * padding boundaries (55, 56, 63, 64 bytes), checked against values from
 * coreutils md5sum. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "bootflash/md5.h"

static void check(const char *text, size_t n, const char *want)
{
    char hex[33];
    md5_hex((const unsigned char *)text, n, hex);
    ck_assert_str_eq(hex, want);
}

START_TEST(test_rfc1321)
{
    check("", 0, "d41d8cd98f00b204e9800998ecf8427e");
    check("a", 1, "0cc175b9c0f1b6a831c399e269772661");
    check("abc", 3, "900150983cd24fb0d6963f7d28e17f72");
    check("message digest", 14, "f96b697d7cb7938d525a2f31aaf161d0");
    check("abcdefghijklmnopqrstuvwxyz", 26, "c3fcd3d76192e4007dfb496cca67e13b");
    const char *alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    check(alnum, strlen(alnum), "d174ab98d277d9f5a5611c2c9f419d9f");
    const char *digits = "12345678901234567890123456789012345678901234567890123456789012345678901234567890";
    check(digits, strlen(digits), "57edf4a22be3c955ac49da2e2107b67a");
}
END_TEST

START_TEST(test_padding_boundaries)
{
    char a[65];
    memset(a, 'a', sizeof a);
    check(a, 55, "ef1772b6dff9a122358552954ad0df65");
    check(a, 56, "3b0c8ac703f828b04c6c197006d17218");
    check(a, 63, "b06521f39153d618550606be297466d5");
    check(a, 64, "014842d480b571495a4a0363793f7367");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("md5");
    TCase *t = tcase_create("md5");
    tcase_add_test(t, test_rfc1321);
    tcase_add_test(t, test_padding_boundaries);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
