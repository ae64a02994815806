/* T64 (0x93): [cookie: type magic | variant << 7][the first n % width bytes as is]
 * [min, max as 64-bit (sign-extended for signed types)] then per 64 values (the last group
 * zero-padded) a matrix of the value bits that min and max do not share: whole bytes as
 * 64-byte rows (byte k of every value), the last partial byte bit-transposed into one
 * UInt64 per bit; the 'bit' variant bit-transposes every row. Decoding restores the upper
 * bits from min (and from max for non-negative values when a signed range crosses 0). */
#include "codec/codec_int.h"

#include <string.h>

int mt_t64_magic_width(int magic, bool *is_signed)
{
    *is_signed = false;
    switch (magic) {
    case 1: case 17: return 1;                  /* UInt8, Enum8 */
    case 2: case 13: case 18: return 2;         /* UInt16, Date, Enum16 */
    case 3: case 14: case 21: return 4;         /* UInt32, DateTime, IPv4 */
    case 4: return 8;                           /* UInt64 */
    case 6: *is_signed = true; return 1;        /* Int8 */
    case 7: *is_signed = true; return 2;        /* Int16 */
    case 8: case 19: case 22: case 23: *is_signed = true; return 4; /* Int32, Decimal32, Date32, Time */
    case 9: case 15: case 20: case 24: *is_signed = true; return 8; /* Int64, DateTime64, Decimal64, Time64 */
    default: return 0;
    }
}

static inline uint64_t load_val(const uint8_t *p, int width, bool sgn)
{
    uint64_t v = mt_load_le(p, width);
    if (sgn && width < 8) {
        unsigned sh = 64 - 8 * (unsigned)width;
        v = (uint64_t)((int64_t)(v << sh) >> sh);
    }
    return v;
}

static unsigned bits_u(uint64_t min, uint64_t max)
{
    uint64_t d = min ^ max;
    return d ? 64 - (unsigned)__builtin_clzll(d) : 0;
}

static unsigned valuable_bits(uint64_t min, uint64_t max, bool sgn)
{
    if (sgn && (int64_t)min < 0 && (int64_t)max >= 0) {
        if ((int64_t)min + (int64_t)max >= 0)
            return bits_u(0, max) + 1;
        return bits_u(0, ~min) + 1;
    }
    return bits_u(min, max);
}

/* 64 bytes (one per value) -> 8 UInt64, bit b of word k = bit k of byte b. */
static void transpose8(const uint8_t *row, uint8_t *out)
{
    uint64_t w[8] = {0};
    for (unsigned i = 0; i < 64; i++)
        for (unsigned b = 0; b < 8; b++)
            w[b] |= (uint64_t)((row[i] >> b) & 1) << i;
    for (unsigned b = 0; b < 8; b++)
        mt_store_le(out + 8 * b, 8, w[b]);
}

static void untranspose8(const uint8_t *in, uint8_t *row)
{
    uint64_t w[8];
    for (unsigned b = 0; b < 8; b++)
        w[b] = mt_load_le(in + 8 * b, 8);
    for (unsigned i = 0; i < 64; i++) {
        unsigned v = 0;
        for (unsigned b = 0; b < 8; b++)
            v |= (unsigned)((w[b] >> i) & 1) << b;
        row[i] = (uint8_t)v;
    }
}

void mt_t64_encode(int magic, bool bit, const uint8_t *src, size_t n, buf *out)
{
    bool sgn;
    int width = mt_t64_magic_width(magic, &sgn);
    size_t skip = n % (size_t)width;
    buf_putc(out, (char)(uint8_t)(magic | (bit ? 0x80 : 0)));
    buf_append(out, src, skip);
    src += skip;
    n -= skip;
    if (n == 0)
        return;
    size_t count = n / (size_t)width;
    uint64_t min = load_val(src, width, sgn), max = min;
    for (size_t i = 1; i < count; i++) {
        uint64_t v = load_val(src + i * (size_t)width, width, sgn);
        if (sgn ? (int64_t)v < (int64_t)min : v < min)
            min = v;
        if (sgn ? (int64_t)v > (int64_t)max : v > max)
            max = v;
    }
    mt_store_le(buf_grow(out, 8), 8, min);
    mt_store_le(buf_grow(out, 8), 8, max);
    unsigned nb = valuable_bits(min, max, sgn);
    if (!nb)
        return;
    unsigned full = nb / 8, part = nb % 8;
    uint8_t m[8 * 64];
    for (size_t g = 0; g < count; g += 64) {
        size_t k = count - g < 64 ? count - g : 64;
        memset(m, 0, sizeof m);
        for (size_t c = 0; c < k; c++)
            for (int b = 0; b < width; b++)
                m[64 * b + c] = src[(g + c) * (size_t)width + (size_t)b];
        uint8_t *d = buf_grow(out, 8 * (size_t)nb);
        for (unsigned r = 0; r < full; r++, d += 64) {
            if (bit)
                transpose8(m + 64 * r, d);
            else
                memcpy(d, m + 64 * r, 64);
        }
        if (part) {
            uint8_t t[64];
            transpose8(m + 64 * full, t);
            memcpy(d, t, 8 * part);
        }
    }
}

int mt_t64_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dn)
{
    if (n < 1)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress T64-encoded data");
    int magic = src[0] & 0x7f;
    bool bit = src[0] >> 7, sgn;
    int width = mt_t64_magic_width(magic, &sgn);
    if (!width)
        return err_set(ERR_INCORRECT_DATA, "Bad magic number in T64 codec: %d", magic);
    src++, n--;
    size_t skip = dn % (size_t)width;
    if (skip > n)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress T64-encoded data: %zu bytes is shorter than its header", n);
    memcpy(dst, src, skip);
    src += skip, n -= skip, dst += skip, dn -= skip;
    if (dn == 0)
        return 0;
    if (n < 16)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress T64-encoded data: %zu bytes is shorter than its header", n);
    uint64_t min = mt_load_le(src, 8), max = mt_load_le(src + 8, 8);
    src += 16, n -= 16;
    size_t count = dn / (size_t)width;
    unsigned nb = valuable_bits(min, max, sgn);
    if (nb > 8 * (unsigned)width)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress T64-encoded data: min and max differ in %u bits of a %d-byte type", nb, width);
    if (!nb) {
        for (size_t i = 0; i < count; i++)
            mt_store_le(dst + i * (size_t)width, width, min);
        return 0;
    }
    size_t groups = (count + 63) / 64, gsize = 8 * (size_t)nb;
    if (n != groups * gsize)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress T64-encoded data, data size (%zu) does not hold %zu values of %u bits", n, count, nb);
    uint64_t upper_min = nb < 64 ? min >> nb << nb : 0, upper_max = 0, sign_bit = 0;
    if (sgn && (int64_t)min < 0 && (int64_t)max >= 0 && nb < 64) {
        sign_bit = (uint64_t)1 << (nb - 1);
        upper_max = max >> nb << nb;
    }
    unsigned full = nb / 8, part = nb % 8;
    uint8_t m[8 * 64];
    for (size_t g = 0; g < groups; g++, src += gsize) {
        memset(m, 0, sizeof m);
        for (unsigned r = 0; r < full; r++) {
            if (bit)
                untranspose8(src + 64 * r, m + 64 * r);
            else
                memcpy(m + 64 * r, src + 64 * r, 64);
        }
        if (part) {
            uint8_t t[64] = {0};
            memcpy(t, src + 64 * full, 8 * part);
            untranspose8(t, m + 64 * full);
        }
        size_t k = count - g * 64 < 64 ? count - g * 64 : 64;
        for (size_t c = 0; c < k; c++) {
            uint64_t v = 0;
            for (int b = width - 1; b >= 0; b--)
                v = (v << 8) | m[64 * b + c];
            if (sign_bit)
                v |= (v & sign_bit) ? upper_min : upper_max;
            else
                v |= upper_min;
            mt_store_le(dst + (g * 64 + c) * (size_t)width, width, v);
        }
    }
    return 0;
}
