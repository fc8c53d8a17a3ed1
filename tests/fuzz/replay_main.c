/*
 * A main for the fuzz targets without libFuzzer (any compiler): runs each
 * input file given, or each file of a directory given, once. ctest runs
 * the saved crash inputs of tests/fuzz/regressions with it, under the
 * normal and the ASan build alike.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap && !(buf = realloc(buf, cap = cap ? cap * 2 : 4096)))
            abort();
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

/* A directory's files, in name order so that a failure names its input. */
static int run_dir(const char *dir, int *count)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort), bad = 0;
    if (n < 0) {
        perror(dir);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        char p[4096];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, list[i]->d_name);
        if (list[i]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            fprintf(stderr, "%s\n", p);
            bad |= run_file(p);
            ++*count;
        }
        free(list[i]);
    }
    free(list);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            bad |= run_dir(argv[i], &count);
        } else {
            bad |= run_file(argv[i]);
            count++;
        }
    }
    fprintf(stderr, "%d inputs ran\n", count);
    return bad || count == 0;
}
