/* libFuzzer target: infer a Parquet schema from the bytes and read every block; and the
 * page-index decoder over the bytes (first half as an OffsetIndex, second half as a
 * ColumnIndex). */
#include "base/err.h"
#include "format/format.h"
#include "format/parquet/thrift.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    pq_page_index_free(pq_page_index_decode(d, n / 2, 0, d + n / 2, n - n / 2, n / 2, "fuzz.parquet"));
    err_clear();
    fmt_settings st;
    fmt_settings_default(&st);
    schema *s;
    rbuf *in = rbuf_new(instream_from_memory(d, n, "fuzz.parquet"), 64);
    int rc = fmt_infer_schema("Parquet", in, &st, &s);
    rbuf_free(in);
    if (rc)
        return 0;
    fmt_reader *r;
    if (fmt_reader_new("Parquet", rbuf_new(instream_from_memory(d, n, "fuzz.parquet"), 64), s, &st, &r) == 0) {
        block *b;
        while (fmt_reader_next(r, &b) == 0 && b)
            block_free(b);
        fmt_reader_free(r);
    }
    schema_free(s);
    return 0;
}
