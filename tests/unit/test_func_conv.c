/* Conversion functions: CAST, accurateCast, toX, toXOrZero/OrNull, toDecimal, toString,
 * toFixedString, toLowCardinality. Every expected value, type name and error from chdb
 * (ClickHouse 26.7). */
#include "check.h"
#include "func_util.h"

#include "column/text.h"

/* Result as "value|type" (value in TSV escaping, NULL as \N), or "ERR code: message". */
static const char *show(column *r, const char *tname)
{
    static char out[8][512];
    static int k;
    char *o = out[k++ & 7];
    if (!r) {
        snprintf(o, 512, "ERR %d: %s", err_code(), err_msg());
        return o;
    }
    buf b = {0};
    text_opts op;
    text_opts_default(&op);
    op.tz = "UTC";
    for (size_t i = 0; i < r->len; i++) {
        if (i)
            buf_putc(&b, ',');
        text_write(&b, r, i, TEXT_TSV, &op);
    }
    snprintf(o, 512, "%.*s|%s", (int)b.len, (const char *)b.p, tname);
    buf_free(&b);
    col_free(r);
    return o;
}

/* Parses a column of type tn from comma-separated TSV texts (\N for NULL). */
static column *tcol(const char *tn, const char *vals)
{
    column *c = col_new(type_parse_cstr(tn));
    text_opts op;
    text_opts_default(&op);
    op.tz = "UTC";
    const char *p = vals;
    while (*p) {
        const char *e = strchr(p, ';');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 2 && p[0] == '\\' && p[1] == 'N')
            col_push_null(c);
        else if (text_parse(c, p, n, &op) < 0)
            fprintf(stderr, "bad test value %.*s for %s: %s\n", (int)n, p, tn, err_msg());
        p += n;
        if (*p)
            p++;
    }
    return c;
}

static const char *cast(const char *fn, const char *tn, const char *vals, const char *to)
{
    column *a[2] = {tcol(tn, vals), NULL};
    a[1] = constcol(scol(1, &to), a[0]->len);
    const char *tname = NULL;
    column *r = call(fn, 2, a, a[0]->len, &tname);
    const char *s = show(r, tname);
    free_args(2, a);
    return s;
}

static const char *f1(const char *fn, const char *tn, const char *vals)
{
    column *a[1] = {tcol(tn, vals)};
    const char *tname = NULL;
    column *r = call(fn, 1, a, a[0]->len, &tname);
    const char *s = show(r, tname);
    free_args(1, a);
    return s;
}

static const char *f2i(const char *fn, const char *tn, const char *vals, long long arg)
{
    column *a[2] = {tcol(tn, vals), NULL};
    a[1] = constcol(icol("UInt8", 1, &arg), a[0]->len);
    const char *tname = NULL;
    column *r = call(fn, 2, a, a[0]->len, &tname);
    const char *s = show(r, tname);
    free_args(2, a);
    return s;
}

static const char *f2s(const char *fn, const char *tn, const char *vals, const char *arg)
{
    column *a[2] = {tcol(tn, vals), NULL};
    a[1] = constcol(scol(1, &arg), a[0]->len);
    const char *tname = NULL;
    column *r = call(fn, 2, a, a[0]->len, &tname);
    const char *s = show(r, tname);
    free_args(2, a);
    return s;
}

int main(void)
{
    /* integers wrap */
    CHECK_STR(cast("CAST", "String", "300", "UInt8"), "44|UInt8");
    CHECK_STR(f1("toUInt8", "UInt16", "300"), "44|UInt8");
    CHECK_STR(f1("toInt8", "UInt8", "200"), "-56|Int8");
    CHECK_STR(f1("toUInt8", "Int8", "-1"), "255|UInt8");
    CHECK_STR(f1("toInt8", "Int128", "-129"), "127|Int8");
    CHECK_STR(f1("toUInt64", "Int128", "-1"), "18446744073709551615|UInt64");
    CHECK_STR(f1("toInt32", "UInt128", "340282366920938463463374607431768211455"), "-1|Int32");
    /* float → int like x86 */
    CHECK_STR(f1("toUInt8", "Float64", "3.9"), "3|UInt8");
    CHECK_STR(f1("toInt8", "Float64", "-3.9"), "-3|Int8");
    CHECK_STR(f1("toUInt8", "Float64", "-3.9"), "253|UInt8");
    CHECK_STR(f1("toInt64", "Float64", "1e30"), "-9223372036854775808|Int64");
    CHECK_STR(f1("toInt32", "Float64", "1e30;-1e30"), "-2147483648,-2147483648|Int32");
    CHECK_STR(f1("toUInt32", "Float64", "1e30;-1.5"), "0,4294967295|UInt32");
    CHECK_STR(f1("toUInt64", "Float64", "1e30;-1;1.8e19"),
              "9223372036854775808,18446744073709551615,18000000000000000000|UInt64");
    CHECK_STR(f1("toUInt8", "Float64", "1e30"), "0|UInt8");
    CHECK_STR(f1("toInt8", "Float64", "1e10"), "0|Int8");
    CHECK_STR(f1("toInt16", "Float64", "70000.5"), "4464|Int16");
    /* ClickHouse's wide-integer conversion, not 1e30's exact value (checked with chdb) */
    CHECK_STR(f1("toInt128", "Float64", "1e30"), "1000000000000000019899134206768|Int128");
    CHECK_STR(f1("toUInt128", "Float64", "-1"),
              "340282366920938463463374607431768211455|UInt128");
    CHECK_STR(f1("toInt64", "Float32", "-3e19"), "-9223372036854775808|Int64");
    CHECK_STR(f1("toInt32", "Float64", "nan"),
              "ERR 70: Unexpected inf or nan to integer conversion");
    CHECK_STR(f1("toUInt8", "Float64", "inf"), "ERR 70: Unexpected inf or nan to integer conversion");
    /* floats */
    CHECK_STR(f1("toFloat32", "Float64", "1.1;1e300"), "1.1,inf|Float32");
    CHECK_STR(f1("toFloat64", "UInt64", "18446744073709551615"), "18446744073709552000|Float64");
    /* Bool */
    CHECK_STR(f1("toBool", "Int8", "2;0"), "true,false|Bool");
    CHECK_STR(f1("toBool", "Float64", "-1.5;nan"), "true,true|Bool");
    CHECK_STR(f1("toBool", "String", "true"), "true|Bool");
    CHECK_STR(cast("CAST", "Float64", "1.5", "Bool"), "true|Bool");
    /* Decimal */
    CHECK_STR(f2i("toDecimal32", "Float64", "1.5", 2), "1.5|Decimal(9, 2)");
    CHECK_STR(f2i("toDecimal32", "Float64", "1e10", 2),
              "ERR 407: Decimal convert overflow. Float is out of Decimal range");
    CHECK_STR(f2i("toDecimal64", "Float64", "nan", 2),
              "ERR 407: Decimal convert overflow. Cannot convert infinity or NaN to decimal");
    CHECK_STR(f2i("toDecimal64", "Float64", "0.29;-0.29;1.1", 2), "0.28,-0.28,1.1|Decimal(18, 2)");
    CHECK_STR(cast("CAST", "Float64", "123.456", "Decimal(5,1)"), "123.4|Decimal(5, 1)");
    CHECK_STR(cast("CAST", "UInt32", "100000", "Decimal(5,1)"), "100000|Decimal(5, 1)");
    CHECK_STR(cast("CAST", "Decimal(18,3)", "123.456", "Decimal32(1)"), "123.4|Decimal(9, 1)");
    CHECK_STR(cast("CAST", "Decimal(18,1)", "1234567890.7", "Decimal32(1)"),
              "ERR 407: Decimal convert overflow: 12345678907 is not in range (-2147483648, 2147483647)");
    CHECK_STR(cast("CAST", "Decimal(18,3)", "-123.456", "Int8"), "-123|Int8");
    CHECK_STR(cast("CAST", "Decimal(18,1)", "1234567890.7", "Int8"), "ERR 407: Convert overflow");
    CHECK_STR(cast("CAST", "Decimal(9,1)", "-1.5", "UInt8"), "ERR 407: Convert overflow");
    CHECK_STR(cast("CAST", "UInt16", "300", "Decimal32(8)"), "ERR 407: Decimal convert overflow");
    CHECK_STR(f1("toFloat64", "Decimal(9,2)", "1.25"), "1.25|Float64");
    CHECK_STR(f1("toString", "Decimal(9,3)", "1.5"), "1.5|String");
    /* dates */
    CHECK_STR(cast("CAST", "Date", "2020-01-02", "UInt16"), "18263|UInt16");
    CHECK_STR(cast("CAST", "Date", "2020-01-02", "DateTime"), "2020-01-02 00:00:00|DateTime");
    CHECK_STR(cast("CAST", "Date", "2020-01-02", "DateTime('Asia/Tokyo')"),
              "2020-01-02 00:00:00|DateTime('Asia/Tokyo')");
    CHECK_STR(f1("toUInt32", "DateTime('Asia/Tokyo')", "2020-01-02 00:00:00"), "1577890800|UInt32");
    CHECK_STR(cast("CAST", "DateTime", "2020-01-02 03:04:05", "Date"), "2020-01-02|Date");
    CHECK_STR(cast("CAST", "Int32", "18000;-1;70000", "Date"), "2019-04-14,1970-01-01,1970-01-01|Date");
    CHECK_STR(cast("CAST", "Float64", "1e10;1.5", "Date"), "2106-02-07,1970-01-02|Date");
    CHECK_STR(cast("CAST", "Float64", "1.5e9", "DateTime"), "2017-07-14 02:40:00|DateTime");
    CHECK_STR(cast("CAST", "Int64", "-5;5000000000", "DateTime"), "1970-01-01 00:00:00,2106-02-07 06:28:15|DateTime");
    CHECK_STR(cast("CAST", "Int32", "100000;-100000;70000;200000;-5", "Date32"),
              "2243-10-17,1900-01-01,2161-08-27,1970-01-03,1969-12-27|Date32");
    CHECK_STR(cast("CAST", "Float64", "1e9;1.5", "DateTime64(3)"),
              "2001-09-09 01:46:40.000,1970-01-01 00:00:01.500|DateTime64(3)");
    CHECK_STR(cast("CAST", "DateTime64(3)", "2020-01-02 03:04:05.678", "Int64"), "1577934245|Int64");
    CHECK_STR(cast("CAST", "DateTime64(3)", "2020-01-02 03:04:05.678", "Float64"), "1577934245.678|Float64");
    CHECK_STR(cast("CAST", "DateTime64(3)", "2020-01-02 03:04:05.678", "DateTime"), "2020-01-02 03:04:05|DateTime");
    CHECK_STR(cast("CAST", "DateTime64(3)", "2020-01-02 03:04:05.678", "Date"), "2020-01-02|Date");
    CHECK_STR(cast("CAST", "DateTime", "2020-01-02 03:04:05", "DateTime64(2)"), "2020-01-02 03:04:05.00|DateTime64(2)");
    CHECK_STR(cast("CAST", "Date32", "1950-01-01;2200-01-01", "Date"), "2129-06-07,2020-07-27|Date");
    CHECK_STR(cast("CAST", "Date32", "1950-01-01", "DateTime"), "2086-02-06 06:28:16|DateTime");
    CHECK_STR(cast("CAST", "Date32", "1950-01-01", "DateTime64(0)"), "1950-01-01 00:00:00|DateTime64(0)");
    CHECK_STR(cast("CAST", "DateTime64(0)", "1950-01-01 00:00:00;2200-01-01 00:00:00", "DateTime"),
              "2086-02-06 06:28:16,2063-11-24 17:31:44|DateTime");
    CHECK_STR(cast("CAST", "DateTime64(0)", "2200-01-01 00:00:00", "Date"), "2020-07-27|Date");
    CHECK_STR(f2s("toString", "DateTime", "2020-01-02 03:04:05", "Asia/Tokyo"), "2020-01-02 12:04:05|String");
    /* strings */
    CHECK_STR(cast("CAST", "String", "abc", "Int32"),
              "ERR 6: Cannot parse string 'abc' as Int32: syntax error at begin of string. Note: there are "
              "toInt32OrZero and toInt32OrNull functions, which returns zero/NULL instead of throwing exception.");
    CHECK_STR(cast("CAST", "String", "12a", "Int32"),
              "ERR 6: Cannot parse string '12a' as Int32: syntax error at position 2 (parsed just '12'). Note: there "
              "are toInt32OrZero and toInt32OrNull functions, which returns zero/NULL instead of throwing exception.");
    CHECK_STR(f1("toInt32", "String", "abc"),
              "ERR 6: Cannot parse string 'abc' as Int32: syntax error at begin of string. Note: there are "
              "toInt32OrZero and toInt32OrNull functions, which returns zero/NULL instead of throwing exception.");
    CHECK_STR(cast("CAST", "String", "abcd", "FixedString(2)"), "ERR 131: String too long for type FixedString(2)");
    CHECK_STR(f2i("toFixedString", "String", "ab", 4), "ab\\0\\0|FixedString(4)");
    CHECK_STR(cast("CAST", "FixedString(4)", "12", "Int32"), "12|Int32");
    CHECK_STR(f1("toString", "Float64", "1.5"), "1.5|String");
    CHECK_STR(cast("CAST", "String", "1.5", "Int32"),
              "ERR 6: Cannot parse string '1.5' as Int32: syntax error at position 1 (parsed just '1'). Note: there "
              "are toInt32OrZero and toInt32OrNull functions, which returns zero/NULL instead of throwing exception.");
    const char *empty = "";
    column *ea[1] = {scol(1, &empty)};
    CHECK_STR(show(call("toInt32", 1, ea, 1, NULL), NULL),
              "ERR 32: Attempt to read after eof: Cannot parse Int32 from String, because value is too short");
    free_args(1, ea);
    CHECK_STR(f1("toFloat64", "String", "x"),
              "ERR 72: Cannot read floating point value here: x: Cannot parse Float64 from String");
    CHECK_STR(cast("CAST", "String", "1.5x", "Float64"),
              "ERR 6: Cannot parse string '1.5x' as Float64: syntax error at position 3 (parsed just '1.5'). Note: "
              "there are toFloat64OrZero and toFloat64OrNull functions, which returns zero/NULL instead of throwing "
              "exception.");
    CHECK_STR(cast("CAST", "UInt8", "1", "FixedString(3)"),
              "ERR 48: CAST AS FixedString is only implemented for types String and FixedString");
    CHECK_STR(cast("CAST", "UUID", "00000000-0000-0000-0000-000000000001", "UInt128"), "1|UInt128");
    CHECK_STR(cast("CAST", "UUID", "00000000-0000-0000-0000-000000000001", "UInt64"),
              "ERR 48: Conversion between numeric types and UUID is not supported. Probably the passed UUID is "
              "unquoted");
    CHECK_STR(cast("CAST", "Array(UInt8)", "[1,2]", "String"), "[1,2]|String");
    CHECK_STR(cast("CAST", "String", "[1,2]", "Array(Int32)"), "[1,2]|Array(Int32)");
    /* Enum */
    CHECK_STR(cast("CAST", "Enum8('a' = 1, 'b' = 2)", "a", "String"), "a|String");
    CHECK_STR(cast("CAST", "Enum8('a' = 1, 'b' = 2)", "b", "Int32"), "2|Int32");
    CHECK_STR(cast("CAST", "UInt8", "2", "Enum8('a' = 1, 'b' = 2)"), "b|Enum8('a' = 1, 'b' = 2)");
    CHECK_STR(cast("CAST", "UInt8", "3", "Enum8('a' = 1, 'b' = 2)"), "ERR 691: Unexpected value 3 in enum");
    /* Nullable */
    CHECK_STR(cast("CAST", "Nullable(Int32)", "\\N;5", "Nullable(String)"), "\\N,5|Nullable(String)");
    CHECK_STR(cast("CAST", "Nullable(Int32)", "1", "Int32"), "1|Int32");
    CHECK_STR(cast("CAST", "Nullable(Int32)", "\\N", "Int32"),
              "ERR 349: Cannot convert NULL value to non-Nullable type");
    CHECK_STR(cast("CAST", "Nullable(Nothing)", "\\N", "Int32"), "ERR 70: Cannot convert NULL to a non-nullable type");
    CHECK_STR(cast("CAST", "Nullable(Nothing)", "\\N", "Nullable(Int32)"), "\\N|Nullable(Int32)");
    CHECK_STR(cast("CAST", "UInt8", "1", "Nullable(Int64)"), "1|Nullable(Int64)");
    CHECK_STR(f1("toInt64", "Nullable(String)", "\\N;7"), "\\N,7|Nullable(Int64)");
    /* LowCardinality, arrays */
    CHECK_STR(cast("CAST", "UInt8", "1", "LowCardinality(String)"), "1|LowCardinality(String)");
    CHECK_STR(f1("toLowCardinality", "String", "a"), "a|LowCardinality(String)");
    CHECK_STR(cast("CAST", "Array(UInt16)", "[1,2,300]", "Array(UInt8)"), "[1,2,44]|Array(UInt8)");
    CHECK_STR(cast("CAST", "Array(UInt8)", "[1]", "Array(Nullable(String))"), "['1']|Array(Nullable(String))");
    /* OrZero / OrNull */
    CHECK_STR(f1("toInt32OrZero", "String", "x;12"), "0,12|Int32");
    CHECK_STR(f1("toInt32OrNull", "String", "x;12"), "\\N,12|Nullable(Int32)");
    CHECK_STR(f1("toFloat64OrZero", "String", "1.5x"), "0|Float64");
    CHECK_STR(f1("toInt32OrZero", "UInt8", "5"),
              "ERR 43: Illegal type UInt8 of first argument of function toInt32OrZero. Conversion functions with "
              "postfix 'OrZero' or 'OrNull' should take String argument");
    CHECK_STR(f1("toInt32OrNull", "Nullable(String)", "\\N;x;3"), "\\N,\\N,3|Nullable(Int32)");
    CHECK_STR(f1("toInt32", "LowCardinality(String)", "1"), "1|LowCardinality(Int32)");
    CHECK_STR(cast("CAST", "LowCardinality(String)", "1", "Int32"), "1|Int32");
    /* accurateCast */
    CHECK_STR(cast("accurateCast", "UInt16", "300", "UInt8"),
              "ERR 70: Value in column UInt16 cannot be safely converted into type UInt8");
    CHECK_STR(cast("accurateCast", "Float64", "1.5", "UInt8"),
              "ERR 70: Value in column Float64 cannot be safely converted into type UInt8");
    CHECK_STR(cast("accurateCast", "Int8", "-1", "UInt64"),
              "ERR 70: Value in column Int8 cannot be safely converted into type UInt64");
    CHECK_STR(cast("accurateCast", "Int8", "100", "UInt64"), "100|UInt64");
    CHECK_STR(cast("accurateCastOrNull", "UInt16", "300;5", "UInt8"), "\\N,5|Nullable(UInt8)");
    CHECK_STR(cast("accurateCastOrNull", "Int8", "-1", "UInt8"), "\\N|Nullable(UInt8)");
    CHECK_STR(cast("accurateCastOrNull", "Float64", "1.5", "UInt8"), "\\N|Nullable(UInt8)");
    CHECK_STR(cast("accurateCastOrNull", "String", "abc", "Int32"), "\\N|Nullable(Int32)");
    return check_done("func_conv");
}
