#include "slurp.h"
#include <stdio.h>
#include <stdlib.h>

char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (cap - n < 4096 && !(buf = realloc(buf, cap = cap * 2 + 4096)))
            abort();
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0 && n <= SLURP_MAX);
    buf[n] = '\0';
    fclose(f);
    return buf;
}
