/* Parquet codecs and encodings (see decode.h). */
#include "format/parquet/decode.h"
#include "format/parquet/thrift.h"

#include "base/err.h"
#include "codec/snappy_lib.h"

#include <brotli/decode.h>
#include <libdeflate.h>
#include <lz4.h>
#include <lz4frame.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <pthread.h>
#include <zstd.h>

/* ---- codecs ---- */

const char *pq_codec_name(int codec)
{
    static const char *names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
    return codec >= 0 && codec < 8 ? names[codec] : "unknown";
}

void pq_codec_free(pq_codec_ctx *c)
{
    if (c->deflate)
        libdeflate_free_decompressor(c->deflate);
    c->deflate = NULL;
}

/* One zstd context per thread, shared by every column reader on it: creating one per
 * column chunk cost 2 % of a query over many small row groups. Decompression calls never
 * nest, and the context keeps no state between them. Freed when the thread ends. */
static pthread_once_t zstd_once = PTHREAD_ONCE_INIT;
static pthread_key_t zstd_key;
static _Thread_local ZSTD_DCtx *zstd_ctx;

static void free_zstd(void *p) { ZSTD_freeDCtx(p); }
static void make_zstd_key(void) { pthread_key_create(&zstd_key, free_zstd); }

static ZSTD_DCtx *thread_zstd(void)
{
    if (!zstd_ctx) {
        pthread_once(&zstd_once, make_zstd_key);
        zstd_ctx = ZSTD_createDCtx();
        pthread_setspecific(zstd_key, zstd_ctx);
    }
    return zstd_ctx;
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* Hadoop's LZ4 framing: blocks of [BE32 decompressed size][BE32 compressed size][LZ4 block]. */
static int lz4_hadoop(const uint8_t *src, size_t n, uint8_t *out, size_t out_n)
{
    size_t in = 0, done = 0;
    while (in < n) {
        if (n - in < 8)
            return -1;
        uint32_t dlen = be32(src + in), clen = be32(src + in + 4);
        in += 8;
        if (clen > n - in || dlen > out_n - done)
            return -1;
        int got = LZ4_decompress_safe((const char *)src + in, (char *)out + done, (int)clen, (int)dlen);
        if (got < 0 || (uint32_t)got != dlen)
            return -1;
        in += clen;
        done += dlen;
    }
    return done == out_n ? 0 : -1;
}

static int lz4_frame(const uint8_t *src, size_t n, uint8_t *out, size_t out_n)
{
    LZ4F_dctx *d;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
        return -1;
    size_t done = 0, in = 0;
    int rc = -1;
    for (;;) {
        size_t dst = out_n - done, srcn = n - in;
        size_t r = LZ4F_decompress(d, out + done, &dst, src + in, &srcn, NULL);
        if (LZ4F_isError(r))
            break;
        done += dst;
        in += srcn;
        if (r == 0) {
            rc = done == out_n ? 0 : -1;
            break;
        }
        if (srcn == 0 && dst == 0)
            break;
    }
    LZ4F_freeDecompressionContext(d);
    return rc;
}

int pq_decompress(pq_codec_ctx *c, int codec, const uint8_t *src, size_t n, uint8_t *out, size_t out_n)
{
    switch (codec) {
    case PQ_UNCOMPRESSED:
        if (n != out_n)
            break;
        if (n)
            memcpy(out, src, n);
        return 0;
    case PQ_SNAPPY: {
        const snappy_fns *sn = snappy_lib();
        if (!sn)
            return -1;
        size_t len;
        if (sn->uncompressed_length((const char *)src, n, &len) != SNAPPY_OK || len != out_n)
            break;
        if (sn->uncompress((const char *)src, n, (char *)out, &len) != SNAPPY_OK || len != out_n)
            break;
        return 0;
    }
    case PQ_GZIP: {
        if (!c->deflate)
            c->deflate = libdeflate_alloc_decompressor();
        size_t got;
        if (libdeflate_gzip_decompress(c->deflate, src, n, out, out_n, &got) == LIBDEFLATE_SUCCESS && got == out_n)
            return 0;
        /* zlib-wrapped data (some writers), or gzip members one after another (a
         * concatenation is one valid gzip stream, RFC 1952 §2.2): zlib, member by member. */
        z_stream z;
        memset(&z, 0, sizeof z);
        if (n > UINT32_MAX || out_n > UINT32_MAX || inflateInit2(&z, 15 + 32) != Z_OK)
            break;
        z.next_in = (Bytef *)(uintptr_t)src;
        z.avail_in = (uInt)n;
        z.next_out = out;
        z.avail_out = (uInt)out_n;
        int zr;
        while ((zr = inflate(&z, Z_FINISH)) == Z_STREAM_END && z.avail_in > 0 && inflateReset(&z) == Z_OK)
            ;
        size_t total = (size_t)(z.next_out - out);
        inflateEnd(&z);
        if (zr == Z_STREAM_END && z.avail_in == 0 && total == out_n)
            return 0;
        break;
    }
    case PQ_ZSTD: {
        size_t r = ZSTD_decompressDCtx(thread_zstd(), out, out_n, src, n);
        if (ZSTD_isError(r) || r != out_n)
            break;
        return 0;
    }
    case PQ_LZ4_RAW: {
        if (out_n > INT32_MAX || n > INT32_MAX)
            break;
        int got = LZ4_decompress_safe((const char *)src, (char *)out, (int)n, (int)out_n);
        if (got < 0 || (size_t)got != out_n)
            break;
        return 0;
    }
    case PQ_LZ4:
        /* Hadoop framing (parquet-mr, arrow); older writers used the LZ4 frame format or
         * raw blocks under this id. */
        if (lz4_hadoop(src, n, out, out_n) == 0 || lz4_frame(src, n, out, out_n) == 0)
            return 0;
        if (n <= INT32_MAX && out_n <= INT32_MAX) {
            int got = LZ4_decompress_safe((const char *)src, (char *)out, (int)n, (int)out_n);
            if (got >= 0 && (size_t)got == out_n)
                return 0;
        }
        break;
    case PQ_BROTLI: {
        size_t got = out_n;
        if (BrotliDecoderDecompress(n, src, &got, out) == BROTLI_DECODER_RESULT_SUCCESS && got == out_n)
            return 0;
        break;
    }
    default:
        return err_set(ERR_NOT_IMPLEMENTED, "Parquet compression codec %s (%d) is not supported", pq_codec_name(codec),
                       codec);
    }
    return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress a %s page of %zu bytes into %zu bytes",
                   pq_codec_name(codec), n, out_n);
}

/* ---- bit unpacking ---- */

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* A 64-bit window at byte i when fewer than 8 bytes remain: zero-padded. */
static inline uint64_t load64_tail(const uint8_t *p, size_t avail, size_t i)
{
    uint64_t v = 0;
    if (i < avail)
        memcpy(&v, p + i, avail - i < 8 ? avail - i : 8);
    return v;
}

/* Groups of 8 values (exactly bw bytes) with bw a constant: every shift and load offset
 * is known at compile time, so the 8 extractions are independent instructions instead of
 * a chain through a running bit position. Dictionary indices of every string column go
 * through here. The caller guarantees 8 readable bytes past the last group. */
static inline __attribute__((always_inline)) void unpack_groups(const uint8_t *p, uint32_t *out, size_t groups,
                                                                const int bw)
{
    const uint64_t mask = bw == 32 ? 0xffffffffu : (1ull << bw) - 1;
    for (size_t g = 0; g < groups; g++, p += bw, out += 8)
        for (int j = 0; j < 8; j++)
            out[j] = (uint32_t)((load64(p + (j * bw >> 3)) >> (j * bw & 7)) & mask);
}

#define UNPACK_CASES(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) \
    X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24)

void pq_unpack32(const uint8_t *p, size_t avail, int bw, uint32_t *out, size_t count)
{
    if (bw == 0) {
        memset(out, 0, count * sizeof *out);
        return;
    }
    const uint64_t mask = (bw == 32) ? 0xffffffffu : ((1ull << bw) - 1);
    size_t i = 0;
    /* Fast part: every 64-bit load stays inside the buffer. */
    size_t safe = avail >= 8 ? ((avail - 8) * 8) / (size_t)bw : 0;
    if (safe > count)
        safe = count;
    size_t groups = safe / 8;
    switch (bw) {
#define UNPACK_CASE(B) case B: unpack_groups(p, out, groups, B); i = groups * 8; break;
        UNPACK_CASES(UNPACK_CASE)
#undef UNPACK_CASE
    default: break;
    }
    size_t bit = i * (size_t)bw;
    for (; i < safe; i++, bit += (size_t)bw)
        out[i] = (uint32_t)((load64(p + (bit >> 3)) >> (bit & 7)) & mask);
    for (; i < count; i++, bit += (size_t)bw)
        out[i] = (uint32_t)((load64_tail(p, avail, bit >> 3) >> (bit & 7)) & mask);
}

static void unpack64(const uint8_t *p, size_t avail, int bw, uint64_t *out, size_t count)
{
    if (bw == 0) {
        memset(out, 0, count * sizeof *out);
        return;
    }
    if (bw <= 56) {
        const uint64_t mask = (1ull << bw) - 1;
        size_t bit = 0;
        for (size_t i = 0; i < count; i++, bit += (size_t)bw) {
            size_t b = bit >> 3;
            uint64_t w = b + 8 <= avail ? load64(p + b) : load64_tail(p, avail, b);
            out[i] = (w >> (bit & 7)) & mask;
        }
        return;
    }
    const uint64_t mask = bw == 64 ? ~0ull : (1ull << bw) - 1;
    size_t bit = 0;
    for (size_t i = 0; i < count; i++, bit += (size_t)bw) {
        size_t b = bit >> 3;
        uint64_t lo = load64_tail(p, avail, b), hi = load64_tail(p, avail, b + 8);
        unsigned s = bit & 7;
        uint64_t v = s ? (lo >> s) | (hi << (64 - s)) : lo;
        out[i] = v & mask;
    }
}

static int read_uvarint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    const uint8_t *p = *pp;
    uint64_t r = 0;
    for (int s = 0; s < 70; s += 7) {
        if (p >= end)
            return -1;
        uint8_t b = *p++;
        r |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) {
            *pp = p;
            *v = r;
            return 0;
        }
    }
    return -1;
}

/* ---- RLE / bit-packed hybrid ---- */

#define RLE_BODY(OUT_T, MAXV)                                                                                 \
    const uint8_t *end = p + n;                                                                              \
    size_t k = 0;                                                                                            \
    if (bw < 0 || bw > 32)                                                                                   \
        return err_set(ERR_INCORRECT_DATA, "invalid bit width %d in RLE data", bw);                          \
    if (bw == 0) {                                                                                           \
        memset(out, 0, count * sizeof *out);                                                                 \
        return 0;                                                                                            \
    }                                                                                                        \
    size_t vbytes = ((size_t)bw + 7) / 8;                                                                    \
    while (k < count) {                                                                                      \
        uint64_t h;                                                                                          \
        if (read_uvarint(&p, end, &h))                                                                       \
            return err_set(ERR_INCORRECT_DATA, "RLE data ends after %zu of %zu values", k, count);          \
        if (h & 1) {                                                                                         \
            uint64_t groups = h >> 1;                                                                        \
            if (groups == 0 || groups > (count - k + 7) / 8 + (uint64_t)(end - p))                          \
                return err_set(ERR_INCORRECT_DATA, "invalid bit-packed run in RLE data");                   \
            size_t nv = (size_t)groups * 8;                                                                  \
            size_t bytes = (size_t)groups * (size_t)bw;                                                      \
            size_t avail = (size_t)(end - p) < bytes ? (size_t)(end - p) : bytes;                           \
            size_t take = nv < count - k ? nv : count - k;                                                   \
            if (take * (size_t)bw > avail * 8)                                                               \
                return err_set(ERR_INCORRECT_DATA, "bit-packed run longer than the RLE data");              \
            RLE_UNPACK(OUT_T)                                                                                \
            k += take;                                                                                       \
            p += avail;                                                                                      \
        } else {                                                                                             \
            uint64_t run = h >> 1;                                                                           \
            if ((size_t)(end - p) < vbytes)                                                                  \
                return err_set(ERR_INCORRECT_DATA, "RLE run value cut off");                                \
            uint32_t v = 0;                                                                                  \
            for (size_t b = 0; b < vbytes; b++)                                                              \
                v |= (uint32_t)p[b] << (8 * b);                                                              \
            p += vbytes;                                                                                     \
            if (v > (MAXV))                                                                                  \
                return err_set(ERR_INCORRECT_DATA, "RLE value %u out of range", v);                         \
            if (run > count - k)                                                                             \
                run = count - k;                                                                             \
            if (run == 0)                                                                                    \
                return err_set(ERR_INCORRECT_DATA, "empty RLE run");                                         \
            RLE_FILL(OUT_T)                                                                                  \
            k += (size_t)run;                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    return 0;

int pq_rle_u32(const uint8_t *p, size_t n, int bw, uint32_t *out, size_t count)
{
/* The unpacker may read past the run (never past the data): fast 64-bit loads instead of
 * byte-by-byte tails on every short run. */
#define RLE_UNPACK(T) pq_unpack32(p, (size_t)(end - p), bw, out + k, take);
#define RLE_FILL(T)                                                                                          \
    for (uint64_t r = 0; r < run; r++)                                                                       \
        out[k + r] = v;
    RLE_BODY(uint32_t, 0xffffffffu)
#undef RLE_UNPACK
#undef RLE_FILL
}

int pq_rle_u8(const uint8_t *p, size_t n, int bw, uint8_t *out, size_t count)
{
    if (bw > 8)
        return err_set(ERR_INCORRECT_DATA, "level bit width %d too large", bw);
    uint32_t tmp[256];
#define RLE_UNPACK(T)                                                                                        \
    for (size_t done = 0; done < take;) {                                                                    \
        size_t m = take - done < 256 ? take - done : 256;                                                    \
        size_t off = done * (size_t)bw / 8; /* done is a multiple of 8 until the end */                      \
        pq_unpack32(p + off, (size_t)(end - p) - off, bw, tmp, m);                                           \
        for (size_t j = 0; j < m; j++)                                                                       \
            out[k + done + j] = (uint8_t)tmp[j];                                                             \
        done += m;                                                                                           \
    }
#define RLE_FILL(T) memset(out + k, (int)v, (size_t)run);
    RLE_BODY(uint8_t, 255u)
#undef RLE_UNPACK
#undef RLE_FILL
}

/* ---- PLAIN ---- */

int pq_plain_bool(const uint8_t *p, size_t n, uint8_t *out, size_t count)
{
    if ((count + 7) / 8 > n)
        return err_set(ERR_INCORRECT_DATA, "PLAIN BOOLEAN data has %zu bytes for %zu values", n, count);
    for (size_t i = 0; i < count; i++)
        out[i] = (p[i >> 3] >> (i & 7)) & 1;
    return 0;
}

int pq_plain_byte_array(const uint8_t *p, size_t n, size_t count, buf *data, buf *offs, size_t *used)
{
    /* First pass: validate and size, so the bytes are appended with one reservation. */
    size_t pos = 0, total = 0;
    for (size_t i = 0; i < count; i++) {
        if (n - pos < 4)
            return err_set(ERR_INCORRECT_DATA, "PLAIN BYTE_ARRAY data ends at value %zu of %zu", i, count);
        uint32_t len;
        memcpy(&len, p + pos, 4);
        pos += 4;
        if (len > n - pos)
            return err_set(ERR_INCORRECT_DATA, "PLAIN BYTE_ARRAY value %zu of length %u exceeds the page", i, len);
        pos += len;
        total += len;
    }
    buf_reserve(data, total);
    uint64_t *o = buf_grow(offs, count * sizeof(uint64_t));
    uint8_t *d = data->p + data->len;
    uint64_t at = data->len;
    pos = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t len;
        memcpy(&len, p + pos, 4);
        memcpy(d, p + pos + 4, len);
        d += len;
        pos += 4 + (size_t)len;
        at += len;
        o[i] = at;
    }
    data->len = at;
    *used = pos;
    return 0;
}

/* ---- DELTA_BINARY_PACKED ---- */

int pq_delta_binary(const uint8_t *p, size_t n, int w, void *outv, size_t count, size_t *used)
{
    const uint8_t *end = p + n, *start = p;
    uint64_t block, minis, total, first_z;
    if (read_uvarint(&p, end, &block) || read_uvarint(&p, end, &minis) || read_uvarint(&p, end, &total) ||
        read_uvarint(&p, end, &first_z))
        return err_set(ERR_INCORRECT_DATA, "DELTA_BINARY_PACKED header cut off");
    if (block == 0 || block % 128 || minis == 0 || block % minis || (block / minis) % 32 || block > (1u << 20))
        return err_set(ERR_INCORRECT_DATA, "invalid DELTA_BINARY_PACKED block size %llu / %llu miniblocks",
                       (unsigned long long)block, (unsigned long long)minis);
    if (total < count)
        return err_set(ERR_INCORRECT_DATA, "DELTA_BINARY_PACKED holds %llu values, %zu expected",
                       (unsigned long long)total, count);
    uint64_t per_mini = block / minis;
    uint64_t cur = (first_z >> 1) ^ -(first_z & 1);
    int32_t *o32 = outv;
    int64_t *o64 = outv;
    uint64_t tmp[64];
    size_t k = 0;
    if (count > 0) {
        if (w == 4)
            o32[0] = (int32_t)cur;
        else
            o64[0] = (int64_t)cur;
        k = 1;
    }
    /* Blocks are read while values remain in the stream (`total`), so *used covers them all. */
    uint64_t left = total ? total - 1 : 0;
    while (left > 0) {
        uint64_t mz;
        if (read_uvarint(&p, end, &mz))
            return err_set(ERR_INCORRECT_DATA, "DELTA_BINARY_PACKED block header cut off");
        uint64_t min_delta = (mz >> 1) ^ -(mz & 1);
        if ((uint64_t)(end - p) < minis)
            return err_set(ERR_INCORRECT_DATA, "DELTA_BINARY_PACKED bit widths cut off");
        const uint8_t *widths = p;
        p += minis;
        for (uint64_t m = 0; m < minis && left > 0; m++) {
            int bw = widths[m];
            if (bw > 64)
                return err_set(ERR_INCORRECT_DATA, "invalid DELTA_BINARY_PACKED bit width %d", bw);
            size_t bytes = (size_t)(per_mini * (uint64_t)bw / 8);
            size_t take = left < per_mini ? (size_t)left : (size_t)per_mini;
            size_t avail = (size_t)(end - p) < bytes ? (size_t)(end - p) : bytes;
            if (take * (size_t)bw > avail * 8)
                return err_set(ERR_INCORRECT_DATA, "DELTA_BINARY_PACKED miniblock cut off");
            for (size_t done = 0; done < take;) {
                size_t c = take - done < 64 ? take - done : 64;
                size_t off = done * (size_t)bw / 8;
                unpack64(p + off, avail - off, bw, tmp, c);
                for (size_t j = 0; j < c; j++) {
                    cur += min_delta + tmp[j];
                    if (k < count) {
                        if (w == 4)
                            o32[k] = (int32_t)cur;
                        else
                            o64[k] = (int64_t)cur;
                        k++;
                    }
                }
                done += c;
            }
            p += avail;
            left -= take;
        }
    }
    *used = (size_t)(p - start);
    return 0;
}

/* ---- DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY ---- */

static int lengths(const uint8_t *p, size_t n, size_t count, int32_t **lens, size_t *used)
{
    *lens = malloc((count ? count : 1) * sizeof **lens);
    if (pq_delta_binary(p, n, 4, *lens, count, used)) {
        free(*lens);
        *lens = NULL;
        return -1;
    }
    return 0;
}

int pq_delta_length_byte_array(const uint8_t *p, size_t n, size_t count, buf *data, buf *offs)
{
    int32_t *lens;
    size_t used;
    if (lengths(p, n, count, &lens, &used))
        return -1;
    size_t pos = used, total = 0;
    for (size_t i = 0; i < count; i++) {
        if (lens[i] < 0 || (size_t)lens[i] > n - pos - total) {
            free(lens);
            return err_set(ERR_INCORRECT_DATA, "DELTA_LENGTH_BYTE_ARRAY value %zu exceeds the page", i);
        }
        total += (size_t)lens[i];
    }
    buf_append(data, p + pos, total);
    uint64_t *o = buf_grow(offs, count * sizeof(uint64_t));
    uint64_t at = data->len - total;
    for (size_t i = 0; i < count; i++)
        o[i] = at += (uint64_t)lens[i];
    free(lens);
    return 0;
}

int pq_delta_byte_array(const uint8_t *p, size_t n, size_t count, buf *data, buf *offs)
{
    int32_t *pre, *suf;
    size_t u1, u2;
    if (lengths(p, n, count, &pre, &u1))
        return -1;
    if (lengths(p + u1, n - u1, count, &suf, &u2)) {
        free(pre);
        return -1;
    }
    const uint8_t *s = p + u1 + u2, *end = p + n;
    uint64_t prev_start = 0, prev_len = 0;
    int rc = 0;
    for (size_t i = 0; i < count; i++) {
        if (pre[i] < 0 || suf[i] < 0 || (uint64_t)pre[i] > prev_len || (size_t)suf[i] > (size_t)(end - s)) {
            rc = err_set(ERR_INCORRECT_DATA, "DELTA_BYTE_ARRAY value %zu is invalid", i);
            break;
        }
        uint64_t start = data->len;
        buf_reserve(data, (size_t)pre[i] + (size_t)suf[i]);
        memmove(data->p + data->len, data->p + prev_start, (size_t)pre[i]);
        data->len += (size_t)pre[i];
        buf_append(data, s, (size_t)suf[i]);
        s += suf[i];
        uint64_t e = data->len;
        buf_append(offs, &e, sizeof e);
        prev_start = start;
        prev_len = e - start;
    }
    free(pre);
    free(suf);
    return rc;
}

int pq_byte_stream_split(const uint8_t *p, size_t n, int w, uint8_t *out, size_t count)
{
    if (n < count * (size_t)w)
        return err_set(ERR_INCORRECT_DATA, "BYTE_STREAM_SPLIT data has %zu bytes for %zu values", n, count);
    size_t stride = count; /* stream b holds byte b of every value */
    for (int b = 0; b < w; b++) {
        const uint8_t *s = p + (size_t)b * stride;
        for (size_t i = 0; i < count; i++)
            out[i * (size_t)w + (size_t)b] = s[i];
    }
    return 0;
}
