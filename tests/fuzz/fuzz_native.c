/* libFuzzer target: infer a Native schema from the bytes, then read every block, both with
 * the inferred schema and without one; whatever reads back is written again. */
#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    fmt_settings st;
    fmt_settings_default(&st);
    fuzz_read_with("Native", d, n, NULL, &st, true);
    schema *s;
    rbuf *in = rbuf_new(instream_from_memory(d, n, "fuzz"), 64);
    int rc = fmt_infer_schema("Native", in, &st, &s);
    rbuf_free(in);
    if (rc)
        return 0;
    fuzz_read_with("Native", d, n, s, &st, true);
    schema_free(s);
    return 0;
}
