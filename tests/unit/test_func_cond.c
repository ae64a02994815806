#include "check.h"
#include "func/supertype.h"
#include "func_util.h"

static const char *super(const char *a, const char *b)
{
    const type *t[2] = {type_parse_cstr(a), type_parse_cstr(b)};
    const type *r = type_supertype(2, t);
    return r ? r->name : err_msg();
}

int main(void)
{
    /* From chdb: toTypeName(if(number=1, x, y)) */
    CHECK_STR(super("UInt8", "Int8"), "Int16");
    CHECK_STR(super("UInt32", "Int8"), "Int64");
    CHECK_STR(super("UInt8", "Float32"), "Float32");
    CHECK_STR(super("String", "FixedString(1)"), "String");
    CHECK_STR(super("Date", "DateTime"), "DateTime");
    CHECK_STR(super("Decimal(9, 2)", "Decimal(18, 3)"), "Decimal(18, 3)");
    CHECK_STR(super("Decimal(9, 2)", "UInt8"), "Decimal(9, 2)");
    CHECK_STR(super("Array(UInt8)", "Array(Float64)"), "Array(Float64)");
    CHECK_STR(super("UInt8", "Nullable(Nothing)"), "Nullable(UInt8)");
    CHECK_STR(super("Int32", "UInt32"), "Int64");
    CHECK_STR(super("UInt8", "String"),
              "There is no supertype for types UInt8, String because some of them are String/FixedString/Enum and some of them are not");
    CHECK_STR(super("UInt64", "Int8"),
              "There is no supertype for types UInt64, Int8 because some of them are signed integers and some are unsigned integers, but there is no signed integer type, that can exactly represent all required unsigned integer values");
    CHECK(err_code() == 386);

    /* if(cond, 1, 2.5) over rows */
    {
        long long cv[3] = {1, 0, 1}, a = 1;
        double b = 2.5;
        column *args[3] = {icol("UInt8", 3, cv), constcol(icol("UInt8", 1, &a), 3), constcol(fcol("Float64", 1, &b), 3)};
        const char *tn;
        column *r = call("if", 3, args, 3, &tn);
        CHECK_STR(tn, "Float64");
        CHECK_STR(val(r, 0), "1");
        CHECK_STR(val(r, 1), "2.5");
        col_free(r);
        free_args(3, args);
    }
    /* if(cond, 1, NULL) → Nullable(UInt8); NULL condition is false */
    {
        long long cv[2] = {1, 0}, a = 1;
        column *args[3] = {icol("Nullable(UInt8)", 2, cv), constcol(icol("UInt8", 1, &a), 2),
                           constcol(col_new_defaults(type_parse_cstr("Nullable(Nothing)"), 1), 2)};
        args[0]->nulls.p[0] = 1;
        const char *tn;
        column *r = call("if", 3, args, 2, &tn);
        CHECK_STR(tn, "Nullable(UInt8)");
        CHECK_STR(val(r, 0), "NULL");
        CHECK_STR(val(r, 1), "NULL");
        col_free(r);
        free_args(3, args);
    }
    /* coalesce(NULL, x, 1) → UInt64; ifNull(NULL, 1) → UInt8 */
    {
        long long v[2] = {5, 6}, one = 1;
        column *args[3] = {constcol(col_new_defaults(type_parse_cstr("Nullable(Nothing)"), 1), 2),
                           icol("Nullable(UInt64)", 2, v), constcol(icol("UInt8", 1, &one), 2)};
        args[1]->nulls.p[1] = 1;
        const char *tn;
        column *r = call("coalesce", 3, args, 2, &tn);
        CHECK_STR(tn, "UInt64");
        CHECK_STR(val(r, 0), "5");
        CHECK_STR(val(r, 1), "1");
        col_free(r);
        free_args(3, args);
    }
    /* nullIf(1, 1) → Nullable(UInt8) NULL; isNull; greatest(toUInt8(1), toInt8(-1)) → Int16 1 */
    {
        long long one = 1, m1 = -1;
        column *args[2] = {icol("UInt8", 1, &one), icol("UInt8", 1, &one)};
        const char *tn;
        column *r = call("nullIf", 2, args, 1, &tn);
        CHECK_STR(tn, "Nullable(UInt8)");
        CHECK_STR(val(r, 0), "NULL");
        column *r2 = call("isNull", 1, &r, 1, &tn);
        CHECK_STR(tn, "UInt8");
        CHECK_STR(val(r2, 0), "1");
        col_free(r2);
        col_free(r);
        free_args(2, args);
        args[0] = icol("UInt8", 1, &one);
        args[1] = icol("Int8", 1, &m1);
        r = call("greatest", 2, args, 1, &tn);
        CHECK_STR(tn, "Int16");
        CHECK_STR(val(r, 0), "1");
        col_free(r);
        r = call("least", 2, args, 1, &tn);
        CHECK_STR(val(r, 0), "-1");
        col_free(r);
        free_args(2, args);
    }
    /* multiIf(c1, 1, c2, NULL, 3) → Nullable(UInt8) */
    {
        long long c1[3] = {1, 0, 0}, c2[3] = {0, 1, 0}, one = 1, three = 3;
        column *args[5] = {icol("UInt8", 3, c1), constcol(icol("UInt8", 1, &one), 3), icol("UInt8", 3, c2),
                           constcol(col_new_defaults(type_parse_cstr("Nullable(Nothing)"), 1), 3),
                           constcol(icol("UInt8", 1, &three), 3)};
        const char *tn;
        column *r = call("multiIf", 5, args, 3, &tn);
        CHECK_STR(tn, "Nullable(UInt8)");
        CHECK_STR(val(r, 0), "1");
        CHECK_STR(val(r, 1), "NULL");
        CHECK_STR(val(r, 2), "3");
        col_free(r);
        free_args(5, args);
    }
    return check_done("func_cond");
}
