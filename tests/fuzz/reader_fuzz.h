/* Shared body of the text-reader fuzz targets: infer a schema from the bytes with the
 * given format, then read every block with it (small blocks and a small buffer, so that
 * refills and block boundaries are exercised). Never crashes, never leaks. */
#ifndef SHALE_FUZZ_READER_FUZZ_H
#define SHALE_FUZZ_READER_FUZZ_H

#include "base/err.h"
#include "format/format.h"

static int fuzz_reader(const char *format, const uint8_t *d, size_t n)
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
    fmt_reader *r;
    if (fmt_reader_new(format, rbuf_new(instream_from_memory(d, n, "fuzz"), 64), s, &st, &r) == 0) {
        block *b;
        while (fmt_reader_next(r, &b) == 0 && b)
            block_free(b);
        fmt_reader_free(r);
    }
    schema_free(s);
    return 0;
}

#endif
