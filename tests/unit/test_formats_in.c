#include "check.h"

#include "base/err.h"
#include "base/mem.h"
#include "format/format.h"
#include "format/split.h"

static rbuf *mk(const char *s) { return rbuf_new(instream_from_memory(s, strlen(s), "mem"), 64); }

/* "name Type, name Type" of the inferred schema, or the error message. */
static char got[4096];
static const char *infer(const char *fmt, const char *data)
{
    fmt_settings st;
    fmt_settings_default(&st);
    schema *s;
    rbuf *r = mk(data);
    if (fmt_infer_schema(fmt, r, &st, &s)) {
        rbuf_free(r);
        snprintf(got, sizeof got, "ERR %d", err_code());
        return got;
    }
    rbuf_free(r);
    got[0] = 0;
    for (int i = 0; i < s->n; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s %s", i ? ", " : "", s->names[i], s->types[i]->name);
    schema_free(s);
    return got;
}

/* Reads everything; returns total rows or -1; *first = first block (caller frees). */
static long readall(const char *fmt, const char *types, const char *data, int max_rows, block **first)
{
    fmt_settings st;
    fmt_settings_default(&st);
    if (max_rows)
        st.max_block_rows = max_rows;
    const char *c = types;
    schema *s = schema_new(0);
    /* parse "a T; b T" */
    int n = 0;
    char names[16][32];
    const type *ts[16];
    while (*c) {
        const char *sp = strchr(c, ' ');
        const char *semi = strchr(c, ';');
        size_t tl = semi ? (size_t)(semi - sp - 1) : strlen(sp + 1);
        snprintf(names[n], 32, "%.*s", (int)(sp - c), c);
        ts[n] = type_parse(sp + 1, tl);
        n++;
        c = semi ? semi + 2 : sp + 1 + tl;
    }
    schema_free(s);
    s = schema_new(n);
    for (int i = 0; i < n; i++)
        schema_set(s, i, names[i], ts[i]);
    fmt_reader *r;
    long rows = 0;
    if (first)
        *first = NULL;
    if (fmt_reader_new(fmt, mk(data), s, &st, &r)) {
        schema_free(s);
        return -1;
    }
    schema_free(s);
    for (;;) {
        block *b;
        if (fmt_reader_next(r, &b)) {
            rows = -1;
            break;
        }
        if (!b)
            break;
        rows += (long)b->rows;
        if (first && !*first)
            *first = b;
        else
            block_free(b);
    }
    fmt_reader_free(r);
    return rows;
}

int main(void)
{
    /* inference: expected strings are chdb's DESCRIBE output */
    CHECK_STR(infer("CSVWithNames", "a,b,c,d,e,f\n1,2.5,x,2020-01-01,2020-01-01 00:00:00,true\n"),
              "a Nullable(Int64), b Nullable(Float64), c Nullable(String), d Nullable(Date), e Nullable(DateTime), "
              "f Nullable(Bool)");
    CHECK_STR(infer("CSV", "1,\"a\",\\N,[1,2]\n"),
              "c1 Nullable(Int64), c2 Nullable(String), c3 Nullable(String), c4 Nullable(String), c5 Nullable(String)");
    CHECK_STR(infer("TSV", "1\t2.5\tx\t[1,2]\n"),
              "c1 Nullable(Int64), c2 Nullable(Float64), c3 Nullable(String), c4 Array(Nullable(Int64))");
    CHECK_STR(infer("JSONEachRow", "{\"a\":1,\"b\":2.5,\"c\":\"x\",\"d\":true,\"e\":[1,2],\"f\":\"2020-01-01\",\"g\":null}"),
              "a Nullable(Int64), b Nullable(Float64), c Nullable(String), d Nullable(Bool), e Array(Nullable(Int64)), "
              "f Nullable(Date), g Nullable(String)");
    CHECK_STR(infer("CSV", "\"1\",\"2.5\",\"2020-01-01\",\"true\"\n"),
              "c1 Nullable(String), c2 Nullable(String), c3 Nullable(Date), c4 Nullable(String)");
    CHECK_STR(infer("CSV", "1,1,1,2020-01-01,true,1\n2.5,x,,2020-01-01 00:00:00,1,99999999999999999999\n"),
              "c1 Nullable(Float64), c2 Nullable(String), c3 Nullable(Int64), c4 Nullable(DateTime), c5 Nullable(String), "
              "c6 Nullable(Float64)");
    CHECK_STR(infer("TSV", "1\t\\N\t2020-01-01 00:00:00.123\ttrue\t['a']\n"),
              "c1 Nullable(Int64), c2 Nullable(String), c3 Nullable(DateTime64(9)), c4 Nullable(Bool), "
              "c5 Array(Nullable(String))");
    CHECK_STR(infer("JSONEachRow", "{\"a\":1}\n{\"a\":2.5,\"b\":\"2020-01-01 00:00:00\"}\n{\"d\":[],\"e\":\"1\"}"),
              "a Nullable(Float64), b Nullable(DateTime), d Array(Nullable(String)), e Nullable(String)");
    CHECK_STR(infer("CSVWithNamesAndTypes", "a,b\nUInt8,String\n1,x\n"), "a UInt8, b String");
    CHECK_STR(infer("TSVWithNames", "a\tb\n1\tx\n"), "a Nullable(Int64), b Nullable(String)");
    CHECK_STR(infer("CSV", ""), "ERR 636");
    CHECK_STR(infer("JSONEachRow", "{\"a\":1e10,\"b\":-5,\"c\":true,\"d\":[true,false],\"e\":[[1],[2,3]],\"f\":[1,2.5]}"),
              "a Nullable(Float64), b Nullable(Int64), c Nullable(Bool), d Array(Nullable(Bool)), "
              "e Array(Array(Nullable(Int64))), f Array(Nullable(Float64))");
    CHECK_STR(infer("CSV", "-1,1e5,inf,nan,0x10, 1 \n"),
              "c1 Nullable(Int64), c2 Nullable(String), c3 Nullable(Float64), c4 Nullable(Float64), c5 Nullable(String), "
              "c6 Nullable(Int64)");

    /* CSV reading: quoting, "" escapes, CRLF, no final newline, empty and \N as NULL */
    block *b;
    const char *csv = "1,\"a,\"\"b\"\"\r\nc\",\\N\r\n2,plain,\n3,\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\",7";
    CHECK(readall("CSV", "x UInt32; s String; n Nullable(Int64)", csv, 0, &b) == 3);
    if (b) {
        size_t l;
        const char *v = col_str(b->cols[1], 0, &l);
        CHECK(l == 8 && memcmp(v, "a,\"b\"\r\nc", 8) == 0);
        CHECK(col_is_null(b->cols[2], 0) && col_is_null(b->cols[2], 1) && !col_is_null(b->cols[2], 2));
        CHECK(COL_DATA(b->cols[2]->inner, int64_t)[2] == 7 && COL_DATA(b->cols[0], uint32_t)[2] == 3);
        CHECK(col_str(b->cols[1], 2, &l) && l == 80);
        block_free(b);
    }
    /* block size limit */
    CHECK(readall("CSV", "x Int32", "1\n2\n3\n4\n5\n", 2, &b) == 5 && b && b->rows == 2);
    block_free(b);
    /* errors name the row */
    CHECK(readall("CSV", "x Int32; y String", "1,a\n2\n", 0, &b) == -1 && err_code() == ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED &&
          strstr(err_msg(), "(at row 2"));
    block_free(b);
    CHECK(readall("CSV", "x UInt8", "1\n2\nabc\n", 0, &b) == -1 && strstr(err_msg(), "(at row 3)") &&
          strstr(err_msg(), "name: x, type: UInt8"));
    block_free(b);
    CHECK(readall("CSV", "x Int32", "1,2\n", 0, &b) == -1 && err_code() == ERR_INCORRECT_DATA);
    CHECK(readall("CSV", "x String", "\"abc", 0, &b) == -1);
    /* CSVWithNames maps by name; missing columns get defaults */
    CHECK(readall("CSVWithNames", "b String; a Int32; z Int32", "a,b\n5,x\n", 0, &b) == 1);
    if (b) {
        CHECK(COL_DATA(b->cols[1], int32_t)[0] == 5 && COL_DATA(b->cols[2], int32_t)[0] == 0);
        block_free(b);
    }
    /* TSV escapes, \N, arrays */
    CHECK(readall("TSV", "s String; n Nullable(Int8); a Array(String)", "a\\tb\\\\\t\\N\t['x','y']\nq\t5\t[]\n", 0, &b) == 2);
    if (b) {
        size_t l;
        const char *v = col_str(b->cols[0], 0, &l);
        CHECK(l == 4 && memcmp(v, "a\tb\\", 4) == 0);
        CHECK(col_is_null(b->cols[1], 0) && !col_is_null(b->cols[1], 1) && b->cols[2]->inner->len == 2);
        block_free(b);
    }
    CHECK(readall("TSVRaw", "s String", "a\\tb\n", 0, &b) == 1);
    if (b) {
        size_t l;
        col_str(b->cols[0], 0, &l);
        CHECK(l == 4);
        block_free(b);
    }
    /* JSONEachRow: any field order, unknown skipped, missing → default, escapes */
    const char *js = "{\"b\":\"h\\u00e9\\n\",\"a\":1,\"zz\":{\"q\":[1]}}\n{\"a\":2,\"c\":[1,2]}\n[{\"a\":3,\"b\":null}]";
    CHECK(readall("JSONEachRow", "a Int64; b String; c Array(UInt8)", js, 0, &b) == 3);
    if (b) {
        size_t l;
        const char *v = col_str(b->cols[1], 0, &l);
        CHECK(l == 4 && memcmp(v, "h\xc3\xa9\n", 4) == 0);
        CHECK(COL_DATA(b->cols[0], int64_t)[2] == 3 && b->cols[2]->inner->len == 2);
        block_free(b);
    }
    CHECK(readall("JSONEachRow", "a Int64", "{\"a\":1,\"a\":2}", 0, &b) == -1 && err_code() == ERR_INCORRECT_DATA);
    CHECK(readall("JSONEachRow", "a Int64", "{\"a\" 1}", 0, &b) == -1 &&
          err_code() == ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED);

    CHECK(fmt_from_filename("/x/data.csv.gz") && strcmp(fmt_from_filename("/x/data.csv.gz"), "CSV") == 0);
    CHECK(strcmp(fmt_from_filename("a.ndjson"), "JSONEachRow") == 0 && strcmp(fmt_from_filename("a.JSONL"), "JSONEachRow") == 0);
    CHECK(strcmp(fmt_from_filename("a.parquet.zst"), "Parquet") == 0 && fmt_from_filename("a.txt") == NULL);
    CHECK(strcmp(fmt_input_canonical("TSV"), "TabSeparated") == 0 && fmt_input_canonical("Bogus") == NULL);

    size_t off;
    CHECK(fmt_find_row_start("CSV", "\"a\nb\"\n2,\"x\"\n", 13, &off) == 0 && off == 6);
    CHECK(fmt_find_row_start("TSV", "abc\tx\ny", 7, &off) == 0 && off == 6);
    CHECK(fmt_find_row_start("JSONEachRow", "1}\n{\"a\":2}", 10, &off) == 0 && off == 3);
    CHECK(fmt_find_row_start("TSV", "abc", 3, &off) == 1);
    return check_done("formats_in");
}
