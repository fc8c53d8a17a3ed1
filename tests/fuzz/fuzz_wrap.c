/*
 * Library calls the fuzz targets replace (linked with -Wl,--wrap=NAME,
 * which sends mdsim's calls to __wrap_NAME): sleeping and crypt cost wall
 * time and would cut the executions per second; what mdsim does stays
 * the same.
 */
#include <crypt.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/* Waits on the wall clock pass at once: the login throttle answers a
 * failed login after a second or more (cli/login_throttle.c, nanosleep in
 * slices until the monotonic clock gets there). Each sleep moves the
 * monotonic clock the program reads forward by what it asked for, so a
 * wait ends as it would, only sooner. */
static uint64_t slept_ns;

int __wrap_nanosleep(const struct timespec *req, struct timespec *rem);
int __wrap_nanosleep(const struct timespec *req, struct timespec *rem)
{
    slept_ns += (uint64_t)req->tv_sec * 1000000000u + (uint64_t)req->tv_nsec;
    if (rem)
        *rem = (struct timespec){0, 0};
    return 0;
}

int __real_clock_gettime(clockid_t clock, struct timespec *ts);
int __wrap_clock_gettime(clockid_t clock, struct timespec *ts);
int __wrap_clock_gettime(clockid_t clock, struct timespec *ts)
{
    int rc = __real_clock_gettime(clock, ts);
    if (rc == 0 && clock == CLOCK_MONOTONIC) {
        uint64_t ns = (uint64_t)ts->tv_nsec + slept_ns;
        ts->tv_sec += (time_t)(ns / 1000000000u);
        ts->tv_nsec = (long)(ns % 1000000000u);
    }
    return rc;
}

/* A login, or a `username` with a password, costs a SHA-256 crypt of 5000
 * rounds: most of the time of a login input. crypt is a pure function of
 * the password and the setting, and most mutations keep an input's login
 * lines, so the answers are kept: a small table, a slot per hash. */
char *__real_crypt_rn(const char *phrase, const char *setting, void *data, int size);
char *__wrap_crypt_rn(const char *phrase, const char *setting, void *data, int size);
char *__wrap_crypt_rn(const char *phrase, const char *setting, void *data, int size)
{
    enum { SLOTS = 64, LEN = 160 };
    static struct memo {
        bool used;
        char phrase[LEN], setting[LEN], hash[LEN];
    } memo[SLOTS];
    unsigned h = 2166136261u;
    for (const char *p = phrase; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    for (const char *p = setting; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    struct crypt_data *cd = data;
    struct memo *m = &memo[h % SLOTS];
    if (m->used && strcmp(m->phrase, phrase) == 0 && strcmp(m->setting, setting) == 0 &&
        size >= (int)sizeof *cd) {
        memcpy(cd->output, m->hash, strlen(m->hash) + 1);
        return cd->output;
    }
    char *r = __real_crypt_rn(phrase, setting, data, size);
    if (r && strlen(phrase) < LEN && strlen(setting) < LEN && strlen(r) < LEN) {
        m->used = true;
        strcpy(m->phrase, phrase);
        strcpy(m->setting, setting);
        strcpy(m->hash, r);
    }
    return r;
}
