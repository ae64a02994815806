/* libFuzzer target: infer a CSVWithNames schema from the bytes, then read every block with it. */

#include "base/err.h"
#include "format/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    fmt_settings st;
    fmt_settings_default(&st);
    st.max_block_rows = 7; /* many small blocks */
    schema *s;
    rbuf *in = rbuf_new(instream_from_memory(d, n, "fuzz"), 64);
    int rc = fmt_infer_schema("CSVWithNames", in, &st, &s);
    rbuf_free(in);
    if (rc)
        return 0;
    fmt_reader *r;
    if (fmt_reader_new("CSVWithNames", rbuf_new(instream_from_memory(d, n, "fuzz"), 64), s, &st, &r) == 0) {
        block *b;
        while (fmt_reader_next(r, &b) == 0 && b)
            block_free(b);
        fmt_reader_free(r);
    }
    schema_free(s);
    return 0;
}
