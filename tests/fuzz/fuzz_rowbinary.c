/* libFuzzer target: read the bytes as RowBinaryWithNamesAndTypes (schema from the header),
 * and as RowBinary / RowBinaryWithNames with a fixed schema of nested types; whatever reads
 * back is written again. */

#include "base/err.h"
#include "format/format.h"

#include <string.h>

static int discard(outstream *s, const void *p, size_t n) { return 0; }

static void read_with(const char *format, const uint8_t *d, size_t n, const schema *s, const fmt_settings *st)
{
    fmt_reader *r;
    if (fmt_reader_new(format, rbuf_new(instream_from_memory(d, n, "fuzz"), 64), s, st, &r))
        return;
    outstream out = {discard, NULL, "null", 0};
    fmt_writer *w = NULL;
    block *b;
    while (fmt_reader_next(r, &b) == 0 && b) {
        if (!w && fmt_writer_new(format, s, st, &out, &w))
            w = NULL;
        if (w)
            fmt_writer_write(w, b);
        block_free(b);
    }
    if (w) {
        fmt_writer_finish(w, NULL);
        fmt_writer_free(w);
    }
    fmt_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    fmt_settings st;
    fmt_settings_default(&st);
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    static const char *const types[] = {"Nullable(String)", "Array(Tuple(UInt8, LowCardinality(String)))",
                                        "FixedString(3)", "Array(Array(Nullable(Int32)))", "Decimal(38, 4)"};
    schema *fixed = schema_new(5);
    for (int i = 0; i < 5; i++)
        schema_set(fixed, i, names[i], type_parse(types[i], strlen(types[i])));
    read_with("RowBinary", d, n, fixed, &st);
    read_with("RowBinaryWithNames", d, n, fixed, &st);
    schema_free(fixed);
    schema *s;
    rbuf *in = rbuf_new(instream_from_memory(d, n, "fuzz"), 64);
    int rc = fmt_infer_schema("RowBinaryWithNamesAndTypes", in, &st, &s);
    rbuf_free(in);
    if (rc) {
        err_clear();
        return 0;
    }
    read_with("RowBinaryWithNamesAndTypes", d, n, s, &st);
    schema_free(s);
    return 0;
}
