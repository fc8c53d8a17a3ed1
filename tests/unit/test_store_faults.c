/* A full or failing disk is an error, not a crash (DESIGN rule 10,
 * docs/durability.md), by fault injection: a VFS in front of SQLite's own
 * fails writes on demand. The command that meets the fault fails with its
 * `%` line and changes nothing, the lab goes on, and a replay's batch
 * says it was undone. (Before, lab_step_done aborted the process.) */
#include <sqlite3.h>
#include "session.h"
#include "lab/lab.h"

#include "lab_fixture.h"

static int fault; /* what the next writes return; 0: none */
static sqlite3_vfs *real_vfs;

struct faulty_file {
    sqlite3_file base;
    sqlite3_file *real; /* follows this struct in the same allocation */
};

#define REAL(f) (((struct faulty_file *)(f))->real)
static int f_close(sqlite3_file *f) { return REAL(f)->pMethods->xClose(REAL(f)); }
static int f_read(sqlite3_file *f, void *p, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xRead(REAL(f), p, n, o); }
static int f_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 o)
{
    return fault ? fault : REAL(f)->pMethods->xWrite(REAL(f), p, n, o);
}
static int f_truncate(sqlite3_file *f, sqlite3_int64 n) { return REAL(f)->pMethods->xTruncate(REAL(f), n); }
static int f_sync(sqlite3_file *f, int flags) { return REAL(f)->pMethods->xSync(REAL(f), flags); }
static int f_size(sqlite3_file *f, sqlite3_int64 *n) { return REAL(f)->pMethods->xFileSize(REAL(f), n); }
static int f_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int f_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int f_check(sqlite3_file *f, int *r) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), r); }
static int f_fcntl(sqlite3_file *f, int op, void *a) { return REAL(f)->pMethods->xFileControl(REAL(f), op, a); }
static int f_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int f_caps(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int f_shm_map(sqlite3_file *f, int i, int sz, int ext, void volatile **p)
{
    return REAL(f)->pMethods->xShmMap(REAL(f), i, sz, ext, p);
}
static int f_shm_lock(sqlite3_file *f, int o, int n, int fl) { return REAL(f)->pMethods->xShmLock(REAL(f), o, n, fl); }
static void f_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int f_shm_unmap(sqlite3_file *f, int del) { return REAL(f)->pMethods->xShmUnmap(REAL(f), del); }
static int f_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p) { return REAL(f)->pMethods->xFetch(REAL(f), o, n, p); }
static int f_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return REAL(f)->pMethods->xUnfetch(REAL(f), o, p); }

static const sqlite3_io_methods faulty_methods = {
    3,        f_close,     f_read,    f_write,    f_truncate, f_sync,         f_size,      f_lock,
    f_unlock, f_check,     f_fcntl,   f_sector,   f_caps,     f_shm_map,      f_shm_lock,  f_shm_barrier,
    f_shm_unmap, f_fetch,  f_unfetch,
};

static sqlite3_vfs faulty_vfs;

static int f_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags, int *out)
{
    (void)v;
    struct faulty_file *ff = (struct faulty_file *)f;
    ff->real = (sqlite3_file *)(ff + 1);
    int rc = real_vfs->xOpen(real_vfs, name, ff->real, flags, out);
    ff->base.pMethods = ff->real->pMethods ? &faulty_methods : NULL;
    return rc;
}

static void faulty_setup(void)
{
    if (!real_vfs) {
        real_vfs = sqlite3_vfs_find(NULL);
        faulty_vfs = *real_vfs;
        faulty_vfs.zName = "faulty";
        faulty_vfs.szOsFile = (int)sizeof(struct faulty_file) + real_vfs->szOsFile;
        faulty_vfs.xOpen = f_open;
        sqlite3_vfs_register(&faulty_vfs, 1);
    }
    fault = 0;
    setup();
}

static struct session sess;

static int run(const char *line)
{
    sb_clear(&out);
    return session_exec(&sess, line);
}

static void open_session(void)
{
    session_init(&sess, lab, 0, (struct session_io){.write = capture});
    ck_assert_int_eq(run("configure terminal"), 0);
}

START_TEST(test_full_disk_fails_the_command_only)
{
    open_session();
    fault = SQLITE_FULL;
    ck_assert_int_ne(run("switchname FULL"), 0);
    ck_assert_str_eq(sb_str(&out), "% Lab storage full, nothing changed: database or disk is full\n");
    ck_assert_str_eq(lab_hostname(lab, 0), "MDS1");
    fault = 0;
    ck_assert_int_eq(run("switchname ROOMY"), 0);
    ck_assert_str_eq(lab_hostname(lab, 0), "ROOMY");
    session_free(&sess);
}
END_TEST

START_TEST(test_io_error_fails_the_command_only)
{
    open_session();
    ck_assert_int_eq(run("interface gigabitethernet 2/1"), 0);
    fault = SQLITE_IOERR_WRITE;
    ck_assert_int_ne(run("switchport description lost"), 0);
    ck_assert_str_eq(sb_str(&out), "% Lab storage I/O error, nothing changed: disk I/O error\n");
    fault = 0;
    ck_assert_int_eq(run("do show running-config interface gigabitethernet 2/1"), 0);
    ck_assert_ptr_null(strstr(sb_str(&out), "lost"));
    session_free(&sess);
}
END_TEST

START_TEST(test_copy_run_start_on_a_full_disk_says_it_failed)
{
    open_session();
    ck_assert_int_eq(run("switchname SAVED"), 0);
    ck_assert_int_eq(run("end"), 0);
    fault = SQLITE_FULL;
    ck_assert_int_ne(run("copy running-config startup-config"), 0);
    ck_assert_ptr_null(strstr(sb_str(&out), "Copy complete"));
    ck_assert_ptr_nonnull(strstr(sb_str(&out), "% Lab storage full, nothing changed"));
    fault = 0;
    ck_assert_int_eq(run("show startup-config"), 0);
    ck_assert_ptr_null(strstr(sb_str(&out), "switchname SAVED"));
    session_free(&sess);
}
END_TEST

/* Group commit: the refused commit undoes the batch, and says so once. */
START_TEST(test_refused_batch_commit_is_reported_and_undone)
{
    open_session();
    lab_batch_begin(lab, false);
    ck_assert_int_eq(run("switchname BATCHED"), 0);
    fault = SQLITE_FULL;
    ck_assert(!lab_batch_commit(lab));
    ck_assert_str_eq(lab_batch_error(lab), "Lab storage full, nothing changed: database or disk is full");
    ck_assert_str_eq(lab_hostname(lab, 0), "MDS1");
    fault = 0;
    ck_assert(lab_batch_commit(lab));
    ck_assert_int_eq(run("switchname KEPT"), 0);
    ck_assert(lab_batch_end(lab));
    session_free(&sess);
    char err[256];
    lab_close(lab);
    lab = lab_open(dbpath, err, sizeof err);
    ck_assert_ptr_nonnull(lab);
    ck_assert_str_eq(lab_hostname(lab, 0), "KEPT");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("store_faults");
    TCase *tc = tcase_create("faults");
    tcase_add_checked_fixture(tc, faulty_setup, teardown);
    tcase_add_test(tc, test_full_disk_fails_the_command_only);
    tcase_add_test(tc, test_io_error_fails_the_command_only);
    tcase_add_test(tc, test_copy_run_start_on_a_full_disk_says_it_failed);
    tcase_add_test(tc, test_refused_batch_commit_is_reported_and_undone);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
