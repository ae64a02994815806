/* libFuzzer target: read the bytes as RowBinary and RowBinaryWithNames with a fixed schema of
 * nested types, and as RowBinaryWithNamesAndTypes with the schema of its header; whatever
 * reads back is written again. */
#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    fmt_settings st;
    fmt_settings_default(&st);
    st.max_block_rows = 7;
    schema *fixed = fuzz_nested_schema();
    fuzz_read_with("RowBinary", d, n, fixed, &st, true);
    fuzz_read_with("RowBinaryWithNames", d, n, fixed, &st, true);
    schema_free(fixed);
    schema *s;
    rbuf *in = rbuf_new(instream_from_memory(d, n, "fuzz"), 64);
    int rc = fmt_infer_schema("RowBinaryWithNamesAndTypes", in, &st, &s);
    rbuf_free(in);
    if (rc) {
        err_clear();
        return 0;
    }
    fuzz_read_with("RowBinaryWithNamesAndTypes", d, n, s, &st, true);
    schema_free(s);
    return 0;
}
