/* ClickHouse's compressed blocks over HTTP (see http_blocks.h). */
#include "server/http_blocks.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "codec/compress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BLOCK_BYTES (1u << 20) /* ClickHouse's DBMS_DEFAULT_BUFFER_SIZE */

typedef struct blocks_out {
    outstream base;
    outstream *to;
    mt_codec *codec;
    buf pending;             /* uncompressed bytes of the next block */
    buf block;               /* the compressed block being written */
} blocks_out;

static int bo_emit(blocks_out *b)
{
    if (!b->pending.len)
        return 0;
    b->block.len = 0;
    mt_compress_block(b->codec, b->pending.p, b->pending.len, &b->block);
    b->pending.len = 0;
    return b->to->write(b->to, b->block.p, b->block.len);
}

static int bo_write(outstream *os, const void *p, size_t n)
{
    blocks_out *b = (blocks_out *)os;
    const char *s = p;
    os->offset += n;
    while (n) {
        size_t room = BLOCK_BYTES - b->pending.len;
        size_t k = n < room ? n : room;
        buf_append(&b->pending, s, k);
        s += k;
        n -= k;
        if (b->pending.len == BLOCK_BYTES && bo_emit(b))
            return -1;
    }
    return 0;
}

static int bo_close(outstream *os)
{
    blocks_out *b = (blocks_out *)os;
    int rc = bo_emit(b);
    if (b->to->close(b->to))
        rc = -1;
    mt_codec_free(b->codec);
    buf_free(&b->pending);
    buf_free(&b->block);
    free(b);
    return rc;
}

int outstream_blocks(outstream *to, const char *method, int64_t zstd_level, outstream **out)
{
    /* ClickHouse's network methods; the codec text is what a column's CODEC() takes. */
    char text[64];
    if (strcasecmp(method, "LZ4") == 0 || strcasecmp(method, "NONE") == 0 || strcasecmp(method, "LZ4HC") == 0) {
        snprintf(text, sizeof text, "%s", strcasecmp(method, "LZ4") == 0 ? "LZ4" : strcasecmp(method, "NONE") == 0 ? "NONE" : "LZ4HC");
    } else if (strcasecmp(method, "ZSTD") == 0) {
        if (zstd_level < 1 || zstd_level > 22) {
            to->close(to);
            return err_set(ERR_BAD_ARGUMENTS, "network_zstd_compression_level must be between 1 and 22, got %lld",
                           (long long)zstd_level);
        }
        snprintf(text, sizeof text, "ZSTD(%lld)", (long long)zstd_level);
    } else {
        to->close(to);
        return err_set(ERR_UNKNOWN_COMPRESSION_METHOD,
                       "Unknown compression method: '%s' (network_compression_method: LZ4, LZ4HC, ZSTD or NONE)", method);
    }
    blocks_out *b = xcalloc(1, sizeof *b);
    if (mt_codec_parse(text, NULL, &b->codec)) {
        to->close(to);
        free(b);
        return -1;
    }
    b->base.write = bo_write;
    b->base.close = bo_close;
    b->base.name = to->name;
    b->to = to;
    *out = &b->base;
    return 0;
}

typedef struct blocks_in {
    instream base;
    instream *from;
    buf raw;                 /* the compressed block being read */
    buf data;                /* its bytes */
    size_t data_pos;
    uint64_t raw_offset;     /* compressed bytes read so far (the next block's offset) */
    bool failed;             /* an error is final: a reader that reads again gets it again */
    err_saved err;
} blocks_in;

/* Reads exactly n bytes into b (appended); *got_any false when the stream ended before the
 * first byte. */
static int read_exact(blocks_in *b, size_t n, bool *got_any)
{
    size_t want = b->raw.len + n;
    buf_reserve(&b->raw, n);
    *got_any = false;
    while (b->raw.len < want) {
        size_t got;
        if (b->from->read(b->from, b->raw.p + b->raw.len, want - b->raw.len, &got))
            return -1;
        if (got == 0)
            return 1;
        *got_any = true;
        b->raw.len += got;
    }
    return 0;
}

static int bi_next_block(blocks_in *b, bool *end)
{
    b->raw.len = 0;
    b->data.len = 0;
    b->data_pos = 0;
    *end = false;
    bool any;
    int rc = read_exact(b, 25, &any);
    if (rc < 0)
        return -1;
    if (rc > 0 && b->raw.len == 0) {
        *end = true;
        return 0;
    }
    if (rc > 0)
        return err_set(ERR_CANNOT_READ_ALL_DATA,
                       "Cannot read all data: the compressed block header needs 25 bytes, %zu are left (%s, offset %llu)",
                       b->raw.len, b->base.name, (unsigned long long)b->raw_offset);
    uint32_t cs, us;
    if (mt_block_header((const uint8_t *)b->raw.p, b->raw.len, &cs, &us, b->base.name, b->raw_offset))
        return -1;
    rc = read_exact(b, 16 + (size_t)cs - 25, &any);
    if (rc < 0)
        return -1;
    if (rc > 0)
        return err_set(ERR_CANNOT_READ_ALL_DATA,
                       "Cannot read all data: the compressed block at offset %llu of %s is cut short (%zu of %u bytes)",
                       (unsigned long long)b->raw_offset, b->base.name, b->raw.len, 16 + cs);
    if (mt_decompress_block((const uint8_t *)b->raw.p, b->raw.len, &b->data, b->base.name, b->raw_offset))
        return -1;
    b->raw_offset += b->raw.len;
    return 0;
}

static int bi_read(instream *s, void *dst, size_t cap, size_t *got)
{
    blocks_in *b = (blocks_in *)s;
    *got = 0;
    if (b->failed) {
        err_restore(&b->err);
        return -1;
    }
    while (b->data_pos == b->data.len) {
        bool end;
        if (bi_next_block(b, &end)) {
            b->failed = true;
            err_save(&b->err);
            return -1;
        }
        if (end)
            return 0;
    }
    size_t n = b->data.len - b->data_pos;
    if (n > cap)
        n = cap;
    memcpy(dst, b->data.p + b->data_pos, n);
    b->data_pos += n;
    *got = n;
    s->offset += n;
    return 0;
}

static void bi_close(instream *s)
{
    blocks_in *b = (blocks_in *)s;
    b->from->close(b->from);
    buf_free(&b->raw);
    buf_free(&b->data);
    free(b);
}

int instream_blocks(instream *from, instream **out)
{
    blocks_in *b = xcalloc(1, sizeof *b);
    b->base.read = bi_read;
    b->base.close = bi_close;
    b->base.name = from->name;
    b->from = from;
    *out = &b->base;
    return 0;
}
