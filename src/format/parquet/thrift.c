/* Thrift compact protocol and parquet.thrift structures (see thrift.h). */
#include "format/parquet/thrift.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TH_MAX_DEPTH = 64 };

void th_init(th_rd *t, const void *p, size_t n, uint64_t base_off, const char *what)
{
    memset(t, 0, sizeof *t);
    t->base = t->p = p;
    t->end = t->base + n;
    t->base_off = base_off;
    t->what = what;
}

void th_fail(th_rd *t, const char *why)
{
    if (!t->failed)
        snprintf(t->msg, sizeof t->msg, "%s at byte %llu of the %s", why,
                 (unsigned long long)(t->base_off + (uint64_t)(t->p - t->base)), t->what);
    t->failed = true;
    t->p = t->end; /* every later read fails fast */
}

uint64_t th_varint(th_rd *t)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (t->p >= t->end) {
            th_fail(t, "unexpected end of data in a varint");
            return 0;
        }
        uint8_t b = *t->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    th_fail(t, "varint longer than 10 bytes");
    return 0;
}

int64_t th_zigzag(th_rd *t)
{
    uint64_t v = th_varint(t);
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

bool th_field(th_rd *t, int16_t *last_id, int16_t *id, int *type)
{
    if (t->failed)
        return false;
    if (t->p >= t->end) {
        th_fail(t, "unexpected end of data (a struct is not terminated)");
        return false;
    }
    uint8_t b = *t->p++;
    *type = b & 15;
    if (*type == TH_STOP)
        return false;
    int delta = b >> 4;
    if (delta)
        *id = (int16_t)(*last_id + delta);
    else
        *id = (int16_t)th_zigzag(t);
    *last_id = *id;
    if (*type > TH_STRUCT) {
        t->p--;
        th_fail(t, "invalid field type");
        return false;
    }
    return !t->failed;
}

int64_t th_i64(th_rd *t, int type)
{
    if (type == TH_BYTE) {
        if (t->p >= t->end) {
            th_fail(t, "unexpected end of data");
            return 0;
        }
        return (int8_t)*t->p++;
    }
    if (type != TH_I16 && type != TH_I32 && type != TH_I64) {
        th_fail(t, "expected an integer field");
        return 0;
    }
    return th_zigzag(t);
}

int32_t th_i32(th_rd *t, int type)
{
    int64_t v = th_i64(t, type);
    if (v < INT32_MIN || v > INT32_MAX) {
        th_fail(t, "integer out of range");
        return 0;
    }
    return (int32_t)v;
}

bool th_bool(th_rd *t, int type)
{
    if (type == TH_TRUE)
        return true;
    if (type != TH_FALSE)
        th_fail(t, "expected a bool field");
    return false;
}

const uint8_t *th_binary(th_rd *t, uint32_t *len)
{
    uint64_t n = th_varint(t);
    if (t->failed || n > (uint64_t)(t->end - t->p)) {
        th_fail(t, "binary value longer than the data left");
        *len = 0;
        return t->end;
    }
    const uint8_t *p = t->p;
    t->p += n;
    *len = (uint32_t)n;
    return p;
}

uint32_t th_list(th_rd *t, int *etype)
{
    if (t->p >= t->end) {
        th_fail(t, "unexpected end of data in a list header");
        *etype = 0;
        return 0;
    }
    uint8_t b = *t->p++;
    *etype = b & 15;
    uint64_t n = b >> 4;
    if (n == 15)
        n = th_varint(t);
    /* Every element takes at least one byte, so a longer list cannot be valid. */
    if (n > (uint64_t)(t->end - t->p)) {
        th_fail(t, "list longer than the data left");
        return 0;
    }
    return (uint32_t)n;
}

static void skip_depth(th_rd *t, int type, int depth)
{
    if (depth > TH_MAX_DEPTH) {
        th_fail(t, "structures nested too deeply");
        return;
    }
    uint32_t n;
    int et;
    switch (type) {
    case TH_TRUE:
    case TH_FALSE:
        return;
    case TH_BYTE:
        if (t->p >= t->end)
            th_fail(t, "unexpected end of data");
        else
            t->p++;
        return;
    case TH_I16:
    case TH_I32:
    case TH_I64:
        th_varint(t);
        return;
    case TH_DOUBLE:
        if (t->end - t->p < 8)
            th_fail(t, "unexpected end of data");
        else
            t->p += 8;
        return;
    case TH_BINARY:
        th_binary(t, &n);
        return;
    case TH_LIST:
    case TH_SET:
        n = th_list(t, &et);
        for (uint32_t i = 0; i < n && !t->failed; i++) {
            if (et == TH_TRUE || et == TH_FALSE) { /* bools in lists take one byte */
                skip_depth(t, TH_BYTE, depth + 1);
                continue;
            }
            skip_depth(t, et, depth + 1);
        }
        return;
    case TH_MAP: {
        uint64_t m = th_varint(t);
        if (m == 0)
            return;
        if (t->p >= t->end || m > (uint64_t)(t->end - t->p)) {
            th_fail(t, "map longer than the data left");
            return;
        }
        uint8_t kv = *t->p++;
        int kt = kv >> 4, vt = kv & 15;
        for (uint64_t i = 0; i < m && !t->failed; i++) {
            skip_depth(t, kt == TH_TRUE || kt == TH_FALSE ? TH_BYTE : kt, depth + 1);
            skip_depth(t, vt == TH_TRUE || vt == TH_FALSE ? TH_BYTE : vt, depth + 1);
        }
        return;
    }
    case TH_STRUCT: {
        int16_t last = 0, id;
        int ft;
        while (th_field(t, &last, &id, &ft))
            skip_depth(t, ft, depth + 1);
        return;
    }
    default:
        th_fail(t, "invalid type");
    }
}

void th_skip(th_rd *t, int type) { skip_depth(t, type, 0); }

/* ---- parquet.thrift ---- */

#define FIELDS(t) FIELDS_AS(t, id)
#define FIELDS_AS(t, ID) for (int16_t last_##ID = 0, ID; !(t)->failed && th_field((t), &last_##ID, &ID, &ft);)

static const char *str(th_rd *t, arena *a, int type)
{
    if (type != TH_BINARY) {
        th_fail(t, "expected a string field");
        return "";
    }
    uint32_t n;
    const uint8_t *p = th_binary(t, &n);
    return arena_strndup(a, (const char *)p, n);
}

static void expect(th_rd *t, int type, int want)
{
    if (type != want)
        th_fail(t, "unexpected field type");
}

/* TimeUnit union: the member id is the unit. */
static int time_unit(th_rd *t)
{
    int unit = 0, ft;
    FIELDS(t)
    {
        if (id >= 1 && id <= 3)
            unit = id;
        th_skip(t, ft);
    }
    return unit;
}

static void logical_type(th_rd *t, pq_schema_el *e)
{
    int ft;
    FIELDS(t)
    {
        if (ft != TH_STRUCT) {
            th_skip(t, ft);
            continue;
        }
        e->logical = id;
                switch (id) {
        case PQ_LT_DECIMAL:
            FIELDS_AS(t, id2)
            {
                if (id2 == 1)
                    e->lt_scale = th_i32(t, ft);
                else if (id2 == 2)
                    e->lt_precision = th_i32(t, ft);
                else
                    th_skip(t, ft);
            }
            break;
        case PQ_LT_TIME:
        case PQ_LT_TIMESTAMP:
            FIELDS_AS(t, id2)
            {
                if (id2 == 1)
                    e->lt_utc = th_bool(t, ft);
                else if (id2 == 2 && ft == TH_STRUCT)
                    e->lt_unit = time_unit(t);
                else
                    th_skip(t, ft);
            }
            break;
        case PQ_LT_INTEGER:
            FIELDS_AS(t, id2)
            {
                if (id2 == 1)
                    e->lt_bits = th_i32(t, ft);
                else if (id2 == 2)
                    e->lt_signed = th_bool(t, ft);
                else
                    th_skip(t, ft);
            }
            break;
        default:
            th_skip(t, TH_STRUCT);
        }
        
    }
}

static void schema_el(th_rd *t, arena *a, pq_schema_el *e)
{
    memset(e, 0, sizeof *e);
    e->type = -1;
    e->repetition = -1;
    e->converted = PQ_CT_NONE;
    e->name = "";
    int ft;
    FIELDS(t)
    {
        switch (id) {
        case 1: e->type = th_i32(t, ft); break;
        case 2: e->type_length = th_i32(t, ft); break;
        case 3: e->repetition = th_i32(t, ft); break;
        case 4: e->name = str(t, a, ft); break;
        case 5: e->num_children = th_i32(t, ft); break;
        case 6: e->converted = th_i32(t, ft); break;
        case 7: e->scale = th_i32(t, ft); break;
        case 8: e->precision = th_i32(t, ft); break;
        case 10:
            if (ft == TH_STRUCT)
                logical_type(t, e);
            else
                th_skip(t, ft);
            break;
        default: th_skip(t, ft);
        }
    }
    if (!t->failed && (e->type < -1 || e->type > PQ_FIXED_LEN_BYTE_ARRAY))
        th_fail(t, "invalid physical type in a schema element");
    if (!t->failed && (e->repetition < -1 || e->repetition > PQ_REPEATED))
        th_fail(t, "invalid repetition type in a schema element");
    if (!t->failed && e->num_children < 0)
        th_fail(t, "negative num_children in a schema element");
}

static void statistics(th_rd *t, pq_stats *s)
{
    const uint8_t *lmin = NULL, *lmax = NULL;
    uint32_t lminl = 0, lmaxl = 0;
    int ft;
    FIELDS(t)
    {
        switch (id) {
        case 1: expect(t, ft, TH_BINARY); lmax = th_binary(t, &lmaxl); break;
        case 2: expect(t, ft, TH_BINARY); lmin = th_binary(t, &lminl); break;
        case 3: s->null_count = th_i64(t, ft); break;
        case 4: s->distinct_count = th_i64(t, ft); break;
        case 5: expect(t, ft, TH_BINARY); s->max = th_binary(t, &s->max_len); s->has_max = true; break;
        case 6: expect(t, ft, TH_BINARY); s->min = th_binary(t, &s->min_len); s->has_min = true; break;
        default: th_skip(t, ft);
        }
    }
    if (!s->has_min && !s->has_max && (lmin || lmax)) {
        s->legacy = true;
        s->min = lmin, s->min_len = lminl, s->has_min = lmin != NULL;
        s->max = lmax, s->max_len = lmaxl, s->has_max = lmax != NULL;
    }
}

static void column_meta(th_rd *t, arena *a, pq_column_meta *m)
{
    m->dictionary_page_offset = m->index_page_offset = m->data_page_offset = -1;
    m->stats.null_count = m->stats.distinct_count = -1;
    int ft, et;
    FIELDS(t)
    {
        switch (id) {
        case 1: m->type = th_i32(t, ft); break;
        case 2: {
            expect(t, ft, TH_LIST);
            uint32_t n = th_list(t, &et);
            for (uint32_t i = 0; i < n && !t->failed; i++) {
                int32_t e = th_i32(t, et);
                if (e >= 0 && e < 32)
                    m->encodings |= 1u << e;
            }
            break;
        }
        case 3: {
            expect(t, ft, TH_LIST);
            uint32_t n = th_list(t, &et);
            m->path = arena_zalloc(a, (n + 1) * sizeof *m->path, 8);
            for (uint32_t i = 0; i < n && !t->failed; i++)
                m->path[i] = str(t, a, et);
            m->npath = (int)n;
            break;
        }
        case 4: m->codec = th_i32(t, ft); break;
        case 5: m->num_values = th_i64(t, ft); break;
        case 6: m->total_uncompressed_size = th_i64(t, ft); break;
        case 7: m->total_compressed_size = th_i64(t, ft); break;
        case 9: m->data_page_offset = th_i64(t, ft); break;
        case 10: m->index_page_offset = th_i64(t, ft); break;
        case 11: m->dictionary_page_offset = th_i64(t, ft); break;
        case 12:
            if (ft == TH_STRUCT)
                statistics(t, &m->stats);
            else
                th_skip(t, ft);
            break;
        default: th_skip(t, ft);
        }
    }
    if (!t->failed && (m->type < 0 || m->type > PQ_FIXED_LEN_BYTE_ARRAY))
        th_fail(t, "invalid physical type in column metadata");
}

static void column_chunk(th_rd *t, arena *a, pq_chunk *c)
{
    c->offset_index_offset = c->column_index_offset = -1;
    int ft;
    FIELDS(t)
    {
        switch (id) {
        case 1: c->file_path = str(t, a, ft); break;
        case 2: c->file_offset = th_i64(t, ft); break;
        case 3:
            expect(t, ft, TH_STRUCT);
            column_meta(t, a, &c->meta);
            c->has_meta = true;
            break;
        case 4: c->offset_index_offset = th_i64(t, ft); break;
        case 5: c->offset_index_length = th_i32(t, ft); break;
        case 6: c->column_index_offset = th_i64(t, ft); break;
        case 7: c->column_index_length = th_i32(t, ft); break;
        default: th_skip(t, ft);
        }
    }
}

static void row_group(th_rd *t, arena *a, pq_row_group *g)
{
    int ft, et;
    FIELDS(t)
    {
        switch (id) {
        case 1: {
            expect(t, ft, TH_LIST);
            uint32_t n = th_list(t, &et);
            if (n && et != TH_STRUCT)
                th_fail(t, "row group columns are not structs");
            g->cols = arena_zalloc(a, (n + 1) * sizeof *g->cols, 8);
            for (uint32_t i = 0; i < n && !t->failed; i++)
                column_chunk(t, a, &g->cols[i]);
            g->ncols = (int)n;
            break;
        }
        case 2: g->total_byte_size = th_i64(t, ft); break;
        case 3: g->num_rows = th_i64(t, ft); break;
        case 5: g->file_offset = th_i64(t, ft); break;
        case 6: g->total_compressed_size = th_i64(t, ft); break;
        default: th_skip(t, ft);
        }
    }
    if (!t->failed && g->num_rows < 0)
        th_fail(t, "negative num_rows in a row group");
}

pq_meta *pq_meta_decode(const void *buf, size_t n, uint64_t base_off, const char *file)
{
    pq_meta *m = xcalloc(1, sizeof *m);
    arena_init(&m->a);
    uint8_t *copy = arena_alloc(&m->a, n ? n : 1, 8);
    if (n)
        memcpy(copy, buf, n);
    m->raw = copy;
    m->raw_len = n;
    th_rd t;
    th_init(&t, copy, n, base_off, "Parquet footer");
    int ft, et;
    bool have_schema = false, have_rows = false, have_rgs = false;
    FIELDS(&t)
    {
        switch (id) {
        case 1: m->version = th_i32(&t, ft); break;
        case 2: {
            expect(&t, ft, TH_LIST);
            uint32_t k = th_list(&t, &et);
            if (k && et != TH_STRUCT)
                th_fail(&t, "schema elements are not structs");
            m->schema = arena_zalloc(&m->a, (k + 1) * sizeof *m->schema, 8);
            for (uint32_t i = 0; i < k && !t.failed; i++)
                schema_el(&t, &m->a, &m->schema[i]);
            m->nschema = (int)k;
            have_schema = true;
            break;
        }
        case 3: m->num_rows = th_i64(&t, ft); have_rows = true; break;
        case 4: {
            expect(&t, ft, TH_LIST);
            uint32_t k = th_list(&t, &et);
            if (k && et != TH_STRUCT)
                th_fail(&t, "row groups are not structs");
            m->rgs = arena_zalloc(&m->a, (k + 1) * sizeof *m->rgs, 8);
            for (uint32_t i = 0; i < k && !t.failed; i++)
                row_group(&t, &m->a, &m->rgs[i]);
            m->nrgs = (int)k;
            have_rgs = true;
            break;
        }
        case 5: {
            expect(&t, ft, TH_LIST);
            uint32_t k = th_list(&t, &et);
            m->kv = arena_zalloc(&m->a, (k + 1) * sizeof *m->kv, 8);
            for (uint32_t i = 0; i < k && !t.failed; i++) {
                FIELDS_AS(&t, id2)
                {
                    if (id2 == 1)
                        m->kv[i].key = str(&t, &m->a, ft);
                    else if (id2 == 2)
                        m->kv[i].value = str(&t, &m->a, ft);
                    else
                        th_skip(&t, ft);
                }
                if (!m->kv[i].key)
                    m->kv[i].key = "";
            }
            m->nkv = (int)k;
            break;
        }
        case 6: m->created_by = str(&t, &m->a, ft); break;
        default: th_skip(&t, ft);
        }
    }
    if (!t.failed && (!have_schema || !have_rows || !have_rgs))
        th_fail(&t, "required field of FileMetaData missing");
    if (!t.failed && m->nschema < 1)
        th_fail(&t, "empty schema");
    if (t.failed) {
        err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: %s", file ? file : "", t.msg);
        pq_meta_free(m);
        return NULL;
    }
    return m;
}

void pq_meta_free(pq_meta *m)
{
    if (!m)
        return;
    arena_free(&m->a);
    free(m);
}

/* ---- page index ---- */

static void page_location(th_rd *t, pq_page_index *x, uint32_t i)
{
    int ft;
    bool seen[4] = {false};
    FIELDS(t)
    {
        switch (id) {
        case 1: x->offset[i] = th_i64(t, ft); seen[1] = true; break;
        case 2: x->size[i] = th_i32(t, ft); seen[2] = true; break;
        case 3: x->first_row[i] = th_i64(t, ft); seen[3] = true; break;
        default: th_skip(t, ft);
        }
    }
    if (!t->failed && (!seen[1] || !seen[2] || !seen[3]))
        th_fail(t, "page location without offset, size or first row");
    if (!t->failed && (x->offset[i] < 0 || x->size[i] <= 0 || x->first_row[i] < 0 ||
                       (i > 0 && x->first_row[i] < x->first_row[i - 1])))
        th_fail(t, "invalid page location");
}

static void offset_index(th_rd *t, pq_page_index *x)
{
    int ft, et;
    FIELDS(t)
    {
        if (id != 1 || ft != TH_LIST) {
            th_skip(t, ft);
            continue;
        }
        if (x->offset) {
            th_fail(t, "page locations given twice");
            break;
        }
        uint32_t n = th_list(t, &et);
        if (!t->failed && et != TH_STRUCT)
            th_fail(t, "page locations are not structs");
        x->npages = (int)n;
        x->offset = xcalloc(n + 1, sizeof *x->offset);
        x->size = xcalloc(n + 1, sizeof *x->size);
        x->first_row = xcalloc(n + 1, sizeof *x->first_row);
        for (uint32_t i = 0; i < n && !t->failed; i++)
            page_location(t, x, i);
    }
}

/* min_values / max_values: a list of binaries, one per page. */
static void value_list(th_rd *t, int ft, int npages, const uint8_t **v, uint32_t *len)
{
    int et;
    expect(t, ft, TH_LIST);
    uint32_t n = th_list(t, &et);
    if (!t->failed && ((int)n != npages || et != TH_BINARY))
        th_fail(t, "column index has a value list of the wrong length or type");
    for (uint32_t i = 0; i < n && !t->failed; i++)
        v[i] = th_binary(t, &len[i]);
}

static void column_index(th_rd *t, pq_page_index *x)
{
    int ft, et;
    bool seen[4] = {false};
    x->null_page = xcalloc((size_t)x->npages + 1, sizeof *x->null_page);
    x->min = xcalloc((size_t)x->npages + 1, sizeof *x->min);
    x->max = xcalloc((size_t)x->npages + 1, sizeof *x->max);
    x->min_len = xcalloc((size_t)x->npages + 1, sizeof *x->min_len);
    x->max_len = xcalloc((size_t)x->npages + 1, sizeof *x->max_len);
    FIELDS(t)
    {
        switch (id) {
        case 1: {
            expect(t, ft, TH_LIST);
            uint32_t n = th_list(t, &et);
            if (!t->failed && (int)n != x->npages)
                th_fail(t, "column index and offset index disagree on the number of pages");
            for (uint32_t i = 0; i < n && !t->failed; i++) {
                if (t->p >= t->end) {
                    th_fail(t, "unexpected end of data in null_pages");
                    break;
                }
                x->null_page[i] = *t->p++ == TH_TRUE; /* list bools: one byte each */
            }
            seen[1] = true;
            break;
        }
        case 2: value_list(t, ft, x->npages, x->min, x->min_len); seen[2] = true; break;
        case 3: value_list(t, ft, x->npages, x->max, x->max_len); seen[3] = true; break;
        default: th_skip(t, ft);
        }
    }
    if (!t->failed && (!seen[1] || !seen[2] || !seen[3]))
        th_fail(t, "column index without null_pages, min_values or max_values");
}

void pq_page_index_free(pq_page_index *x)
{
    if (!x)
        return;
    free(x->offset);
    free(x->size);
    free(x->first_row);
    free(x->null_page);
    free(x->min);
    free(x->max);
    free(x->min_len);
    free(x->max_len);
    free(x->raw);
    free(x);
}

pq_page_index *pq_page_index_decode(const void *oi, size_t oi_n, uint64_t oi_off, const void *ci, size_t ci_n,
                                    uint64_t ci_off, const char *file)
{
    pq_page_index *x = xcalloc(1, sizeof *x);
    x->raw = xmalloc(oi_n + ci_n + 1);
    memcpy(x->raw, oi, oi_n);
    if (ci)
        memcpy(x->raw + oi_n, ci, ci_n);
    th_rd t;
    th_init(&t, x->raw, oi_n, oi_off, "offset index");
    offset_index(&t, x);
    if (!t.failed && ci) {
        th_rd c;
        th_init(&c, x->raw + oi_n, ci_n, ci_off, "column index");
        column_index(&c, x);
        if (c.failed)
            t = c;
        x->has_stats = !c.failed;
    }
    if (t.failed) {
        err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: %s", file, t.msg);
        pq_page_index_free(x);
        return NULL;
    }
    return x;
}

int pq_page_header_decode(const void *buf, size_t n, uint64_t base_off, const char *file, pq_page_header *h,
                          size_t *used)
{
    memset(h, 0, sizeof *h);
    h->type = -1;
    h->is_compressed = true;
    th_rd t;
    th_init(&t, buf, n, base_off, "page header");
    int ft;
    FIELDS(&t)
    {
        switch (id) {
        case 1: h->type = th_i32(&t, ft); break;
        case 2: h->uncompressed_size = th_i32(&t, ft); break;
        case 3: h->compressed_size = th_i32(&t, ft); break;
        case 4:
            h->crc = (uint32_t)th_i32(&t, ft);
            h->has_crc = true;
            break;
        case 5:
        case 7:
            expect(&t, ft, TH_STRUCT);
            FIELDS_AS(&t, id2)
            {
                if (id2 == 1)
                    h->num_values = th_i32(&t, ft);
                else if (id2 == 2)
                    h->encoding = th_i32(&t, ft);
                else if (id2 == 3 && h->type != PQ_PAGE_DICTIONARY)
                    h->def_encoding = th_i32(&t, ft);
                else if (id2 == 4 && h->type != PQ_PAGE_DICTIONARY)
                    h->rep_encoding = th_i32(&t, ft);
                else
                    th_skip(&t, ft);
            }
            break;
        case 8:
            expect(&t, ft, TH_STRUCT);
            FIELDS_AS(&t, id2)
            {
                switch (id2) {
                case 1: h->num_values = th_i32(&t, ft); break;
                case 2: h->num_nulls = th_i32(&t, ft); break;
                case 3: h->num_rows = th_i32(&t, ft); break;
                case 4: h->encoding = th_i32(&t, ft); break;
                case 5: h->def_len = th_i32(&t, ft); break;
                case 6: h->rep_len = th_i32(&t, ft); break;
                case 7: h->is_compressed = th_bool(&t, ft); break;
                default: th_skip(&t, ft);
                }
            }
            break;
        default: th_skip(&t, ft);
        }
    }
    if (t.failed) {
        /* Ran out of bytes: the caller may have cut the header; let it read more. */
        if (strstr(t.msg, "end of data") || strstr(t.msg, "longer than the data left"))
            return 1;
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: %s", file ? file : "", t.msg);
    }
    if (h->compressed_size < 0 || h->uncompressed_size < 0 || h->num_values < 0 || h->def_len < 0 ||
        h->rep_len < 0 || h->num_nulls < 0)
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: negative size in the page header at byte %llu",
                       file ? file : "", (unsigned long long)base_off);
    *used = (size_t)(t.p - t.base);
    return 0;
}
