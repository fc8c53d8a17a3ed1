/*
 * Library calls the fuzz targets replace (linked with -Wl,--wrap=NAME,
 * which sends mdsim's calls to __wrap_NAME): sleeping and crypt cost wall
 * time and would cut the executions per second; what mdsim does stays
 * the same.
 */
#include "user/user.h"
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
 * the password and the setting, so the answers are kept (a small table, a
 * slot per pair). And a mutated password is wrong: mdsim only compares
 * crypt(password, stored hash) with the stored hash, so once the password
 * of a stored hash is known (every real crypt teaches one: its result is
 * the hash of its password), any other password gets a hash that differs
 * from it, made at once. Same answers to mdsim's comparisons, no rounds;
 * the same for the crypt of a stranger's login, whose hash is thrown away. */
enum { SLOTS = 64, LEN = 160 };

static unsigned fnv(const char *a, const char *b)
{
    unsigned h = 2166136261u;
    for (const char *p = a; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    for (const char *p = b; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h;
}

/* (phrase, setting) -> what crypt answered */
static struct memo {
    bool used;
    char phrase[LEN], setting[LEN], hash[LEN];
} memo[SLOTS];

/* a hash crypt made -> the phrase it is the hash of */
static struct known {
    bool used;
    char hash[LEN], phrase[LEN];
} known[SLOTS];

static const struct known *known_hash(const char *setting)
{
    const struct known *k = &known[fnv(setting, "") % SLOTS];
    return k->used && strcmp(k->hash, setting) == 0 ? k : NULL;
}

static const char alphabet[] = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/* Not the stored hash: its last character changed, the same way for the
 * same password. */
static char *wrong_password(const char *phrase, const char *setting, struct crypt_data *cd)
{
    size_t n = strlen(setting);
    memcpy(cd->output, setting, n + 1);
    char c = alphabet[fnv(phrase, setting) % 64];
    cd->output[n - 1] = c != setting[n - 1] ? c : c == '.' ? '/' : '.';
    return cd->output;
}

/* The hash of an unknown user's password, which user_login throws away:
 * a digest of the right length, the same for the same password. */
static char *nobody(const char *phrase, struct crypt_data *cd)
{
    size_t n = strlen(USER_NOBODY_SETTING);
    unsigned h = fnv(phrase, USER_NOBODY_SETTING);
    memcpy(cd->output, USER_NOBODY_SETTING, n);
    for (int i = 0; i < 43; i++, h = h * 16777619u + 1)
        cd->output[n + (size_t)i] = alphabet[h >> 26];
    cd->output[n + 43] = '\0';
    return cd->output;
}

char *__real_crypt_rn(const char *phrase, const char *setting, void *data, int size);
char *__wrap_crypt_rn(const char *phrase, const char *setting, void *data, int size);
char *__wrap_crypt_rn(const char *phrase, const char *setting, void *data, int size)
{
    struct crypt_data *cd = data;
    struct memo *m = &memo[fnv(phrase, setting) % SLOTS];
    if (size < (int)sizeof *cd)
        return __real_crypt_rn(phrase, setting, data, size);
    if (m->used && strcmp(m->phrase, phrase) == 0 && strcmp(m->setting, setting) == 0) {
        memcpy(cd->output, m->hash, strlen(m->hash) + 1);
        return cd->output;
    }
    if (strcmp(setting, USER_NOBODY_SETTING) == 0)
        return nobody(phrase, cd);
    const struct known *k = known_hash(setting);
    if (k && strcmp(k->phrase, phrase) != 0)
        return wrong_password(phrase, setting, cd);
    char *r = __real_crypt_rn(phrase, setting, data, size);
    if (r && r[0] == '$' && strlen(phrase) < LEN && strlen(setting) < LEN && strlen(r) < LEN) {
        *m = (struct memo){.used = true};
        strcpy(m->phrase, phrase);
        strcpy(m->setting, setting);
        strcpy(m->hash, r);
        struct known *kn = &known[fnv(r, "") % SLOTS];
        *kn = (struct known){.used = true};
        strcpy(kn->hash, r);
        strcpy(kn->phrase, phrase);
    }
    return r;
}
