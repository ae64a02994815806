#include "check.h"
#include "func_util.h"

#include <math.h>

static const char *f1(const char *fn, const char *tn, double x, long long nd, int nargs)
{
    static char o[8][128];
    static int k;
    char *s = o[k++ & 7];
    column *a[2] = {fcol(tn, 1, &x), constcol(icol("Int64", 1, &nd), 1)};
    const char *t;
    column *r = call(fn, nargs, a, 1, &t);
    snprintf(s, 128, "%s:%s", r ? t : "ERR", r ? val(r, 0) : err_msg());
    col_free(r);
    free_args(2, a);
    return s;
}
static const char *i1(const char *fn, const char *tn, long long x, long long nd, int nargs)
{
    static char o[8][128];
    static int k;
    char *s = o[k++ & 7];
    column *a[2] = {icol(tn, 1, &x), constcol(icol("Int64", 1, &nd), 1)};
    const char *t;
    column *r = call(fn, nargs, a, 1, &t);
    snprintf(s, 128, "%s:%s", r ? t : "ERR", r ? val(r, 0) : err_msg());
    col_free(r);
    free_args(2, a);
    return s;
}

int main(void)
{
    /* chdb: round(2.5), round(-2.5), round(3.5) → 2 -2 4; round(1.2345, 2) → 1.23 */
    CHECK_STR(f1("round", "Float64", 2.5, 0, 1), "Float64:2");
    CHECK_STR(f1("round", "Float64", -2.5, 0, 1), "Float64:-2");
    CHECK_STR(f1("round", "Float64", 3.5, 0, 1), "Float64:4");
    CHECK_STR(f1("round", "Float64", 1.2345, 2, 2), "Float64:1.23");
    /* round(1255, -1) → 1260 (UInt16), round(toInt32(1250), -2) → 1300, round(toUInt8(255), -1) → 4 */
    CHECK_STR(i1("round", "UInt16", 1255, -1, 2), "UInt16:1260");
    CHECK_STR(i1("round", "Int32", 1250, -2, 2), "Int32:1300");
    CHECK_STR(i1("round", "UInt8", 255, -1, 2), "UInt8:4");
    CHECK_STR(f1("floor", "Float32", 1.5, 0, 1), "Float32:1");
    CHECK_STR(f1("floor", "Float64", -1.5, 0, 1), "Float64:-2");
    CHECK_STR(f1("trunc", "Float64", -1.7, 0, 1), "Float64:-1");
    CHECK_STR(i1("sqrt", "UInt8", 4, 0, 1), "Float64:2");
    CHECK_STR(i1("sign", "Int8", -5, 0, 1), "Int8:-1");
    CHECK_STR(f1("isNaN", "Float64", NAN, 0, 1), "UInt8:1");
    CHECK_STR(f1("isFinite", "Float64", INFINITY, 0, 1), "UInt8:0");
    {
        const char *t;
        column *r = call("pi", 0, NULL, 2, &t);
        CHECK_STR(t, "Float64");
        CHECK(r && r->len == 2 && col_get_f64(r, 1) > 3.14159 && col_get_f64(r, 1) < 3.1416);
        col_free(r);
    }
    /* toTypeName sees Nullable/LowCardinality; currentDatabase() = 'default' */
    {
        long long v = 1;
        column *a[1] = {icol("Nullable(UInt8)", 1, &v)};
        const char *t;
        column *r = call("toTypeName", 1, a, 1, &t);
        CHECK_STR(val(r, 0), "Nullable(UInt8)");
        CHECK_STR(t, "String");
        col_free(r);
        free_args(1, a);
        r = call("currentDatabase", 0, NULL, 1, &t);
        CHECK_STR(val(r, 0), "default");
        col_free(r);
        v = 1;
        a[0] = icol("UInt8", 1, &v);
        r = call("throwIf", 1, a, 1, &t);
        CHECK(!r && err_code() == 395);
        CHECK_STR(err_msg(), "Value passed to 'throwIf' function is non-zero");
        free_args(1, a);
        a[0] = constcol(icol("UInt8", 1, &v), 3);
        r = call("materialize", 1, a, 3, &t);
        CHECK(r && !r->is_const && r->len == 3);
        col_free(r);
        free_args(1, a);
    }
    return check_done("func_math");
}
