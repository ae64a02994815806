#include "check.h"
#include "func_util.h"

static const char *bin(const char *fn, const char *ta, long long a, const char *tb, long long b)
{
    static char out[8][300];
    static int k;
    char *o = out[k++ & 7];
    column *args[2] = {icol(ta, 1, &a), icol(tb, 1, &b)};
    const char *tn = NULL;
    column *r = call(fn, 2, args, 1, &tn);
    if (!r)
        snprintf(o, 300, "ERR %d %s", err_code(), err_msg());
    else
        snprintf(o, 300, "%s:%s", tn, val(r, 0));
    col_free(r);
    free_args(2, args);
    return o;
}

static const char *strcmp2(const char *fn, const char *a, const char *b)
{
    column *args[2] = {scol(1, &a), scol(1, &b)};
    column *r = call(fn, 2, args, 1, NULL);
    const char *v = r ? val(r, 0) : err_msg();
    col_free(r);
    free_args(2, args);
    return v;
}

static const char *ternary3(const char *fn, int a, int b)
{
    /* a, b: 0, 1, or -1 for NULL; as Nullable(UInt8) */
    long long va = a < 0 ? 0 : a, vb = b < 0 ? 0 : b;
    column *args[2] = {icol("Nullable(UInt8)", 1, &va), icol("Nullable(UInt8)", 1, &vb)};
    args[0]->nulls.p[0] = a < 0;
    args[1]->nulls.p[0] = b < 0;
    const char *tn;
    column *r = call(fn, 2, args, 1, &tn);
    static char o[4][64];
    static int k;
    char *s = o[k++ & 3];
    snprintf(s, 64, "%s:%s", tn, r ? val(r, 0) : err_msg());
    col_free(r);
    free_args(2, args);
    return s;
}

int main(void)
{
    /* SELECT toInt8(-1) < toUInt64(1) → 1; UInt64 max > Int64 -1 → 1 */
    CHECK_STR(bin("less", "Int8", -1, "UInt64", 1), "UInt8:1");
    CHECK_STR(bin("greater", "UInt64", -1, "Int64", -1), "UInt8:1");
    /* toFloat64(9007199254740993) = toInt64(9007199254740993) → 0 */
    {
        double f = 9007199254740993.0;
        long long i = 9007199254740993LL;
        column *a[2] = {fcol("Float64", 1, &f), icol("Int64", 1, &i)};
        column *r = call("equals", 2, a, 1, NULL);
        CHECK_STR(val(r, 0), "0");
        col_free(r);
        free_args(2, a);
    }
    /* toDate('2020-01-02') > '2020-01-01' → 1 (18263 = 2020-01-02) */
    {
        long long d = 18263;
        const char *s = "2020-01-01";
        column *a[2] = {icol("Date", 1, &d), constcol(scol(1, &s), 1)};
        column *r = call("greater", 2, a, 1, NULL);
        CHECK(r && col_get_i64(r, 0) == 1);
        col_free(r);
        free_args(2, a);
    }
    /* toDateTime('2020-01-01 00:00:01') > toDate('2020-01-01') → 1 */
    CHECK_STR(bin("greater", "DateTime", 1577836801LL, "Date", 18262), "UInt8:1");
    CHECK_STR(bin("equals", "Decimal(9, 2)", 150, "Decimal(18, 5)", 150000), "UInt8:1");
    CHECK_STR(strcmp2("less", "abc", "abd"), "1");
    CHECK_STR(strcmp2("less", "ab", "abc"), "1");
    CHECK_STR(strcmp2("equals", "ab", "ab"), "1");
    CHECK_STR(strcmp2("notEquals", "ab", "ab"), "0");
    /* vector vs const over the fast same-type path */
    {
        long long v[5] = {1, 5, 3, 7, 3}, three = 3;
        column *a[2] = {icol("UInt64", 5, v), constcol(icol("UInt64", 1, &three), 5)};
        column *r = call("equals", 2, a, 5, NULL);
        CHECK_STR(val(r, 2), "1");
        CHECK_STR(val(r, 1), "0");
        CHECK_STR(val(r, 4), "1");
        col_free(r);
        free_args(2, a);
    }
    /* SELECT NULL AND 0, NULL OR 1, NULL AND 1 → 0 1 NULL, all Nullable(UInt8) */
    CHECK_STR(ternary3("and", -1, 0), "Nullable(UInt8):0");
    CHECK_STR(ternary3("or", -1, 1), "Nullable(UInt8):1");
    CHECK_STR(ternary3("and", -1, 1), "Nullable(UInt8):NULL");
    CHECK_STR(ternary3("xor", 1, 0), "Nullable(UInt8):1");
    CHECK_STR(bin("and", "UInt8", 1, "UInt8", 2), "UInt8:1");
    CHECK_STR(bin("and", "UInt8", 1, "String", 2),
              "ERR 43 Illegal type (String) of 2 argument of function and");
    return check_done("func_compare");
}
