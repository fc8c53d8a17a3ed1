/* The table of token kinds (tokens.h): parsing, prefix acceptance and
 * display of each kind of word a syntax names. */
#include "tokens.h"
#include "match.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool parse_uint(const char *s, size_t n, long max, long *out)
{
    if (n == 0 || n > 10)
        return false;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v > max)
        return false;
    *out = v;
    return true;
}

/* Splits s[0..n) at sep into exactly `parts` unsigned fields. */
static bool parse_fields(const char *s, size_t n, char sep, int parts, long max, long *f)
{
    int k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != sep)
            continue;
        if (k == parts || !parse_uint(s + start, i - start, max, &f[k]))
            return false;
        k++;
        start = i + 1;
    }
    return k == parts;
}

static bool parse_ipv4(const char *s, size_t n, uint32_t *ip)
{
    long f[4];
    if (!parse_fields(s, n, '.', 4, 255, f))
        return false;
    *ip = (uint32_t)(f[0] << 24 | f[1] << 16 | f[2] << 8 | f[3]);
    return true;
}

static bool parse_wwn(const char *s, size_t n, uint8_t *out)
{
    if (n != 23)
        return false;
    for (int i = 0; i < 8; i++) {
        const char *p = s + i * 3;
        if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) ||
            (i < 7 && p[2] != ':'))
            return false;
        char hex[3] = {p[0], p[1], 0};
        out[i] = (uint8_t)strtoul(hex, NULL, 16);
    }
    return true;
}

static enum level m_keyword(const struct gtoken *t, const struct word *w, struct value *v)
{
    (void)v;
    size_t kl = strlen(t->text);
    if (w->len > kl || strncasecmp(t->text, w->s, w->len) != 0)
        return L_NONE;
    return w->len == kl ? L_EXACT : L_PARTIAL;
}

static enum level m_int(const struct gtoken *t, const struct word *w, struct value *v)
{
    if (!parse_uint(w->s, w->len, 9999999999L, &v->num)) {
        /* digits only, but too many for any range: out of range */
        size_t i = 0;
        while (i < w->len && isdigit((unsigned char)w->s[i]))
            i++;
        v->range_err = w->len > 0 && i == w->len;
        return L_NONE;
    }
    if (v->num < t->lo || v->num > t->hi) {
        v->range_err = true;
        return L_NONE;
    }
    return L_TYPED;
}

static enum level m_ipv4(const struct gtoken *t, const struct word *w, struct value *v)
{
    (void)t;
    return parse_ipv4(w->s, w->len, &v->ip) ? L_TYPED : L_NONE;
}

static enum level m_netmask(const struct gtoken *t, const struct word *w, struct value *v)
{
    (void)t;
    if (!parse_ipv4(w->s, w->len, &v->ip) || (v->ip & (~v->ip >> 1)) != 0)
        return L_NONE; /* a mask is ones then zeros */
    return L_TYPED;
}

static enum level m_wwn(const struct gtoken *t, const struct word *w, struct value *v)
{
    (void)t;
    return parse_wwn(w->s, w->len, v->wwn) ? L_TYPED : L_NONE;
}

static enum level m_slotport(const struct gtoken *t, const struct word *w, struct value *v)
{
    (void)t;
    long f[2];
    if (!parse_fields(w->s, w->len, '/', 2, 999, f))
        return L_NONE;
    v->slot = (int)f[0];
    v->port = (int)f[1];
    return L_TYPED;
}

static enum level m_time(const struct gtoken *t, const struct word *w, struct value *v)
{
    (void)t;
    long f[3];
    if (!parse_fields(w->s, w->len, ':', 3, 59, f) || f[0] > 23)
        return L_NONE;
    v->num = f[0] * 3600 + f[1] * 60 + f[2];
    return L_TYPED;
}

static enum level m_rangelist(const struct gtoken *t, const struct word *w, struct value *v)
{
    return arg_rangelist_each(w->s, w->len, t->lo, t->hi, &v->range_err, NULL, NULL) ? L_TYPED : L_NONE;
}

static enum level m_word(const struct gtoken *t, const struct word *w, struct value *v)
{
    (void)t, (void)w, (void)v;
    return L_WORD;
}

static void c_keyword(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    (void)a;
    sb_puts(out, t->text); /* as the grammar spells it, whatever was typed */
}

static void c_num(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    (void)t;
    sb_printf(out, "%ld", a->num); /* `010` is 10 */
}

static void c_ipv4(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    (void)t;
    sb_printf(out, "%u.%u.%u.%u", a->ip >> 24, (a->ip >> 16) & 255, (a->ip >> 8) & 255, a->ip & 255);
}

static void c_wwn(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    (void)t;
    for (int i = 0; i < 8; i++)
        sb_printf(out, i ? ":%02x" : "%02x", a->wwn[i]);
}

static void c_slotport(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    (void)t;
    sb_printf(out, "%d/%d", a->slot, a->port);
}

static void c_time(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    (void)t;
    sb_printf(out, "%02ld:%02ld:%02ld", a->num / 3600, a->num / 60 % 60, a->num % 60);
}

static void range_out(void *ctx, long first, long last)
{
    sb_printf(ctx, first == last ? "%ld," : "%ld-%ld,", first, last);
}

static void c_rangelist(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    size_t at = out->len;
    arg_rangelist_each(a->str, strlen(a->str), t->lo, t->hi, NULL, range_out, out);
    if (out->len > at)
        sb_truncate(out, out->len - 1); /* the last comma */
}

/* Names and passwords are case-sensitive on the switch: kept as typed. */
static void c_text(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    (void)t;
    sb_puts(out, a->str);
}

#define DIGITS "0123456789"

static const struct tok_kind_def kinds[] = {
    [TOK_KEYWORD] = {NULL, NULL, NULL, NULL, m_keyword, c_keyword},
    [TOK_INT] = {NULL, "Number", NULL, DIGITS, m_int, c_num},
    [TOK_RANGELIST] = {NULL, "Range list", NULL, DIGITS "-,", m_rangelist, c_rangelist},
    [TOK_IPV4] = {"ipv4", "IP address", "A.B.C.D", DIGITS ".", m_ipv4, c_ipv4},
    [TOK_NETMASK] = {"netmask", "Subnet mask", "A.B.C.D", DIGITS ".", m_netmask, c_ipv4},
    [TOK_WWN] = {"wwn", "WWN in hh:hh:hh:hh:hh:hh:hh:hh format", "WORD", DIGITS "abcdefABCDEF:", m_wwn, c_wwn},
    [TOK_SLOTPORT] = {"slot/port", "Slot/port", "<slot/port>", DIGITS "/", m_slotport, c_slotport},
    [TOK_TIME] = {"hh:mm:ss", "Time of day (hh:mm:ss)", "HH:MM:SS", DIGITS ":", m_time, c_time},
    [TOK_WORD] = {"word", "Name", "WORD", NULL, m_word, c_text},
    [TOK_LINE] = {"line", "Text", "LINE", NULL, m_word, c_text},
};
_Static_assert(sizeof kinds / sizeof kinds[0] == TOK_KIND_COUNT, "every token kind has its entry");

const struct tok_kind_def *tok_kind(enum tok_kind k)
{
    return &kinds[k];
}

bool tok_kind_named(const char *type, size_t n, enum tok_kind *out)
{
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (kinds[k].type && strlen(kinds[k].type) == n && strncmp(kinds[k].type, type, n) == 0) {
            *out = (enum tok_kind)k;
            return true;
        }
    return false;
}

enum level match_token(const struct gtoken *t, const struct word *w, struct value *v)
{
    return kinds[t->kind].match(t, w, v);
}

void tok_canon(strbuf *out, const struct gtoken *t, const struct cmd_arg *a)
{
    kinds[t->kind].canon(out, t, a);
}

bool tok_accepts_prefix(const struct gtoken *t, const char *p, size_t n)
{
    const char *chars = kinds[t->kind].chars;
    for (size_t i = 0; chars && i < n; i++)
        if (!p[i] || !strchr(chars, p[i]))
            return false;
    return true;
}

void gtoken_display(const struct gtoken *t, char *buf, size_t n)
{
    if (t->kind == TOK_KEYWORD)
        snprintf(buf, n, "%s", t->text);
    else if (!kinds[t->kind].shown)
        snprintf(buf, n, "<%ld-%ld>", t->lo, t->hi);
    else
        snprintf(buf, n, "%s", kinds[t->kind].shown);
}
