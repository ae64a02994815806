/* libFuzzer target: arbitrary bytes as a MergeTree compressed file. Every block is read with
 * mt_block_header / mt_decompress_block; a second pass recomputes each block's checksum so
 * the codec decoders (Multiple chains, Delta, DoubleDelta, Gorilla, T64, LZ4, ZSTD) see the
 * corrupted data instead of stopping at the checksum. */
#include "base/err.h"
#include "codec/compress.h"

#include <stdlib.h>
#include <string.h>

static void walk(const uint8_t *d, size_t n)
{
    buf out = {0};
    size_t off = 0;
    while (off < n) {
        uint32_t cs, us;
        if (mt_block_header(d + off, n - off, &cs, &us, "fuzz", off))
            break;
        out.len = 0;
        if (mt_decompress_block(d + off, n - off, &out, "fuzz", off))
            break;
        off += 16 + (size_t)cs;
    }
    buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    walk(d, n);
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, d, n);
    size_t off = 0;
    while (off + 25 <= n) {
        uint32_t cs, us;
        if (mt_block_header(copy + off, n - off, &cs, &us, "fuzz", off) || n - off - 16 < cs)
            break;
        u128 h = cityhash128_v102(copy + off + 16, cs);
        memcpy(copy + off, &h.lo, 8);
        memcpy(copy + off + 8, &h.hi, 8);
        off += 16 + (size_t)cs;
    }
    walk(copy, n);
    free(copy);
    err_clear();
    return 0;
}
