#include "textwidth.h"
#include <stdint.h>

/* A table rather than wcwidth(3): wcwidth depends on the process locale,
 * and a served session's carets must not depend on how the daemon was
 * started. Ranges from Unicode's East Asian Width (W, F) and general
 * category Mn/Me, the blocks a person is likely to type. */
struct range {
    uint32_t lo, hi;
};

static const struct range zero_width[] = {
    {0x0300, 0x036f}, {0x0483, 0x0489}, {0x0591, 0x05bd}, {0x0610, 0x061a},
    {0x064b, 0x065f}, {0x0e31, 0x0e31}, {0x0e34, 0x0e3a}, {0x0e47, 0x0e4e},
    {0x1ab0, 0x1aff}, {0x1dc0, 0x1dff}, {0x200b, 0x200f}, {0x202a, 0x202e},
    {0x2060, 0x2064}, {0x20d0, 0x20ff}, {0xfe00, 0xfe0f}, {0xfe20, 0xfe2f},
    {0xfeff, 0xfeff}, {0xe0100, 0xe01ef},
};

static const struct range wide[] = {
    {0x1100, 0x115f}, {0x231a, 0x231b}, {0x2329, 0x232a}, {0x23e9, 0x23ec},
    {0x25fd, 0x25fe}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x26a1, 0x26a1},
    {0x26aa, 0x26ab}, {0x26bd, 0x26be}, {0x26c4, 0x26c5}, {0x26ce, 0x26ce},
    {0x26d4, 0x26d4}, {0x26ea, 0x26ea}, {0x26f2, 0x26f5}, {0x26fa, 0x26fd},
    {0x2705, 0x2705}, {0x270a, 0x270b}, {0x2728, 0x2728}, {0x274c, 0x274c},
    {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797}, {0x27b0, 0x27b0},
    {0x2b1b, 0x2b1c}, {0x2b50, 0x2b50}, {0x2b55, 0x2b55}, {0x2e80, 0x303e},
    {0x3041, 0x33ff}, {0x3400, 0x4dbf}, {0x4e00, 0x9fff}, {0xa000, 0xa4cf},
    {0xa960, 0xa97f}, {0xac00, 0xd7a3}, {0xf900, 0xfaff}, {0xfe10, 0xfe19},
    {0xfe30, 0xfe6f}, {0xff00, 0xff60}, {0xffe0, 0xffe6}, {0x16fe0, 0x18aff},
    {0x1b000, 0x1b2ff}, {0x1f004, 0x1f004}, {0x1f0cf, 0x1f0cf}, {0x1f18e, 0x1f18e},
    {0x1f191, 0x1f19a}, {0x1f200, 0x1f2ff}, {0x1f300, 0x1f64f}, {0x1f680, 0x1f6ff},
    {0x1f7e0, 0x1f7eb}, {0x1f90c, 0x1f9ff}, {0x1fa70, 0x1faff}, {0x20000, 0x2fffd},
    {0x30000, 0x3fffd},
};

static int in(const struct range *r, size_t n, uint32_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < r[mid].lo)
            hi = mid;
        else if (c > r[mid].hi)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

/* Decodes one character at s (at most n bytes); returns its length. */
static size_t decode(const unsigned char *s, size_t n, uint32_t *c)
{
    size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
    if (len > n)
        len = 1;
    *c = len == 1 ? s[0] : (uint32_t)(s[0] & (0x7f >> len));
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) { /* not UTF-8: the lead byte alone */
            *c = s[0];
            return 1;
        }
        *c = *c << 6 | (s[i] & 0x3f);
    }
    return len;
}

size_t text_columns(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t cols = 0;
    for (size_t i = 0; i < n && p[i];) {
        uint32_t c;
        i += decode(p + i, n - i, &c);
        if (c >= 0x300 && in(zero_width, sizeof zero_width / sizeof *zero_width, c))
            continue;
        cols += c >= 0x1100 && in(wide, sizeof wide / sizeof *wide, c) ? 2 : 1;
    }
    return cols;
}
