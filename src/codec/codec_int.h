/* Private to the MergeTree codecs: the in-data encoders/decoders of the specialised codecs
 * (everything after a block's 9-byte header) and the bit streams they share.
 *
 * Encoders append to out and cannot fail. Decoders write exactly dn bytes to dst and return
 * 0, or -1 with err_set(ERR_CANNOT_DECOMPRESS / ERR_CORRUPTED_DATA, ...) describing what is
 * wrong; the caller adds the file and offset. Decoders never read outside [src, src+n). */
#ifndef SHALE_CODEC_CODEC_INT_H
#define SHALE_CODEC_CODEC_INT_H

#include "base/buf.h"
#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ClickHouse codes err.h lacks. */
#define MT_ERR_ILLEGAL_SYNTAX_FOR_CODEC_TYPE 431
#define MT_ERR_DATA_TYPE_CANNOT_HAVE_ARGUMENTS 378

enum {
    MT_METHOD_NONE = 0x02,
    MT_METHOD_LZ4 = 0x82,
    MT_METHOD_ZSTD = 0x90,
    MT_METHOD_MULTIPLE = 0x91,
    MT_METHOD_DELTA = 0x92,
    MT_METHOD_T64 = 0x93,
    MT_METHOD_DOUBLEDELTA = 0x94,
    MT_METHOD_GORILLA = 0x95,
};

void mt_delta_encode(int width, const uint8_t *src, size_t n, buf *out);
int mt_delta_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dn);
void mt_doubledelta_encode(int width, const uint8_t *src, size_t n, buf *out);
int mt_doubledelta_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dn);
void mt_gorilla_encode(int width, const uint8_t *src, size_t n, buf *out);
int mt_gorilla_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dn);
/* magic: ClickHouse's T64 type number (1 UInt8 … 24 Time64); bit: the 'bit' variant. */
void mt_t64_encode(int magic, bool bit, const uint8_t *src, size_t n, buf *out);
int mt_t64_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dn);
/* Width in bytes and signedness of a T64 magic; 0 for an unknown magic. */
int mt_t64_magic_width(int magic, bool *is_signed);

/* MSB-first bit streams (ClickHouse's BitWriter/BitReader), last byte zero-padded. */
typedef struct mt_bitw {
    buf *out;
    uint64_t acc;
    unsigned cnt;
} mt_bitw;

static inline void mt_bitw_put(mt_bitw *w, unsigned n, uint64_t v)
{
    if (n < 64)
        v &= ((uint64_t)1 << n) - 1;
    while (n) {
        unsigned room = 64 - w->cnt, k = n < room ? n : room;
        uint64_t part = v >> (n - k);
        if (k < 64)
            part &= ((uint64_t)1 << k) - 1;
        w->acc |= part << (room - k);
        w->cnt += k;
        n -= k;
        if (w->cnt == 64) {
            uint8_t *p = buf_grow(w->out, 8);
            for (int i = 0; i < 8; i++)
                p[i] = (uint8_t)(w->acc >> (56 - 8 * i));
            w->acc = 0;
            w->cnt = 0;
        }
    }
}

static inline void mt_bitw_flush(mt_bitw *w)
{
    unsigned bytes = (w->cnt + 7) / 8;
    for (unsigned i = 0; i < bytes; i++)
        buf_putc(w->out, (char)(uint8_t)(w->acc >> (56 - 8 * i)));
    w->acc = 0;
    w->cnt = 0;
}

typedef struct mt_bitr {
    const uint8_t *p;
    size_t nbits, pos;
    bool overrun;
} mt_bitr;

/* Reads n <= 64 bits; past the end sets overrun and returns 0. */
static inline uint64_t mt_bitr_get(mt_bitr *r, unsigned n)
{
    if (r->pos + n > r->nbits) {
        r->overrun = true;
        r->pos = r->nbits;
        return 0;
    }
    uint64_t v = 0;
    while (n) {
        unsigned off = (unsigned)(r->pos & 7), avail = 8 - off, t = n < avail ? n : avail;
        uint8_t b = r->p[r->pos >> 3];
        v = (v << t) | (uint64_t)((b >> (avail - t)) & ((1u << t) - 1));
        r->pos += t;
        n -= t;
    }
    return v;
}

static inline uint64_t mt_load_le(const uint8_t *p, int width)
{
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static inline void mt_store_le(uint8_t *p, int width, uint64_t v)
{
    for (int i = 0; i < width; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The header shared by DoubleDelta and Gorilla data: width byte, count of leading bytes
 * that do not fill a value (copied to dst as they are), those bytes, then a 4-byte value
 * count that must match the block's size. On success *s points after the count and
 * *count is the number of values (0: nothing more to decode). */
static inline int mt_bitcodec_header(const char *codec, const uint8_t *src, size_t n, uint8_t *dst, size_t dn,
                                     int *width, const uint8_t **s, size_t *count)
{
    if (n < 2)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress %s-encoded data. File has wrong header", codec);
    int w = src[0];
    if (w != 1 && w != 2 && w != 4 && w != 8)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress %s-encoded data: value width %d is not 1, 2, 4 or 8",
                       codec, w);
    size_t skip = dn % (size_t)w;
    if (2 + skip > n)
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress %s-encoded data. File has wrong header", codec);
    memcpy(dst, src + 2, skip);
    const uint8_t *p = src + 2 + skip, *end = src + n;
    *width = w;
    *count = (dn - skip) / (size_t)w;
    if (*count && (end - p < 4 || mt_load_le(p, 4) != *count))
        return err_set(ERR_CANNOT_DECOMPRESS,
                       "Cannot decompress %s-encoded data: the item count does not match the block's size (%zu values)",
                       codec, *count);
    *s = *count ? p + 4 : p;
    return 0;
}

#endif
