/* Shared body of the text-reader fuzz targets: infer a schema from the bytes with the
 * given format, then read every block with it (small blocks and a small buffer, so that
 * refills and block boundaries are exercised). Never crashes, never leaks. */
#ifndef SHALE_FUZZ_READER_FUZZ_H
#define SHALE_FUZZ_READER_FUZZ_H

#include "base/err.h"
#include "format/format.h"

#include <string.h>

static inline int fuzz_discard(outstream *s, const void *p, size_t n) { return 0; }

/* Reads every block of the bytes as format with schema s (NULL: the data's own); with a
 * schema and rewrite, whatever reads back is written again in the same format. */
static inline void fuzz_read_with(const char *format, const uint8_t *d, size_t n, const schema *s,
                                  const fmt_settings *st, bool rewrite)
{
    fmt_reader *r;
    if (fmt_reader_new(format, rbuf_new(instream_from_memory(d, n, "fuzz"), 64), s, st, &r))
        return;
    outstream out = {fuzz_discard, NULL, "null", 0};
    fmt_writer *w = NULL;
    block *b;
    while (fmt_reader_next(r, &b) == 0 && b) {
        if (rewrite && s && !w && fmt_writer_new(format, s, st, &out, &w))
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

/* A schema of nested types for the formats without inference: a Nullable(String),
 * Array(Tuple(UInt8, LowCardinality(String))), FixedString(3),
 * Array(Array(Nullable(Int32))), Decimal(38, 4). */
static inline schema *fuzz_nested_schema(void)
{
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    static const char *const types[] = {"Nullable(String)", "Array(Tuple(UInt8, LowCardinality(String)))",
                                        "FixedString(3)", "Array(Array(Nullable(Int32)))", "Decimal(38, 4)"};
    schema *s = schema_new(5);
    for (int i = 0; i < 5; i++)
        schema_set(s, i, names[i], type_parse(types[i], strlen(types[i])));
    return s;
}

static inline int fuzz_reader(const char *format, const uint8_t *d, size_t n)
{
    fmt_settings st;
    fmt_settings_default(&st);
    st.max_block_rows = 7;
    schema *s;
    rbuf *in = rbuf_new(instream_from_memory(d, n, "fuzz"), 64);
    int rc = fmt_infer_schema(format, in, &st, &s);
    rbuf_free(in);
    if (rc)
        return 0;
    fuzz_read_with(format, d, n, s, &st, false);
    schema_free(s);
    return 0;
}

#endif
