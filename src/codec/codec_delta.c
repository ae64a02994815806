/* Delta (0x92): [width][bytes_to_skip][the first n % width bytes as is][value - previous
 * value, little-endian, wrapping] — the first value is stored as its difference from 0. */
#include "codec/codec_int.h"

#include <string.h>

void mt_delta_encode(int width, const uint8_t *src, size_t n, buf *out)
{
    size_t skip = n % (size_t)width;
    uint8_t *d = buf_grow(out, 2 + n);
    d[0] = (uint8_t)width;
    d[1] = (uint8_t)skip;
    memcpy(d + 2, src, skip);
    d += 2 + skip;
    const uint8_t *s = src + skip, *end = src + n;
    uint64_t prev = 0;
    /* switch outside the loops: the common widths get their own loop */
    switch (width) {
    case 1:
        for (uint8_t p = 0; s < end; s++, d++) {
            *d = (uint8_t)(*s - p);
            p = *s;
        }
        break;
    default:
        for (; s < end; s += width, d += width) {
            uint64_t v = mt_load_le(s, width);
            mt_store_le(d, width, v - prev);
            prev = v;
        }
    }
}

int mt_delta_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dn)
{
    if (n < 2)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress Delta-encoded data: %zu bytes is shorter than its header", n);
    int width = src[0];
    if (width != 1 && width != 2 && width != 4 && width != 8)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress Delta-encoded data: value width %d is not 1, 2, 4 or 8", width);
    size_t skip = dn % (size_t)width;
    if (2 + skip > n || n - 2 - skip != dn - skip)
        return err_set(ERR_CANNOT_DECOMPRESS,
                       "Cannot decompress Delta-encoded data: %zu bytes of data for %zu bytes of values", n, dn);
    memcpy(dst, src + 2, skip);
    const uint8_t *s = src + 2 + skip;
    uint8_t *d = dst + skip, *end = dst + dn;
    uint64_t acc = 0;
    if (width == 1) {
        uint8_t a = 0;
        for (; d < end; d++, s++) {
            a = (uint8_t)(a + *s);
            *d = a;
        }
        return 0;
    }
    for (; d < end; d += width, s += width) {
        acc += mt_load_le(s, width);
        mt_store_le(d, width, acc);
    }
    return 0;
}
