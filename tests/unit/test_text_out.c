/* text_write / text_format_f64 against outputs of ClickHouse 26.7 (chdb). */
#include "check.h"
#include "out_test_util.h"

static char fbuf[64];
static const char *f64(double v) { fbuf[text_format_f64(v, fbuf)] = 0; return fbuf; }
static const char *f32(float v) { fbuf[text_format_f32(v, fbuf)] = 0; return fbuf; }

static buf ob;
static text_opts to;
static const char *tw(const column *c, size_t i, text_style st)
{
    ob.len = 0;
    text_write(&ob, c, i, st, &to);
    return buf_cstr(&ob);
}

int main(void)
{
    text_opts_default(&to);
    /* floats: SELECT toFloat64(x) FORMAT TSV */
    CHECK_STR(f64(0.1), "0.1");
    CHECK_STR(f64(1.0 / 3), "0.3333333333333333");
    CHECK_STR(f64(1e21), "1e21");
    CHECK_STR(f64(1e20), "100000000000000000000");
    CHECK_STR(f64(1e-7), "1e-7");
    CHECK_STR(f64(1e-5), "0.00001");
    CHECK_STR(f64(1e-6), "0.000001");
    CHECK_STR(f64(1.23e-6), "0.00000123");
    CHECK_STR(f64(1.5e-7), "1.5e-7");
    CHECK_STR(f64(123456789.123), "123456789.123");
    CHECK_STR(f64(5e-324), "5e-324");
    CHECK_STR(f64(1.7976931348623157e308), "1.7976931348623157e308");
    CHECK_STR(f64(-0.0), "-0");
    CHECK_STR(f64(0.0), "0");
    CHECK_STR(f64(__builtin_nan("")), "nan");
    CHECK_STR(f64(__builtin_inf()), "inf");
    CHECK_STR(f64(-__builtin_inf()), "-inf");
    CHECK_STR(f64(1e15), "1000000000000000");
    CHECK_STR(f64(1e16), "10000000000000000");
    CHECK_STR(f64(123456789012345680000.0), "123456789012345680000");
    CHECK_STR(f64(1234567890123456789012.0), "1.2345678901234568e21");
    CHECK_STR(f64(12345678901234567.0), "12345678901234568");
    CHECK_STR(f64(1.5e300), "1.5e300");
    CHECK_STR(f64(-1e-7), "-1e-7");
    CHECK_STR(f64(0.1 + 0.2), "0.30000000000000004");
    CHECK_STR(f64(-2.5), "-2.5");
    CHECK_STR(f32(0.1f), "0.1");
    CHECK_STR(f32(1.0f / 3), "0.33333334");
    CHECK_STR(f32(1e10f), "10000000000");
    CHECK_STR(f32(1e-7f), "1e-7");
    CHECK_STR(f32(3.4e38f), "3.4e38");
    CHECK_STR(f32(1e21f), "1e21");

    /* strings in each style */
    const char *sv[] = {"a\tb\\c\"d'e", "x/y\x01\xe2\x80\xa8\xc3\xa9\x7f", "l\nm\r\b\f"};
    column *s = col_strs("String", 3, sv);
    CHECK_STR(tw(s, 0, TEXT_TSV), "a\\tb\\\\c\"d\\'e");
    CHECK_STR(tw(s, 0, TEXT_RAW), "a\tb\\c\"d'e");
    CHECK_STR(tw(s, 0, TEXT_CSV), "\"a\tb\\c\"\"d'e\"");
    CHECK_STR(tw(s, 0, TEXT_JSON), "\"a\\tb\\\\c\\\"d'e\"");
    CHECK_STR(tw(s, 0, TEXT_QUOTED), "'a\\tb\\\\c\"d\\'e'");
    CHECK_STR(tw(s, 1, TEXT_JSON), "\"x\\/y\\u0001\\u2028\xc3\xa9\x7f\"");
    CHECK_STR(tw(s, 2, TEXT_TSV), "l\\nm\\r\\b\\f");

    /* FixedString: zero bytes escaped */
    column *fs = col_strs("FixedString(4)", 1, (const char *const[]){"ab"});
    CHECK_STR(tw(fs, 0, TEXT_TSV), "ab\\0\\0");
    CHECK_STR(tw(fs, 0, TEXT_QUOTED), "'ab\\0\\0'");
    CHECK_STR(tw(fs, 0, TEXT_JSON), "\"ab\\u0000\\u0000\"");

    /* integers */
    uint64_t u64[] = {18446744073709551615ull, 0};
    column *cu = col_fixed("UInt64", 2, u64);
    CHECK_STR(tw(cu, 0, TEXT_JSON), "18446744073709551615");
    CHECK_STR(tw(cu, 1, TEXT_TSV), "0");
    to.json_quote_64bit_integers = true;
    CHECK_STR(tw(cu, 0, TEXT_JSON), "\"18446744073709551615\"");
    to.json_quote_64bit_integers = false;
    int64_t i64[] = {INT64_MIN, -5};
    column *ci = col_fixed("Int64", 2, i64);
    CHECK_STR(tw(ci, 0, TEXT_TSV), "-9223372036854775808");
    int128_t i128[] = {(int128_t)((uint128_t)1 << 127), 5};
    column *c128 = col_fixed("Int128", 2, i128);
    CHECK_STR(tw(c128, 0, TEXT_TSV), "-170141183460469231731687303715884105728");
    uint128_t u128[] = {~(uint128_t)0};
    column *cu128 = col_fixed("UInt128", 1, u128);
    CHECK_STR(tw(cu128, 0, TEXT_CSV), "340282366920938463463374607431768211455");
    int8_t i8[] = {-128};
    CHECK_STR(tw(test_own(col_fixed("Int8", 1, i8)), 0, TEXT_TSV), "-128");

    /* Bool */
    uint8_t bo[] = {1, 0};
    column *cb = col_fixed("Bool", 2, bo);
    CHECK_STR(tw(cb, 0, TEXT_CSV), "true");
    CHECK_STR(tw(cb, 1, TEXT_JSON), "false");

    /* Decimal: trailing zeros dropped (toDecimal32(1.5,2) -> 1.5) */
    int32_t d32[] = {150, -150, 200, 5};
    column *cd = col_fixed("Decimal(9, 2)", 4, d32);
    CHECK_STR(tw(cd, 0, TEXT_TSV), "1.5");
    CHECK_STR(tw(cd, 1, TEXT_JSON), "-1.5");
    CHECK_STR(tw(cd, 2, TEXT_TSV), "2");
    CHECK_STR(tw(cd, 3, TEXT_TSV), "0.05");
    int128_t d128[] = {-(int128_t)12345};
    CHECK_STR(tw(test_own(col_fixed("Decimal(38, 3)", 1, d128)), 0, TEXT_TSV), "-12.345");

    /* UUID */
    /* ClickHouse's layout: the first half of the text is the low 64 bits. */
    uint128_t uu[] = {((uint128_t)0x907ba6006ad3dba0ull << 64) | 0x61f0c4045cb311e7ull};
    column *cuu = col_fixed("UUID", 1, uu);
    CHECK_STR(tw(cuu, 0, TEXT_TSV), "61f0c404-5cb3-11e7-907b-a6006ad3dba0");
    CHECK_STR(tw(cuu, 0, TEXT_QUOTED), "'61f0c404-5cb3-11e7-907b-a6006ad3dba0'");
    CHECK_STR(tw(cuu, 0, TEXT_CSV), "\"61f0c404-5cb3-11e7-907b-a6006ad3dba0\"");

    /* Enum */
    int8_t ev[] = {1, 2};
    column *ce = col_fixed("Enum8('a' = 1, 'b\\'c' = 2)", 2, ev);
    CHECK_STR(tw(ce, 0, TEXT_TSV), "a");
    CHECK_STR(tw(ce, 0, TEXT_JSON), "\"a\"");
    CHECK_STR(tw(ce, 1, TEXT_QUOTED), "'b\\'c'");

    /* Date (UTC-independent) */
    uint16_t dd[] = {18263};
    column *cdt = col_fixed("Date", 1, dd);
    CHECK_STR(tw(cdt, 0, TEXT_TSV), "2020-01-02");
    CHECK_STR(tw(cdt, 0, TEXT_CSV), "\"2020-01-02\"");
    CHECK_STR(tw(cdt, 0, TEXT_QUOTED), "'2020-01-02'");
    uint32_t dts[] = {1577934245};
    CHECK_STR(tw(test_own(col_fixed("DateTime('UTC')", 1, dts)), 0, TEXT_JSON), "\"2020-01-02 03:04:05\"");
    int64_t d64[] = {1577934245120};
    CHECK_STR(tw(test_own(col_fixed("DateTime64(3, 'UTC')", 1, d64)), 0, TEXT_TSV), "2020-01-02 03:04:05.120");

    /* Nullable */
    column *cn = col_strs("Nullable(String)", 2, (const char *const[]){NULL, "x"});
    CHECK_STR(tw(cn, 0, TEXT_TSV), "\\N");
    CHECK_STR(tw(cn, 0, TEXT_CSV), "\\N");
    CHECK_STR(tw(cn, 0, TEXT_JSON), "null");
    CHECK_STR(tw(cn, 0, TEXT_QUOTED), "NULL");
    CHECK_STR(tw(cn, 1, TEXT_QUOTED), "'x'");

    /* Arrays: quoted inside; CSV quotes the whole text; JSON nested */
    column *ca = col_new(type_parse_cstr("Array(String)"));
    col_push_str(ca->inner, "a\tb", 3);
    col_push_str(ca->inner, "y'z", 3);
    col_array_commit(ca);
    col_array_commit(ca);
    CHECK_STR(tw(ca, 0, TEXT_TSV), "['a\\tb','y\\'z']");
    CHECK_STR(tw(ca, 0, TEXT_CSV), "\"['a\\tb','y\\'z']\"");
    CHECK_STR(tw(ca, 0, TEXT_JSON), "[\"a\\tb\",\"y'z\"]");
    CHECK_STR(tw(ca, 1, TEXT_TSV), "[]");
    column *can = col_new(type_parse_cstr("Array(Nullable(Float64))"));
    col_push_null(can->inner);
    double fv = 1.5;
    col_push_fixed(can->inner->inner, &fv);
    col_nullable_commit(can->inner, false);
    double nanv = __builtin_nan("");
    col_push_fixed(can->inner->inner, &nanv);
    col_nullable_commit(can->inner, false);
    col_array_commit(can);
    CHECK_STR(tw(can, 0, TEXT_TSV), "[NULL,1.5,nan]");
    CHECK_STR(tw(can, 0, TEXT_JSON), "[null,1.5,null]");

    /* Tuples */
    column *ct = col_new(type_parse_cstr("Tuple(UInt8, String)"));
    uint8_t one = 1;
    col_push_fixed(ct->fields[0], &one);
    col_push_str(ct->fields[1], "a", 1);
    ct->len = 1;
    CHECK_STR(tw(ct, 0, TEXT_TSV), "(1,'a')");
    CHECK_STR(tw(ct, 0, TEXT_CSV), "1,\"a\"");
    CHECK_STR(tw(ct, 0, TEXT_JSON), "[1,\"a\"]");
    column *cnt = col_new(type_parse_cstr("Tuple(p UInt8, q String)"));
    col_push_fixed(cnt->fields[0], &one);
    col_push_str(cnt->fields[1], "a", 1);
    cnt->len = 1;
    CHECK_STR(tw(cnt, 0, TEXT_JSON), "{\"p\":1,\"q\":\"a\"}");

    /* LowCardinality: as inner */
    column *lc = col_strs("LowCardinality(String)", 1, (const char *const[]){"it's"});
    CHECK_STR(tw(lc, 0, TEXT_QUOTED), "'it\\'s'");

    column *all[] = {s, fs, cu, ci, c128, cu128, cb, cd, cuu, ce, cdt, cn, ca, can, ct, cnt, lc};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        col_free(all[k]);
    buf_free(&ob);
    return check_done("text_out");
}
