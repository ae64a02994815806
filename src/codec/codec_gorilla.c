/* Gorilla (0x95): [width][bytes_to_skip][skipped bytes][UInt32 count][first value] then,
 * MSB-first, per further value x = value ^ previous: 0 -> '0'; when x's leading and
 * trailing zeros are at least the last stored ones -> '10' and the meaningful bits in the
 * last window; else '11', leading zeros (3/4/5/6 bits for widths 1/2/4/8), the meaningful
 * bit count (4/5/6/7 bits) and the meaningful bits. */
#include "codec/codec_int.h"

#include <string.h>

static inline unsigned lz_w(uint64_t v, int width) { return (unsigned)__builtin_clzll(v) - (64 - 8 * (unsigned)width); }
static const unsigned data_len_bits[9] = {0, 4, 5, 0, 6, 0, 0, 0, 7};

void mt_gorilla_encode(int width, const uint8_t *src, size_t n, buf *out)
{
    size_t skip = n % (size_t)width;
    uint8_t *h = buf_grow(out, 2 + skip);
    h[0] = (uint8_t)width;
    h[1] = (uint8_t)skip;
    memcpy(h + 2, src, skip);
    const uint8_t *s = src + skip, *end = src + n;
    mt_store_le(buf_grow(out, 4), 4, (uint32_t)((n - skip) / (size_t)width));
    uint64_t prev = 0;
    if (s < end) {
        prev = mt_load_le(s, width);
        mt_store_le(buf_grow(out, (size_t)width), width, prev);
        s += width;
    }
    unsigned dlb = data_len_bits[width], lzb = dlb - 1;
    unsigned plz = 0, pdata = 0, ptz = 0;
    mt_bitw w = {out, 0, 0};
    for (; s < end; s += width) {
        uint64_t v = mt_load_le(s, width), x = v ^ prev;
        prev = v;
        if (x == 0) {
            mt_bitw_put(&w, 1, 0);
            continue;
        }
        unsigned lz = lz_w(x, width), tz = (unsigned)__builtin_ctzll(x), data = 8 * (unsigned)width - lz - tz;
        if (pdata != 0 && plz <= lz && ptz <= tz) {
            mt_bitw_put(&w, 2, 2);
            mt_bitw_put(&w, pdata, x >> ptz);
        } else {
            mt_bitw_put(&w, 2, 3);
            mt_bitw_put(&w, lzb, lz);
            mt_bitw_put(&w, dlb, data);
            mt_bitw_put(&w, data, x >> tz);
            plz = lz, pdata = data, ptz = tz;
        }
    }
    mt_bitw_flush(&w);
}

int mt_gorilla_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dn)
{
    int width = 1;
    size_t count = 0;
    const uint8_t *s = src, *end = src + n;
    if (mt_bitcodec_header("Gorilla", src, n, dst, dn, &width, &s, &count))
        return -1;
    if (count == 0)
        return 0;
    uint8_t *d = dst + dn % (size_t)width;
    if (end - s < width)
        goto short_data;
    uint64_t prev = mt_load_le(s, width);
    mt_store_le(d, width, prev);
    d += width;
    s += width;
    unsigned dlb = data_len_bits[width], lzb = dlb - 1, bits = 8 * (unsigned)width;
    unsigned lz = 0, data = 0, tz = 0;
    mt_bitr r = {s, (size_t)(end - s) * 8, 0, false};
    for (size_t i = 1; i < count; i++) {
        if (mt_bitr_get(&r, 1)) {
            if (mt_bitr_get(&r, 1)) {
                lz = (unsigned)mt_bitr_get(&r, lzb);
                data = (unsigned)mt_bitr_get(&r, dlb);
                if (lz + data > bits)
                    return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress Gorilla-encoded data: corrupted input data (%u leading zeros and %u bits in a %u-bit value)", lz, data, bits);
                tz = bits - lz - data;
            }
            if (data == 0 && !r.overrun)
                return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress Gorilla-encoded data: corrupted input data.");
            uint64_t x = mt_bitr_get(&r, data);
            prev ^= tz >= 64 ? 0 : x << tz;
        }
        if (r.overrun)
            goto short_data;
        mt_store_le(d, width, prev);
        d += width;
    }
    return 0;
short_data:
    return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress Gorilla-encoded data: the data ends before its %zu values", count);
}
