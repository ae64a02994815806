/* libFuzzer target: infer a Native schema from the bytes, then read every block, both with
 * the inferred schema and without one; whatever reads back is written again. */

#include "base/err.h"
#include "format/format.h"

static int discard(outstream *s, const void *p, size_t n) { return 0; }

static void read_with(const uint8_t *d, size_t n, const schema *s, const fmt_settings *st)
{
    fmt_reader *r;
    if (fmt_reader_new("Native", rbuf_new(instream_from_memory(d, n, "fuzz"), 64), s, st, &r))
        return;
    outstream out = {discard, NULL, "null", 0};
    fmt_writer *w = NULL;
    block *b;
    while (fmt_reader_next(r, &b) == 0 && b) {
        if (s && !w && fmt_writer_new("Native", s, st, &out, &w))
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
    read_with(d, n, NULL, &st);
    schema *s;
    rbuf *in = rbuf_new(instream_from_memory(d, n, "fuzz"), 64);
    int rc = fmt_infer_schema("Native", in, &st, &s);
    rbuf_free(in);
    if (rc)
        return 0;
    read_with(d, n, s, &st);
    schema_free(s);
    return 0;
}
