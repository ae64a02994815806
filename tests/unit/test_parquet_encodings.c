/* Parquet value encodings and codecs: RLE/bit-packed hybrid, PLAIN, DELTA_*, BYTE_STREAM_SPLIT. */
#include "check.h"

#include "base/err.h"
#include "format/parquet/decode.h"
#include "format/parquet/thrift.h"

#include <stdlib.h>

static void put_uvarint(uint8_t **p, uint64_t v)
{
    while (v >= 0x80) {
        *(*p)++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *(*p)++ = (uint8_t)v;
}

int main(void)
{
    /* RLE run of 5 × 3 (bw 2), then a bit-packed group of 8: 0..7 (bw 3) */
    {
        const uint8_t d[] = {0x0a, 0x03};
        uint8_t o[5];
        CHECK(pq_rle_u8(d, sizeof d, 2, o, 5) == 0 && o[0] == 3 && o[4] == 3);
        uint8_t bp[] = {0x03, 0x88, 0xc6, 0xfa}; /* 1 group, values 0..7 packed LSB first at 3 bits */
        uint32_t v[8];
        CHECK(pq_rle_u32(bp, sizeof bp, 3, v, 8) == 0);
        int ok = 1;
        for (int i = 0; i < 8; i++)
            ok &= v[i] == (uint32_t)i;
        CHECK(ok);
        CHECK(pq_rle_u32(bp, 2, 3, v, 8) == -1); /* cut off */
        CHECK(pq_rle_u8(d, 1, 2, o, 5) == -1);
        CHECK(pq_rle_u8(d, sizeof d, 2, o, 6) == -1); /* too few values */
    }
    /* bulk unpack of many widths */
    for (int bw = 1; bw <= 32; bw++) {
        uint32_t in[100], out[100];
        uint8_t packed[100 * 4 + 8] = {0};
        for (int i = 0; i < 100; i++) {
            in[i] = (uint32_t)((i * 2654435761u) & (bw == 32 ? 0xffffffffu : ((1u << bw) - 1)));
            for (int b = 0; b < bw; b++)
                if (in[i] >> b & 1)
                    packed[(i * bw + b) / 8] |= (uint8_t)(1 << ((i * bw + b) % 8));
        }
        pq_unpack32(packed, (size_t)(100 * bw + 7) / 8, bw, out, 100);
        CHECK(memcmp(in, out, sizeof in) == 0);
    }
    /* PLAIN boolean and byte arrays */
    {
        const uint8_t b[] = {0x05};
        uint8_t o[3];
        CHECK(pq_plain_bool(b, 1, o, 3) == 0 && o[0] == 1 && o[1] == 0 && o[2] == 1);
        const uint8_t s[] = {2, 0, 0, 0, 'h', 'i', 0, 0, 0, 0, 3, 0, 0, 0, 'a', 'b', 'c'};
        buf data = {0}, offs = {0};
        size_t used;
        CHECK(pq_plain_byte_array(s, sizeof s, 3, &data, &offs, &used) == 0 && used == sizeof s);
        CHECK(data.len == 5 && memcmp(data.p, "hiabc", 5) == 0 && ((uint64_t *)(void *)offs.p)[2] == 5);
        CHECK(pq_plain_byte_array(s, sizeof s - 1, 3, &data, &offs, &used) == -1);
        buf_free(&data);
        buf_free(&offs);
    }
    /* DELTA_BINARY_PACKED: block 128, 4 miniblocks, values 7, 5, 3, 1, 2, 3 */
    {
        uint8_t d[64], *p = d;
        put_uvarint(&p, 128);
        put_uvarint(&p, 4);
        put_uvarint(&p, 6);
        put_uvarint(&p, 14); /* zigzag(7) */
        put_uvarint(&p, 3);  /* min delta zigzag(-2) */
        *p++ = 2; *p++ = 0; *p++ = 0; *p++ = 0;
        /* deltas - min: 0, 0, 0, 3, 3 (2 bits each) then padding to 32 values = 8 bytes */
        memset(p, 0, 8);
        p[0] = 0 | 0 << 2 | 0 << 4 | 3 << 6;
        p[1] = 3;
        p += 8;
        int64_t out[6];
        size_t used;
        CHECK(pq_delta_binary(d, (size_t)(p - d), 8, out, 6, &used) == 0);
        CHECK(out[0] == 7 && out[1] == 5 && out[2] == 3 && out[3] == 1 && out[4] == 2 && out[5] == 3);
        CHECK(used == (size_t)(p - d));
        int32_t o32[6];
        CHECK(pq_delta_binary(d, (size_t)(p - d), 4, o32, 6, &used) == 0 && o32[5] == 3);
        for (size_t k = 0; k < (size_t)(p - d) - 8; k++)
            CHECK(pq_delta_binary(d, k, 8, out, 6, &used) == -1);
    }
    /* DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (prefix sharing) */
    {
        uint8_t d[64], *p = d;
        put_uvarint(&p, 128); put_uvarint(&p, 4); put_uvarint(&p, 2); put_uvarint(&p, 4); /* lengths 2, 2 */
        put_uvarint(&p, 0); *p++ = 0; *p++ = 0; *p++ = 0; *p++ = 0;
        memcpy(p, "abcd", 4);
        p += 4;
        buf data = {0}, offs = {0};
        CHECK(pq_delta_length_byte_array(d, (size_t)(p - d), 2, &data, &offs) == 0);
        CHECK(data.len == 4 && ((uint64_t *)(void *)offs.p)[0] == 2);
        data.len = offs.len = 0;
        /* prefixes 0, 2; suffixes "ab", "c" → "ab", "abc" */
        p = d;
        put_uvarint(&p, 128); put_uvarint(&p, 4); put_uvarint(&p, 2); put_uvarint(&p, 0);
        put_uvarint(&p, 4); *p++ = 0; *p++ = 0; *p++ = 0; *p++ = 0; /* min delta 2, widths 0 */
        put_uvarint(&p, 128); put_uvarint(&p, 4); put_uvarint(&p, 2); put_uvarint(&p, 4);
        put_uvarint(&p, 1); *p++ = 0; *p++ = 0; *p++ = 0; *p++ = 0; /* 2 then 2 + (-1) = 1 */
        memcpy(p, "abc", 3);
        p += 3;
        CHECK(pq_delta_byte_array(d, (size_t)(p - d), 2, &data, &offs) == 0);
        CHECK(data.len == 5 && memcmp(data.p, "ababc", 5) == 0);
        buf_free(&data);
        buf_free(&offs);
    }
    /* BYTE_STREAM_SPLIT */
    {
        const uint8_t d[] = {1, 2, 3, 4, 5, 6, 7, 8};
        uint8_t o[8];
        CHECK(pq_byte_stream_split(d, 8, 4, o, 2) == 0 && o[0] == 1 && o[1] == 3 && o[4] == 2 && o[7] == 8);
        CHECK(pq_byte_stream_split(d, 7, 4, o, 2) == -1);
    }
    /* codecs: garbage fails cleanly */
    {
        pq_codec_ctx c = {0};
        const uint8_t junk[] = {0xff, 0xfe, 0x01, 0x02, 0x03};
        uint8_t out[64];
        for (int codec = 1; codec <= 7; codec++)
            CHECK(pq_decompress(&c, codec, junk, sizeof junk, out, 64) == -1);
        CHECK(pq_decompress(&c, PQ_UNCOMPRESSED, junk, 5, out, 5) == 0 && out[4] == 3);
        pq_codec_free(&c);
    }
    return check_done("parquet_encodings");
}
