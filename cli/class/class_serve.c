/*
 * `mdsim class serve DIR` and `class stop DIR`: every student's lab served
 * by an `mdsim serve` of its own (one owner per lab, DESIGN.md rule 7), on
 * the roster's ports, under one supervisor in the foreground that passes
 * their messages on, each line after its student's name, and stops them
 * all on SIGTERM or SIGINT. DIR/class.lock, locked while it runs, holds its
 * process ID for `class stop`.
 */
#define _GNU_SOURCE
#include "class/class.h"
#include "class/roster.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { STOP_WAIT_S = 60, LINE_MAX_OUT = 1024 };

struct child {
    const struct roster_row *row; /* the student's first switch: the lab's port bases */
    pid_t pid;
    int fd;   /* its stdout and stderr, -1 at EOF */
    int status;
    bool ready, exited;
    char line[LINE_MAX_OUT];
    size_t len;
};

struct class_run {
    const char *dir;
    struct child *c;
    int n, ready, live;
    bool stopping, announced;
    time_t deadline;
    int rc;
};

static void lock_path(const char *dir, char *buf, size_t n) { snprintf(buf, n, "%s/class.lock", dir); }

/* The lock, taken, with our process ID in it; -1 (said why) when the class
 * is served already or the file cannot be made. */
static int take_lock(const char *dir)
{
    char path[4200];
    lock_path(dir, path, sizeof path);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "mdsim: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[24] = "";
        ssize_t got = pread(fd, pid, sizeof pid - 1, 0);
        pid[got > 0 ? got : 0] = '\0';
        fprintf(stderr, "mdsim: class %s is already served (process %ld); `mdsim class stop %s` first\n", dir,
                strtol(pid, NULL, 10), dir);
        close(fd);
        return -1;
    }
    char pid[24];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len)
        fprintf(stderr, "mdsim: cannot write %s: %s\n", path, strerror(errno));
    return fd;
}

/* `mdsim --db DIR/STUDENT.db serve ...` with its output on a pipe. */
static bool spawn(struct class_run *run, struct child *c, const struct serve_opts *o, const sigset_t *mask)
{
    char db[4200], tp[8], sp[8], speed[32], idle[16];
    snprintf(db, sizeof db, "%s/%s.db", run->dir, c->row->student);
    snprintf(tp, sizeof tp, "%d", c->row->telnet_port);
    snprintf(sp, sizeof sp, "%d", c->row->ssh_port);
    snprintf(speed, sizeof speed, "%g", o->speed);
    snprintf(idle, sizeof idle, "%d", o->idle_timeout);
    char *argv[] = {(char *)class_self(), "--db", db, "serve", "--telnet-port", tp, "--ssh-port", sp,
                    "--bind", (char *)o->bind, "--speed", speed, "--idle-timeout", idle, NULL};
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return false;
    pid_t parent = getpid();
    c->pid = fork();
    if (c->pid == 0) {
        /* A supervisor killed outright (SIGKILL, OOM) takes its labs along:
         * orphans would hold the ports and the labs, unseen by class stop. */
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
            _exit(1);
        dup2(p[1], STDOUT_FILENO);
        dup2(p[1], STDERR_FILENO);
        sigprocmask(SIG_SETMASK, mask, NULL); /* exec keeps a blocked mask */
        execv(argv[0], argv);
        fprintf(stderr, "mdsim: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(p[1]);
    c->fd = p[0];
    if (c->pid < 0) {
        close(p[0]);
        c->fd = -1;
        return false;
    }
    run->live++;
    return true;
}

static void stop_all(struct class_run *run, int sig)
{
    if (!run->stopping)
        run->deadline = time(NULL) + STOP_WAIT_S;
    run->stopping = true;
    for (int i = 0; i < run->n; i++)
        if (run->c[i].pid > 0 && !run->c[i].exited)
            kill(run->c[i].pid, sig);
}

static void on_line(struct class_run *run, struct child *c)
{
    c->line[c->len] = '\0';
    fprintf(stderr, "%s: %s\n", c->row->student, c->line);
    c->len = 0;
    if (!c->ready && strncmp(c->line, "mdsim serve: ready", 18) == 0) {
        c->ready = true;
        if (++run->ready == run->n && !run->stopping) {
            fprintf(stderr, "mdsim class: ready: %d labs of %s served (roster %s/roster.csv)\n", run->n,
                    run->dir, run->dir);
            run->announced = true;
        }
    }
}

/* Reads what a child printed; whole lines are passed on (a longer one in
 * pieces). */
static void drain_child(struct class_run *run, struct child *c)
{
    char buf[4096];
    ssize_t got = read(c->fd, buf, sizeof buf);
    if (got <= 0) {
        if (got == 0 || errno != EINTR) {
            if (c->len)
                on_line(run, c);
            close(c->fd);
            c->fd = -1;
        }
        return;
    }
    for (ssize_t i = 0; i < got; i++) {
        if (buf[i] == '\n' || c->len == sizeof c->line - 1)
            on_line(run, c);
        if (buf[i] != '\n')
            c->line[c->len++] = buf[i];
    }
}

static void reap(struct class_run *run)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        for (int i = 0; i < run->n; i++) {
            struct child *c = &run->c[i];
            if (c->pid != pid)
                continue;
            c->exited = true;
            run->live--;
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            if (code != 0 || !run->stopping)
                fprintf(stderr, "mdsim class: %s's lab stopped (exit %d)\n", c->row->student, code);
            if (code != 0)
                run->rc = 1;
            if (!run->announced && !run->stopping) { /* a lab that cannot start: no class */
                fprintf(stderr, "mdsim class: not served: stopping the others\n");
                stop_all(run, SIGTERM);
            }
        }
}

static void on_signal(struct class_run *run, int sfd)
{
    struct signalfd_siginfo si;
    while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
        if (si.ssi_signo == SIGCHLD)
            reap(run);
        else if (!run->stopping) {
            fprintf(stderr, "mdsim class: signal %u, stopping %d labs\n", si.ssi_signo, run->live);
            stop_all(run, SIGTERM);
        }
    }
}

static bool open_fds(const struct class_run *run)
{
    for (int i = 0; i < run->n; i++)
        if (run->c[i].fd >= 0)
            return true;
    return false;
}

static void loop(struct class_run *run, int sfd)
{
    struct pollfd *pf = calloc((size_t)run->n + 1, sizeof *pf);
    while (run->live > 0 || open_fds(run)) {
        pf[0] = (struct pollfd){.fd = sfd, .events = POLLIN};
        for (int i = 0; i < run->n; i++)
            pf[i + 1] = (struct pollfd){.fd = run->c[i].fd, .events = POLLIN};
        if (run->stopping && time(NULL) > run->deadline)
            stop_all(run, SIGKILL);
        if (poll(pf, (nfds_t)run->n + 1, run->stopping ? 1000 : -1) < 0 && errno != EINTR)
            break;
        if (pf[0].revents)
            on_signal(run, sfd);
        for (int i = 0; i < run->n; i++)
            if (pf[i + 1].revents && run->c[i].fd >= 0)
                drain_child(run, &run->c[i]);
    }
    free(pf);
}

/* One child per student: the roster's rows of a student are consecutive,
 * their lab's switches in order, so its first row holds the port bases. */
static int students(const struct roster *r, struct child *c)
{
    int n = 0;
    for (int i = 0; i < r->n; i++)
        if (i == 0 || strcmp(r->rows[i].student, r->rows[i - 1].student) != 0)
            c[n++] = (struct child){.row = &r->rows[i], .fd = -1};
    return n;
}

int class_serve(const char *dir, const struct class_opts *o)
{
    struct roster r;
    char err[4400];
    if (!roster_read(dir, &r, err, sizeof err)) {
        fprintf(stderr, "mdsim: %s\n", err);
        return 1;
    }
    int lockfd = take_lock(dir);
    struct class_run run = {.dir = dir, .c = calloc((size_t)r.n, sizeof *run.c)};
    run.n = students(&r, run.c);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, &old);
    int sfd = lockfd >= 0 ? signalfd(-1, &block, SFD_NONBLOCK | SFD_CLOEXEC) : -1;
    for (int i = 0; sfd >= 0 && i < run.n && !run.stopping; i++)
        if (!spawn(&run, &run.c[i], &o->serve, &old)) {
            fprintf(stderr, "mdsim class: cannot start %s's lab: %s\n", run.c[i].row->student, strerror(errno));
            run.rc = 1;
            stop_all(&run, SIGTERM);
        }
    if (sfd >= 0) {
        loop(&run, sfd);
        fprintf(stderr, "mdsim class: stopped\n");
        close(sfd);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    int rc = lockfd < 0 ? 1 : run.announced ? run.rc : 1;
    if (lockfd >= 0)
        close(lockfd);
    free(run.c);
    roster_free(&r);
    return rc;
}

int class_stop(const char *dir)
{
    char path[4200], pid[24] = "";
    lock_path(dir, path, sizeof path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || flock(fd, LOCK_SH | LOCK_NB) == 0) {
        fprintf(stderr, "mdsim: class %s is not served\n", dir);
        if (fd >= 0)
            close(fd);
        return 1;
    }
    ssize_t got = pread(fd, pid, sizeof pid - 1, 0);
    pid[got > 0 ? got : 0] = '\0';
    long p = strtol(pid, NULL, 10);
    if (p <= 1 || kill((pid_t)p, SIGTERM) != 0) {
        fprintf(stderr, "mdsim: cannot stop class %s (process %ld): %s\n", dir, p, strerror(errno));
        close(fd);
        return 1;
    }
    /* It is gone when its lock is free: wait for that, bounded. */
    for (int i = 0; i < (STOP_WAIT_S + 10) * 20; i++) {
        if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
            close(fd);
            printf("class %s stopped\n", dir);
            return 0;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    close(fd);
    fprintf(stderr, "mdsim: class %s (process %ld) did not stop within %d s\n", dir, p, STOP_WAIT_S + 10);
    return 1;
}
