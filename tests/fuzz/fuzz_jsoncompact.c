/* libFuzzer target: read the bytes as JSONCompactEachRow and its WithNames / WithNamesAndTypes
 * variants with a fixed schema of nested types (these formats have no inference yet). */
#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    fmt_settings st;
    fmt_settings_default(&st);
    st.max_block_rows = 7;
    schema *s = fuzz_nested_schema();
    fuzz_read_with("JSONCompactEachRow", d, n, s, &st, true);
    fuzz_read_with("JSONCompactEachRowWithNames", d, n, s, &st, true);
    fuzz_read_with("JSONCompactEachRowWithNamesAndTypes", d, n, s, &st, true);
    schema_free(s);
    return 0;
}
