/* libFuzzer target: parses the bytes as a backup's `.backup` file (backup/ch_meta.h) and, when
 * that succeeds, formats it again and parses the result, which must give the same entries. */
#include "backup/ch_meta.h"
#include "base/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    ch_meta m;
    if (ch_meta_parse((const char *)d, n, "fuzz", &m))
        return 0;
    buf b = {0};
    ch_meta_format(&m, &b);
    ch_meta again;
    if (ch_meta_parse((const char *)b.p, b.len, "fuzz", &again))
        abort(); /* what we write, we read */
    if (again.n != m.n)
        abort();
    for (size_t i = 0; i < m.n; i++)
        if (strcmp(again.files[i].name, m.files[i].name) || again.files[i].size != m.files[i].size ||
            again.files[i].use_base != m.files[i].use_base)
            abort();
    ch_meta_free(&again);
    ch_meta_free(&m);
    buf_free(&b);
    return 0;
}
