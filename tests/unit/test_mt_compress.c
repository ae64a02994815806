/* MergeTree compressed blocks and codecs against files written by ClickHouse (chdb):
 * tests/data/mergetree/codec/, made by tests/data/mergetree/make-codec-fixtures.js. */
#include "base/err.h"
#include "base/mem.h"
#include "check.h"
#include "column/type.h"
#include "codec/compress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DIR "tests/data/mergetree/codec/"

static int read_file(const char *name, buf *b)
{
    char path[256];
    snprintf(path, sizeof path, DIR "%s", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    b->len = 0;
    char tmp[4096];
    size_t k;
    while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
        buf_append(b, tmp, k);
    fclose(f);
    return 0;
}

/* Decompresses every block of a file. */
static int decompress_file(const buf *in, buf *out, const char *name)
{
    size_t off = 0;
    out->len = 0;
    while (off < in->len) {
        uint32_t cs, us;
        if (mt_block_header(in->p + off, in->len - off, &cs, &us, name, off) ||
            mt_decompress_block(in->p + off, in->len - off, out, name, off))
            return -1;
        off += 16 + cs;
    }
    return 0;
}

typedef struct fixture {
    const char *col, *type, *codec;
    bool exact; /* ClickHouse's output is reproducible (not ZSTD) */
} fixture;

static const fixture fixtures[] = {
    {"c_none", "UInt32", "NONE", true},
    {"c_lz4", "UInt64", "LZ4", true},
    {"c_lz4hc", "String", "LZ4HC(9)", true},
    {"c_zstd", "Int64", "ZSTD(3)", false},
    {"c_d1", "Int8", "Delta(1)", true},
    {"c_d2", "UInt16", "Delta(2)", true},
    {"c_d4", "Int32", "Delta(4)", true},
    {"c_d8", "UInt64", "Delta(8)", true},
    {"c_d2fs", "FixedString(3)", "Delta(2)", true},
    {"c_dd1", "UInt8", "DoubleDelta", true},
    {"c_dd2", "Int16", "DoubleDelta", true},
    {"c_dd4", "DateTime", "DoubleDelta", true},
    {"c_dd8", "Int64", "DoubleDelta", true},
    {"c_g1", "UInt8", "Gorilla(1)", true},
    {"c_g2", "Int16", "Gorilla(2)", true},
    {"c_g4", "Float32", "Gorilla(4)", true},
    {"c_g8", "Float64", "Gorilla(8)", true},
    {"c_g8fs", "FixedString(3)", "Gorilla(8)", true},
    {"c_t64u8", "UInt8", "T64", true},
    {"c_t64u32", "UInt32", "T64", true},
    {"c_t64i16", "Int16", "T64", true},
    {"c_t64i64bit", "Int64", "T64('bit')", true},
    {"c_t64u64bit", "UInt64", "T64('bit')", true},
    {"c_t64const", "Int32", "T64", true},
    {"c_chain_dz", "UInt32", "Delta(4), ZSTD(1)", false},
    {"c_chain_ddl", "Int64", "DoubleDelta, LZ4", true},
    {"c_chain_tz", "Int32", "T64, LZ4HC(3)", true},
    {"c_multi", "UInt64", "LZ4", true},
};

static void test_fixtures(void)
{
    buf bin = {0}, raw = {0}, out = {0}, again = {0};
    char name[64];
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        const fixture *f = &fixtures[i];
        snprintf(name, sizeof name, "%s.bin", f->col);
        CHECK(read_file(name, &bin) == 0);
        snprintf(name, sizeof name, "%s.raw", f->col);
        CHECK(read_file(name, &raw) == 0);
        if (!strcmp(f->type, "String")) {
            /* ClickHouse 26 keeps String sizes in a separate .size stream: .bin holds only
             * the bytes, .raw (RowBinary) has a varuint length before each value */
            size_t o = 0, w = 0;
            while (o < raw.len) {
                size_t len = raw.p[o++]; /* fixture strings are short */
                memmove(raw.p + w, raw.p + o, len);
                o += len;
                w += len;
            }
            raw.len = w;
        }
        int rc = decompress_file(&bin, &out, f->col);
        if (rc)
            fprintf(stderr, "%s: %s\n", f->col, err_msg());
        CHECK(rc == 0);
        if (out.len != raw.len || memcmp(out.p, raw.p, raw.len))
            fprintf(stderr, "%s: decoded %zu bytes, expected %zu\n", f->col, out.len, raw.len);
        CHECK(out.len == raw.len && memcmp(out.p, raw.p, raw.len) == 0);
        /* shale's own compression of the same blocks */
        mt_codec *c;
        CHECK(mt_codec_parse(f->codec, type_parse_cstr(f->type), &c) == 0);
        if (!c)
            continue;
        again.len = 0;
        size_t off = 0, uoff = 0;
        while (off < bin.len) {
            uint32_t cs, us;
            CHECK(mt_block_header(bin.p + off, bin.len - off, &cs, &us, f->col, off) == 0);
            mt_compress_block(c, out.p + uoff, us, &again);
            off += 16 + cs;
            uoff += us;
        }
        if (f->exact) {
            bool same = again.len == bin.len && memcmp(again.p, bin.p, bin.len) == 0;
            if (!same)
                fprintf(stderr, "%s: shale's bytes differ from ClickHouse's (%zu vs %zu)\n", f->col, again.len, bin.len);
            CHECK(same);
        }
        buf back = {0};
        CHECK(decompress_file(&again, &back, f->col) == 0);
        CHECK(back.len == raw.len && memcmp(back.p, raw.p, raw.len) == 0);
        buf_free(&back);
        mt_codec_free(c);
    }
    /* the null map of Nullable(Int32) CODEC(Delta, LZ4): every 4th row is NULL */
    CHECK(read_file("c_nul.null.bin", &bin) == 0);
    CHECK(decompress_file(&bin, &out, "c_nul.null.bin") == 0);
    CHECK(out.len == 500);
    bool ok = out.len == 500;
    for (size_t i = 0; ok && i < out.len; i++)
        ok = out.p[i] == (i % 4 == 0);
    CHECK(ok);
    buf_free(&bin);
    buf_free(&raw);
    buf_free(&out);
    buf_free(&again);
}

static uint64_t rd_varuint(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    for (int s = 0; *p < end && s < 64; s += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80))
            break;
    }
    return v;
}

/* checksums.txt records mt_hasher's hashes of c_multi.bin and of its uncompressed bytes. */
static void test_checksums_txt(void)
{
    buf f = {0}, body = {0}, bin = {0}, raw = {0};
    CHECK(read_file("multi_checksums.txt", &f) == 0);
    const char *hdr = "checksums format version: 4\n";
    CHECK(f.len > strlen(hdr) && memcmp(f.p, hdr, strlen(hdr)) == 0);
    buf cf = {f.p + strlen(hdr), f.len - strlen(hdr), 0};
    CHECK(decompress_file(&cf, &body, "checksums.txt") == 0);
    CHECK(read_file("c_multi.bin", &bin) == 0);
    CHECK(read_file("c_multi.raw", &raw) == 0);
    const uint8_t *p = body.p, *end = body.p + body.len;
    uint64_t n = rd_varuint(&p, end);
    bool found = false;
    for (uint64_t i = 0; i < n && p < end; i++) {
        uint64_t nl = rd_varuint(&p, end);
        const uint8_t *name = p;
        p += nl;
        uint64_t size = rd_varuint(&p, end);
        u128 h = {0, 0}, uh = {0, 0};
        memcpy(&h, p, 16);
        p += 16;
        uint8_t comp = *p++;
        uint64_t usize = 0;
        if (comp) {
            usize = rd_varuint(&p, end);
            memcpy(&uh, p, 16);
            p += 16;
        }
        if (nl == 11 && !memcmp(name, "c_multi.bin", 11)) {
            found = true;
            mt_hasher m;
            mt_hasher_init(&m);
            mt_hasher_update(&m, bin.p, bin.len);
            u128 got = mt_hasher_final(&m);
            CHECK(size == bin.len);
            CHECK(got.lo == h.lo && got.hi == h.hi);
            CHECK(comp == 1 && usize == raw.len);
            /* fed in pieces of odd sizes */
            mt_hasher_init(&m);
            for (size_t o = 0; o < raw.len; o += 333)
                mt_hasher_update(&m, raw.p + o, raw.len - o < 333 ? raw.len - o : 333);
            got = mt_hasher_final(&m);
            CHECK(got.lo == uh.lo && got.hi == uh.hi);
        }
    }
    CHECK(found);
    buf_free(&f);
    buf_free(&body);
    buf_free(&bin);
    buf_free(&raw);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void test_round_trips(void)
{
    static const char *codecs[][2] = {
        {"NONE", "UInt8"},         {"LZ4", "UInt8"},         {"LZ4HC(0)", "UInt8"},        {"ZSTD(1)", "UInt8"},
        {"ZSTD(5, 20)", "UInt8"},  {"Delta(1)", "UInt8"},    {"Delta(2)", "UInt16"},       {"Delta(4)", "UInt32"},
        {"Delta(8)", "UInt64"},    {"DoubleDelta", "Int8"},  {"DoubleDelta", "UInt16"},    {"DoubleDelta", "Int32"},
        {"DoubleDelta", "Int64"},  {"Gorilla", "UInt8"},     {"Gorilla", "Int16"},         {"Gorilla", "Float32"},
        {"Gorilla", "Float64"},    {"T64", "UInt8"},         {"T64", "Int8"},              {"T64", "UInt16"},
        {"T64", "Int16"},          {"T64", "UInt32"},        {"T64('bit')", "Int32"},      {"T64", "Int64"},
        {"T64('bit')", "UInt64"},  {"Delta, ZSTD(2)", "Int32"}, {"DoubleDelta, LZ4", "Int64"}, {"T64, Delta(8), LZ4HC(4)", "Int64"},
    };
    static const size_t sizes[] = {0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 511, 512, 513, 1000, 4097};
    buf in = {0}, blk = {0}, out = {0};
    for (size_t ci = 0; ci < sizeof codecs / sizeof codecs[0]; ci++) {
        mt_codec *c;
        CHECK(mt_codec_parse(codecs[ci][0], type_parse_cstr(codecs[ci][1]), &c) == 0);
        if (!c)
            continue;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (int pattern = 0; pattern < 4; pattern++) {
                size_t n = sizes[si];
                in.len = 0;
                uint8_t *p = buf_grow(&in, n);
                uint64_t acc = rnd();
                for (size_t i = 0; i < n; i++) {
                    switch (pattern) {
                    case 0: p[i] = (uint8_t)rnd(); break;             /* noise */
                    case 1: p[i] = (uint8_t)(i * 7); break;           /* ramps */
                    case 2: p[i] = (uint8_t)(i % 8 == 0 ? rnd() : 0); break;
                    default: acc += rnd() % 3; p[i] = (uint8_t)(acc >> (i % 3)); break;
                    }
                }
                blk.len = 0;
                out.len = 0;
                mt_compress_block(c, in.p, n, &blk);
                int rc = mt_decompress_block(blk.p, blk.len, &out, "rt", 0);
                if (rc || out.len != n || memcmp(out.p, in.p, n))
                    fprintf(stderr, "round trip %s %s n=%zu pattern %d: %s\n", codecs[ci][0], codecs[ci][1], n, pattern,
                            rc ? err_msg() : "bytes differ");
                CHECK(rc == 0 && out.len == n && (n == 0 || memcmp(out.p, in.p, n) == 0));
            }
        mt_codec_free(c);
    }
    buf_free(&in);
    buf_free(&blk);
    buf_free(&out);
}

static void test_corruption(void)
{
    buf bin = {0}, out = {0};
    CHECK(read_file("c_dd8.bin", &bin) == 0);
    /* a flipped bit in the data: checksum */
    bin.p[100] ^= 4;
    CHECK(mt_decompress_block(bin.p, bin.len, &out, "x.bin", 0) == -1);
    CHECK(err_code() == ERR_CHECKSUM_DOESNT_MATCH);
    CHECK(strstr(err_msg(), "Checksum doesn't match: corrupted data. Reference: ") != NULL);
    CHECK(strstr(err_msg(), "x.bin") != NULL);
    bin.p[100] ^= 4;
    /* truncated */
    CHECK(mt_decompress_block(bin.p, bin.len - 1, &out, "x.bin", 0) == -1);
    CHECK(err_code() == ERR_CANNOT_READ_ALL_DATA);
    CHECK(mt_decompress_block(bin.p, 10, &out, "x.bin", 0) == -1);
    /* unknown method */
    bin.p[16] = 0x77;
    CHECK(mt_decompress_block(bin.p, bin.len, &out, "x.bin", 7) == -1);
    CHECK(err_code() == ERR_UNKNOWN_COMPRESSION_METHOD);
    CHECK(strstr(err_msg(), "offset 7") != NULL);
    /* valid checksum over codec data that does not decode: every single-byte change */
    buf blk = {0};
    mt_codec *c;
    CHECK(mt_codec_parse("T64, LZ4", type_parse_cstr("Int32"), &c) == 0);
    int32_t v[300];
    for (int i = 0; i < 300; i++)
        v[i] = i * 37 - 5000;
    mt_compress_block(c, v, sizeof v, &blk);
    for (size_t i = 16; i < blk.len; i++) {
        for (int bit = 0; bit < 8; bit++) {
            blk.p[i] ^= (uint8_t)(1 << bit);
            u128 h = cityhash128_v102(blk.p + 16, blk.len - 16);
            uint8_t save[16];
            memcpy(save, blk.p, 16);
            memcpy(blk.p, &h.lo, 8);
            memcpy(blk.p + 8, &h.hi, 8);
            out.len = 0;
            (void)mt_decompress_block(blk.p, blk.len, &out, "f", 0); /* must not crash */
            memcpy(blk.p, save, 16);
            blk.p[i] ^= (uint8_t)(1 << bit);
        }
    }
    mt_codec_free(c);
    buf_free(&blk);
    buf_free(&bin);
    buf_free(&out);
}

static void test_codec_text(void)
{
    static const char *cases[][3] = {
        {"Delta, ZSTD", "UInt32", "CODEC(Delta(4), ZSTD(1))"},
        {"LZ4HC", "String", "CODEC(LZ4HC(0))"},
        {"Gorilla", "Float64", "CODEC(Gorilla(8))"},
        {"T64('byte'), ZSTD(1, 20)", "UInt32", "CODEC(T64, ZSTD(1, 20))"},
        {"T64('bit')", "Int8", "CODEC(T64('bit'))"},
        {"Delta, LZ4", "Nullable(Int32)", "CODEC(Delta(4), LZ4)"},
        {"Delta, LZ4", "Array(UInt64)", "CODEC(Delta(8), LZ4)"},
        {"DoubleDelta", "DateTime", "CODEC(DoubleDelta)"},
        {"Delta, LZ4", "Tuple(UInt16, UInt32)", "CODEC(Delta, LZ4)"},
        {"Delta(2), LZ4", "UInt64", "CODEC(Delta(2), LZ4)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mt_codec *c = NULL;
        int rc = mt_codec_parse(cases[i][0], type_parse_cstr(cases[i][1]), &c);
        if (rc)
            fprintf(stderr, "%s: %s\n", cases[i][0], err_msg());
        CHECK(rc == 0);
        if (c)
            CHECK_STR(mt_codec_text(c), cases[i][2]);
        mt_codec_free(c);
    }
    static const char *bad[][4] = {
        {"Delta", "String", "Codec Delta is not applicable for String because the data type is not of fixed size", "36"},
        {"DoubleDelta", "String", "Codec DoubleDelta is not applicable for String because the data type is not numeric", "36"},
        {"T64", "Float64", "T64 codec is not supported for specified type Float64", "431"},
        {"Delta", "UUID", "Codec Delta is only applicable for data types of size 1, 2, 4, 8 bytes. Given type UUID", "36"},
        {"Delta", "LowCardinality(String)", "Codec Delta is not applicable for String because the data type is not of fixed size", "36"},
        {"ZSTD(23)", "UInt32", "ZSTD codec can't have level more than 22, given 23", "433"},
        {"Delta(3)", "UInt32", "Delta value for delta codec can be 1, 2, 4 or 8, given 3", "433"},
        {"Foo", "UInt32", "Unknown codec family: Foo", "432"},
        {"LZ4(1)", "UInt32", "Compression codec LZ4 cannot have arguments", "378"},
        {"T64('x')", "UInt32", "Wrong modification for T64: x", "433"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mt_codec *c = NULL;
        CHECK(mt_codec_parse(bad[i][0], type_parse_cstr(bad[i][1]), &c) == -1);
        CHECK_STR(err_msg(), bad[i][2]);
        CHECK(err_code() == atoi(bad[i][3]));
    }
}

static void test_writer_reader(void)
{
    char path[] = "/tmp/shale_mtc_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    mt_codec *c;
    CHECK(mt_codec_parse("LZ4", type_parse_cstr("UInt64"), &c) == 0);
    mt_cwriter *w;
    CHECK(mt_cwriter_open(path, c, 1024, 2048, &w) == 0);
    uint64_t marks[10][2];
    uint64_t vals[1000];
    for (int i = 0; i < 1000; i++)
        vals[i] = (uint64_t)i * 2654435761u % 1000003;
    for (int g = 0; g < 10; g++) {
        mt_cwriter_mark(w, &marks[g][0], &marks[g][1]);
        mt_cwriter_write(w, vals + g * 100, 800);
        CHECK(mt_cwriter_granule_end(w) == 0);
    }
    mt_file_checksum sum;
    CHECK(mt_cwriter_finish(w, &sum) == 0);
    /* ClickHouse wrote the same file with the same settings */
    buf ref = {0}, mine = {0};
    CHECK(read_file("c_multi.bin", &ref) == 0);
    FILE *f = fopen(path, "rb");
    char tmp[4096];
    size_t k;
    while (f && (k = fread(tmp, 1, sizeof tmp, f)) > 0)
        buf_append(&mine, tmp, k);
    if (f)
        fclose(f);
    CHECK(mine.len == ref.len && memcmp(mine.p, ref.p, ref.len) == 0);
    CHECK(sum.file_size == ref.len && sum.uncompressed_size == 8000);
    mt_creader *r;
    CHECK(mt_creader_open(path, &r) == 0);
    for (int g = 0; g < 10; g += 3) {
        uint64_t got[100];
        CHECK(mt_creader_seek(r, marks[g][0], marks[g][1]) == 0);
        CHECK(mt_creader_read(r, got, 800) == 0);
        CHECK(memcmp(got, vals + g * 100, 800) == 0);
    }
    CHECK(mt_creader_eof(r));
    uint64_t x;
    CHECK(mt_creader_read(r, &x, 8) == -1 && err_code() == ERR_CANNOT_READ_ALL_DATA);
    mt_creader_close(r);
    /* a truncated file: the error names the file and the block's offset */
    CHECK(truncate(path, (off_t)(ref.len - 5)) == 0);
    CHECK(mt_creader_open(path, &r) == 0);
    uint64_t all[1000];
    CHECK(mt_creader_read(r, all, sizeof all) == -1);
    CHECK(strstr(err_msg(), path) != NULL);
    mt_creader_close(r);
    unlink(path);
    /* ENOSPC */
    if (access("/dev/full", W_OK) == 0) {
        CHECK(mt_cwriter_open("/dev/full", c, 0, 64, &w) == 0);
        mt_cwriter_write(w, vals, 800);
        int rc = mt_cwriter_granule_end(w);
        rc |= mt_cwriter_finish(w, &sum);
        CHECK(rc == -1 && err_code() == ERR_NOT_ENOUGH_SPACE && strstr(err_msg(), "/dev/full"));
    }
    mt_codec_free(c);
    buf_free(&ref);
    buf_free(&mine);
}

int main(void)
{
    mem_init();
    test_fixtures();
    test_checksums_txt();
    test_round_trips();
    test_corruption();
    test_codec_text();
    test_writer_reader();
    return check_done("mt_compress");
}
