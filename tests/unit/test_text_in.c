#include "check.h"

#include "base/err.h"
#include "column/text.h"

static text_opts O = {"UTC", true, false, ','};

static column *parse1(const char *tname, const char *s, int *rc)
{
    column *c = col_new(type_parse_cstr(tname));
    *rc = text_parse(c, s, strlen(s), &O);
    return c;
}

int main(void)
{
    int rc;
    column *c = parse1("UInt8", "300", &rc); /* ClickHouse wraps: 44 */
    CHECK(rc == 0 && c->len == 1 && COL_DATA(c, uint8_t)[0] == 44);
    col_free(c);
    c = parse1("UInt8", "-1", &rc);
    CHECK(rc == -1 && err_code() == ERR_CANNOT_PARSE_NUMBER && c->len == 0);
    col_free(c);
    c = parse1("Int32", "abc", &rc);
    CHECK(rc == -1 && err_code() == ERR_CANNOT_PARSE_TEXT && strstr(err_msg(), "'abc'") && strstr(err_msg(), "Int32"));
    col_free(c);
    c = parse1("Int64", "-9223372036854775808", &rc);
    CHECK(rc == 0 && COL_DATA(c, int64_t)[0] == INT64_MIN);
    col_free(c);
    c = parse1("Int128", "-170141183460469231731687303715884105728", &rc);
    CHECK(rc == 0 && COL_DATA(c, int128_t)[0] < 0);
    col_free(c);
    c = parse1("Float64", "1e10", &rc);
    CHECK(rc == 0 && COL_DATA(c, double)[0] == 1e10);
    CHECK(text_parse(c, "-inf", 4, &O) == 0 && COL_DATA(c, double)[1] < -1e308);
    CHECK(text_parse(c, "nan", 3, &O) == 0 && COL_DATA(c, double)[2] != COL_DATA(c, double)[2]);
    CHECK(text_parse(c, "0x10", 4, &O) == -1);
    CHECK(text_parse(c, " 1", 2, &O) == -1);
    col_free(c);
    c = parse1("Bool", "true", &rc);
    CHECK(rc == 0 && text_parse(c, "0", 1, &O) == 0 && text_parse(c, "True", 4, &O) == 0);
    CHECK(COL_DATA(c, uint8_t)[0] == 1 && COL_DATA(c, uint8_t)[1] == 0 && COL_DATA(c, uint8_t)[2] == 1);
    CHECK(text_parse(c, "maybe", 5, &O) == -1);
    col_free(c);
    c = parse1("FixedString(2)", "ab", &rc);
    CHECK(rc == 0 && text_parse(c, "abc", 3, &O) == -1 && err_code() == 131);
    col_free(c);
    c = parse1("Decimal(9, 2)", "1.239", &rc);
    CHECK(rc == 0 && COL_DATA(c, int32_t)[0] == 123);
    CHECK(text_parse(c, "-0.5", 4, &O) == 0 && COL_DATA(c, int32_t)[1] == -50);
    CHECK(text_parse(c, "1.5e2", 5, &O) == 0 && COL_DATA(c, int32_t)[2] == 15000);
    CHECK(text_parse(c, "12345678901", 11, &O) == -1 && err_code() == ERR_ARGUMENT_OUT_OF_BOUND);
    col_free(c);
    c = parse1("Enum8('a' = 1, 'b' = 2)", "b", &rc);
    CHECK(rc == 0 && COL_DATA(c, int8_t)[0] == 2 && text_parse(c, "1", 1, &O) == 0 && COL_DATA(c, int8_t)[1] == 1);
    CHECK(text_parse(c, "z", 1, &O) == -1);
    col_free(c);
    c = parse1("UUID", "61f0c404-5cb3-11e7-907b-a6006ad3dba0", &rc);
    CHECK(rc == 0 && (uint64_t)COL_DATA(c, uint128_t)[0] == 0x61f0c4045cb311e7ULL);
    col_free(c);
    c = parse1("Date", "2020-01-01", &rc);
    CHECK(rc == 0 && COL_DATA(c, uint16_t)[0] == 18262);
    col_free(c);
    c = parse1("Nullable(Int32)", "\\N", &rc);
    CHECK(rc == 0 && text_parse(c, "5", 1, &O) == 0 && c->len == 2 && col_is_null(c, 0) && !col_is_null(c, 1));
    col_free(c);
    c = parse1("LowCardinality(String)", "x", &rc);
    CHECK(rc == 0 && c->len == 1);
    col_free(c);
    c = parse1("Array(Int32)", "[1, 2,3]", &rc);
    CHECK(rc == 0 && c->len == 1 && c->inner->len == 3 && COL_DATA(c->inner, int32_t)[2] == 3);
    CHECK(text_parse(c, "[]", 2, &O) == 0 && c->len == 2 && c->inner->len == 3);
    CHECK(text_parse(c, "[1,x]", 5, &O) == -1 && c->len == 2 && c->inner->len == 3); /* rolled back */
    col_free(c);
    c = parse1("Array(Nullable(String))", "['a\\'b', NULL, \"c\"]", &rc);
    CHECK(rc == 0 && c->inner->len == 3 && col_is_null(c->inner, 1));
    size_t l;
    const char *sv = col_str(c->inner->inner, 0, &l);
    CHECK(l == 3 && memcmp(sv, "a'b", 3) == 0);
    col_free(c);
    c = parse1("Array(Array(UInt8))", "[[1],[2,3],[]]", &rc);
    CHECK(rc == 0 && c->inner->len == 3 && c->inner->inner->len == 3);
    col_free(c);
    return check_done("text_in");
}
