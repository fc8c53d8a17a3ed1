/* bench_startup: time from exec to the first console prompt, and memory.
 *
 * Starts the real mdsim binary in a pseudo-terminal, as a user at a terminal
 * would, with a lab file in a fresh temporary directory, and measures the
 * wall time from just before fork() until "MDS1# " has been read from the
 * pty. 20 runs that each create a new lab file, then 20 runs that reopen an
 * existing one; prints best and median. In every run, once the prompt is
 * there, it reads VmRSS and VmHWM of the idle process from /proc, and VmRSS
 * of the lab's owner when the console attached to one (a separate, forked
 * mdsim process with the same arguments that holds the lab: its memory is
 * part of what the start costs). The two map the same libraries, so their
 * VmRSS summed counts those pages twice; what the pair holds is the owner's
 * VmRSS plus the console's private pages (smaps_rollup), which is what the
 * target is checked against. Then it sends "exit\r" and reaps it. Every
 * wait is bounded: a process that does not answer in time is killed and the
 * run is reported as a timeout.
 *
 * Prints figures only, never fails on timing (machines are shared and noisy).
 * Targets: first prompt < 20 ms, < 10 MB resident.
 *
 * usage: bench_startup [path/to/mdsim]   (default: $MDSIM, else build/mdsim)
 */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define RUNS 20
#define PROMPT "MDS1# "
#define PROMPT_TIMEOUT_MS 5000 /* a wait for the first prompt */
#define EXIT_TIMEOUT_MS 2000   /* a wait for the process to leave after "exit" */
#define TARGET_PROMPT_MS 20.0
#define TARGET_RSS_KB (10 * 1024)

struct run {
    bool ok;
    double prompt_ms;
    long rss_kb, hwm_kb;
    long owner_rss_kb; /* -1: no separate owner process */
    long private_kb;   /* the console's pages nobody else maps; -1: unknown */
    int status; /* wait status, or -1 when it had to be killed */
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* VmRSS and VmHWM of a process, in kB; -1 when not found. */
static void read_mem(pid_t pid, long *rss_kb, long *hwm_kb)
{
    char path[64], line[256];
    *rss_kb = *hwm_kb = -1;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmRSS:", 6) == 0)
            *rss_kb = strtol(line + 6, NULL, 10);
        else if (strncmp(line, "VmHWM:", 6) == 0)
            *hwm_kb = strtol(line + 6, NULL, 10);
    }
    fclose(f);
}

/* Private_Clean + Private_Dirty of a process (smaps_rollup), in kB: the
 * pages only it maps. -1 when not found. */
static long read_private(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Private_Clean:", 14) == 0 || strncmp(line, "Private_Dirty:", 14) == 0)
            kb = (kb < 0 ? 0 : kb) + strtol(line + 14, NULL, 10);
    fclose(f);
    return kb;
}

/* Whether /proc/<pid>/cmdline is exactly "<any> --db <db>". */
static bool runs_on(const char *pid, const char *db)
{
    char path[300], cmd[4400];
    snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(cmd, 1, sizeof cmd - 1, f);
    fclose(f);
    cmd[n] = '\0';
    size_t a0 = strlen(cmd) + 1;
    if (a0 >= n || strcmp(cmd + a0, "--db") != 0)
        return false;
    size_t a2 = a0 + 5;
    return a2 < n && strcmp(cmd + a2, db) == 0 && a2 + strlen(db) + 1 == n;
}

/* VmRSS of the lab owner a console on `db` attached to: another process
 * started with the same "--db db" (the owner is forked from the first
 * console, so it has its arguments). -1 when there is none. */
static long owner_rss(pid_t console, const char *db)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    long rss = -1, hwm;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9' || atol(de->d_name) == (long)console)
            continue;
        if (runs_on(de->d_name, db)) {
            read_mem((pid_t)atol(de->d_name), &rss, &hwm);
            break;
        }
    }
    closedir(d);
    return rss;
}

/* Whether want occurs in the first len bytes of buf (memmem is a GNU extension). */
static bool contains(const char *buf, size_t len, const char *want)
{
    size_t n = strlen(want);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(buf + i, want, n) == 0)
            return true;
    return false;
}

/* Reads from the pty master into buf until `want` appears in it, EOF, or
 * `deadline` (CLOCK_MONOTONIC, ms). Returns true when `want` was seen; a NULL
 * want reads until EOF. Keeps the tail of the output when buf fills up. */
static bool read_until(int fd, char *buf, size_t cap, size_t *len, const char *want, double deadline)
{
    for (;;) {
        if (want && contains(buf, *len, want))
            return true;
        double left = deadline - now_ms();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, (int)left + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        if (*len + 1 >= cap) { /* keep the last half: a prompt spans at most that */
            memmove(buf, buf + cap / 2, *len - cap / 2);
            *len -= cap / 2;
        }
        ssize_t n = read(fd, buf + *len, cap - 1 - *len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) /* EOF, or EIO once the slave side is closed */
            return want == NULL;
        *len += (size_t)n;
        buf[*len] = '\0';
    }
}

/* Waits for pid until deadline; kills it when it is still there. */
static int reap(pid_t pid, double deadline)
{
    int status;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            return status;
        if (w < 0 && errno != EINTR)
            return -1;
        if (now_ms() >= deadline)
            break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGTERM);
    double hard = now_ms() + 500;
    while (now_ms() < hard) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return -1;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* One start of mdsim on `db` in a new pseudo-terminal. */
static struct run run_once(const char *mdsim, const char *db)
{
    struct run r = {.ok = false, .rss_kb = -1, .hwm_kb = -1, .owner_rss_kb = -1, .private_kb = -1, .status = -1};
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        perror("bench_startup: posix_openpt");
        if (master >= 0)
            close(master);
        return r;
    }
    char slave_name[256];
    const char *sn = ptsname(master);
    if (!sn) {
        perror("bench_startup: ptsname");
        close(master);
        return r;
    }
    snprintf(slave_name, sizeof slave_name, "%s", sn);
    struct winsize ws = {.ws_row = 24, .ws_col = 80};
    ioctl(master, TIOCSWINSZ, &ws);

    double t0 = now_ms();
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_startup: fork");
        close(master);
        return r;
    }
    if (pid == 0) { /* child: the pty slave becomes its controlling terminal */
        close(master);
        setsid();
        int slave = open(slave_name, O_RDWR);
        if (slave < 0)
            _exit(126);
#ifdef TIOCSCTTY
        ioctl(slave, TIOCSCTTY, 0);
#endif
        dup2(slave, 0);
        dup2(slave, 1);
        dup2(slave, 2);
        if (slave > 2)
            close(slave);
        if (!getenv("TERM"))
            setenv("TERM", "dumb", 1);
        execl(mdsim, mdsim, "--db", db, (char *)NULL);
        _exit(127);
    }

    char buf[8192];
    size_t len = 0;
    buf[0] = '\0';
    if (read_until(master, buf, sizeof buf, &len, PROMPT, t0 + PROMPT_TIMEOUT_MS)) {
        r.prompt_ms = now_ms() - t0;
        r.ok = true;
        read_mem(pid, &r.rss_kb, &r.hwm_kb);
        r.owner_rss_kb = owner_rss(pid, db);
        r.private_kb = read_private(pid);
    } else {
        fprintf(stderr, "bench_startup: no \"%s\" within %d ms; output was: %.*s\n", PROMPT,
                PROMPT_TIMEOUT_MS, (int)(len > 200 ? 200 : len), buf);
    }
    if (write(master, "exit\r", 5) != 5)
        perror("bench_startup: write");
    double deadline = now_ms() + EXIT_TIMEOUT_MS;
    len = 0;
    read_until(master, buf, sizeof buf, &len, NULL, deadline); /* drain until it closes */
    r.status = reap(pid, deadline);
    close(master);
    if (r.status == -1) {
        fprintf(stderr, "bench_startup: mdsim did not leave within %d ms of \"exit\"; killed\n",
                EXIT_TIMEOUT_MS);
    } else if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
        fprintf(stderr, "bench_startup: mdsim ended with wait status 0x%x\n", (unsigned)r.status);
    }
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

struct summary {
    int ok;
    double best_ms, median_ms, worst_ms;
    long rss_median, rss_max, hwm_median, hwm_max;
    int owners;                  /* runs that had a separate owner */
    long owner_median, owner_max, total_max;
    long pair_max; /* owner RSS + the console's private pages: shared pages once */
};

static struct summary summarize(const struct run *runs, int n)
{
    double ms[RUNS];
    long rss[RUNS], hwm[RUNS], own[RUNS];
    struct summary s = {0};
    for (int i = 0; i < n; i++)
        if (runs[i].ok) {
            ms[s.ok] = runs[i].prompt_ms;
            rss[s.ok] = runs[i].rss_kb;
            hwm[s.ok] = runs[i].hwm_kb;
            long total = runs[i].rss_kb;
            if (runs[i].owner_rss_kb >= 0) {
                own[s.owners++] = runs[i].owner_rss_kb;
                total += runs[i].owner_rss_kb;
                long pair = runs[i].owner_rss_kb + (runs[i].private_kb >= 0 ? runs[i].private_kb : runs[i].rss_kb);
                if (pair > s.pair_max)
                    s.pair_max = pair;
            }
            if (total > s.total_max)
                s.total_max = total;
            s.ok++;
        }
    if (s.owners) {
        qsort(own, (size_t)s.owners, sizeof *own, cmp_long);
        s.owner_median = own[s.owners / 2];
        s.owner_max = own[s.owners - 1];
    }
    if (s.ok == 0)
        return s;
    qsort(ms, (size_t)s.ok, sizeof *ms, cmp_double);
    qsort(rss, (size_t)s.ok, sizeof *rss, cmp_long);
    qsort(hwm, (size_t)s.ok, sizeof *hwm, cmp_long);
    int m = s.ok / 2;
    s.best_ms = ms[0];
    s.worst_ms = ms[s.ok - 1];
    s.median_ms = s.ok % 2 ? ms[m] : (ms[m - 1] + ms[m]) / 2;
    s.rss_median = rss[m];
    s.rss_max = rss[s.ok - 1];
    s.hwm_median = hwm[m];
    s.hwm_max = hwm[s.ok - 1];
    return s;
}

static void report(const char *what, const struct summary *s)
{
    if (s->ok == 0) {
        printf("%-18s no run reached the prompt\n", what);
        return;
    }
    printf("%-18s first prompt: best %6.2f ms, median %6.2f ms, worst %6.2f ms (%d/%d runs)"
           " [target < %.0f ms: median %s]\n",
           what, s->best_ms, s->median_ms, s->worst_ms, s->ok, RUNS, TARGET_PROMPT_MS,
           s->median_ms < TARGET_PROMPT_MS ? "meets it" : "misses it");
    printf("%-18s idle memory:  VmRSS median %ld kB, max %ld kB; VmHWM median %ld kB, max %ld kB"
           " [target < %d kB resident: max %s]\n",
           what, s->rss_median, s->rss_max, s->hwm_median, s->hwm_max, TARGET_RSS_KB,
           s->hwm_max < TARGET_RSS_KB ? "meets it" : "misses it");
    if (s->owners == 0) {
        printf("%-18s lab owner:    none apart from the console (the lab is in its process)\n", what);
        return;
    }
    printf("%-18s lab owner:    VmRSS median %ld kB, max %ld kB (%d runs had one); VmRSS of both"
           " summed max %ld kB (the library pages they share counted twice)\n",
           what, s->owner_median, s->owner_max, s->owners, s->total_max);
    printf("%-18s console + owner resident, shared pages once (owner VmRSS + the console's private"
           " pages): max %ld kB [target < %d kB: %s]\n",
           what, s->pair_max, TARGET_RSS_KB, s->pair_max < TARGET_RSS_KB ? "meets it" : "misses it");
}

/* Removes db followed by suffix; a name too long to build cannot exist. */
static void unlink_suffixed(const char *db, const char *suffix)
{
    char p[4200];
    if (snprintf(p, sizeof p, "%s%s", db, suffix) < (int)sizeof p)
        unlink(p);
}

static void remove_lab(const char *db)
{
    unlink(db);
    unlink_suffixed(db, "-wal");
    unlink_suffixed(db, "-shm");
    unlink_suffixed(db, "-journal");
}

int main(int argc, char **argv)
{
    const char *mdsim = argc > 1 ? argv[1] : getenv("MDSIM");
    if (!mdsim || !*mdsim)
        mdsim = "build/mdsim";
    if (access(mdsim, X_OK) != 0) {
        fprintf(stderr, "bench_startup: %s is not an executable (give its path as the argument)\n", mdsim);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);

    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s/mdsim-bench-startup.XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
        (int)sizeof dir) {
        fprintf(stderr, "bench_startup: TMPDIR is too long\n");
        return 2;
    }
    if (!mkdtemp(dir)) {
        perror("bench_startup: mkdtemp");
        return 2;
    }
    char db[4200];
    snprintf(db, sizeof db, "%s/lab.db", dir);

    printf("bench_startup: %s, %d runs each, prompt \"%s\" read from a pty\n", mdsim, RUNS, PROMPT);

    /* one untimed start first, so the binary and libraries are in the page cache */
    struct run warm = run_once(mdsim, db);
    remove_lab(db);
    if (!warm.ok) {
        fprintf(stderr, "bench_startup: %s gave no prompt; no figures\n", mdsim);
        rmdir(dir);
        return 1;
    }

    struct run fresh[RUNS], existing[RUNS];
    for (int i = 0; i < RUNS; i++) {
        remove_lab(db);
        fresh[i] = run_once(mdsim, db);
    }
    /* the lab the last run created is now the existing one */
    for (int i = 0; i < RUNS; i++)
        existing[i] = run_once(mdsim, db);

    struct stat st;
    long size = stat(db, &st) == 0 ? (long)st.st_size : -1;
    struct summary sf = summarize(fresh, RUNS), se = summarize(existing, RUNS);
    report("new lab file:", &sf);
    report("existing lab file:", &se);
    printf("lab file size: %ld bytes\n", size);

    remove_lab(db);
    rmdir(dir);
    return 0;
}
