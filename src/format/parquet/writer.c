/* Parquet output format (FORMAT Parquet, file('x.parquet') inserts).
 *
 * Layout written, following what ClickHouse 26.7 writes so that readers see the same
 * schema: "PAR1", row groups of output_format_parquet_row_group_size rows (or fewer when
 * the uncompressed bytes reach output_format_parquet_row_group_size_bytes), each column
 * chunk = an optional PLAIN dictionary page + data pages v1 of ~1 MiB (RLE_DICTIONARY
 * indices, or PLAIN after the dictionary outgrew 1 MiB), then the FileMetaData footer.
 *
 * Every incoming block is shredded column by column into definition / repetition levels
 * and leaf values (Dremel), converted to the Parquet physical representation in a scratch
 * buffer, and appended to the leaf's current page; pages are compressed as soon as they
 * are full and kept in memory until the row group is complete (a column chunk must be
 * contiguous, and the dictionary page comes first).
 *
 * Errors: -1 with err_set (unsupported type, unknown codec). Not thread-safe. */
#include "format/out_internal.h"
#include "format/parquet/thrift_write.h"

#include "base/err.h"
#include "base/mem.h"
#include "codec/snappy_lib.h"

#include <lz4.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#define PAGE_BYTES (1 << 20)
#define DICT_BYTES (1 << 20)
#define SLICE 4096

/* How values are converted from the shale column to the Parquet physical value. */
enum { CV_COPY, CV_I8, CV_U8, CV_I16, CV_U16, CV_DATE, CV_DT_MS, CV_DT64, CV_DEC_BE, CV_UUID, CV_STRING, CV_ENUM,
       CV_BOOL };
/* How statistics compare. */
enum { K_I32, K_U32, K_I64, K_U64, K_F32, K_F64, K_BOOL, K_BYTES, K_SBE, K_NONE };

typedef struct span {
    const uint8_t *p;
    uint32_t n;
} span;

typedef struct stats {
    bool has;
    buf min, max;
    int64_t nulls;
} stats;

typedef struct leaf {
    /* schema */
    int top;                /* top-level column */
    int *fieldpath;         /* tuple field index at each tuple on the way down */
    int nfp;
    char **path;
    int npath;
    const type *t;          /* leaf type (no Nullable / LowCardinality) */
    int phys, type_length, width; /* width: bytes of a fixed-width physical value; 0 for BYTE_ARRAY */
    int max_def, max_rep;
    int cv, kind;
    int64_t mul;            /* DateTime64 scale factor */
    bool legacy_stats;
    bool use_dict;
    /* shredding scratch */
    buf defs, reps;         /* uint8 per level */
    buf vidx;               /* uint32 row index in the leaf column per value */
    buf pv;                 /* physical values: width bytes each, or spans */
    /* page */
    buf pdefs, preps, pvals, pidx;
    int64_t p_levels, p_vals;
    stats pst;
    /* chunk */
    buf pages;              /* compressed data pages with headers */
    int64_t c_levels, c_unc, c_comp;
    stats cst;
    uint32_t encodings;     /* bit per encoding of data pages */
    /* dictionary */
    bool dict_on, dict_used;
    buf dict;               /* PLAIN values */
    buf doffs;              /* uint32 start of each entry in dict (BYTE_ARRAY) */
    uint32_t ndict;
    uint32_t *slots;        /* index + 1, 0 = empty */
    uint32_t cap;
    /* column meta of the row group being written */
    int64_t dict_off, data_off, chunk_end;
} leaf;

typedef struct rg_meta {
    int64_t rows, unc, comp, off;
    int64_t *dict_off, *data_off, *end, *levels, *c_unc, *c_comp;
    uint32_t *enc;
    stats *st;
    bool *dict_used;
} rg_meta;

typedef struct pq_w {
    leaf *lv;
    int nl;
    buf schema;             /* encoded SchemaElements (list items) */
    int nschema;
    int codec;
    int64_t rg_rows_max, rg_bytes_max;
    int64_t rg_rows, rg_bytes;
    int64_t off;            /* bytes written to the file */
    int64_t total_rows;
    rg_meta *rgs;
    int nrg, caprg;
    buf comp, body, hdr;
    ZSTD_CCtx *zc;
} pq_w;

/* ---------------- schema ---------------- */

static void schema_el(pq_w *p, const char *name, int phys, int type_length, int rep, int nch, int conv,
                      int scale, int prec, void (*lt)(tw *, const type *), const type *t)
{
    tw o;
    tw_init(&o, &p->schema);
    tw_elem_begin(&o);
    if (phys >= 0)
        tw_i32(&o, 1, phys);
    if (type_length > 0)
        tw_i32(&o, 2, type_length);
    if (rep >= 0)
        tw_i32(&o, 3, rep);
    tw_string(&o, 4, name);
    if (nch >= 0)
        tw_i32(&o, 5, nch);
    if (conv >= 0)
        tw_i32(&o, 6, conv);
    if (conv == PQ_CT_DECIMAL) {
        tw_i32(&o, 7, scale);
        tw_i32(&o, 8, prec);
    }
    if (lt) {
        tw_struct_begin(&o, 10);
        lt(&o, t);
        tw_struct_end(&o);
    }
    tw_struct_end(&o);
    p->nschema++;
}

static void lt_int(tw *o, const type *t)
{
    tw_struct_begin(o, PQ_LT_INTEGER);
    tw_field(o, 1, TH_BYTE);
    int bits = (int)t->width * 8;
    buf_putc(o->b, (char)bits);
    tw_bool(o, 2, type_is_signed(t));
    tw_struct_end(o);
}
static void lt_empty(tw *o, int id)
{
    tw_struct_begin(o, (int16_t)id);
    tw_struct_end(o);
}
static void lt_string(tw *o, const type *t) { (void)t; lt_empty(o, PQ_LT_STRING); }
static void lt_enum(tw *o, const type *t) { (void)t; lt_empty(o, PQ_LT_ENUM); }
static void lt_date(tw *o, const type *t) { (void)t; lt_empty(o, PQ_LT_DATE); }
static void lt_uuid(tw *o, const type *t) { (void)t; lt_empty(o, PQ_LT_UUID); }
static void lt_list(tw *o, const type *t) { (void)t; lt_empty(o, PQ_LT_LIST); }
static void lt_map(tw *o, const type *t) { (void)t; lt_empty(o, PQ_LT_MAP); }
static void lt_decimal(tw *o, const type *t)
{
    tw_struct_begin(o, PQ_LT_DECIMAL);
    tw_i32(o, 1, t->scale);
    tw_i32(o, 2, t->precision);
    tw_struct_end(o);
}
static void lt_ts(tw *o, const type *t)
{
    int unit = t->id == T_DATETIME || t->scale <= 3 ? PQ_UNIT_MILLIS : t->scale <= 6 ? PQ_UNIT_MICROS : PQ_UNIT_NANOS;
    tw_struct_begin(o, PQ_LT_TIMESTAMP);
    tw_bool(o, 1, true);
    tw_struct_begin(o, 2);
    lt_empty(o, unit);
    tw_struct_end(o);
    tw_struct_end(o);
}

typedef struct walk {
    int fp[64];
    int nfp;
    const char *path[64];
    int npath;
} walk;

static int add_leaf(pq_w *p, int top, const walk *wk, const type *t, int def, int rep)
{
    p->lv = xrealloc(p->lv, (size_t)(p->nl + 1) * sizeof *p->lv);
    leaf *l = &p->lv[p->nl++];
    memset(l, 0, sizeof *l);
    l->top = top;
    l->nfp = wk->nfp;
    l->fieldpath = xmalloc((size_t)(wk->nfp + 1) * sizeof(int));
    memcpy(l->fieldpath, wk->fp, (size_t)wk->nfp * sizeof(int));
    l->npath = wk->npath;
    l->path = xmalloc((size_t)wk->npath * sizeof(char *));
    for (int i = 0; i < wk->npath; i++)
        l->path[i] = xstrdup(wk->path[i]);
    l->t = t;
    l->max_def = def;
    l->max_rep = rep;
    l->use_dict = true;
    l->kind = K_NONE;
    switch (t->id) {
    case T_INT8: l->phys = PQ_INT32; l->cv = CV_I8; l->kind = K_I32; break;
    case T_INT16: l->phys = PQ_INT32; l->cv = CV_I16; l->kind = K_I32; break;
    case T_INT32: l->phys = PQ_INT32; l->cv = CV_COPY; l->kind = K_I32; break;
    case T_INT64: l->phys = PQ_INT64; l->cv = CV_COPY; l->kind = K_I64; break;
    case T_UINT8: l->phys = PQ_INT32; l->cv = CV_U8; l->kind = K_U32; break;
    case T_UINT16: l->phys = PQ_INT32; l->cv = CV_U16; l->kind = K_U32; break;
    case T_UINT32: case T_IPV4: /* ClickHouse writes an IPv4 as its UInt32 */
        l->phys = PQ_INT32; l->cv = CV_COPY; l->kind = K_U32; break;
    case T_UINT64: l->phys = PQ_INT64; l->cv = CV_COPY; l->kind = K_U64; break;
    case T_INT128: case T_UINT128: case T_INT256: case T_UINT256: /* their little-endian bytes, as ClickHouse */
        l->phys = PQ_FIXED_LEN_BYTE_ARRAY; l->type_length = (int)t->width; l->cv = CV_COPY; l->kind = K_BYTES; break;
    case T_FLOAT32: l->phys = PQ_FLOAT; l->cv = CV_COPY; l->kind = K_F32; break;
    case T_FLOAT64: l->phys = PQ_DOUBLE; l->cv = CV_COPY; l->kind = K_F64; break;
    case T_BOOL: l->phys = PQ_BOOLEAN; l->cv = CV_BOOL; l->kind = K_BOOL; l->use_dict = false; break;
    case T_STRING: l->phys = PQ_BYTE_ARRAY; l->cv = CV_STRING; l->kind = K_BYTES; break;
    case T_FIXEDSTRING: case T_IPV6: /* an IPv6 as its 16 bytes, as ClickHouse */
        l->phys = PQ_FIXED_LEN_BYTE_ARRAY; l->type_length = (int)t->width; l->cv = CV_COPY; l->kind = K_BYTES; break;
    case T_DATE: l->phys = PQ_INT32; l->cv = CV_DATE; l->kind = K_I32; break;
    case T_DATE32: l->phys = PQ_INT32; l->cv = CV_COPY; l->kind = K_I32; break;
    case T_DATETIME: l->phys = PQ_INT64; l->cv = CV_DT_MS; l->kind = K_I64; break;
    case T_DATETIME64: {
        l->phys = PQ_INT64; l->cv = CV_DT64; l->kind = K_I64;
        int target = t->scale <= 3 ? 3 : t->scale <= 6 ? 6 : 9;
        l->mul = 1;
        for (int i = t->scale; i < target; i++)
            l->mul *= 10;
        break;
    }
    case T_DECIMAL32: case T_DECIMAL64: case T_DECIMAL128: case T_DECIMAL256:
        l->phys = PQ_FIXED_LEN_BYTE_ARRAY; l->type_length = (int)t->width; l->cv = CV_DEC_BE; l->kind = K_SBE; break;
    case T_UUID: l->phys = PQ_FIXED_LEN_BYTE_ARRAY; l->type_length = 16; l->cv = CV_UUID; l->kind = K_BYTES; break;
    case T_ENUM8: case T_ENUM16: l->phys = PQ_BYTE_ARRAY; l->cv = CV_ENUM; l->kind = K_BYTES; break;
    default:
        p->nl--;
        free(l->fieldpath);
        for (int i = 0; i < l->npath; i++)
            free(l->path[i]);
        free(l->path);
        return err_set(ERR_ILLEGAL_COLUMN, "Type %s of column %s is not supported for output format Parquet", t->name,
                       wk->path[0]);
    }
    l->width = l->phys == PQ_INT32 || l->phys == PQ_FLOAT ? 4
               : l->phys == PQ_INT64 || l->phys == PQ_DOUBLE ? 8
               : l->phys == PQ_FIXED_LEN_BYTE_ARRAY ? l->type_length
               : l->phys == PQ_BOOLEAN ? 1 : 0;
    l->legacy_stats = l->kind == K_I32 || l->kind == K_I64 || l->kind == K_F32 || l->kind == K_F64;
    return 0;
}

static int build(pq_w *p, int top, walk *wk, const char *name, const type *t, int def, int rep, bool optional)
{
    if (wk->npath >= 63 || wk->nfp >= 63)
        return err_set(ERR_ILLEGAL_COLUMN, "Column %s is nested too deeply for output format Parquet", wk->path[0]);
    t = type_phys(t);
    if (t->id == T_NULLABLE)
        return build(p, top, wk, name, t->inner, def + 1, rep, true);
    int r = optional ? PQ_OPTIONAL : PQ_REQUIRED;
    wk->path[wk->npath++] = name;
    int rc = 0;
    if (t->id == T_ARRAY) {
        schema_el(p, name, -1, 0, r, 1, PQ_CT_LIST, 0, 0, lt_list, t);
        schema_el(p, "list", -1, 0, PQ_REPEATED, 1, -1, 0, 0, NULL, t);
        wk->path[wk->npath++] = "list";
        rc = build(p, top, wk, "element", t->inner, def + 1, rep + 1, false);
        wk->npath--;
    } else if (t->id == T_MAP) {
        /* the MAP layout of the spec: a repeated key_value group of a required key and
         * the value; the leaves take fields 0 and 1 of the stored Tuple(keys, values) */
        schema_el(p, name, -1, 0, r, 1, PQ_CT_MAP, 0, 0, lt_map, t);
        schema_el(p, "key_value", -1, 0, PQ_REPEATED, 2, -1, 0, 0, NULL, t);
        wk->path[wk->npath++] = "key_value";
        for (int i = 0; i < 2 && !rc; i++) {
            wk->fp[wk->nfp++] = i;
            rc = build(p, top, wk, i ? "value" : "key", t->inner->fields[i], def + 1, rep + 1, false);
            wk->nfp--;
        }
        wk->npath--;
    } else if (t->id == T_TUPLE) {
        schema_el(p, name, -1, 0, r, t->nfields, -1, 0, 0, NULL, t);
        for (int i = 0; i < t->nfields && !rc; i++) {
            char num[16];
            snprintf(num, sizeof num, "%d", i + 1);
            const char *fname = t->field_names ? t->field_names[i] : num;
            wk->fp[wk->nfp++] = i;
            /* the name must outlive the walk: leaves copy it */
            rc = build(p, top, wk, fname, t->fields[i], def, rep, false);
            wk->nfp--;
        }
    } else {
        int nl0 = p->nl;
        rc = add_leaf(p, top, wk, t, def, rep);
        if (!rc) {
            leaf *l = &p->lv[nl0];
            int conv = -1;
            void (*lt)(tw *, const type *) = NULL;
            switch (t->id) {
            case T_INT8: conv = PQ_CT_INT_8; lt = lt_int; break;
            case T_INT16: conv = PQ_CT_INT_16; lt = lt_int; break;
            case T_UINT8: conv = PQ_CT_UINT_8; lt = lt_int; break;
            case T_UINT16: conv = PQ_CT_UINT_16; lt = lt_int; break;
            case T_UINT32: case T_IPV4: conv = PQ_CT_UINT_32; lt = lt_int; break;
            case T_UINT64: conv = PQ_CT_UINT_64; lt = lt_int; break;
            case T_STRING: conv = PQ_CT_UTF8; lt = lt_string; break;
            case T_DATE: case T_DATE32: conv = PQ_CT_DATE; lt = lt_date; break;
            case T_DATETIME: conv = PQ_CT_TIMESTAMP_MILLIS; lt = lt_ts; break;
            case T_DATETIME64:
                conv = t->scale <= 3 ? PQ_CT_TIMESTAMP_MILLIS : t->scale <= 6 ? PQ_CT_TIMESTAMP_MICROS : -1;
                lt = lt_ts;
                break;
            case T_DECIMAL32: case T_DECIMAL64: case T_DECIMAL128: case T_DECIMAL256: conv = PQ_CT_DECIMAL; lt = lt_decimal; break;
            case T_ENUM8: case T_ENUM16: conv = PQ_CT_ENUM; lt = lt_enum; break;
            case T_UUID: lt = lt_uuid; break;
            default: break;
            }
            schema_el(p, name, l->phys, l->phys == PQ_FIXED_LEN_BYTE_ARRAY ? l->type_length : 0, r, -1, conv, t->scale,
                      t->precision, lt, t);
        }
    }
    wk->npath--;
    return rc;
}

/* ---------------- RLE / bit-packed hybrid ---------------- */

static void put_run_value(buf *b, uint32_t v, int bw)
{
    for (int k = 0; k < (bw + 7) / 8; k++)
        buf_putc(b, (char)(v >> (8 * k)));
}

static void flush_literals(buf *b, const uint32_t *v, size_t from, size_t to, size_t n, int bw)
{
    if (from >= to)
        return;
    size_t groups = (to - from + 7) / 8;
    tw_varint(b, groups << 1 | 1);
    uint8_t *o = buf_grow(b, groups * (size_t)bw);
    memset(o, 0, groups * (size_t)bw);
    uint64_t acc = 0;
    int nb = 0;
    size_t w = 0;
    for (size_t i = from; i < from + groups * 8; i++) {
        uint64_t x = i < n && i < to ? v[i] : 0;
        acc |= x << nb;
        nb += bw;
        while (nb >= 8) {
            o[w++] = (uint8_t)acc;
            acc >>= 8;
            nb -= 8;
        }
    }
}

/* Encodes n values of bw bits (bw ≥ 1 unless all are 0). */
static void rle_encode(buf *b, const uint32_t *v, size_t n, int bw)
{
    size_t i = 0, lit = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && v[j] == v[i] && j - i < 8)
            j++;
        if (j - i >= 8) {
            while (j < n && v[j] == v[i])
                j++;
            flush_literals(b, v, lit, i, n, bw);
            tw_varint(b, (uint64_t)(j - i) << 1);
            put_run_value(b, v[i], bw);
            i = lit = j;
        } else {
            /* literal groups stay multiples of 8 values so that a run may start after them */
            i = i + 8 <= n ? i + 8 : n;
            if (i - lit >= 8 * 63) {
                flush_literals(b, v, lit, i, n, bw);
                lit = i;
            }
        }
    }
    flush_literals(b, v, lit, n, n, bw);
}

static int bit_width(uint32_t max)
{
    int bw = 0;
    while (max >> bw)
        bw++;
    return bw;
}

static void rle_levels(buf *out, const uint8_t *lv, size_t n, int maxl, buf *tmp)
{
    tmp->len = 0;
    uint32_t *v = buf_grow(tmp, n * 4);
    for (size_t i = 0; i < n; i++)
        v[i] = lv[i];
    size_t at = out->len;
    buf_grow(out, 4);
    rle_encode(out, v, n, bit_width((uint32_t)maxl));
    uint32_t len = (uint32_t)(out->len - at - 4);
    memcpy(out->p + at, &len, 4);
}

/* ---------------- statistics ---------------- */

static int cmp_kind(int kind, const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    switch (kind) {
    case K_I32: { int32_t x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); return (x > y) - (x < y); }
    case K_U32: { uint32_t x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); return (x > y) - (x < y); }
    case K_I64: { int64_t x, y; memcpy(&x, a, 8); memcpy(&y, b, 8); return (x > y) - (x < y); }
    case K_U64: { uint64_t x, y; memcpy(&x, a, 8); memcpy(&y, b, 8); return (x > y) - (x < y); }
    case K_F32: { float x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); return (x > y) - (x < y); }
    case K_F64: { double x, y; memcpy(&x, a, 8); memcpy(&y, b, 8); return (x > y) - (x < y); }
    case K_BOOL: return (*a > *b) - (*a < *b);
    case K_SBE:
        if ((a[0] ^ b[0]) & 0x80)
            return (a[0] & 0x80) ? -1 : 1;
        /* same sign: two's complement compares bytewise */
        __attribute__((fallthrough));
    default: {
        size_t m = an < bn ? an : bn;
        int c = m ? memcmp(a, b, m) : 0; /* empty strings may come with a NULL pointer */
        return c ? (c > 0) - (c < 0) : (an > bn) - (an < bn);
    }
    }
}

static bool is_nan(int kind, const uint8_t *v)
{
    if (kind == K_F32) { float f; memcpy(&f, v, 4); return isnan(f); }
    if (kind == K_F64) { double d; memcpy(&d, v, 8); return isnan(d); }
    return false;
}

static void stats_put(stats *s, int kind, const uint8_t *v, size_t n)
{
    if (is_nan(kind, v))
        return;
    if (!s->has) {
        s->has = true;
        s->min.len = s->max.len = 0;
        buf_append(&s->min, v, n);
        buf_append(&s->max, v, n);
        return;
    }
    if (cmp_kind(kind, v, n, s->min.p, s->min.len) < 0) {
        s->min.len = 0;
        buf_append(&s->min, v, n);
    }
    if (cmp_kind(kind, v, n, s->max.p, s->max.len) > 0) {
        s->max.len = 0;
        buf_append(&s->max, v, n);
    }
}

static void stats_merge(stats *into, const stats *s, int kind)
{
    into->nulls += s->nulls;
    if (s->has) {
        stats_put(into, kind, s->min.p, s->min.len);
        stats_put(into, kind, s->max.p, s->max.len);
    }
}

static void stats_reset(stats *s)
{
    s->has = false;
    s->nulls = 0;
}

static void stats_write(tw *o, int16_t id, const leaf *l, const stats *s)
{
    tw_struct_begin(o, id);
    if (s->has && l->legacy_stats) {
        tw_binary(o, 1, s->max.p, s->max.len);
        tw_binary(o, 2, s->min.p, s->min.len);
    }
    if (l->max_def > 0 && l->max_rep == 0)
        tw_i64(o, 3, s->nulls);
    if (s->has) {
        tw_binary(o, 5, s->max.p, s->max.len);
        tw_binary(o, 6, s->min.p, s->min.len);
        tw_bool(o, 7, true);
        tw_bool(o, 8, true);
    }
    tw_struct_end(o);
}

/* ---------------- compression ---------------- */

static int compress_into(pq_w *p, const buf *src, buf *dst)
{
    dst->len = 0;
    switch (p->codec) {
    case PQ_UNCOMPRESSED:
        buf_append(dst, src->p, src->len);
        return 0;
    case PQ_ZSTD: {
        size_t cap = ZSTD_compressBound(src->len);
        buf_reserve(dst, cap);
        if (!p->zc)
            p->zc = ZSTD_createCCtx();
        size_t r = ZSTD_compressCCtx(p->zc, dst->p, cap, src->p, src->len, 3);
        if (ZSTD_isError(r))
            return err_set(ERR_CANNOT_COMPRESS, "Parquet: zstd compression failed: %s", ZSTD_getErrorName(r));
        dst->len = r;
        return 0;
    }
    case PQ_LZ4_RAW: {
        int cap = LZ4_compressBound((int)src->len);
        buf_reserve(dst, (size_t)cap);
        int r = LZ4_compress_default((const char *)src->p, (char *)dst->p, (int)src->len, cap);
        if (r <= 0 && src->len)
            return err_set(ERR_CANNOT_COMPRESS, "Parquet: lz4 compression failed");
        dst->len = (size_t)r;
        return 0;
    }
    case PQ_SNAPPY: {
        const snappy_fns *sn = snappy_lib();
        if (!sn)
            return -1;
        size_t cap = sn->max_compressed_length(src->len);
        buf_reserve(dst, cap);
        if (sn->compress((const char *)src->p, src->len, (char *)dst->p, &cap) != SNAPPY_OK)
            return err_set(ERR_CANNOT_COMPRESS, "Parquet: snappy compression failed");
        dst->len = cap;
        return 0;
    }
    case PQ_GZIP: {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            return err_set(ERR_CANNOT_COMPRESS, "Parquet: gzip compression failed");
        size_t cap = deflateBound(&z, src->len) + 32;
        buf_reserve(dst, cap);
        z.next_in = src->p;
        z.avail_in = (uInt)src->len;
        z.next_out = dst->p;
        z.avail_out = (uInt)cap;
        int r = deflate(&z, Z_FINISH);
        dst->len = cap - z.avail_out;
        deflateEnd(&z);
        if (r != Z_STREAM_END)
            return err_set(ERR_CANNOT_COMPRESS, "Parquet: gzip compression failed");
        return 0;
    }
    }
    return err_set(ERR_CANNOT_COMPRESS, "Parquet: unsupported codec");
}

/* Compresses p->body and appends header + data to out. Returns the uncompressed size
 * including the header via *unc, and the written size via *comp. */
static int emit_page(pq_w *p, leaf *l, buf *out, bool dict_page, int64_t nvalues, int encoding, const stats *st,
                     int64_t *unc, int64_t *comp)
{
    if (compress_into(p, &p->body, &p->comp))
        return -1;
    p->hdr.len = 0;
    tw o;
    tw_init(&o, &p->hdr);
    tw_i32(&o, 1, dict_page ? PQ_PAGE_DICTIONARY : PQ_PAGE_DATA);
    tw_i32(&o, 2, (int32_t)p->body.len);
    tw_i32(&o, 3, (int32_t)p->comp.len);
    tw_i32(&o, 4, (int32_t)crc32(0, p->comp.p, (uInt)p->comp.len));
    if (dict_page) {
        tw_struct_begin(&o, 7);
        tw_i32(&o, 1, (int32_t)nvalues);
        tw_i32(&o, 2, PQ_PLAIN);
        tw_struct_end(&o);
    } else {
        tw_struct_begin(&o, 5);
        tw_i32(&o, 1, (int32_t)nvalues);
        tw_i32(&o, 2, encoding);
        tw_i32(&o, 3, PQ_RLE);
        tw_i32(&o, 4, PQ_RLE);
        stats_write(&o, 5, l, st);
        tw_struct_end(&o);
    }
    tw_stop(&o);
    buf_append(out, p->hdr.p, p->hdr.len);
    buf_append(out, p->comp.p, p->comp.len);
    *unc = (int64_t)(p->hdr.len + p->body.len);
    *comp = (int64_t)(p->hdr.len + p->comp.len);
    return 0;
}

static int flush_page(pq_w *p, leaf *l)
{
    if (!l->p_levels)
        return 0;
    buf *b = &p->body;
    b->len = 0;
    if (l->max_rep)
        rle_levels(b, l->preps.p, (size_t)l->p_levels, l->max_rep, &p->comp);
    if (l->max_def)
        rle_levels(b, l->pdefs.p, (size_t)l->p_levels, l->max_def, &p->comp);
    int enc;
    if (l->pidx.len || (l->dict_on && !l->pvals.len)) {
        enc = PQ_RLE_DICTIONARY;
        int bw = bit_width(l->ndict ? l->ndict - 1 : 0);
        if (bw < 1)
            bw = 1;
        buf_putc(b, (char)bw);
        rle_encode(b, (const uint32_t *)(const void *)l->pidx.p, l->pidx.len / 4, bw);
    } else {
        enc = PQ_PLAIN;
        if (l->phys == PQ_BOOLEAN) {
            size_t n = l->pvals.len;
            uint8_t *o = buf_grow(b, (n + 7) / 8);
            memset(o, 0, (n + 7) / 8);
            for (size_t i = 0; i < n; i++)
                o[i >> 3] |= (uint8_t)((l->pvals.p[i] & 1) << (i & 7));
        } else {
            buf_append(b, l->pvals.p, l->pvals.len);
        }
    }
    int64_t unc, comp;
    if (emit_page(p, l, &l->pages, false, l->p_levels, enc, &l->pst, &unc, &comp))
        return -1;
    l->encodings |= 1u << enc;
    l->c_unc += unc;
    l->c_comp += comp;
    stats_merge(&l->cst, &l->pst, l->kind);
    stats_reset(&l->pst);
    l->c_levels += l->p_levels;
    l->p_levels = l->p_vals = 0;
    l->pdefs.len = l->preps.len = l->pvals.len = l->pidx.len = 0;
    return 0;
}

/* ---------------- dictionary ---------------- */

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    while (n >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        h = (h ^ x) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    uint64_t x = 0;
    memcpy(&x, p, n);
    h = (h ^ x) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return h;
}

static const uint8_t *dict_entry(const leaf *l, uint32_t k, size_t *n)
{
    if (l->width) {
        *n = (size_t)l->width;
        return l->dict.p + (size_t)k * (size_t)l->width;
    }
    uint32_t at = ((const uint32_t *)(const void *)l->doffs.p)[k];
    uint32_t len;
    memcpy(&len, l->dict.p + at, 4);
    *n = len;
    return l->dict.p + at + 4;
}

static void dict_grow(leaf *l)
{
    uint32_t ncap = l->cap ? l->cap * 2 : 1024;
    uint32_t *ns = xcalloc(ncap, sizeof *ns);
    for (uint32_t k = 0; k < l->ndict; k++) {
        size_t n;
        const uint8_t *v = dict_entry(l, k, &n);
        uint32_t h = (uint32_t)hash_bytes(v, n) & (ncap - 1);
        while (ns[h])
            h = (h + 1) & (ncap - 1);
        ns[h] = k + 1;
    }
    free(l->slots);
    l->slots = ns;
    l->cap = ncap;
}

static uint32_t dict_add(leaf *l, const uint8_t *v, size_t n)
{
    if ((l->ndict + 1) * 2 > l->cap)
        dict_grow(l);
    uint32_t h = (uint32_t)hash_bytes(v, n) & (l->cap - 1);
    for (;;) {
        uint32_t s = l->slots[h];
        if (!s)
            break;
        size_t en;
        const uint8_t *e = dict_entry(l, s - 1, &en);
        if (en == n && memcmp(e, v, n) == 0)
            return s - 1;
        h = (h + 1) & (l->cap - 1);
    }
    uint32_t k = l->ndict++;
    l->slots[h] = k + 1;
    if (!l->width) {
        uint32_t at = (uint32_t)l->dict.len;
        buf_append(&l->doffs, &at, 4);
        uint32_t len = (uint32_t)n;
        buf_append(&l->dict, &len, 4);
    }
    buf_append(&l->dict, v, n);
    return k;
}

static void dict_reset(leaf *l)
{
    l->ndict = 0;
    l->dict.len = l->doffs.len = 0;
    if (l->slots)
        memset(l->slots, 0, (size_t)l->cap * sizeof *l->slots);
    l->dict_on = l->use_dict;
    l->dict_used = false;
}

/* ---------------- shredding ---------------- */

static inline void level(leaf *l, int def, int rep)
{
    if (l->max_def)
        buf_putc(&l->defs, (char)def);
    if (l->max_rep)
        buf_putc(&l->reps, (char)rep);
}

static inline void value(leaf *l, size_t i)
{
    uint32_t v = (uint32_t)i;
    buf_append(&l->vidx, &v, 4);
}

/* Rows [from, from+n) of column c of type t; the first row starts with repetition level
 * first_rep, the following ones with item_rep; rd = repetition depth of c. */
static const column *shred(leaf *l, const column *c, const type *t, size_t from, size_t n, int def, int first_rep,
                           int item_rep, int rd, int fdepth)
{
    t = type_phys(t);
    switch (t->id) {
    case T_NULLABLE: {
        const type *it = type_phys(t->inner);
        const uint8_t *nulls = c->nulls.p;
        if (it->id != T_ARRAY && it->id != T_TUPLE) {
            for (size_t i = from; i < from + n; i++) {
                int rep = i == from ? first_rep : item_rep;
                if (nulls[i]) {
                    level(l, def, rep);
                } else {
                    level(l, def + 1, rep);
                    value(l, i);
                }
            }
            return c->inner;
        }
        const column *leafc = NULL;
        for (size_t i = from; i < from + n; i++) {
            int rep = i == from ? first_rep : item_rep;
            if (nulls[i])
                level(l, def, rep);
            else
                leafc = shred(l, c->inner, t->inner, i, 1, def + 1, rep, rep, rd, fdepth);
        }
        return leafc;
    }
    case T_ARRAY:
    case T_MAP: {
        const uint64_t *o = col_offs(c);
        const column *leafc = NULL;
        for (size_t i = from; i < from + n; i++) {
            int rep = i == from ? first_rep : item_rep;
            if (o[i] == o[i + 1])
                level(l, def, rep);
            else
                leafc = shred(l, c->inner, t->inner, (size_t)o[i], (size_t)(o[i + 1] - o[i]), def + 1, rep, rd + 1,
                              rd + 1, fdepth);
        }
        return leafc;
    }
    case T_TUPLE: {
        int k = l->fieldpath[fdepth];
        return shred(l, c->fields[k], t->fields[k], from, n, def, first_rep, item_rep, rd, fdepth + 1);
    }
    default:
        if (!l->max_def && !l->max_rep) {
            uint32_t *v = buf_grow(&l->vidx, n * 4);
            for (size_t i = 0; i < n; i++)
                v[i] = (uint32_t)(from + i);
            return c;
        }
        for (size_t i = from; i < from + n; i++) {
            level(l, def, i == from ? first_rep : item_rep);
            value(l, i);
        }
        return c;
    }
}

static inline void put_be(uint8_t *o, uint128_t v, int w)
{
    for (int k = w - 1; k >= 0; k--) {
        o[k] = (uint8_t)v;
        v >>= 8;
    }
}

/* Physical values of the leaf column at the indices in vidx into pv. */
static void convert(leaf *l, const column *c)
{
    size_t n = l->vidx.len / 4;
    const uint32_t *ix = (const uint32_t *)(const void *)l->vidx.p;
    l->pv.len = 0;
    if (!c || !n)
        return;
    if (l->cv == CV_STRING || l->cv == CV_ENUM) {
        span *s = buf_grow(&l->pv, n * sizeof(span));
        if (l->cv == CV_STRING) {
            const uint64_t *o = col_offs(c);
            for (size_t i = 0; i < n; i++)
                s[i] = (span){c->data.p + o[ix[i]], (uint32_t)(o[ix[i] + 1] - o[ix[i]])};
        } else {
            const type *t = l->t;
            for (size_t i = 0; i < n; i++) {
                int v = t->id == T_ENUM8 ? ((const int8_t *)(const void *)c->data.p)[ix[i]]
                                         : ((const int16_t *)(const void *)c->data.p)[ix[i]];
                const char *name = "";
                /* items are sorted by value: binary search */
                int lo = 0, hi = t->nitems - 1;
                while (lo <= hi) {
                    int mid = (lo + hi) / 2;
                    if (t->items[mid].value == v) {
                        name = t->items[mid].name;
                        break;
                    }
                    if (t->items[mid].value < v)
                        lo = mid + 1;
                    else
                        hi = mid - 1;
                }
                s[i] = (span){(const uint8_t *)name, (uint32_t)strlen(name)};
            }
        }
        return;
    }
    size_t w = (size_t)l->width;
    uint8_t *o = buf_grow(&l->pv, n * w);
    const uint8_t *d = c->data.p;
    switch (l->cv) {
    case CV_COPY: {
        size_t sw = c->type->width ? c->type->width : w;
        if (sw == w && n && ix[n - 1] - ix[0] == n - 1)
            memcpy(o, d + (size_t)ix[0] * w, n * w);
        else
            for (size_t i = 0; i < n; i++)
                memcpy(o + i * w, d + (size_t)ix[i] * sw, w);
        break;
    }
#define CONV(ST, DT, EXPR)                                                                                           \
    {                                                                                                                \
        const ST *src = (const ST *)(const void *)d;                                                                 \
        DT *dst = (DT *)(void *)o;                                                                                   \
        for (size_t i = 0; i < n; i++) {                                                                             \
            ST x = src[ix[i]];                                                                                       \
            dst[i] = (DT)(EXPR);                                                                                     \
        }                                                                                                            \
        break;                                                                                                       \
    }
    case CV_I8: CONV(int8_t, int32_t, x)
    case CV_U8: CONV(uint8_t, int32_t, x)
    case CV_BOOL: CONV(uint8_t, uint8_t, x != 0)
    case CV_I16: CONV(int16_t, int32_t, x)
    case CV_U16: CONV(uint16_t, int32_t, x)
    case CV_DATE: CONV(uint16_t, int32_t, x)
    case CV_DT_MS: CONV(uint32_t, int64_t, (int64_t)x * 1000)
    case CV_DT64: {
        int64_t m = l->mul;
        CONV(int64_t, int64_t, x * m)
    }
#undef CONV
    case CV_DEC_BE:
        if (w == 32) { /* Decimal256: its little-endian bytes reversed */
            for (size_t i = 0; i < n; i++)
                for (size_t k = 0; k < 32; k++)
                    o[i * 32 + k] = d[(size_t)ix[i] * 32 + 31 - k];
            break;
        }
        for (size_t i = 0; i < n; i++) {
            int128_t v;
            if (w == 4) { int32_t x; memcpy(&x, d + (size_t)ix[i] * 4, 4); v = x; }
            else if (w == 8) { int64_t x; memcpy(&x, d + (size_t)ix[i] * 8, 8); v = x; }
            else memcpy(&v, d + (size_t)ix[i] * 16, 16);
            put_be(o + i * w, (uint128_t)v, (int)w);
        }
        break;
    case CV_UUID:
        for (size_t i = 0; i < n; i++) {
            uint128_t v;
            memcpy(&v, d + (size_t)ix[i] * 16, 16);
            put_be(o + i * 16, (uint64_t)v, 8);
            put_be(o + i * 16 + 8, (uint64_t)(v >> 64), 8);
        }
        break;
    }
}

/* Appends values [v0, v0+nv) of pv to the page (stats, dictionary or PLAIN). */
static int page_values(pq_w *p, leaf *l, size_t v0, size_t nv)
{
    if (nv == 0) /* e.g. a leaf under arrays or maps that are all empty: pv may be unallocated */
        return 0;
    if (!l->width) {
        const span *s = (const span *)(const void *)l->pv.p + v0;
        for (size_t i = 0; i < nv; i++)
            stats_put(&l->pst, l->kind, s[i].p, s[i].n);
        if (l->dict_on) {
            uint32_t *ix = buf_grow(&l->pidx, nv * 4);
            for (size_t i = 0; i < nv; i++)
                ix[i] = dict_add(l, s[i].p, s[i].n);
        } else {
            for (size_t i = 0; i < nv; i++) {
                buf_append(&l->pvals, &s[i].n, 4);
                buf_append(&l->pvals, s[i].p, s[i].n);
            }
        }
    } else {
        size_t w = (size_t)l->width;
        const uint8_t *v = l->pv.p + v0 * w;
        /* min/max with typed loops for the common numeric kinds */
        switch (l->kind) {
#define MINMAX(T)                                                                                                    \
    if (nv) {                                                                                                        \
        const T *x = (const T *)(const void *)v;                                                                     \
        T mn = x[0], mx = x[0];                                                                                      \
        for (size_t i = 1; i < nv; i++) {                                                                            \
            mn = x[i] < mn ? x[i] : mn;                                                                              \
            mx = x[i] > mx ? x[i] : mx;                                                                              \
        }                                                                                                            \
        stats_put(&l->pst, l->kind, (const uint8_t *)&mn, sizeof mn);                                                \
        stats_put(&l->pst, l->kind, (const uint8_t *)&mx, sizeof mx);                                                \
    }                                                                                                                \
    break;
        case K_I32: MINMAX(int32_t)
        case K_U32: MINMAX(uint32_t)
        case K_I64: MINMAX(int64_t)
        case K_U64: MINMAX(uint64_t)
#undef MINMAX
        default:
            for (size_t i = 0; i < nv; i++)
                stats_put(&l->pst, l->kind, v + i * w, w);
        }
        if (l->dict_on) {
            uint32_t *ix = buf_grow(&l->pidx, nv * 4);
            for (size_t i = 0; i < nv; i++)
                ix[i] = dict_add(l, v + i * w, w);
        } else {
            buf_append(&l->pvals, v, nv * w);
        }
    }
    l->p_vals += (int64_t)nv;
    if (l->dict_on) {
        l->dict_used = true;
        if (l->dict.len > DICT_BYTES) {
            /* the dictionary is full: what is buffered stays dictionary-encoded, the rest
             * of the chunk is PLAIN */
            if (flush_page(p, l))
                return -1;
            l->dict_on = false;
        }
    }
    return 0;
}

static int64_t page_bytes(const leaf *l)
{
    int64_t b = (int64_t)(l->pvals.len + l->pdefs.len / 4 + l->preps.len / 4);
    if (l->pidx.len)
        b += (int64_t)(l->pidx.len / 4) * (bit_width(l->ndict) + 1) / 8;
    return b;
}

/* The column holding the leaf's values (the same object for every row). */
static const column *leaf_column(const leaf *l, const column *c)
{
    int fd = 0;
    for (;;) {
        const type *t = type_phys(c->type);
        if (t->id == T_NULLABLE || t->id == T_ARRAY || t->id == T_MAP)
            c = c->inner;
        else if (t->id == T_TUPLE)
            c = c->fields[l->fieldpath[fd++]];
        else
            return c;
    }
}

static int write_leaf(pq_w *p, leaf *l, const column *top, size_t rows)
{
    l->defs.len = l->reps.len = l->vidx.len = 0;
    shred(l, top, top->type, 0, rows, 0, 0, 0, 0, 0);
    const column *lc = leaf_column(l, top);
    convert(l, lc);
    size_t nlev = l->max_def || l->max_rep ? (l->max_def ? l->defs.len : l->reps.len) : l->vidx.len / 4;
    size_t nvals = l->vidx.len / 4;
    size_t li = 0, vi = 0;
    while (li < nlev) {
        size_t end = li + SLICE < nlev ? li + SLICE : nlev;
        if (l->max_rep)
            while (end < nlev && l->reps.p[end] != 0)
                end++;
        size_t nv = end - li;
        if (l->max_def) {
            nv = 0;
            for (size_t i = li; i < end; i++)
                nv += l->defs.p[i] == l->max_def;
            buf_append(&l->pdefs, l->defs.p + li, end - li);
            if (l->max_rep == 0)
                l->pst.nulls += (int64_t)(end - li - nv);
        }
        if (l->max_rep)
            buf_append(&l->preps, l->reps.p + li, end - li);
        l->p_levels += (int64_t)(end - li);
        if (page_values(p, l, vi, nv))
            return -1;
        vi += nv;
        li = end;
        if (page_bytes(l) >= PAGE_BYTES && flush_page(p, l))
            return -1;
    }
    (void)nvals;
    return 0;
}

/* ---------------- row groups and footer ---------------- */

static void out_bytes(fmt_writer *w, pq_w *p, const void *d, size_t n)
{
    buf_append(&w->b, d, n);
    p->off += (int64_t)n;
}

static int flush_row_group(fmt_writer *w, pq_w *p)
{
    if (!p->rg_rows)
        return 0;
    if (p->nrg == p->caprg) {
        p->caprg = p->caprg ? p->caprg * 2 : 8;
        p->rgs = xrealloc(p->rgs, (size_t)p->caprg * sizeof *p->rgs);
    }
    rg_meta *g = &p->rgs[p->nrg++];
    memset(g, 0, sizeof *g);
    g->rows = p->rg_rows;
    g->off = p->off;
    size_t nl = (size_t)p->nl;
    g->dict_off = xcalloc(nl, 8);
    g->data_off = xcalloc(nl, 8);
    g->end = xcalloc(nl, 8);
    g->levels = xcalloc(nl, 8);
    g->c_unc = xcalloc(nl, 8);
    g->c_comp = xcalloc(nl, 8);
    g->enc = xcalloc(nl, 4);
    g->st = xcalloc(nl, sizeof *g->st);
    g->dict_used = xcalloc(nl, 1);
    for (int i = 0; i < p->nl; i++) {
        leaf *l = &p->lv[i];
        if (flush_page(p, l))
            return -1;
        int64_t unc = 0, comp = 0;
        g->dict_off[i] = -1;
        if (l->dict_used) {
            p->body.len = 0;
            buf_append(&p->body, l->dict.p, l->dict.len);
            buf dp = {0};
            if (emit_page(p, l, &dp, true, l->ndict, PQ_PLAIN, NULL, &unc, &comp)) {
                buf_free(&dp);
                return -1;
            }
            g->dict_off[i] = p->off;
            out_bytes(w, p, dp.p, dp.len);
            buf_free(&dp);
        }
        g->data_off[i] = p->off;
        out_bytes(w, p, l->pages.p, l->pages.len);
        g->end[i] = p->off;
        g->levels[i] = l->c_levels;
        g->c_unc[i] = l->c_unc + unc;
        g->c_comp[i] = l->c_comp + comp;
        g->enc[i] = l->encodings | (1u << PQ_PLAIN) | (l->dict_used ? 1u << PQ_RLE_DICTIONARY : 0) |
                    (l->max_def || l->max_rep ? 1u << PQ_RLE : 0);
        g->st[i] = l->cst; /* takes the bufs */
        memset(&l->cst, 0, sizeof l->cst);
        g->dict_used[i] = l->dict_used;
        g->unc += g->c_unc[i];
        g->comp += g->c_comp[i];
        l->pages.len = 0;
        l->c_levels = l->c_unc = l->c_comp = 0;
        l->encodings = 0;
        dict_reset(l);
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    p->total_rows += p->rg_rows;
    p->rg_rows = p->rg_bytes = 0;
    return 0;
}

static void write_footer(fmt_writer *w, pq_w *p)
{
    buf m = {0};
    tw o;
    tw_init(&o, &m);
    tw_i32(&o, 1, 2);
    tw_list(&o, 2, TH_STRUCT, (uint32_t)p->nschema);
    buf_append(&m, p->schema.p, p->schema.len);
    tw_i64(&o, 3, p->total_rows);
    tw_list(&o, 4, TH_STRUCT, (uint32_t)p->nrg);
    for (int r = 0; r < p->nrg; r++) {
        rg_meta *g = &p->rgs[r];
        tw_elem_begin(&o);
        tw_list(&o, 1, TH_STRUCT, (uint32_t)p->nl);
        for (int i = 0; i < p->nl; i++) {
            leaf *l = &p->lv[i];
            tw_elem_begin(&o);
            tw_i64(&o, 2, g->end[i]);
            tw_struct_begin(&o, 3);
            tw_i32(&o, 1, l->phys);
            int ne = 0;
            for (int e = 0; e < 32; e++)
                ne += (g->enc[i] >> e) & 1;
            tw_list(&o, 2, TH_I32, (uint32_t)ne);
            for (int e = 0; e < 32; e++)
                if ((g->enc[i] >> e) & 1)
                    tw_elem_i32(&o, e);
            tw_list(&o, 3, TH_BINARY, (uint32_t)l->npath);
            for (int k = 0; k < l->npath; k++)
                tw_elem_binary(&o, l->path[k], strlen(l->path[k]));
            tw_i32(&o, 4, p->codec);
            tw_i64(&o, 5, g->levels[i]);
            tw_i64(&o, 6, g->c_unc[i]);
            tw_i64(&o, 7, g->c_comp[i]);
            tw_i64(&o, 9, g->data_off[i]);
            if (g->dict_off[i] >= 0)
                tw_i64(&o, 11, g->dict_off[i]);
            stats_write(&o, 12, l, &g->st[i]);
            tw_struct_end(&o);
            tw_struct_end(&o);
        }
        tw_i64(&o, 2, g->unc);
        tw_i64(&o, 3, g->rows);
        tw_i64(&o, 4, g->off);
        tw_i64(&o, 5, g->comp);
        tw_field(&o, 6, TH_I16);
        tw_varint(&m, (uint64_t)r << 1);
        tw_struct_end(&o);
    }
    tw_string(&o, 6, "shale");
    tw_list(&o, 7, TH_STRUCT, (uint32_t)p->nl);
    for (int i = 0; i < p->nl; i++) {
        tw_elem_begin(&o);
        lt_empty(&o, 1);
        tw_struct_end(&o);
    }
    tw_stop(&o);
    out_bytes(w, p, m.p, m.len);
    uint32_t len = (uint32_t)m.len;
    out_bytes(w, p, &len, 4);
    out_bytes(w, p, "PAR1", 4);
    buf_free(&m);
}

/* ---------------- vtable ---------------- */

static void pq_free_state(fmt_writer *w)
{
    pq_w *p = w->state;
    if (!p)
        return;
    for (int i = 0; i < p->nl; i++) {
        leaf *l = &p->lv[i];
        free(l->fieldpath);
        for (int k = 0; k < l->npath; k++)
            free(l->path[k]);
        free(l->path);
        buf *bs[] = {&l->defs, &l->reps, &l->vidx, &l->pv, &l->pdefs, &l->preps, &l->pvals, &l->pidx, &l->pages,
                     &l->dict, &l->doffs, &l->pst.min, &l->pst.max, &l->cst.min, &l->cst.max};
        for (size_t k = 0; k < sizeof bs / sizeof bs[0]; k++)
            buf_free(bs[k]);
        free(l->slots);
    }
    free(p->lv);
    for (int r = 0; r < p->nrg; r++) {
        rg_meta *g = &p->rgs[r];
        for (int i = 0; i < p->nl; i++) {
            buf_free(&g->st[i].min);
            buf_free(&g->st[i].max);
        }
        free(g->dict_off), free(g->data_off), free(g->end), free(g->levels), free(g->c_unc), free(g->c_comp);
        free(g->enc), free(g->st), free(g->dict_used);
    }
    free(p->rgs);
    buf_free(&p->schema);
    buf_free(&p->comp);
    buf_free(&p->body);
    buf_free(&p->hdr);
    if (p->zc)
        ZSTD_freeCCtx(p->zc);
    free(p);
    w->state = NULL;
}

static int pq_start(fmt_writer *w)
{
    pq_w *p = xcalloc(1, sizeof *p);
    w->state = p;
    const char *c = w->s.parquet_compression ? w->s.parquet_compression : "zstd";
    if (!strcasecmp(c, "zstd"))
        p->codec = PQ_ZSTD;
    else if (!strcasecmp(c, "lz4") || !strcasecmp(c, "lz4_raw"))
        p->codec = PQ_LZ4_RAW;
    else if (!strcasecmp(c, "snappy"))
        p->codec = PQ_SNAPPY;
    else if (!strcasecmp(c, "gzip"))
        p->codec = PQ_GZIP;
    else if (!strcasecmp(c, "none") || !strcasecmp(c, "uncompressed") || !c[0])
        p->codec = PQ_UNCOMPRESSED;
    else
        return err_set(ERR_BAD_ARGUMENTS,
                       "Unknown output_format_parquet_compression_method '%s' (expected zstd, lz4, snappy, gzip or none)",
                       c);
    p->rg_rows_max = w->s.parquet_row_group_rows > 0 ? w->s.parquet_row_group_rows : 1000000;
    p->rg_bytes_max = w->s.parquet_row_group_bytes > 0 ? w->s.parquet_row_group_bytes : 512ll << 20;
    /* root */
    schema_el(p, "schema", -1, 0, -1, w->header->n, -1, 0, 0, NULL, NULL);
    for (int i = 0; i < w->header->n; i++) {
        walk wk = {.nfp = 0, .npath = 0};
        if (build(p, i, &wk, w->header->names[i], w->header->types[i], 0, 0, false))
            return -1;
    }
    for (int i = 0; i < p->nl; i++)
        dict_reset(&p->lv[i]);
    out_bytes(w, p, "PAR1", 4);
    return 0;
}

static int write_part(fmt_writer *w, pq_w *p, column **cols, size_t rows)
{
    for (int i = 0; i < p->nl; i++)
        if (write_leaf(p, &p->lv[i], cols[p->lv[i].top], rows))
            return -1;
    p->rg_rows += (int64_t)rows;
    for (int i = 0; i < w->header->n; i++)
        p->rg_bytes += (int64_t)col_bytes(cols[i]);
    if (p->rg_rows >= p->rg_rows_max || p->rg_bytes >= p->rg_bytes_max)
        return flush_row_group(w, p);
    return 0;
}

static int pq_write(fmt_writer *w, const block *b)
{
    pq_w *p = w->state;
    int n = w->header->n;
    column **cols = xcalloc((size_t)n + 1, sizeof *cols);
    for (int i = 0; i < n; i++)
        cols[i] = col_materialize(col_ref(b->cols[i]));
    int rc = 0;
    size_t done = 0, rows = b->rows;
    while (done < rows && !rc) {
        size_t k = rows - done;
        if ((int64_t)k > p->rg_rows_max - p->rg_rows)
            k = (size_t)(p->rg_rows_max - p->rg_rows);
        if (done == 0 && k == rows) {
            rc = write_part(w, p, cols, k);
        } else {
            column **part = xcalloc((size_t)n + 1, sizeof *part);
            for (int i = 0; i < n; i++)
                part[i] = col_slice(cols[i], done, k);
            rc = write_part(w, p, part, k);
            for (int i = 0; i < n; i++)
                col_free(part[i]);
            free(part);
        }
        done += k;
    }
    for (int i = 0; i < n; i++)
        col_free(cols[i]);
    free(cols);
    return rc;
}

static int pq_finish(fmt_writer *w, const fmt_stats *st)
{
    (void)st;
    pq_w *p = w->state;
    if (flush_row_group(w, p))
        return -1;
    write_footer(w, p);
    return 0;
}

const fmt_out_vt fmt_out_parquet[] = {
    {"Parquet", pq_start, pq_write, pq_finish, pq_free_state, 0},
    {NULL, NULL, NULL, NULL, NULL, 0},
};
