/* DoubleDelta (0x94): [width][bytes_to_skip][skipped bytes][UInt32 count][first value]
 * [first delta] then, MSB-first, per further value the delta-of-deltas dd (wrapping in the
 * value width): 0 -> '0'; otherwise a prefix picking the size (10: 7 bits, 110: 9,
 * 1110: 12, 11110: 32, 11111: 64), the sign bit and |dd| - 1 in size - 1 bits. */
#include "codec/codec_int.h"

#include <string.h>

static inline int64_t sext(uint64_t v, int width)
{
    if (width == 8)
        return (int64_t)v;
    unsigned sh = 64 - 8 * (unsigned)width;
    return (int64_t)(v << sh) >> sh;
}

static inline uint64_t mask_w(int width) { return width == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * width)) - 1; }

void mt_doubledelta_encode(int width, const uint8_t *src, size_t n, buf *out)
{
    size_t skip = n % (size_t)width;
    uint8_t *h = buf_grow(out, 2 + skip);
    h[0] = (uint8_t)width;
    h[1] = (uint8_t)skip;
    memcpy(h + 2, src, skip);
    const uint8_t *s = src + skip, *end = src + n;
    uint32_t count = (uint32_t)((n - skip) / (size_t)width);
    mt_store_le(buf_grow(out, 4), 4, count);
    uint64_t m = mask_w(width), prev = 0, prev_delta = 0;
    if (s < end) {
        prev = mt_load_le(s, width);
        mt_store_le(buf_grow(out, (size_t)width), width, prev);
        s += width;
    }
    if (s < end) {
        uint64_t v = mt_load_le(s, width);
        prev_delta = (v - prev) & m;
        mt_store_le(buf_grow(out, (size_t)width), width, prev_delta);
        prev = v;
        s += width;
    }
    mt_bitw w = {out, 0, 0};
    for (; s < end; s += width) {
        uint64_t v = mt_load_le(s, width);
        uint64_t delta = (v - prev) & m, dd = (delta - prev_delta) & m;
        prev_delta = delta;
        prev = v;
        if (dd == 0) {
            mt_bitw_put(&w, 1, 0);
            continue;
        }
        int64_t sd = sext(dd, width);
        unsigned prefix_bits, prefix, data_bits;
        if (sd > -63 && sd < 64)
            prefix_bits = 2, prefix = 0x2, data_bits = 7;
        else if (sd > -255 && sd < 256)
            prefix_bits = 3, prefix = 0x6, data_bits = 9;
        else if (sd > -2047 && sd < 2048)
            prefix_bits = 4, prefix = 0xe, data_bits = 12;
        else if (sd > INT32_MIN && sd < INT32_MAX)
            prefix_bits = 5, prefix = 0x1e, data_bits = 32;
        else
            prefix_bits = 5, prefix = 0x1f, data_bits = 64;
        uint64_t mag = sd < 0 ? (uint64_t)0 - (uint64_t)sd : (uint64_t)sd;
        mt_bitw_put(&w, prefix_bits, prefix);
        mt_bitw_put(&w, 1, sd < 0);
        mt_bitw_put(&w, data_bits - 1, mag - 1);
    }
    mt_bitw_flush(&w);
}

int mt_doubledelta_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dn)
{
    int width = 1;
    size_t count = 0;
    const uint8_t *s = src, *end = src + n;
    if (mt_bitcodec_header("DoubleDelta", src, n, dst, dn, &width, &s, &count))
        return -1;
    if (count == 0)
        return 0;
    uint8_t *d = dst + dn % (size_t)width;
    uint64_t m = mask_w(width);
    if (end - s < width)
        goto short_data;
    uint64_t prev = mt_load_le(s, width), prev_delta = 0;
    mt_store_le(d, width, prev);
    s += width;
    d += width;
    if (count < 2)
        return 0;
    if (end - s < width)
        goto short_data;
    prev_delta = mt_load_le(s, width);
    prev = (prev + prev_delta) & m;
    mt_store_le(d, width, prev);
    s += width;
    d += width;
    mt_bitr r = {s, (size_t)(end - s) * 8, 0, false};
    for (size_t i = 2; i < count; i++) {
        unsigned ones = 0;
        while (ones < 5 && mt_bitr_get(&r, 1))
            ones++;
        uint64_t dd = 0;
        if (ones) {
            /* ones before the 0: 10, 110, 1110, 11110; 11111 has no 0 */
            unsigned db;
            switch (ones) {
            case 1: db = 7; break;
            case 2: db = 9; break;
            case 3: db = 12; break;
            case 4: db = 32; break;
            default: db = 64; break;
            }
            uint64_t sign = mt_bitr_get(&r, 1);
            dd = mt_bitr_get(&r, db - 1) + 1;
            if (sign)
                dd = (uint64_t)0 - dd;
        }
        if (r.overrun)
            goto short_data;
        uint64_t delta = (dd + prev_delta) & m;
        uint64_t v = (prev + delta) & m;
        mt_store_le(d, width, v);
        d += width;
        prev_delta = delta;
        prev = v;
    }
    return 0;
short_data:
    return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress DoubleDelta-encoded data: the data ends before its %zu values", count);
}
