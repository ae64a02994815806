/* UUID functions: generateUUIDv4, UUIDStringToNum, UUIDNumToString (toUUID and its
 * OrZero/OrNull forms are conversions, in conv.c).
 *
 * A UUID value is a UInt128 whose low 64 bits are the first 8 bytes of the text form
 * (column/text_in.c); UUIDStringToNum gives the 16 bytes in text order (big-endian), or with
 * variant 2 the Microsoft order (the first three groups little-endian), as ClickHouse.
 * generateUUIDv4 draws from a per-thread generator (thread-safe, FN_NOT_DETERMINISTIC);
 * its optional argument only keeps calls apart and is ignored. */
#include "func/func.h"

#include "base/err.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>


static int gen_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)a;
    column *r = col_new(c->ret);
    uint128_t *d = buf_grow(&r->data, n * 16);
    for (size_t i = 0; i < n; i++) {
        uint64_t hi = fn_rand_u64(), lo = fn_rand_u64();
        hi = (hi & ~0xF000ull) | 0x4000ull;                      /* version 4 */
        lo = (lo & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull; /* variant 1 */
        d[i] = (uint128_t)lo << 64 | hi; /* the text's first half is the low word */
    }
    r->len = n;
    *out = r;
    return 0;
}

static int gen_resolve(fn_call *c)
{
    if (c->nargs > 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Number of arguments for function %s doesn't match: passed %d, should be 0 or 1", c->name,
                       c->nargs);
    c->ret = type_simple(T_UUID);
    c->exec = gen_exec;
    return 0;
}

/* Byte positions of the text form's 16 bytes for variant 2 (Microsoft GUID order). */
static const int ms_order[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};

/* A hex digit's value, or -1. */
static int hex_digit(char ch)
{
    if (!isxdigit((unsigned char)ch))
        return -1;
    return isdigit((unsigned char)ch) ? ch - '0' : tolower((unsigned char)ch) - 'a' + 10;
}

/* The 16 bytes of a 36-character UUID text; false when it is not one. */
static bool parse_text(const char *s, size_t len, uint8_t b[16])
{
    if (len != 36)
        return false;
    for (int i = 0, k = 0; i < 36;) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i++] != '-')
                return false;
            continue;
        }
        int h = hex_digit(s[i]), l = hex_digit(s[i + 1]);
        if (h < 0 || l < 0)
            return false;
        b[k++] = (uint8_t)(h << 4 | l);
        i += 2;
    }
    return true;
}

static int variant_of(const fn_call *c, int *v)
{
    *v = 1;
    if (c->nargs < 2)
        return 0;
    int64_t x;
    if (!type_is_integer(c->arg_types[1]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of second argument of function %s",
                       c->arg_types[1]->name, c->name);
    if (fn_const_int(c, 1, &x))
        return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant", c->name);
    if (x != 1 && x != 2)
        return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Expected UUID variant, got %lld", (long long)x);
    *v = (int)x;
    return 0;
}

static int s2n_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int v;
    if (variant_of(c, &v))
        return -1;
    column *r = col_new(c->ret);
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = col_str(a[0], i, &len);
        uint8_t b[16], o[16];
        if (!parse_text(s, len, b))
            memset(b, 0, sizeof b); /* ClickHouse gives zeros, not an error */
        for (int k = 0; k < 16; k++)
            o[k] = v == 2 ? b[ms_order[k]] : b[k];
        col_push_str(r, (const char *)o, 16);
    }
    *out = r;
    return 0;
}

static int s2n_resolve(fn_call *c)
{
    if (c->nargs != 1 && c->nargs != 2)
        return fn_bad_nargs(c, "1 or 2");
    if (!type_is_string(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s",
                       c->arg_types[0]->name, c->name);
    int v;
    if (variant_of(c, &v))
        return -1;
    c->ret = type_fixedstring(16);
    c->exec = s2n_exec;
    return 0;
}

static int n2s_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int v;
    if (variant_of(c, &v))
        return -1;
    static const char hx[] = "0123456789abcdef";
    column *r = col_new(c->ret);
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *b = (const uint8_t *)col_str(a[0], i, &len);
        char t[36];
        for (int k = 0, p = 0; k < 16; k++) {
            if (k == 4 || k == 6 || k == 8 || k == 10)
                t[p++] = '-';
            uint8_t x = v == 2 ? b[ms_order[k]] : b[k];
            t[p++] = hx[x >> 4];
            t[p++] = hx[x & 15];
        }
        col_push_str(r, t, 36);
    }
    *out = r;
    return 0;
}

static int n2s_resolve(fn_call *c)
{
    if (c->nargs != 1 && c->nargs != 2)
        return fn_bad_nargs(c, "1 or 2");
    const type *t = c->arg_types[0];
    if (t->id != T_FIXEDSTRING || t->width != 16)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of first argument of function %s, expected FixedString(16)", t->name, c->name);
    int v;
    if (variant_of(c, &v))
        return -1;
    c->ret = type_simple(T_STRING);
    c->exec = n2s_exec;
    return 0;
}

void func_register_uuid(void)
{
    static const func_def defs[] = {
        {"generateUUIDv4", FN_NOT_DETERMINISTIC | FN_NO_CONST_FOLD, gen_resolve, NULL, "a random UUID (version 4)"},
        {"UUIDStringToNum", 0, s2n_resolve, NULL, "the 16 bytes of a UUID's text form"},
        {"UUIDNumToString", 0, n2s_resolve, NULL, "the text form of a UUID's 16 bytes"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
