/* Raw-file compression streams: round trips, concatenated frames, corrupt/truncated input. */
#include "check.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"

#include <stdlib.h>
#include <string.h>

typedef struct mem_out {
    outstream base;
    buf *b;
    int *closed;
} mem_out;

static int mo_write(outstream *s, const void *p, size_t n)
{
    buf_append(((mem_out *)s)->b, p, n);
    s->offset += n;
    return 0;
}
static int mo_close(outstream *s)
{
    (*((mem_out *)s)->closed)++;
    free(s);
    return 0;
}
static outstream *mem_out_new(buf *b, int *closed)
{
    mem_out *m = calloc(1, sizeof *m);
    m->b = b;
    m->closed = closed;
    m->base.write = mo_write;
    m->base.close = mo_close;
    m->base.name = "memory";
    return &m->base;
}

static void compress_to(const char *method, const uint8_t *p, size_t n, buf *out)
{
    int closed = 0;
    outstream *o;
    CHECK(outstream_compress(mem_out_new(out, &closed), method, 0, &o) == 0);
    /* uneven chunks */
    size_t at = 0, step = 1;
    while (at < n) {
        size_t k = n - at < step ? n - at : step;
        CHECK(o->write(o, p + at, k) == 0);
        at += k;
        step = step * 3 + 1;
    }
    CHECK(o->close(o) == 0);
    CHECK(closed == 1);
}

/* Decompresses; returns 0 or -1, output in out. */
static int decompress_all(const char *method, const uint8_t *p, size_t n, buf *out)
{
    instream *in;
    if (instream_decompress(instream_from_memory(p, n, "test.bin"), method, &in) < 0)
        return -1;
    uint8_t tmp[777];
    int rc = 0;
    for (;;) {
        size_t got;
        if (in->read(in, tmp, sizeof tmp, &got) < 0) {
            if (getenv("CODEC_DEBUG"))
                fprintf(stderr, "%s: %s\n", method, err_msg());
            rc = -1;
            break;
        }
        if (got == 0)
            break;
        buf_append(out, tmp, got);
    }
    in->close(in);
    return rc;
}

int main(void)
{
    size_t n = 300000;
    uint8_t *data = malloc(n);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245 + 12345;
        data[i] = i < n / 2 ? (uint8_t)("abcabcdefg,\n"[i % 12]) : (uint8_t)(x >> 24);
    }
    const char *methods[] = {"gzip", "zstd", "xz", "lz4", "bz2", "deflate", "br", "none"};
    for (int m = 0; m < 8; m++) {
        buf c = {0}, d = {0};
        compress_to(methods[m], data, n, &c);
        CHECK(decompress_all(methods[m], c.p, c.len, &d) == 0);
        CHECK(d.len == n && memcmp(d.p, data, n) == 0);
        if (m < 7) {
            /* two frames back to back decode as the concatenation */
            buf c2 = {0}, d2 = {0};
            compress_to(methods[m], data, 1000, &c2);
            size_t one = c2.len;
            buf_reserve(&c2, one); /* append a copy of itself: reserve first so c2.p stays valid */
            buf_append(&c2, c2.p, one);
            CHECK(decompress_all(methods[m], c2.p, c2.len, &d2) == 0);
            CHECK(d2.len == 2000 && memcmp(d2.p, data, 1000) == 0 && memcmp(d2.p + 1000, data, 1000) == 0);
            /* truncated */
            buf d3 = {0};
            CHECK(decompress_all(methods[m], c.p, c.len / 2, &d3) == -1);
            CHECK(err_code() == ERR_CANNOT_DECOMPRESS);
            CHECK(strstr(err_msg(), "test.bin") != NULL);
            buf d5 = {0};
            CHECK(decompress_all(methods[m], c.p, c.len - 1, &d5) == -1);
            /* corrupt header */
            buf d4 = {0};
            uint8_t bad[64];
            memset(bad, 0x5a, sizeof bad);
            CHECK(decompress_all(methods[m], bad, sizeof bad, &d4) == -1);
            CHECK(err_code() == ERR_CANNOT_DECOMPRESS);
            /* empty input is empty output */
            buf d6 = {0};
            CHECK(decompress_all(methods[m], (const uint8_t *)"", 0, &d6) == 0 && d6.len == 0);
            buf_free(&c2);
            buf_free(&d2);
            buf_free(&d3);
            buf_free(&d4);
            buf_free(&d5);
            buf_free(&d6);
        }
        buf_free(&c);
        buf_free(&d);
    }
    /* corrupt body of a gzip stream: CRC mismatch */
    {
        buf c = {0}, d = {0};
        compress_to("gzip", data, 5000, &c);
        c.p[c.len / 2] ^= 0xff;
        CHECK(decompress_all("gzip", c.p, c.len, &d) == -1 && err_code() == ERR_CANNOT_DECOMPRESS);
        buf_free(&c);
        buf_free(&d);
    }
    const char *cm;
    CHECK(codec_method_canonical("GZ", &cm) == 0 && strcmp(cm, "gzip") == 0);
    CHECK(codec_method_canonical("bzip2", &cm) == 0 && strcmp(cm, "bz2") == 0);
    CHECK(codec_method_canonical("lzma", &cm) == 0 && strcmp(cm, "xz") == 0);
    CHECK(codec_method_canonical("zst", &cm) == 0 && strcmp(cm, "zstd") == 0);
    CHECK(codec_method_canonical("br", &cm) == 0 && strcmp(cm, "br") == 0);
    CHECK(codec_method_canonical("Brotli", &cm) == 0 && strcmp(cm, "br") == 0);
    CHECK(codec_method_canonical("deflate", &cm) == 0 && strcmp(cm, "deflate") == 0);
    CHECK(codec_method_canonical("snappy", &cm) == -1 && err_code() == ERR_UNKNOWN_COMPRESSION_METHOD);
    CHECK_STR(codec_method_from_path("x.json.br"), "br");
    CHECK_STR(codec_method_from_path("x.deflate"), "deflate");
    /* deflate is zlib's framing (RFC 1950: CMF 0x78, header checksum), not gzip's */
    {
        buf c = {0};
        compress_to("deflate", data, 100, &c);
        CHECK(c.len > 2 && (uint8_t)c.p[0] == 0x78 && (((uint8_t)c.p[0] << 8) | (uint8_t)c.p[1]) % 31 == 0);
        buf_free(&c);
    }
    CHECK_STR(codec_method_from_path("/a/b.csv.gz"), "gzip");
    CHECK_STR(codec_method_from_path("x.zst"), "zstd");
    CHECK_STR(codec_method_from_path("x.zstd"), "zstd");
    CHECK_STR(codec_method_from_path("x.xz"), "xz");
    CHECK_STR(codec_method_from_path("x.lz4"), "lz4");
    CHECK_STR(codec_method_from_path("x.bz2"), "bz2");
    CHECK_STR(codec_method_from_path("x.csv"), "none");
    /* auto picks by the stream name */
    {
        buf c = {0}, d = {0};
        compress_to("zstd", data, 100, &c);
        instream *in;
        CHECK(instream_decompress(instream_from_memory(c.p, c.len, "f.csv.zst"), "auto", &in) == 0);
        uint8_t tmp[200];
        size_t got;
        CHECK(in->read(in, tmp, sizeof tmp, &got) == 0 && got == 100 && memcmp(tmp, data, 100) == 0);
        in->close(in);
        buf_free(&c);
        buf_free(&d);
    }
    free(data);
    return check_done("codec_stream");
}
