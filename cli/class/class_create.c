/* `mdsim class create DIR --lab FILE --students N`: the class's folder. */
#include "class/class.h"
#include "class/roster.h"
#include "lab/lab.h"
#include "lab/topology.h"
#include "slurp.h"
#include "user/user.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

enum { PASSWORD_LEN = 12 };

/* The lab file as a lab prints it (topology_print): canonical, so the
 * students' config blocks can be found by their exact lines. Also the
 * switches' names. NULL with err set when the file is not a good lab. */
static char *canonical_lab(const char *stage, const char *file, char ***names, int *nsw, char *err, size_t n)
{
    char *text = slurp(file);
    if (!text) {
        snprintf(err, n, "cannot read %s: %s", file, strerror(errno));
        return NULL;
    }
    char path[4300];
    snprintf(path, sizeof path, "%s/template.db", stage);
    int rc = topology_create(path, file, text, err, n);
    free(text);
    struct lab *lab = rc == 0 ? lab_open(path, err, n) : NULL;
    if (!lab)
        return NULL;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    topology_print(lab, f);
    fclose(f);
    *nsw = lab_switch_count(lab);
    *names = calloc((size_t)*nsw, sizeof **names);
    for (int i = 0; i < *nsw; i++)
        (*names)[i] = strdup(lab_switch_name(lab, i));
    lab_close(lab);
    unlink(path);
    return out;
}

/* PASSWORD_LEN characters from an alphabet without look-alikes (0O1lI),
 * from the kernel's random source, without modulo bias. */
static bool make_password(char *out)
{
    static const char abc[] = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    const unsigned lim = 256 - 256 % (sizeof abc - 1);
    int k = 0;
    while (k < PASSWORD_LEN) {
        unsigned char b[32];
        if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
            return false;
        for (size_t i = 0; i < sizeof b && k < PASSWORD_LEN; i++)
            if (b[i] < lim)
                out[k++] = abc[b[i] % (sizeof abc - 1)];
    }
    out[k] = '\0';
    return true;
}

/* The config lines every switch of a student's lab starts with: the
 * student's account and the trainer's admin password (hashes only: the
 * lab files hold no password in clear). */
static bool user_lines(const char *student, const char *password, const char *admin_hash, char *out, size_t n)
{
    char hash[USER_HASH_MAX + 1];
    if (!user_hash_password(password, hash, sizeof hash))
        return false;
    snprintf(out, n, "username admin password 5 %s role network-admin\n"
             "username %s password 5 %s role network-admin\n", admin_hash, student, hash);
    return true;
}

/* The lab file of one student: the canonical lab with `users` added to
 * every switch's starting configuration (a block made when it has none). */
static char *student_lab(const char *lab, char **names, int nsw, const char *users)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    bool *done = calloc((size_t)nsw, sizeof *done);
    int cur = -1;
    for (const char *p = lab; *p;) {
        size_t l = strcspn(p, "\n");
        if (l == 10 && strncmp(p, "end-config", 10) == 0 && cur >= 0) {
            fputs(users, f);
            done[cur] = true;
            cur = -1;
        } else if (strncmp(p, "config ", 7) == 0) {
            for (int i = 0; i < nsw; i++)
                if (l == 7 + strlen(names[i]) && strncmp(p + 7, names[i], l - 7) == 0)
                    cur = i;
        }
        fwrite(p, 1, l + (p[l] == '\n'), f);
        p += l + (p[l] == '\n');
    }
    for (int i = 0; i < nsw; i++)
        if (!done[i])
            fprintf(f, "\n! starting configuration of %s (lab create, lab reset)\nconfig %s\n%send-config\n",
                    names[i], names[i], users);
    free(done);
    fclose(f);
    return out;
}

/* Mode 0600: the roster holds passwords, the rest is the trainer's too. */
static bool write_file(const char *path, const char *text, char *err, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
    return ok;
}

/* Ports: student k's switch i on base + k * nsw + i, telnet and SSH, both
 * ranges within 1-65535 and apart. */
static const char *check_ports(const struct class_opts *o, int nsw)
{
    long span = (long)o->students * nsw;
    long t = o->serve.telnet_base, s = o->serve.ssh_base;
    if (t == 0 || s == 0)
        return "a class needs fixed ports: --telnet-port and --ssh-port cannot be 0";
    if (t + span - 1 > 65535 || s + span - 1 > 65535)
        return "the ports run past 65535: lower --telnet-port or --ssh-port";
    if (t < s + span && s < t + span)
        return "the telnet and SSH port ranges overlap: move --telnet-port or --ssh-port apart";
    return NULL;
}

struct plan {
    const char *stage;
    const char *lab;
    char **names;
    int nsw;
    char admin_hash[USER_HASH_MAX + 1];
};

static bool make_student(const struct plan *p, const struct class_opts *o, int k, struct roster *r, char *err,
                         size_t n)
{
    struct roster_row w = {0};
    snprintf(w.student, sizeof w.student, "student%0*d", o->students >= 100 ? 3 : 2, k + 1);
    snprintf(w.user, sizeof w.user, "%s", w.student);
    char users[2 * USER_HASH_MAX + 200], path[4300];
    if (!make_password(w.password) || !user_lines(w.student, w.password, p->admin_hash, users, sizeof users)) {
        snprintf(err, n, "cannot make a password: %s", strerror(errno));
        return false;
    }
    char *text = student_lab(p->lab, p->names, p->nsw, users);
    snprintf(path, sizeof path, "%s/%s.lab", p->stage, w.student);
    bool ok = write_file(path, text, err, n);
    char file[64];
    snprintf(file, sizeof file, "%s.lab", w.student);
    snprintf(path, sizeof path, "%s/%s.db", p->stage, w.student);
    ok = ok && topology_create(path, file, text, err, n) == 0;
    free(text);
    for (int i = 0; ok && i < p->nsw; i++) {
        snprintf(w.sw, sizeof w.sw, "%s", p->names[i]);
        w.telnet_port = o->serve.telnet_base + k * p->nsw + i;
        w.ssh_port = o->serve.ssh_base + k * p->nsw + i;
        roster_add(r, &w);
    }
    return ok;
}

static bool write_roster(const char *stage, const struct roster *r, const char *admin_pw, char *err, size_t n)
{
    char path[4300], *csv = NULL, line[128];
    size_t len = 0;
    FILE *f = open_memstream(&csv, &len);
    roster_write(r, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/roster.csv", stage);
    bool ok = write_file(path, csv, err, n);
    free(csv);
    snprintf(path, sizeof path, "%s/admin-password", stage);
    snprintf(line, sizeof line, "%s\n", admin_pw);
    return ok && write_file(path, line, err, n);
}

/* Builds the class in `stage`; false with err set. */
static bool build(const char *stage, const struct class_opts *o, struct roster *r, char *admin_pw, char *err,
                  size_t n)
{
    struct plan p = {.stage = stage};
    char *lab = canonical_lab(stage, o->lab_file, &p.names, &p.nsw, err, n);
    if (!lab)
        return false;
    p.lab = lab;
    const char *why = check_ports(o, p.nsw);
    bool ok = !why && make_password(admin_pw) && user_hash_password(admin_pw, p.admin_hash, sizeof p.admin_hash);
    if (!ok)
        snprintf(err, n, "%s", why ? why : "cannot make a password");
    for (int k = 0; ok && k < o->students; k++)
        ok = make_student(&p, o, k, r, err, n);
    ok = ok && write_roster(stage, r, admin_pw, err, n);
    for (int i = 0; i < p.nsw; i++)
        free(p.names[i]);
    free(p.names);
    free(lab);
    return ok;
}

/* Removes what build left in the stage: its own files, by their names. */
static void remove_stage(const char *stage, const struct roster *r)
{
    static const char *const own[] = {"template.db", "roster.csv", "admin-password"};
    char path[4300];
    for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
        snprintf(path, sizeof path, "%s/%s", stage, own[i]);
        unlink(path);
    }
    for (int k = 0; k < r->n; k++)
        for (const char *ext = ".lab"; ext; ext = strcmp(ext, ".lab") == 0 ? ".db" : NULL) {
            snprintf(path, sizeof path, "%s/%s%s", stage, r->rows[k].student, ext);
            unlink(path);
        }
    rmdir(stage);
}

static bool new_or_empty(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return errno == ENOENT;
    DIR *d = S_ISDIR(st.st_mode) ? opendir(dir) : NULL;
    if (!d)
        return false;
    struct dirent *e;
    while ((e = readdir(d)) && (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0))
        ;
    closedir(d);
    return e == NULL;
}

/* DIR must be new, or an empty folder (replaced: rename(2) may). The class is built in a
 * private folder beside it and renamed into place: all of it or nothing. */
int class_create(const char *dir, const struct class_opts *o)
{
    if (!o->lab_file || o->students < 1 || o->students > CLASS_STUDENTS_MAX) {
        fprintf(stderr, "mdsim: class create needs --lab FILE and --students N (1-%d)\n", CLASS_STUDENTS_MAX);
        return 2;
    }
    if (!new_or_empty(dir)) {
        fprintf(stderr, "mdsim: %s exists and is not an empty folder\n", dir);
        return 1;
    }
    char stage[4000], err[4400] = "", admin_pw[PASSWORD_LEN + 1];
    snprintf(stage, sizeof stage, "%s.new-XXXXXX", dir);
    if (!mkdtemp(stage)) { /* mode 0700: the roster holds passwords */
        fprintf(stderr, "mdsim: cannot create %s: %s\n", stage, strerror(errno));
        return 1;
    }
    struct roster r = {0};
    bool ok = build(stage, o, &r, admin_pw, err, sizeof err) && rename(stage, dir) == 0;
    if (!ok && !*err)
        snprintf(err, sizeof err, "cannot rename %s to %s: %s", stage, dir, strerror(errno));
    if (!ok) {
        remove_stage(stage, &r);
        fprintf(stderr, "%s%s\n", strncmp(err, o->lab_file, strlen(o->lab_file)) == 0 ? "" : "mdsim: ", err);
    } else {
        roster_print(&r, stdout);
        printf("\nclass %s: %d students; roster %s/roster.csv; admin's password on every switch: %s"
               " (also in %s/admin-password)\n", dir, o->students, dir, admin_pw, dir);
    }
    roster_free(&r);
    return ok ? 0 : 1;
}
