#include "fuzz_lab.h"
#include "lab/lab.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64], path[96];
static struct lab *lab;
static bool always_reopen; /* MDSIM_FUZZ_REOPEN=1 */

static void remove_files(void)
{
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
    lab_close(lab);
    lab = NULL;
    for (int i = 0; i < 4; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        unlink(p);
    }
    rmdir(dir);
}

static void open_lab(void)
{
    char err[256];
    lab = lab_open(path, err, sizeof err);
    if (!lab) {
        fprintf(stderr, "fuzz: cannot open the lab: %s\n", err);
        abort();
    }
}

/* On tmpfs when there is one: the lab file is written at every command. */
static void first_open(void)
{
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/mdsim-fuzz-XXXXXX", base);
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    snprintf(path, sizeof path, "%s/lab.db", dir);
    const char *reopen = getenv("MDSIM_FUZZ_REOPEN");
    always_reopen = reopen && strcmp(reopen, "1") == 0;
    open_lab();
    atexit(remove_files);
}

struct lab *fuzz_lab_begin(void)
{
    if (!lab)
        first_open();
    lab_batch_begin(lab);
    return lab;
}

void fuzz_lab_end(void)
{
    lab_batch_abort(lab);
    lab_restart_clock(lab);
    if (always_reopen) {
        lab_close(lab);
        open_lab();
    }
}
