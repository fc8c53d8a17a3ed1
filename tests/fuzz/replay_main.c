/*
 * A main for the fuzz targets without libFuzzer (any compiler): runs each
 * input file given, or each file of a directory given, once. ctest runs
 * the saved crash inputs of tests/fuzz/regressions with it, under the
 * normal and the ASan build alike.
 *
 * With --twice first, every input runs a second time, the inputs then in
 * reverse order so that each follows another input than the first time:
 * an input whose output differs got something from the inputs before it,
 * which the lab should have undone (fuzz_lab.h), and a crash it led to
 * would not reproduce from the input alone.
 */
#include "fuzz_lab.h"
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
    char *path;
    uint64_t digest; /* of its output, the first time */
};

static struct input *inputs;
static int ninputs;

static void add(const char *path)
{
    if (!(inputs = realloc(inputs, sizeof *inputs * (size_t)(ninputs + 1))) ||
        !(inputs[ninputs].path = strdup(path)))
        abort();
    inputs[ninputs++].digest = 0;
}

/* A directory's files, in name order so that a failure names its input. */
static int add_dir(const char *dir)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    if (n < 0) {
        perror(dir);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        char p[4096];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, list[i]->d_name);
        if (list[i]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode))
            add(p);
        free(list[i]);
    }
    free(list);
    return 0;
}

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

/* The second round, last input first. */
static int run_again(void)
{
    int differ = 0;
    for (int i = ninputs - 1; i >= 0; i--) {
        if (run_file(inputs[i].path) == 0 && fuzz_output_digest() != inputs[i].digest) {
            fprintf(stderr, "%s: the output differs when it runs again after other inputs\n", inputs[i].path);
            differ++;
        }
    }
    fprintf(stderr, "%d inputs ran twice, %d printed something else the second time\n", ninputs, differ);
    return differ > 0;
}

int main(int argc, char **argv)
{
    bool twice = argc > 1 && strcmp(argv[1], "--twice") == 0;
    int bad = 0;
    for (int i = 1 + twice; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            bad |= add_dir(argv[i]);
        else
            add(argv[i]);
    }
    for (int i = 0; i < ninputs; i++) {
        fprintf(stderr, "%s\n", inputs[i].path);
        bad |= run_file(inputs[i].path);
        inputs[i].digest = fuzz_output_digest();
    }
    fprintf(stderr, "%d inputs ran\n", ninputs);
    if (twice && ninputs)
        bad |= run_again();
    for (int i = 0; i < ninputs; i++)
        free(inputs[i].path);
    free(inputs);
    return bad || ninputs == 0;
}
