/* Streaming (de)compression wrappers over instream/outstream (see stream_codec.h).
 *
 * Every decompressor keeps one input buffer that it refills from the wrapped stream and
 * feeds to the library; `in_off` counts compressed bytes consumed, for messages. A stream
 * that ends inside a frame is reported as truncated. Concatenated frames/members are
 * decoded one after another (gzip members, zstd frames, xz streams, lz4 frames, bzip2
 * streams), as the command-line tools do. */
#include "codec/stream_codec.h"

#include "base/err.h"
#include "base/lazylib.h"
#include "base/mem.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <bzlib.h>
#include <lz4frame.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

enum { M_NONE, M_GZIP, M_ZSTD, M_XZ, M_LZ4, M_BZ2, M_DEFLATE, M_BR };

/* The brotli encoder is loaded on first use (base/lazylib.h): only `br` output needs it,
 * and every start of shale would pay for linking it. The decoder is linked (Parquet). */
static struct {
    __typeof__(BrotliEncoderCreateInstance) *create;
    __typeof__(BrotliEncoderSetParameter) *set;
    __typeof__(BrotliEncoderCompressStream) *compress;
    __typeof__(BrotliEncoderIsFinished) *finished;
    __typeof__(BrotliEncoderDestroyInstance) *destroy;
} brenc;
static const lazy_sym brenc_syms[] = {{"BrotliEncoderCreateInstance", (void **)&brenc.create},
                                      {"BrotliEncoderSetParameter", (void **)&brenc.set},
                                      {"BrotliEncoderCompressStream", (void **)&brenc.compress},
                                      {"BrotliEncoderIsFinished", (void **)&brenc.finished},
                                      {"BrotliEncoderDestroyInstance", (void **)&brenc.destroy},
                                      {0}};
static lazylib brenc_lib = LAZYLIB_INIT("libbrotlienc.so.1", "brotli (br) compression", brenc_syms);

static const struct {
    const char *name;
    const char *canon;
} method_names[] = {
    {"gzip", "gzip"}, {"gz", "gzip"}, {"deflate", "deflate"}, {"zstd", "zstd"}, {"zst", "zstd"},
    {"xz", "xz"},     {"lzma", "xz"}, {"lz4", "lz4"},       {"bz2", "bz2"},   {"bzip2", "bz2"},
    {"br", "br"},     {"brotli", "br"},
    {"none", "none"}, {"auto", "auto"}, {"", "auto"},
};

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcasecmp(s + n - k, suf) == 0;
}

const char *codec_method_from_path(const char *path)
{
    if (!path)
        return "none";
    if (ends_with(path, ".gz") || ends_with(path, ".gzip"))
        return "gzip";
    if (ends_with(path, ".deflate"))
        return "deflate";
    if (ends_with(path, ".br"))
        return "br";
    if (ends_with(path, ".zst") || ends_with(path, ".zstd"))
        return "zstd";
    if (ends_with(path, ".xz") || ends_with(path, ".lzma"))
        return "xz";
    if (ends_with(path, ".lz4"))
        return "lz4";
    if (ends_with(path, ".bz2"))
        return "bz2";
    return "none";
}

int codec_method_canonical(const char *name, const char **out)
{
    for (size_t i = 0; i < sizeof method_names / sizeof method_names[0]; i++)
        if (strcasecmp(name, method_names[i].name) == 0) {
            *out = method_names[i].canon;
            return 0;
        }
    return err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "Unknown compression method '%s'. Only 'auto', 'none', 'gzip', 'deflate', "
                   "'br', 'xz', 'lzma', 'zstd', 'lz4', 'bz2' are supported as compression methods", name);
}

static int method_id(const char *m, const char *path, int *id)
{
    const char *c;
    if (codec_method_canonical(m ? m : "auto", &c) < 0)
        return -1;
    if (strcmp(c, "auto") == 0)
        c = codec_method_from_path(path);
    static const char *ids[] = {"none", "gzip", "zstd", "xz", "lz4", "bz2", "deflate", "br"};
    for (int i = 0; i < 8; i++)
        if (strcmp(c, ids[i]) == 0) {
            *id = i;
            return 0;
        }
    return err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "Unknown compression method '%s'", c);
}

static const char *method_label(int id)
{
    static const char *l[] = {"none", "gzip", "zstd", "xz", "lz4", "bz2", "deflate", "br"};
    return l[id];
}

/* ---------------------------------------------------------------- decompression */

#define IN_CAP (1 << 16)

typedef struct dec_in {
    instream base;
    instream *inner;
    int method;
    uint8_t *ibuf;
    size_t ipos, ilen;
    bool in_eof;       /* inner stream exhausted */
    bool done;         /* all output delivered */
    bool mid_frame;    /* inside a frame: EOF now means truncated */
    uint64_t in_off;   /* compressed bytes consumed */
    z_stream z;
    ZSTD_DStream *zs;
    lzma_stream lz;
    LZ4F_dctx *l4;
    bz_stream bz;
    bool bz_init;
    BrotliDecoderState *br;
} dec_in;

static int dec_fail(dec_in *d, const char *why)
{
    return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress %s data from '%s' at compressed offset %llu: %s",
                   method_label(d->method), d->inner->name ? d->inner->name : "stream", (unsigned long long)d->in_off, why);
}

/* Makes input available; returns -1 on read error. */
static int dec_fill(dec_in *d)
{
    if (d->ipos < d->ilen || d->in_eof)
        return 0;
    size_t got;
    if (d->inner->read(d->inner, d->ibuf, IN_CAP, &got) < 0)
        return -1;
    d->ipos = 0;
    d->ilen = got;
    if (got == 0)
        d->in_eof = true;
    return 0;
}

static int dec_step(dec_in *d, uint8_t *dst, size_t cap, size_t *got)
{
    const uint8_t *src = d->ibuf + d->ipos;
    size_t avail = d->ilen - d->ipos, used = 0, made = 0;
    *got = 0;
    if (avail == 0 && !d->mid_frame)
        return 0; /* between frames with no input: nothing to decode */
    switch (d->method) {
    case M_BR: {
        if (!d->mid_frame && avail > 0) {
            /* a new stream (concatenated after the previous one) */
            BrotliDecoderDestroyInstance(d->br);
            d->br = BrotliDecoderCreateInstance(NULL, NULL, NULL);
            if (!d->br)
                return dec_fail(d, "cannot initialise brotli");
            d->mid_frame = true;
        }
        const uint8_t *next_in = src;
        uint8_t *next_out = dst;
        size_t in_left = avail, out_left = cap;
        BrotliDecoderResult r = BrotliDecoderDecompressStream(d->br, &in_left, &next_in, &out_left, &next_out, NULL);
        used = avail - in_left;
        made = cap - out_left;
        if (r == BROTLI_DECODER_RESULT_ERROR)
            return dec_fail(d, BrotliDecoderErrorString(BrotliDecoderGetErrorCode(d->br)));
        if (r == BROTLI_DECODER_RESULT_SUCCESS)
            d->mid_frame = false;
        break;
    }
    case M_GZIP:
    case M_DEFLATE: {
        if (!d->mid_frame && avail > 0) {
            inflateReset(&d->z);
            d->mid_frame = true;
        }
        d->z.next_in = (Bytef *)src;
        d->z.avail_in = (uInt)avail;
        d->z.next_out = dst;
        d->z.avail_out = (uInt)cap;
        int r = inflate(&d->z, Z_NO_FLUSH);
        used = avail - d->z.avail_in;
        made = cap - d->z.avail_out;
        if (r == Z_STREAM_END)
            d->mid_frame = false;
        else if (r == Z_BUF_ERROR && used == 0 && made == 0 && avail > 0)
            return dec_fail(d, "no progress");
        else if (r != Z_OK && r != Z_BUF_ERROR)
            return dec_fail(d, d->z.msg ? d->z.msg : "inflate failed");
        break;
    }
    case M_ZSTD: {
        ZSTD_inBuffer ib = {src, avail, 0};
        ZSTD_outBuffer ob = {dst, cap, 0};
        size_t r = ZSTD_decompressStream(d->zs, &ob, &ib);
        if (ZSTD_isError(r))
            return dec_fail(d, ZSTD_getErrorName(r));
        used = ib.pos;
        made = ob.pos;
        d->mid_frame = r != 0;
        break;
    }
    case M_XZ: {
        d->lz.next_in = src;
        d->lz.avail_in = avail;
        d->lz.next_out = dst;
        d->lz.avail_out = cap;
        lzma_ret r = lzma_code(&d->lz, d->in_eof ? LZMA_FINISH : LZMA_RUN);
        used = avail - d->lz.avail_in;
        made = cap - d->lz.avail_out;
        d->mid_frame = true;
        if (r == LZMA_STREAM_END) {
            d->mid_frame = false;
        } else if (r == LZMA_BUF_ERROR && d->in_eof) {
            return dec_fail(d, "unexpected end of data (truncated)");
        } else if (r != LZMA_OK && r != LZMA_BUF_ERROR) {
            return dec_fail(d, r == LZMA_FORMAT_ERROR ? "not in xz format" : r == LZMA_DATA_ERROR ? "data is corrupt" : "lzma error");
        }
        break;
    }
    case M_LZ4: {
        size_t dsz = cap, ssz = avail;
        size_t r = LZ4F_decompress(d->l4, dst, &dsz, src, &ssz, NULL);
        if (LZ4F_isError(r))
            return dec_fail(d, LZ4F_getErrorName(r));
        used = ssz;
        made = dsz;
        d->mid_frame = r != 0;
        break;
    }
    case M_BZ2: {
        if (!d->bz_init && avail > 0) {
            memset(&d->bz, 0, sizeof d->bz);
            if (BZ2_bzDecompressInit(&d->bz, 0, 0) != BZ_OK)
                return dec_fail(d, "cannot initialise bzip2");
            d->bz_init = true;
            d->mid_frame = true;
        }
        if (!d->bz_init)
            break;
        d->bz.next_in = (char *)src;
        d->bz.avail_in = (unsigned)avail;
        d->bz.next_out = (char *)dst;
        d->bz.avail_out = (unsigned)cap;
        int r = BZ2_bzDecompress(&d->bz);
        used = avail - d->bz.avail_in;
        made = cap - d->bz.avail_out;
        if (r == BZ_STREAM_END) {
            BZ2_bzDecompressEnd(&d->bz);
            d->bz_init = false;
            d->mid_frame = false;
        } else if (r != BZ_OK) {
            return dec_fail(d, r == BZ_DATA_ERROR_MAGIC ? "not in bzip2 format" : "data is corrupt");
        }
        break;
    }
    }
    d->ipos += used;
    d->in_off += used;
    *got = made;
    return 0;
}

static int dec_read(instream *s, void *dst, size_t cap, size_t *got)
{
    dec_in *d = (dec_in *)s;
    *got = 0;
    while (!d->done && cap > 0) {
        if (dec_fill(d) < 0)
            return -1;
        size_t made = 0;
        if (dec_step(d, dst, cap, &made) < 0)
            return -1;
        if (made > 0) {
            *got = made;
            s->offset += made;
            return 0;
        }
        /* No output: at the end of the input that is either a clean end between frames or
         * a truncated frame. Otherwise more input is needed. */
        if (d->in_eof && d->ipos >= d->ilen) {
            if (d->mid_frame)
                return dec_fail(d, "unexpected end of data (truncated)");
            d->done = true;
        }
    }
    return 0;
}

static void dec_close(instream *s)
{
    dec_in *d = (dec_in *)s;
    switch (d->method) {
    case M_GZIP:
    case M_DEFLATE: inflateEnd(&d->z); break;
    case M_BR: BrotliDecoderDestroyInstance(d->br); break;
    case M_ZSTD: ZSTD_freeDStream(d->zs); break;
    case M_XZ: lzma_end(&d->lz); break;
    case M_LZ4: LZ4F_freeDecompressionContext(d->l4); break;
    case M_BZ2:
        if (d->bz_init)
            BZ2_bzDecompressEnd(&d->bz);
        break;
    }
    d->inner->close(d->inner);
    free(d->ibuf);
    free(d);
}

int instream_decompress(instream *in, const char *method, instream **out)
{
    int id;
    if (method_id(method, in->name, &id) < 0) {
        in->close(in);
        return -1;
    }
    if (id == M_NONE) {
        *out = in;
        return 0;
    }
    dec_in *d = xcalloc(1, sizeof *d);
    d->inner = in;
    d->method = id;
    d->ibuf = xmalloc(IN_CAP);
    d->base.read = dec_read;
    d->base.close = dec_close;
    d->base.name = in->name;
    bool ok = true;
    switch (id) {
    case M_GZIP:
    case M_DEFLATE: ok = inflateInit2(&d->z, 15 + 32) == Z_OK; break; /* zlib or gzip framing */
    case M_BR: d->br = BrotliDecoderCreateInstance(NULL, NULL, NULL); ok = d->br != NULL; break;
    case M_ZSTD: d->zs = ZSTD_createDStream(); ok = d->zs && !ZSTD_isError(ZSTD_initDStream(d->zs)); break;
    case M_XZ: {
        lzma_stream init = LZMA_STREAM_INIT;
        d->lz = init;
        ok = lzma_stream_decoder(&d->lz, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
        break;
    }
    case M_LZ4: ok = !LZ4F_isError(LZ4F_createDecompressionContext(&d->l4, LZ4F_VERSION)); break;
    case M_BZ2: break;
    }
    if (!ok) {
        int m = d->method;
        in->close(in);
        free(d->ibuf);
        free(d);
        return err_set(ERR_CANNOT_DECOMPRESS, "Cannot initialise %s decompression", method_label(m));
    }
    *out = &d->base;
    return 0;
}

/* ---------------------------------------------------------------- compression */

#define OUT_CAP (1 << 16)

typedef struct enc_out {
    outstream base;
    outstream *inner;
    int method;
    uint8_t *obuf;
    z_stream z;
    ZSTD_CStream *zs;
    lzma_stream lz;
    LZ4F_cctx *l4;
    bool l4_started;
    int level;
    bz_stream bz;
    BrotliEncoderState *br;
} enc_out;

static int enc_fail(enc_out *e, const char *why)
{
    return err_set(ERR_CANNOT_COMPRESS, "Cannot compress %s data to '%s': %s", method_label(e->method),
                   e->inner->name ? e->inner->name : "stream", why);
}

static int enc_emit(enc_out *e, const void *p, size_t n)
{
    return n ? e->inner->write(e->inner, p, n) : 0;
}

/* Feeds src (finish: flush the end of the stream). */
static int enc_feed(enc_out *e, const uint8_t *src, size_t n, bool finish)
{
    switch (e->method) {
    case M_BR: {
        const uint8_t *next_in = src;
        size_t in_left = n;
        for (;;) {
            uint8_t *next_out = e->obuf;
            size_t out_left = OUT_CAP;
            if (!brenc.compress(e->br, finish ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS, &in_left, &next_in,
                                &out_left, &next_out, NULL))
                return enc_fail(e, "brotli error");
            if (enc_emit(e, e->obuf, OUT_CAP - out_left) < 0)
                return -1;
            if (finish ? brenc.finished(e->br) : in_left == 0 && out_left != 0)
                return 0;
        }
    }
    case M_GZIP:
    case M_DEFLATE: {
        e->z.next_in = (Bytef *)src;
        e->z.avail_in = (uInt)n;
        for (;;) {
            e->z.next_out = e->obuf;
            e->z.avail_out = OUT_CAP;
            int r = deflate(&e->z, finish ? Z_FINISH : Z_NO_FLUSH);
            if (r == Z_STREAM_ERROR)
                return enc_fail(e, "deflate failed");
            if (enc_emit(e, e->obuf, OUT_CAP - e->z.avail_out) < 0)
                return -1;
            if (finish ? r == Z_STREAM_END : e->z.avail_in == 0 && e->z.avail_out != 0)
                return 0;
        }
    }
    case M_ZSTD: {
        ZSTD_inBuffer ib = {src, n, 0};
        for (;;) {
            ZSTD_outBuffer ob = {e->obuf, OUT_CAP, 0};
            size_t r = ZSTD_compressStream2(e->zs, &ob, &ib, finish ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(r))
                return enc_fail(e, ZSTD_getErrorName(r));
            if (enc_emit(e, e->obuf, ob.pos) < 0)
                return -1;
            if (finish ? r == 0 : ib.pos == ib.size)
                return 0;
        }
    }
    case M_XZ: {
        e->lz.next_in = src;
        e->lz.avail_in = n;
        for (;;) {
            e->lz.next_out = e->obuf;
            e->lz.avail_out = OUT_CAP;
            lzma_ret r = lzma_code(&e->lz, finish ? LZMA_FINISH : LZMA_RUN);
            if (r != LZMA_OK && r != LZMA_STREAM_END)
                return enc_fail(e, "lzma error");
            if (enc_emit(e, e->obuf, OUT_CAP - e->lz.avail_out) < 0)
                return -1;
            if (finish ? r == LZMA_STREAM_END : e->lz.avail_in == 0)
                return 0;
        }
    }
    case M_LZ4: {
        if (!e->l4_started) {
            LZ4F_preferences_t prefs;
            memset(&prefs, 0, sizeof prefs);
            prefs.compressionLevel = e->level;
            prefs.autoFlush = 1; /* keeps each update's output within LZ4F_compressBound(16K) */
            prefs.frameInfo.blockSizeID = LZ4F_max64KB;
            size_t r = LZ4F_compressBegin(e->l4, e->obuf, OUT_CAP, &prefs);
            if (LZ4F_isError(r))
                return enc_fail(e, LZ4F_getErrorName(r));
            if (enc_emit(e, e->obuf, r) < 0)
                return -1;
            e->l4_started = true;
        }
        /* LZ4F_compressBound(16K) fits OUT_CAP comfortably. */
        while (n > 0) {
            size_t k = n < 16384 ? n : 16384;
            size_t r = LZ4F_compressUpdate(e->l4, e->obuf, OUT_CAP, src, k, NULL);
            if (LZ4F_isError(r))
                return enc_fail(e, LZ4F_getErrorName(r));
            if (enc_emit(e, e->obuf, r) < 0)
                return -1;
            src += k;
            n -= k;
        }
        if (finish) {
            size_t r = LZ4F_compressEnd(e->l4, e->obuf, OUT_CAP, NULL);
            if (LZ4F_isError(r))
                return enc_fail(e, LZ4F_getErrorName(r));
            return enc_emit(e, e->obuf, r);
        }
        return 0;
    }
    case M_BZ2: {
        e->bz.next_in = (char *)src;
        e->bz.avail_in = (unsigned)n;
        for (;;) {
            e->bz.next_out = (char *)e->obuf;
            e->bz.avail_out = OUT_CAP;
            int r = BZ2_bzCompress(&e->bz, finish ? BZ_FINISH : BZ_RUN);
            if (r < 0)
                return enc_fail(e, "bzip2 error");
            if (enc_emit(e, e->obuf, OUT_CAP - e->bz.avail_out) < 0)
                return -1;
            if (finish ? r == BZ_STREAM_END : e->bz.avail_in == 0)
                return 0;
        }
    }
    }
    return 0;
}

static int enc_write(outstream *s, const void *src, size_t n)
{
    enc_out *e = (enc_out *)s;
    const uint8_t *p = src;
    /* Chunks keep each library's unsigned-int counters in range. */
    while (n > 0) {
        size_t k = n < (1u << 30) ? n : (1u << 30);
        if (enc_feed(e, p, k, false) < 0)
            return -1;
        p += k;
        n -= k;
        s->offset += k;
    }
    return 0;
}

static void enc_free(enc_out *e)
{
    switch (e->method) {
    case M_GZIP:
    case M_DEFLATE: deflateEnd(&e->z); break;
    case M_BR:
        if (e->br)
            brenc.destroy(e->br);
        break;
    case M_ZSTD: ZSTD_freeCStream(e->zs); break;
    case M_XZ: lzma_end(&e->lz); break;
    case M_LZ4: LZ4F_freeCompressionContext(e->l4); break;
    case M_BZ2: BZ2_bzCompressEnd(&e->bz); break;
    }
    free(e->obuf);
    free(e);
}

static int enc_close(outstream *s)
{
    enc_out *e = (enc_out *)s;
    int r = enc_feed(e, NULL, 0, true);
    outstream *inner = e->inner;
    enc_free(e);
    if (inner->close(inner) < 0)
        r = -1;
    return r;
}

int outstream_compress(outstream *out, const char *method, int level, outstream **res)
{
    int id;
    if (method_id(method, out->name, &id) < 0) {
        out->close(out);
        return -1;
    }
    if (id == M_NONE) {
        *res = out;
        return 0;
    }
    enc_out *e = xcalloc(1, sizeof *e);
    e->inner = out;
    e->method = id;
    e->obuf = xmalloc(OUT_CAP);
    e->base.write = enc_write;
    e->base.close = enc_close;
    e->base.name = out->name;
    bool ok = true;
    switch (id) {
    case M_GZIP:
    case M_DEFLATE: /* deflate is zlib's framing, as ClickHouse (and HTTP) mean it */
        ok = deflateInit2(&e->z, level > 0 ? (level > 9 ? 9 : level) : Z_DEFAULT_COMPRESSION, Z_DEFLATED,
                          id == M_GZIP ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
        break;
    case M_BR:
        if (lazylib_load(&brenc_lib)) {
            free(e->obuf);
            free(e);
            out->close(out);
            return -1;
        }
        e->br = brenc.create(NULL, NULL, NULL);
        ok = e->br && brenc.set(e->br, BROTLI_PARAM_QUALITY, (uint32_t)(level > 0 ? (level > 11 ? 11 : level) : 11));
        break;
    case M_ZSTD:
        e->zs = ZSTD_createCStream();
        ok = e->zs && !ZSTD_isError(ZSTD_CCtx_setParameter(e->zs, ZSTD_c_compressionLevel, level > 0 ? level : 3));
        break;
    case M_XZ: {
        lzma_stream init = LZMA_STREAM_INIT;
        e->lz = init;
        ok = lzma_easy_encoder(&e->lz, level > 0 ? (uint32_t)(level > 9 ? 9 : level) : 6, LZMA_CHECK_CRC64) == LZMA_OK;
        break;
    }
    case M_LZ4:
        e->level = level > 0 ? level : 0;
        ok = !LZ4F_isError(LZ4F_createCompressionContext(&e->l4, LZ4F_VERSION));
        break;
    case M_BZ2:
        ok = BZ2_bzCompressInit(&e->bz, level > 0 ? (level > 9 ? 9 : level) : 9, 0, 0) == BZ_OK;
        break;
    }
    if (!ok) {
        enc_free(e);
        out->close(out);
        return err_set(ERR_CANNOT_COMPRESS, "Cannot initialise %s compression", method_label(id));
    }
    *res = &e->base;
    return 0;
}
