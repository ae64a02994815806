/* The typed fast paths of arith.c and compare.c, checked value by value against the
 * generic path. A call with two constant arguments always takes the generic (widening)
 * path, so each row of a column-vs-constant or column-vs-column call is compared with
 * the same operation on constant copies of that row's operands: same result type, same
 * value, same error. Comparisons are also checked against exact 128-bit math. Columns
 * have 150 rows: two whole 64-row chunks and a partial one. */
#include "check.h"
#include "func_util.h"

#define ROWS 150

static const char *const int_types[] = {"UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64"};
#define NTYPES 8

/* Column values: edges of every width, small numbers, numbers above 2^32. */
static void column_values(long long *v, int salt)
{
    static const long long edge[] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 127, -128, 128, 255, 256, 32767, -32768, 65535,
                                     65536, 2147483647LL, -2147483647LL - 1, 4294967295LL, 4294967296LL,
                                     9223372036854775807LL, -9223372036854775807LL - 1, 1000000007LL,
                                     -1000000007LL, 123456789012345LL, -123456789012345LL};
    int ne = (int)(sizeof edge / sizeof edge[0]);
    for (int i = 0; i < ROWS; i++)
        v[i] = i < ne ? edge[i] : (long long)((unsigned long long)(i * 2654435761u + (unsigned)salt) * 40503u) - (i & 1) * 1000;
}

static const long long const_values[] = {0, 1, 2, 3, 7, 10, 16, 255, 256, 1000, 65537, -1, -3, -7, -128,
                                         4294967295LL, 4294967296LL, 9223372036854775807LL,
                                         -9223372036854775807LL - 1};
#define NCONST ((int)(sizeof const_values / sizeof const_values[0]))

/* "type:value" or "ERR code message" of fn on one row given as two constants. */
static const char *generic_row(const char *fn, const char *ta, long long a, const char *tb, long long b)
{
    static char o[300];
    column *args[2] = {constcol(icol(ta, 1, &a), 1), constcol(icol(tb, 1, &b), 1)};
    const char *tn = NULL;
    column *r = call(fn, 2, args, 1, &tn);
    if (!r)
        snprintf(o, sizeof o, "ERR %d %s", err_code(), err_msg());
    else
        snprintf(o, sizeof o, "%s:%s", tn, val(r, 0));
    col_free(r);
    free_args(2, args);
    return o;
}

/* The stored (possibly wrapped) value of v in type tn, as a long long. */
static long long stored(const char *tn, long long v)
{
    column *c = icol(tn, 1, &v);
    long long r = col_get_i64(c, 0);
    col_free(c);
    return r;
}

/* mode 0: column fn column (same type), 1: column fn constant, 2: constant fn column. */
static int check_one(const char *fn, int mode, const char *ta, const char *tb, const long long *va, long long cv)
{
    long long vb[ROWS];
    column_values(vb, 17);
    column *args[2];
    if (mode == 0) {
        args[0] = icol(ta, ROWS, va);
        args[1] = icol(tb, ROWS, vb);
    } else if (mode == 1) {
        args[0] = icol(ta, ROWS, va);
        args[1] = constcol(icol(tb, 1, &cv), ROWS);
    } else {
        args[0] = constcol(icol(ta, 1, &cv), ROWS);
        args[1] = icol(tb, ROWS, va);
    }
    const char *tn = NULL;
    column *r = call(fn, 2, args, ROWS, &tn);
    char err[300] = "";
    if (!r)
        snprintf(err, sizeof err, "ERR %d %s", err_code(), err_msg());
    int bad = 0;
    bool any_err = false;
    for (int i = 0; i < ROWS; i++) {
        long long x = mode == 2 ? cv : stored(ta, va[i]);
        long long y = mode == 0 ? stored(tb, vb[i]) : mode == 1 ? cv : stored(tb, va[i]);
        const char *want = generic_row(fn, ta, x, tb, y);
        if (strncmp(want, "ERR", 3) == 0) {
            any_err = true;
            if (!r && strcmp(want, err) != 0 && bad++ < 3)
                fprintf(stderr, "%s %s(%d) %s: row %d got \"%s\", want \"%s\"\n", fn, ta, mode, tb, i, err, want);
            continue;
        }
        if (!r)
            continue; /* checked below: some row must fail */
        char got[300];
        snprintf(got, sizeof got, "%s:%s", tn, val(r, (size_t)i));
        if (strcmp(got, want) != 0 && bad++ < 3)
            fprintf(stderr, "%s %s(%d) %s: row %d (%lld, %lld) got \"%s\", want \"%s\"\n", fn, ta, mode, tb, i, x, y,
                    got, want);
    }
    if (!r && !any_err && bad++ < 3)
        fprintf(stderr, "%s %s(%d) %s: unexpected error %s\n", fn, ta, mode, tb, err);
    if (r && any_err && bad++ < 3)
        fprintf(stderr, "%s %s(%d) %s: expected an error\n", fn, ta, mode, tb);
    col_free(r);
    free_args(2, args);
    return bad;
}

/* Comparison kernels against exact math on the stored values. */
static int check_cmp(const char *fn, int mode, const char *ta, const char *tb, const long long *va, long long cv)
{
    long long vb[ROWS];
    column_values(vb, 5);
    column *args[2];
    if (mode == 0) {
        args[0] = icol(ta, ROWS, va);
        args[1] = icol(tb, ROWS, vb);
    } else if (mode == 1) {
        args[0] = icol(ta, ROWS, va);
        args[1] = constcol(icol(tb, 1, &cv), ROWS);
    } else {
        args[0] = constcol(icol(ta, 1, &cv), ROWS);
        args[1] = icol(tb, ROWS, va);
    }
    const char *tn = NULL;
    column *r = call(fn, 2, args, ROWS, &tn);
    int bad = 0;
    if (!r || strcmp(tn, "UInt8") != 0)
        bad = 1;
    for (int i = 0; r && i < ROWS; i++) {
        column *ca = args[0], *cb = args[1];
        /* exact value of each operand: unsigned 64-bit values above INT64_MAX as int128 */
        int128_t x, y;
        size_t ia = ca->is_const ? 0 : (size_t)i, ib = cb->is_const ? 0 : (size_t)i;
        x = strcmp(ta, "UInt64") == 0 ? (int128_t)col_get_u64(ca, ia) : (int128_t)col_get_i64(ca, ia);
        y = strcmp(tb, "UInt64") == 0 ? (int128_t)col_get_u64(cb, ib) : (int128_t)col_get_i64(cb, ib);
        int want = strcmp(fn, "equals") == 0 ? x == y : strcmp(fn, "notEquals") == 0 ? x != y
                 : strcmp(fn, "less") == 0 ? x < y : strcmp(fn, "greater") == 0 ? x > y
                 : strcmp(fn, "lessOrEquals") == 0 ? x <= y : x >= y;
        if (col_get_i64(r, (size_t)i) != want && bad++ < 3)
            fprintf(stderr, "%s %s(%d) %s: row %d got %lld want %d\n", fn, ta, mode, tb, i,
                    (long long)col_get_i64(r, (size_t)i), want);
    }
    col_free(r);
    free_args(2, args);
    return bad;
}

int main(void)
{
    static const char *const arith[] = {"plus", "minus", "multiply", "intDiv", "intDivOrZero", "modulo", "moduloOrZero"};
    static const char *const cmps[] = {"equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"};
    long long va[ROWS];
    column_values(va, 3);
    /* column op column of one type (the fast path for + - *; / and % go generic, still checked) */
    for (int f = 0; f < 7; f++)
        for (int t = 0; t < NTYPES; t++)
            CHECK(check_one(arith[f], 0, int_types[t], int_types[t], va, 0) == 0);
    /* column op constant and constant op column, every pair of integer types */
    for (int f = 0; f < 7; f++)
        for (int t = 0; t < NTYPES; t++)
            for (int u = 0; u < NTYPES; u++)
                for (int k = 0; k < NCONST; k++) {
                    long long cv = stored(int_types[u], const_values[k]);
                    CHECK(check_one(arith[f], 1, int_types[t], int_types[u], va, cv) == 0);
                    if (f < 3)
                        CHECK(check_one(arith[f], 2, int_types[u], int_types[t], va, cv) == 0);
                }
    /* comparisons: same type, and column vs constants in and out of the column's range */
    for (int f = 0; f < 6; f++)
        for (int t = 0; t < NTYPES; t++) {
            CHECK(check_cmp(cmps[f], 0, int_types[t], int_types[t], va, 0) == 0);
            for (int u = 0; u < NTYPES; u++)
                for (int k = 0; k < NCONST; k++) {
                    long long cv = stored(int_types[u], const_values[k]);
                    CHECK(check_cmp(cmps[f], 1, int_types[t], int_types[u], va, cv) == 0);
                    CHECK(check_cmp(cmps[f], 2, int_types[u], int_types[t], va, cv) == 0);
                }
        }
    /* Explicit edge values (ClickHouse: SELECT -7 % 3, intDiv(-7, 2), toUInt64(-1) % 10,
     * toInt64(-9223372036854775808) % 7, 255 % 0) */
    {
        long long v[3] = {-7, -9223372036854775807LL - 1, 0};
        long long d3 = 3, d2 = 2, d7 = 7, d0 = 0;
        column *a[2] = {icol("Int64", 3, v), constcol(icol("UInt8", 1, &d3), 3)};
        const char *tn;
        column *r = call("modulo", 2, a, 3, &tn);
        CHECK_STR(tn, "Int16");
        CHECK_STR(val(r, 0), "-1");
        col_free(r);
        col_free(a[1]);
        a[1] = constcol(icol("UInt8", 1, &d7), 3);
        r = call("modulo", 2, a, 3, &tn);
        CHECK_STR(val(r, 1), "-1"); /* -9223372036854775808 % 7: 2^63 = 8^21 ≡ 1 (mod 7) */
        col_free(r);
        col_free(a[1]);
        a[1] = constcol(icol("Int8", 1, &d2), 3);
        r = call("intDiv", 2, a, 3, &tn);
        CHECK_STR(tn, "Int64");
        CHECK_STR(val(r, 0), "-3");
        CHECK_STR(val(r, 1), "-4611686018427387904");
        col_free(r);
        col_free(a[1]);
        a[1] = constcol(icol("UInt8", 1, &d0), 3);
        CHECK(call("modulo", 2, a, 3, &tn) == NULL);
        CHECK_STR(err_msg(), "Division by zero");
        r = call("moduloOrZero", 2, a, 3, &tn);
        CHECK(r && col_get_i64(r, 0) == 0);
        col_free(r);
        free_args(2, a);
        long long m1 = -1, d10 = 10;
        a[0] = icol("UInt64", 1, &m1);
        a[1] = constcol(icol("UInt8", 1, &d10), 1);
        r = call("modulo", 2, a, 1, &tn);
        CHECK_STR(tn, "UInt8");
        CHECK_STR(val(r, 0), "5"); /* 18446744073709551615 % 10 */
        col_free(r);
        free_args(2, a);
    }
    /* and / or / not over whole chunks and a tail (logic.c's byte loops) */
    {
        long long x[ROWS], y[ROWS];
        for (int i = 0; i < ROWS; i++) {
            x[i] = i % 3;
            y[i] = (i / 3) % 2 * 5;
        }
        column *a[2] = {icol("UInt8", ROWS, x), icol("Nullable(UInt8)", ROWS, y)};
        for (int i = 0; i < ROWS; i += 7)
            a[1]->nulls.p[i] = 1;
        const char *tn;
        column *ra = call("and", 2, a, ROWS, &tn), *ro = call("or", 2, a, ROWS, &tn), *rn = call("not", 1, a, ROWS, &tn);
        int bad = 0;
        for (int i = 0; i < ROWS; i++) {
            bool nul = i % 7 == 0, tx = x[i] != 0, ty = y[i] != 0;
            const char *wa = (!tx || (!nul && !ty)) ? "0" : nul ? "NULL" : "1";
            const char *wo = (tx || (!nul && ty)) ? "1" : nul ? "NULL" : "0";
            bad += strcmp(val(ra, (size_t)i), wa) != 0;
            bad += strcmp(val(ro, (size_t)i), wo) != 0;
            bad += col_get_i64(rn, (size_t)i) != !tx;
        }
        CHECK(bad == 0);
        col_free(ra);
        col_free(ro);
        col_free(rn);
        free_args(2, a);
    }
    return check_done("func_fastpath");
}
