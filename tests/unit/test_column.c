#include "base/err.h"
#include "column/block.h"
#include "column/type.h"
#include "check.h"

static void test_types(void)
{
    const char *names[] = {"UInt8", "Nullable(String)", "LowCardinality(String)", "Array(Array(Int64))",
                           "DateTime64(3, 'UTC')", "Decimal(9, 2)", "FixedString(4)", "DateTime('Europe/Moscow')",
                           "Enum8('a' = 1, 'b' = 2)", "LowCardinality(Nullable(String))", "Tuple(UInt8, String)",
                           "Tuple(a UInt8, b String)"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const type *t = type_parse_cstr(names[i]);
        CHECK(t != NULL);
        if (t)
            CHECK_STR(t->name, names[i]);
    }
    CHECK(type_parse_cstr("Decimal32(2)") == type_parse_cstr("Decimal(9, 2)"));
    CHECK_STR(type_parse_cstr("BIGINT UNSIGNED")->name, "UInt64");
    CHECK_STR(type_parse_cstr("VARCHAR(255)")->name, "String");
    CHECK_STR(type_parse_cstr("Enum8('b' = 2, 'a' = 1)")->name, "Enum8('a' = 1, 'b' = 2)");
    CHECK(type_parse_cstr("Strin") == NULL && err_code() == ERR_UNKNOWN_TYPE);
    CHECK(type_parse_cstr("Nullable(Array(UInt8))") == NULL);
    CHECK(type_parse_cstr("Array(UInt8") == NULL && err_code() == ERR_SYNTAX_ERROR);
}

static void test_columns(void)
{
    column *s = col_new(type_simple(T_STRING));
    col_push_str(s, "hello", 5);
    col_push_str(s, "", 0);
    col_push_str(s, "world", 5);
    size_t n;
    const char *v = col_str(s, 2, &n);
    CHECK(n == 5 && memcmp(v, "world", 5) == 0);
    uint8_t keep[3] = {1, 0, 1};
    column *f = col_filter(s, keep, 2);
    CHECK(f->len == 2);
    v = col_str(f, 1, &n);
    CHECK(n == 5 && memcmp(v, "world", 5) == 0);
    uint32_t rows[2] = {2, 0};
    column *g = col_gather(s, rows, 2);
    CHECK(col_compare(g, 0, s, 2, 1) == 0 && col_compare(g, 1, s, 0, 1) == 0);
    CHECK(col_compare(s, 0, s, 2, 1) < 0);

    column *nn = col_new(type_parse_cstr("Nullable(Int32)"));
    int32_t x = 7;
    col_push_fixed(nn->inner, &x);
    col_nullable_commit(nn, false);
    col_push_null(nn);
    CHECK(nn->len == 2 && nn->inner->len == 2 && col_is_null(nn, 1) && !col_is_null(nn, 0));

    column *arr = col_new(type_parse_cstr("Array(String)"));
    col_push_str(arr->inner, "a", 1);
    col_push_str(arr->inner, "b", 1);
    col_array_commit(arr);
    col_array_commit(arr);
    column *arr2 = col_slice(arr, 0, 2);
    CHECK(arr2->len == 2 && arr2->inner->len == 2 && col_offs(arr2)[2] == 2);
    CHECK(col_hash_row(arr, 0) == col_hash_row(arr2, 0));
    col_free(arr);
    col_free(arr2);
    col_free(nn);
    col_free(g);
    col_free(f);
    col_free(s);
}

int main(void)
{
    test_types();
    test_columns();
    return check_done("column");
}
