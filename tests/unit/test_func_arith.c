#include "check.h"
#include "func_util.h"

/* Binary op on two single-row columns of the given types; returns "type:value". */
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

int main(void)
{
    /* Result types, from chdb toTypeName(...) */
    CHECK_STR(bin("plus", "UInt8", 1, "UInt8", 1), "UInt16:2");
    CHECK_STR(bin("multiply", "Int32", 1, "Int64", 1), "Int64:1");
    CHECK_STR(bin("plus", "UInt64", 1, "Int64", 1), "Int64:2");
    CHECK_STR(bin("plus", "Float32", 1, "UInt8", 1), "Float64:2");
    CHECK_STR(bin("divide", "Float32", 1, "Float32", 1), "Float64:1");
    CHECK_STR(bin("intDiv", "UInt8", 1, "Int8", 1), "Int8:1");
    CHECK_STR(bin("modulo", "UInt32", 5, "Int8", 3), "UInt8:2");
    CHECK_STR(bin("modulo", "Int8", 1, "UInt8", 1), "Int16:0");
    CHECK_STR(bin("modulo", "Int8", 1, "UInt64", 1), "Int64:0");
    CHECK_STR(bin("minus", "UInt8", 1, "UInt8", 1), "Int16:0");
    CHECK_STR(bin("minus", "UInt64", 1, "UInt64", 1), "Int64:0");
    CHECK_STR(bin("plus", "Int8", 1, "UInt64", 1), "Int64:2");
    CHECK_STR(bin("plus", "UInt32", 1, "Int8", 1), "Int64:2");
    CHECK_STR(bin("plus", "Date", 1, "UInt8", 1), "Date:2");
    CHECK_STR(bin("minus", "Date", 5, "Date", 7), "Int32:-2");
    CHECK_STR(bin("plus", "DateTime", 1, "UInt8", 1), "DateTime:2");
    /* Values: SELECT 5%-3, -5%3, intDiv(-5,3) → 2 -2 -1 */
    CHECK_STR(bin("modulo", "UInt8", 5, "Int8", -3), "UInt8:2");
    CHECK_STR(bin("modulo", "Int8", -5, "UInt8", 3), "Int16:-2");
    CHECK_STR(bin("intDiv", "Int8", -5, "UInt8", 3), "Int8:-1");
    /* Wrapping: toUInt8(255)+toUInt8(1) = 256 (UInt16); toInt64(max)+1 wraps */
    CHECK_STR(bin("plus", "UInt8", 255, "UInt8", 1), "UInt16:256");
    CHECK_STR(bin("plus", "Int64", 9223372036854775807LL, "UInt8", 1), "Int64:-9223372036854775808");
    /* Errors */
    CHECK_STR(bin("intDiv", "UInt8", 1, "UInt8", 0), "ERR 153 Division by zero");
    CHECK_STR(bin("modulo", "UInt8", 1, "UInt8", 0), "ERR 153 Division by zero");
    CHECK_STR(bin("intDivOrZero", "UInt8", 1, "UInt8", 0), "UInt8:0");
    CHECK_STR(bin("divide", "UInt8", 1, "UInt8", 0), "Float64:inf");
    CHECK_STR(bin("divide", "Int8", -1, "UInt8", 0), "Float64:-inf");
    CHECK_STR(bin("plus", "String", 1, "UInt8", 1), "ERR 43 Illegal types String and UInt8 of arguments of function plus");
    CHECK_STR(bin("plu", "UInt8", 1, "UInt8", 1), "ERR 46 Function with name `plu` does not exist. Maybe you meant: ['plus'].");
    CHECK_STR(bin("foo", "UInt8", 1, "UInt8", 1), "ERR 46 Function with name `foo` does not exist.");
    /* Decimals: Decimal(9,2)+Decimal(9,3) → Decimal(9,3); 1.5*2.25 = 3.375 Decimal(9,5) */
    CHECK_STR(bin("plus", "Decimal(9, 2)", 150, "Decimal(9, 3)", 2250), "Decimal(9, 3):3750");
    CHECK_STR(bin("multiply", "Decimal(9, 2)", 150, "Decimal(9, 3)", 2250), "Decimal(9, 5):337500");
    CHECK_STR(bin("plus", "Decimal(18, 2)", 1, "Decimal(9, 3)", 1), "Decimal(18, 3):11");
    CHECK_STR(bin("plus", "Decimal(9, 2)", 1, "UInt8", 1), "Decimal(9, 2):101");
    /* negate/abs types: -toUInt8 → Int16, abs(Int8) → UInt8 */
    {
        long long v = 1;
        column *a[1] = {icol("UInt8", 1, &v)};
        const char *tn;
        column *r = call("negate", 1, a, 1, &tn);
        CHECK_STR(tn, "Int16");
        CHECK_STR(val(r, 0), "-1");
        col_free(r);
        free_args(1, a);
        v = -128;
        a[0] = icol("Int8", 1, &v);
        r = call("abs", 1, a, 1, &tn);
        CHECK_STR(tn, "UInt8");
        CHECK_STR(val(r, 0), "128");
        col_free(r);
        free_args(1, a);
    }
    /* Vector % constant (fast path) over many values, checked against plain % */
    {
        long long vals[1000];
        for (int i = 0; i < 1000; i++)
            vals[i] = (long long)i * 7919 + 123456789012LL;
        for (long long d = 1; d < 40; d++) {
            column *a[2] = {icol("UInt64", 1000, vals), constcol(icol("UInt8", 1, &d), 1000)};
            const char *tn;
            column *r = call("modulo", 2, a, 1000, &tn);
            int bad = 0;
            for (int i = 0; i < 1000; i++)
                bad += col_get_i64(r, (size_t)i) != vals[i] % d;
            CHECK(bad == 0);
            col_free(r);
            free_args(2, a);
            a[0] = icol("Int64", 1000, vals);
            for (int i = 0; i < 1000; i += 2) ((int64_t *)a[0]->data.p)[i] = -vals[i];
            a[1] = constcol(icol("UInt64", 1, &d), 1000);
            r = call("intDiv", 2, a, 1000, &tn);
            bad = 0;
            for (int i = 0; i < 1000; i++)
                bad += col_get_i64(r, (size_t)i) != ((int64_t *)a[0]->data.p)[i] / d;
            CHECK(bad == 0);
            col_free(r);
            free_args(2, a);
        }
    }
    /* Nullable propagation and constants */
    {
        long long v[3] = {1, 2, 3};
        column *a[2] = {icol("Nullable(UInt8)", 3, v), constcol(icol("UInt8", 1, v), 3)};
        a[0]->nulls.p[1] = 1;
        const char *tn;
        column *r = call("plus", 2, a, 3, &tn);
        CHECK_STR(tn, "Nullable(UInt16)");
        CHECK_STR(val(r, 0), "2");
        CHECK_STR(val(r, 1), "NULL");
        CHECK_STR(val(r, 2), "4");
        col_free(r);
        free_args(2, a);
        a[0] = constcol(icol("UInt8", 1, v), 3);
        a[1] = constcol(icol("UInt8", 1, v + 1), 3);
        r = call("plus", 2, a, 3, &tn);
        CHECK(r && r->is_const && r->len == 3);
        CHECK_STR(val(r, 2), "3");
        col_free(r);
        free_args(2, a);
        a[0] = constcol(col_new_defaults(type_parse_cstr("Nullable(Nothing)"), 1), 3);
        a[1] = icol("UInt8", 3, v);
        r = call("plus", 2, a, 3, &tn);
        CHECK_STR(tn, "Nullable(Nothing)");
        CHECK(r && r->len == 3);
        col_free(r);
        free_args(2, a);
    }
    return check_done("func_arith");
}
