/* CSV/TSV header detection (input_format_csv/tsv_detect_header) and CSV quoted-value
 * inference. Expected strings are ClickHouse 26.7's (chdb) DESCRIBE / SELECT output. */
#include "check.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/text.h"
#include "format/format.h"

#include <string.h>

static rbuf *mk(const char *s) { return rbuf_new(instream_from_memory(s, strlen(s), "mem"), 16); }

/* Infers the schema, then reads the data with it; returns "a T, b T | v1 v2; v1 v2; " or
 * "ERR code". */
static char got[4096];
static const char *run(const char *fmt, const char *data, bool detect)
{
    fmt_settings st;
    fmt_settings_default(&st);
    st.csv_detect_header = st.tsv_detect_header = detect;
    schema *s;
    rbuf *r = mk(data);
    int rc = fmt_infer_schema(fmt, r, &st, &s);
    rbuf_free(r);
    if (rc) {
        snprintf(got, sizeof got, "ERR %d", err_code());
        return got;
    }
    buf o = {0};
    for (int i = 0; i < s->n; i++)
        buf_printf(&o, "%s%s %s", i ? ", " : "", s->names[i], s->types[i]->name);
    buf_puts(&o, " |");
    fmt_reader *rd;
    text_opts to;
    text_opts_default(&to);
    if (fmt_reader_new(fmt, mk(data), s, &st, &rd) == 0) {
        block *b;
        int rc2;
        while ((rc2 = fmt_reader_next(rd, &b)) == 0 && b) {
            for (size_t row = 0; row < b->rows; row++) {
                for (int c = 0; c < b->ncols; c++) {
                    buf_putc(&o, ' ');
                    text_write(&o, b->cols[c], row, TEXT_TSV, &to);
                }
                buf_putc(&o, ';');
            }
            block_free(b);
        }
        if (rc2)
            buf_printf(&o, "ERR %d", err_code());
        fmt_reader_free(rd);
    }
    schema_free(s);
    snprintf(got, sizeof got, "%.*s", (int)o.len, o.p);
    buf_free(&o);
    return got;
}

/* Reads with an explicit structure ("a T; b T"). */
static const char *read_as(const char *fmt, const char *names, const char *t1, const char *t2, const char *data)
{
    fmt_settings st;
    fmt_settings_default(&st);
    schema *s = schema_new(t2 ? 2 : 1);
    schema_set(s, 0, names[0] == 'a' ? "a" : "b", type_parse_cstr(t1));
    if (t2)
        schema_set(s, 1, names[0] == 'a' ? "b" : "a", type_parse_cstr(t2));
    fmt_reader *rd;
    text_opts to;
    text_opts_default(&to);
    buf o = {0};
    if (fmt_reader_new(fmt, mk(data), s, &st, &rd) == 0) {
        block *b;
        int rc;
        while ((rc = fmt_reader_next(rd, &b)) == 0 && b) {
            for (size_t row = 0; row < b->rows; row++) {
                for (int c = 0; c < b->ncols; c++) {
                    buf_putc(&o, ' ');
                    text_write(&o, b->cols[c], row, TEXT_TSV, &to);
                }
                buf_putc(&o, ';');
            }
            block_free(b);
        }
        if (rc)
            buf_printf(&o, "ERR %d", err_code());
        fmt_reader_free(rd);
    }
    schema_free(s);
    snprintf(got, sizeof got, "%.*s", (int)o.len, o.p);
    buf_free(&o);
    return got;
}

int main(void)
{
    /* header over numbers: detected, and the reader skips it */
    CHECK_STR(run("CSV", "a,b\n1,2\n", true), "a Nullable(Int64), b Nullable(Int64) | 1 2;");
    CHECK_STR(run("CSV", "a,b\nx,1\n", true), "a Nullable(String), b Nullable(Int64) | x 1;");
    /* setting off: plain data */
    CHECK_STR(run("CSV", "a,b\n1,2\n", false), "c1 Nullable(String), c2 Nullable(String) | a b; 1 2;");
    /* all-String data: row 2 decides, so no header even if later rows are numbers */
    CHECK_STR(run("CSV", "a,b\nx,y\n1,2\n", true), "c1 Nullable(String), c2 Nullable(String) | a b; x y; 1 2;");
    /* one row: never a header */
    CHECK_STR(run("CSV", "a,b\n", true), "c1 Nullable(String), c2 Nullable(String) | a b;");
    /* row 1 with an empty value: not a header */
    CHECK_STR(run("CSV", "a,\nx,1\n", true), "c1 Nullable(String), c2 Nullable(Int64) | a \\N; x 1;");
    /* NULLs in row 2 are filled from later rows */
    CHECK_STR(run("CSV", "a,b\nx,\\N\nz,1\n", true), "a Nullable(String), b Nullable(Int64) | x \\N; z 1;");
    CHECK_STR(run("CSV", "a,b\nx,\\N\n", true), "c1 Nullable(String), c2 Nullable(String) | a b; x \\N;");
    CHECK_STR(run("CSV", "a,b\n,\n1,2\n", true), "a Nullable(Int64), b Nullable(Int64) | \\N \\N; 1 2;");
    CHECK_STR(run("CSV", "a,b\nx,\n,y\n1,2\n", true),
              "c1 Nullable(String), c2 Nullable(String) | a b; x \\N; \\N y; 1 2;");
    /* names and types */
    CHECK_STR(run("CSV", "a,b\nString,UInt8\n1,2\n", true), "a String, b UInt8 | 1 2;");
    CHECK_STR(run("TSV", "a\tb\nString\tUInt8\nx\t1\n", true), "a String, b UInt8 | x 1;");
    CHECK_STR(run("CSV", "a,b\nString,UInt8\n", true), "c1 Nullable(String), c2 Nullable(String) | a b; String UInt8;");
    CHECK_STR(run("CSV", "a,b\nString,UInt8\nx,y\n", true),
              "c1 Nullable(String), c2 Nullable(String) | a b; String UInt8; x y;");
    CHECK_STR(run("CSV", "a,b\nString,Foo\n1,2\n", true),
              "c1 Nullable(String), c2 Nullable(String) | a b; String Foo; 1 2;");
    /* quoted header values are Strings; a header over quoted digits */
    CHECK_STR(run("CSV", "\"a\",\"b\"\n\"1\",2\n", true), "a Nullable(String), b Nullable(Int64) | 1 2;");
    /* TSV */
    CHECK_STR(run("TSV", "a\tb\n1\t2\n", true), "a Nullable(Int64), b Nullable(Int64) | 1 2;");
    CHECK_STR(run("TSV", "a\n1\nx\n", true), "a Nullable(String) | 1; x;");
    /* the reader recognises column names even when inference did not see a header */
    CHECK_STR(run("CSV", "c1,c2\nx,y\n", true), "c1 Nullable(String), c2 Nullable(String) | x y;");
    /* errors */
    CHECK_STR(run("CSV", "a,a\n1,2\n", true), "ERR 636");
    CHECK_STR(run("CSV", "a,b\n1,2,3\n", true), "ERR 636");
    CHECK_STR(run("CSV", "1,2\n\n3,4\n", true), "ERR 636");
    CHECK_STR(run("CSV", "a,b,c\nx,,\n,1\n", true), "ERR 636");
    /* rows 1 and 2 of different length without a header: row 2 sets the columns */
    CHECK_STR(run("CSV", "a,b\nx,y,z\n", true), "c1 Nullable(String), c2 Nullable(String), c3 Nullable(String) |ERR 27");
    /* an empty header name drops the column */
    CHECK_STR(run("CSV", "a,\"\"\n1,2\n", true), "a Nullable(Int64) | 1;");

    /* CSV quoting: numbers and Bool in quotes are Strings, dates and arrays are not */
    CHECK_STR(run("CSV", "0,\"0\"\n", true), "c1 Nullable(Int64), c2 Nullable(String) | 0 0;");
    CHECK_STR(run("CSV", "\"true\",\"2020-01-01\",\"[1,2]\",\"\",'1','2020-01-01',\"1.5\",[1],\"[]\"\n", true),
              "c1 Nullable(String), c2 Nullable(Date), c3 Array(Nullable(Int64)), c4 Nullable(String), "
              "c5 Nullable(String), c6 Nullable(Date), c7 Nullable(String), c8 Nullable(String), c9 Nullable(String) "
              "| true 2020-01-01 [1,2]  \\'1\\' 2020-01-01 1.5 [1] [];");
    /* quoted \N is text; unquoted empty is NULL for Nullable(String), quoted "" is empty */
    CHECK_STR(run("CSV", "\"\\N\",\\N,,\"\"\n", true),
              "c1 Nullable(String), c2 Nullable(String), c3 Nullable(String), c4 Nullable(String) | \\\\N \\N \\N ;");

    /* explicit structure: header matched by names (either set containing the other) */
    CHECK_STR(read_as("CSV", "ab", "String", "String", "a,b\nx,y\n"), " x y;");
    CHECK_STR(read_as("CSV", "ba", "String", "String", "a,b\nx,y\n"), " y x;");
    CHECK_STR(read_as("CSV", "a", "String", NULL, "a,b\nx,y\n"), " x;");
    CHECK_STR(read_as("CSV", "ab", "String", "String", "a,z\nx,y\n"), " a z; x y;");
    CHECK_STR(read_as("CSV", "ab", "String", "String", "a,b\nString,UInt8\n1,2\n"), "ERR 117");
    CHECK_STR(read_as("CSV", "ab", "String", "UInt8", "a,b\nString,UInt8\n1,2\n"), " 1 2;");
    return check_done("formats_header");
}
