/* Array functions; every expected value is from chdb (ClickHouse 26.7). */
#include "check.h"
#include "func_util.h"

/* Row 0 of a result as ClickHouse text: arrays as [..], strings quoted inside arrays. */
static const char *show(column *r)
{
    static char b[4][512];
    static int k;
    char *o = b[k++ & 3];
    if (!r) {
        snprintf(o, 512, "ERR %d", err_code());
        return o;
    }
    if (type_base(r->type)->id == T_ARRAY) {
        size_t row = col_idx(r, 0);
        const uint64_t *of = col_offs(r);
        bool str = type_is_string(type_base(r->inner->type));
        size_t pos = (size_t)snprintf(o, 512, "[");
        for (uint64_t i = of[row]; i < of[row + 1]; i++)
            pos += (size_t)snprintf(o + pos, 512 - pos, str ? "%s'%s'" : "%s%s", i > of[row] ? "," : "",
                                    val(r->inner, i));
        snprintf(o + pos, 512 - pos, "]");
    } else {
        snprintf(o, 512, "%s", val(r, 0));
    }
    col_free(r);
    return o;
}

static column *ic(const char *t, long long v) { return constcol(icol(t, 1, &v), 1); }
static column *sc(const char *s) { return constcol(scol(1, &s), 1); }

/* fn(args) on one row; frees the args. */
static const char *f(const char *fn, int n, column **a, const char **tn)
{
    column *r = call(fn, n, a, 1, tn);
    const char *v = show(r);
    free_args(n, a);
    return v;
}
/* [x, y, z] built with array() from UInt8 constants */
static column *arr3(long long x, long long y, long long z)
{
    column *a[3] = {ic("UInt8", x), ic("UInt8", y), ic("UInt8", z)};
    column *r = call("array", 3, a, 1, NULL);
    free_args(3, a);
    return r;
}

int main(void)
{
    const char *tn = NULL;
    /* array() */
    {
        double d = 2.5;
        column *a[2] = {ic("UInt8", 1), constcol(fcol("Float64", 1, &d), 1)};
        CHECK_STR(f("array", 2, a, &tn), "[1,2.5]");
        CHECK_STR(tn, "Array(Float64)");
        CHECK_STR(f("array", 0, a, &tn), "[]");
        CHECK_STR(tn, "Array(Nothing)");
        column *b[2] = {ic("UInt8", 1), constcol(col_new_defaults(type_nullable(type_simple(T_NOTHING)), 1), 1)};
        column *r = call("array", 2, b, 1, &tn);
        CHECK_STR(tn, "Array(Nullable(UInt8))");
        free_args(2, b);
        /* [1, NULL][2] is NULL; [1, 2, 3][-1] = 3; [1, 2, 3][5] = 0 */
        column *e[2] = {r, ic("Int8", 2)};
        CHECK_STR(f("arrayElement", 2, e, &tn), "NULL");
        CHECK_STR(tn, "Nullable(UInt8)");
        column *e2[2] = {arr3(1, 2, 3), ic("Int8", -1)};
        CHECK_STR(f("arrayElement", 2, e2, &tn), "3");
        CHECK_STR(tn, "UInt8");
        column *e3[2] = {arr3(1, 2, 3), ic("UInt8", 5)};
        CHECK_STR(f("arrayElement", 2, e3, NULL), "0");
        column *e4[2] = {arr3(1, 2, 3), ic("UInt8", 0)};
        CHECK_STR(f("arrayElement", 2, e4, NULL), "0");
        column *e5[2] = {arr3(1, 2, 3), ic("Nullable(UInt8)", 1)};
        CHECK_STR(f("arrayElement", 2, e5, &tn), "1");
        CHECK_STR(tn, "Nullable(UInt8)");
    }
    /* has / indexOf / countEqual */
    {
        column *a[2] = {arr3(1, 2, 2), ic("UInt8", 2)};
        CHECK_STR(f("has", 2, a, &tn), "1");
        CHECK_STR(tn, "UInt8");
        double d = 3.0;
        column *b[2] = {arr3(1, 2, 2), constcol(fcol("Float64", 1, &d), 1)};
        CHECK_STR(f("has", 2, b, NULL), "0");
        column *c[2] = {arr3(1, 2, 3), ic("UInt8", 3)};
        CHECK_STR(f("indexOf", 2, c, &tn), "3");
        CHECK_STR(tn, "UInt64");
        column *c2[2] = {arr3(1, 2, 3), ic("UInt8", 5)};
        CHECK_STR(f("indexOf", 2, c2, NULL), "0");
        column *c3[2] = {arr3(1, 2, 2), ic("UInt8", 2)};
        CHECK_STR(f("countEqual", 2, c3, NULL), "2");
    }
    /* arraySum */
    {
        column *a[1] = {arr3(1, 2, 250)};
        CHECK_STR(f("arraySum", 1, a, &tn), "253");
        CHECK_STR(tn, "UInt64");
    }
    /* range */
    {
        column *a[1] = {ic("UInt8", 3)};
        CHECK_STR(f("range", 1, a, &tn), "[0,1,2]");
        CHECK_STR(tn, "Array(UInt8)");
        column *b[3] = {ic("UInt8", 1), ic("UInt8", 5), ic("UInt8", 2)};
        CHECK_STR(f("range", 3, b, NULL), "[1,3]");
        column *c[2] = {ic("Int8", -1), ic("UInt8", 3)};
        CHECK_STR(f("range", 2, c, &tn), "[-1,0,1,2]");
        CHECK_STR(tn, "Array(Int16)");
        column *d[3] = {ic("Int8", 5), ic("Int8", 0), ic("Int8", -2)};
        CHECK_STR(f("range", 3, d, NULL), "[5,3,1]");
    }
    /* strings */
    {
        column *a[2] = {sc(","), sc("a,,b,")};
        CHECK_STR(f("splitByChar", 2, a, &tn), "['a','','b','']");
        CHECK_STR(tn, "Array(String)");
        column *b[2] = {sc(","), sc("")};
        CHECK_STR(f("splitByChar", 2, b, NULL), "['']");
        column *c[2] = {sc(",,"), sc("a")};
        CHECK_STR(f("splitByChar", 2, c, NULL), "ERR 36");
        column *d[2] = {sc(", "), sc("a, b, , c")};
        CHECK_STR(f("splitByString", 2, d, NULL), "['a','b','','c']");
        column *e[2] = {sc(""), sc("abc")};
        CHECK_STR(f("splitByString", 2, e, NULL), "['a','b','c']");
        column *g[2] = {sc(","), sc("a,b")};
        column *arr = call("splitByChar", 2, g, 1, NULL);
        free_args(2, g);
        column *h[2] = {col_ref(arr), sc("-")};
        CHECK_STR(f("arrayStringConcat", 2, h, &tn), "a-b");
        CHECK_STR(tn, "String");
        column *i[1] = {arr};
        CHECK_STR(f("arrayStringConcat", 1, i, NULL), "ab");
    }
    /* length / empty / notEmpty on arrays (string.c) */
    {
        column *a[1] = {arr3(1, 2, 3)};
        CHECK_STR(f("length", 1, a, NULL), "3");
        column *b[1] = {arr3(1, 2, 3)};
        CHECK_STR(f("notEmpty", 1, b, NULL), "1");
        column *c[1] = {arr3(1, 2, 3)};
        CHECK_STR(f("empty", 1, c, NULL), "0");
    }
    return check_done("func_array");
}
