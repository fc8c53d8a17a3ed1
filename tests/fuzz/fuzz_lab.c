#include "fuzz_lab.h"
#include "series/series.h"
#include "lab/lab.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[96], path[128];
static struct lab *lab;
static bool always_reopen; /* MDSIM_FUZZ_REOPEN=1 */
static uint64_t digest;     /* FNV-1a of this input's output */

static void remove_lab(const char *d)
{
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        char p[512];
        if (snprintf(p, sizeof p, "%s/lab.db%s", d, suffix[i]) < (int)sizeof p)
            unlink(p);
    }
    rmdir(d);
}

static void at_exit(void)
{
    lab_close(lab);
    lab = NULL;
    remove_lab(dir);
}

/* A fuzzer stopped by a signal or a crash leaves with _Exit: the labs of
 * processes that are gone are removed by the next one. */
static void remove_stale(const char *base)
{
    DIR *d = opendir(base);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int pid;
        char stale[512];
        if (sscanf(e->d_name, "mdsim-fuzz-%d", &pid) == 1 && pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) {
            if (snprintf(stale, sizeof stale, "%s/%s", base, e->d_name) < (int)sizeof stale)
                remove_lab(stale);
        }
    }
    if (d)
        closedir(d);
}

/* The file is this process's alone: it keeps its locks instead of taking
 * them again (system calls) for each read outside the input's transaction. */
static void open_lab(void)
{
    char err[256];
    lab = lab_open(path, err, sizeof err);
    if (!lab) {
        fprintf(stderr, "fuzz: cannot open the lab: %s\n", err);
        abort();
    }
    sqlite3_exec(lab_db(lab), "PRAGMA locking_mode=EXCLUSIVE; BEGIN IMMEDIATE; COMMIT", NULL, NULL, NULL);
}

/* On tmpfs when there is one: the lab file is written at every command. */
static void first_open(void)
{
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    remove_stale(base);
    snprintf(dir, sizeof dir, "%s/mdsim-fuzz-%d", base, (int)getpid());
    remove_lab(dir); /* a pid used again */
    if (mkdir(dir, 0700) != 0) {
        perror("fuzz: mkdir");
        abort();
    }
    snprintf(path, sizeof path, "%s/lab.db", dir);
    const char *reopen = getenv("MDSIM_FUZZ_REOPEN");
    always_reopen = reopen && strcmp(reopen, "1") == 0;
    open_lab();
    atexit(at_exit);
}

struct lab *fuzz_lab_begin(void)
{
    if (!lab)
        first_open();
    digest = 14695981039346656037u;
    lab_batch_begin(lab, true);
    return lab;
}

void fuzz_lab_end(void)
{
    lab_batch_abort(lab);
    /* a recording an input started is lab state the rollback does not reach */
    series_lab_stop(lab);
    lab_drop_observer(lab, LAB_OBS_SERIES);
    lab_restart_clock(lab);
    if (always_reopen) {
        lab_close(lab);
        open_lab();
    }
}

static bool show_output(void)
{
    static int show = -1;
    if (show < 0)
        show = getenv("MDSIM_FUZZ_SHOW") && strcmp(getenv("MDSIM_FUZZ_SHOW"), "1") == 0;
    return show;
}

void fuzz_output(const void *s, size_t n)
{
    const unsigned char *b = s;
    if (show_output())
        fwrite(s, 1, n, stdout);
    for (size_t i = 0; i < n; i++)
        digest = (digest ^ b[i]) * 1099511628211u;
}

uint64_t fuzz_output_digest(void) { return digest; }
