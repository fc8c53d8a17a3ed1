/* `mdsim class create|serve|stop|reset`: which part, and `class reset`. */
#include "class/class.h"
#include "class/roster.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *class_self(void)
{
    static char self[4096];
    if (!*self) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = '\0';
    }
    return self;
}

/* `class reset DIR STUDENT [--switch NAME]` is `mdsim --db DIR/STUDENT.db
 * [--switch NAME] lab reset`, run in this process's place: it attaches to
 * the lab's owner when the class is served (docs/lab-files.md). */
static int class_reset(const char *dir, const char *student, const char *sw)
{
    struct roster r;
    char err[4400];
    if (!roster_read(dir, &r, err, sizeof err)) {
        fprintf(stderr, "mdsim: %s\n", err);
        return 1;
    }
    bool known = roster_student(&r, student) != NULL;
    roster_free(&r);
    if (!known) {
        fprintf(stderr, "mdsim: no student %s in %s/roster.csv\n", student, dir);
        return 1;
    }
    char db[4200];
    snprintf(db, sizeof db, "%s/%s.db", dir, student);
    char *argv[] = {(char *)class_self(), "--db", db, "lab", "reset", NULL, NULL, NULL};
    if (sw) {
        argv[3] = "--switch";
        argv[4] = (char *)sw;
        argv[5] = "lab";
        argv[6] = "reset";
    }
    fflush(NULL);
    execv(argv[0], argv);
    fprintf(stderr, "mdsim: cannot run %s: %s\n", argv[0], strerror(errno));
    return 1;
}

int class_main(int argc, char **argv, const struct class_opts *o)
{
    const char *what = argc >= 2 ? argv[1] : "";
    if (argc >= 3 && strlen(argv[2]) > CLASS_DIR_MAX) {
        fprintf(stderr, "mdsim: the class's folder name is longer than %d characters\n", CLASS_DIR_MAX);
        return 2;
    }
    if (strcmp(what, "create") == 0 && argc == 3)
        return class_create(argv[2], o);
    if (strcmp(what, "serve") == 0 && argc == 3)
        return class_serve(argv[2], o);
    if (strcmp(what, "stop") == 0 && argc == 3)
        return class_stop(argv[2]);
    if (strcmp(what, "reset") == 0 && argc == 4)
        return class_reset(argv[2], argv[3], o->sw);
    fprintf(stderr, "mdsim: class create DIR | serve DIR | stop DIR | reset DIR STUDENT\n");
    return 2;
}
