#include "column/column.h"

#include "base/mem.h"
#include "base/mix.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef enum { L_FIXED, L_STRING, L_NULLABLE, L_ARRAY, L_TUPLE } layout;

static layout layout_of(const type *t)
{
    t = type_phys(t);
    switch (t->id) {
    case T_STRING:
    case T_AGGSTATE: return L_STRING;
    case T_NULLABLE: return L_NULLABLE;
    case T_ARRAY:
    case T_MAP: return L_ARRAY;
    case T_TUPLE: return L_TUPLE;
    default: return L_FIXED;
    }
}

static uint32_t width_of(const type *t) { return type_phys(t)->width; }

column *col_new(const type *t)
{
    column *c = xcalloc(1, sizeof *c);
    c->type = t;
    c->refs = 1;
    /* A small first allocation keeps data pointers non-NULL, so kernels may compute
     * `data + offset` on empty columns without undefined behaviour. */
    buf_reserve(&c->data, 16);
    const type *p = type_phys(t);
    switch (layout_of(t)) {
    case L_STRING: {
        uint64_t zero = 0;
        buf_append(&c->offs, &zero, sizeof zero);
        break;
    }
    case L_NULLABLE:
        buf_reserve(&c->nulls, 16);
        c->inner = col_new(p->inner);
        break;
    case L_ARRAY: {
        uint64_t zero = 0;
        buf_append(&c->offs, &zero, sizeof zero);
        c->inner = col_new(p->inner);
        break;
    }
    case L_TUPLE:
        c->nfields = p->nfields;
        c->fields = xcalloc((size_t)p->nfields, sizeof *c->fields);
        for (int i = 0; i < p->nfields; i++)
            c->fields[i] = col_new(p->fields[i]);
        break;
    case L_FIXED: break;
    }
    return c;
}

/* An Enum's default is its first (smallest) value, not 0, as ClickHouse's. */
static bool enum_default(const type *t)
{
    t = type_phys(t);
    return (t->id == T_ENUM8 || t->id == T_ENUM16) && t->nitems > 0 && t->items[0].value != 0;
}

static void write_enum_default(uint8_t *p, const type *t)
{
    t = type_phys(t);
    if (t->id == T_ENUM8) {
        int8_t v = (int8_t)t->items[0].value;
        memcpy(p, &v, 1);
    } else {
        int16_t v = (int16_t)t->items[0].value;
        memcpy(p, &v, 2);
    }
}

column *col_new_defaults(const type *t, size_t n)
{
    column *c = col_new(t);
    col_reserve(c, n);
    switch (layout_of(t)) {
    case L_FIXED:
        buf_resize_zero(&c->data, n * width_of(t));
        for (size_t i = 0; enum_default(t) && i < n; i++)
            write_enum_default(c->data.p + i * width_of(t), t);
        break;
    case L_STRING: {
        if (type_phys(t)->id == T_AGGSTATE && type_get_agg_hooks()) {
            for (size_t i = 0; i < n; i++)
                col_push_default(c);
            return c;
        }
        uint64_t *o = buf_grow(&c->offs, n * sizeof(uint64_t));
        memset(o, 0, n * sizeof(uint64_t));
        break;
    }
    case L_NULLABLE: {
        memset(buf_grow(&c->nulls, n), 1, n);
        col_free(c->inner);
        c->inner = col_new_defaults(type_phys(t)->inner, n);
        break;
    }
    case L_ARRAY: {
        uint64_t *o = buf_grow(&c->offs, n * sizeof(uint64_t));
        memset(o, 0, n * sizeof(uint64_t));
        break;
    }
    case L_TUPLE:
        for (int i = 0; i < c->nfields; i++) {
            col_free(c->fields[i]);
            c->fields[i] = col_new_defaults(type_phys(t)->fields[i], n);
        }
        break;
    }
    c->len = n;
    return c;
}

column *col_new_const(column *one, size_t len)
{
    if (one->len > 1) {
        column *first = col_slice(one, 0, 1);
        col_free(one);
        one = first;
    }
    one->is_const = true;
    one->len = len;
    return one;
}

column *col_ref(column *c)
{
    atomic_fetch_add_explicit((_Atomic int *)&c->refs, 1, memory_order_relaxed);
    return c;
}

void col_free(column *c)
{
    if (!c)
        return;
    if (atomic_fetch_sub_explicit((_Atomic int *)&c->refs, 1, memory_order_acq_rel) != 1)
        return;
    buf_free(&c->data);
    buf_free(&c->offs);
    buf_free(&c->nulls);
    col_free(c->inner);
    col_free(c->dict);
    for (int i = 0; i < c->nfields; i++)
        col_free(c->fields[i]);
    free(c->fields);
    free(c);
}

column *col_new_coded(column *dict, size_t rows)
{
    column *c = col_new(dict->type);
    buf_free(&c->offs); /* the codes take the place of the values */
    c->dict = dict;
    buf_reserve(&c->data, rows * sizeof(uint32_t));
    return c;
}

void col_append_from_dict(column *dst, const column *dict, const uint32_t *codes, size_t n)
{
    const uint64_t *o = col_offs(dict);
    const uint8_t *d = dict->data.p;
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += (size_t)(o[codes[i] + 1] - o[codes[i]]);
    buf_reserve(&dst->data, total + 16);
    uint64_t *oo = buf_grow(&dst->offs, n * sizeof(uint64_t));
    uint8_t *w = dst->data.p + dst->data.len;
    uint64_t at = dst->data.len;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = o[codes[i]], len = o[codes[i] + 1] - a;
        /* short strings: a fixed 16-byte copy is cheaper than a memcpy call; it stays
         * inside both buffers' capacity (dst has 16 spare bytes) */
        if (len <= 16 && a + 16 <= dict->data.cap)
            memcpy(w, d + a, 16);
        else if (len)
            memcpy(w, d + a, len);
        w += len;
        at += len;
        oo[i] = at;
    }
    dst->data.len = at;
    dst->len += n;
}

/* The values of a coded column as an ordinary column. */
static column *decode_codes(const column *c)
{
    column *m = col_new(c->dict->type);
    col_append_from_dict(m, c->dict, col_codes(c), c->len);
    return m;
}

void col_reserve(column *c, size_t rows)
{
    switch (layout_of(c->type)) {
    case L_FIXED: buf_reserve(&c->data, rows * width_of(c->type)); break;
    case L_STRING: buf_reserve(&c->offs, rows * sizeof(uint64_t)); break;
    case L_NULLABLE:
        buf_reserve(&c->nulls, rows);
        col_reserve(c->inner, rows);
        break;
    case L_ARRAY: buf_reserve(&c->offs, rows * sizeof(uint64_t)); break;
    case L_TUPLE:
        for (int i = 0; i < c->nfields; i++)
            col_reserve(c->fields[i], rows);
        break;
    }
}

void col_push_str(column *c, const char *s, size_t len)
{
    uint32_t w = width_of(c->type);
    if (w) {
        uint8_t *dst = buf_grow(&c->data, w);
        size_t n = len < w ? len : w;
        memcpy(dst, s, n);
        memset(dst + n, 0, w - n);
    } else {
        buf_append(&c->data, s, len);
        uint64_t end = c->data.len;
        buf_append(&c->offs, &end, sizeof end);
    }
    c->len++;
}

void col_push_fixed(column *c, const void *value)
{
    buf_append(&c->data, value, width_of(c->type));
    c->len++;
}

void col_push_default(column *c)
{
    switch (layout_of(c->type)) {
    case L_FIXED: {
        uint8_t *p = buf_grow(&c->data, width_of(c->type));
        memset(p, 0, width_of(c->type));
        if (enum_default(c->type))
            write_enum_default(p, c->type);
        break;
    }
    case L_STRING: {
        const type_agg_hooks *h = type_get_agg_hooks();
        if (type_phys(c->type)->id == T_AGGSTATE && h && h->default_state)
            h->default_state(type_phys(c->type), &c->data); /* the empty state's bytes */
        uint64_t end = c->data.len;
        buf_append(&c->offs, &end, sizeof end);
        break;
    }
    case L_NULLABLE:
        col_push_default(c->inner);
        buf_putc(&c->nulls, 1);
        break;
    case L_ARRAY: {
        uint64_t end = c->inner->len;
        buf_append(&c->offs, &end, sizeof end);
        break;
    }
    case L_TUPLE:
        for (int i = 0; i < c->nfields; i++)
            col_push_default(c->fields[i]);
        break;
    }
    c->len++;
}

void col_push_null(column *c)
{
    col_push_default(c->inner);
    buf_putc(&c->nulls, 1);
    c->len++;
}

void col_nullable_commit(column *c, bool is_null)
{
    buf_putc(&c->nulls, is_null ? 1 : 0);
    c->len++;
}

void col_array_commit(column *c)
{
    uint64_t end = c->inner->len;
    buf_append(&c->offs, &end, sizeof end);
    c->len++;
}

void col_push_from(column *dst, const column *src, size_t i)
{
    i = col_idx(src, i);
    switch (layout_of(dst->type)) {
    case L_FIXED: {
        uint32_t w = width_of(dst->type);
        buf_append(&dst->data, src->data.p + i * w, w);
        break;
    }
    case L_STRING: {
        const uint64_t *o = col_offs(src);
        buf_append(&dst->data, src->data.p + o[i], o[i + 1] - o[i]);
        uint64_t end = dst->data.len;
        buf_append(&dst->offs, &end, sizeof end);
        break;
    }
    case L_NULLABLE:
        col_push_from(dst->inner, src->inner, i);
        buf_putc(&dst->nulls, (char)src->nulls.p[i]);
        break;
    case L_ARRAY: {
        const uint64_t *o = col_offs(src);
        col_push_range(dst->inner, src->inner, o[i], o[i + 1] - o[i]);
        uint64_t end = dst->inner->len;
        buf_append(&dst->offs, &end, sizeof end);
        break;
    }
    case L_TUPLE:
        for (int k = 0; k < dst->nfields; k++)
            col_push_from(dst->fields[k], src->fields[k], i);
        break;
    }
    dst->len++;
}

void col_push_range(column *dst, const column *src, size_t from, size_t n)
{
    if (n == 0)
        return;
    if (src->is_const) {
        for (size_t k = 0; k < n; k++)
            col_push_from(dst, src, 0);
        return;
    }
    switch (layout_of(dst->type)) {
    case L_FIXED: {
        uint32_t w = width_of(dst->type);
        buf_append(&dst->data, src->data.p + from * w, n * w);
        break;
    }
    case L_STRING: {
        const uint64_t *o = col_offs(src);
        uint64_t base = dst->data.len, start = o[from];
        buf_append(&dst->data, src->data.p + start, o[from + n] - start);
        uint64_t *d = buf_grow(&dst->offs, n * sizeof(uint64_t));
        for (size_t k = 0; k < n; k++)
            d[k] = base + (o[from + k + 1] - start);
        break;
    }
    case L_NULLABLE:
        col_push_range(dst->inner, src->inner, from, n);
        buf_append(&dst->nulls, src->nulls.p + from, n);
        break;
    case L_ARRAY: {
        const uint64_t *o = col_offs(src);
        uint64_t base = dst->inner->len, start = o[from];
        col_push_range(dst->inner, src->inner, start, o[from + n] - start);
        uint64_t *d = buf_grow(&dst->offs, n * sizeof(uint64_t));
        for (size_t k = 0; k < n; k++)
            d[k] = base + (o[from + k + 1] - start);
        break;
    }
    case L_TUPLE:
        for (int k = 0; k < dst->nfields; k++)
            col_push_range(dst->fields[k], src->fields[k], from, n);
        break;
    }
    dst->len += n;
}

column *col_materialize(column *c)
{
    if (c->dict) {
        column *m = decode_codes(c);
        col_free(c);
        return m;
    }
    if (!c->is_const)
        return c;
    column *m = col_new(c->type);
    col_reserve(m, c->len);
    for (size_t i = 0; i < c->len; i++)
        col_push_from(m, c, 0);
    col_free(c);
    return m;
}

column *col_slice(const column *src, size_t from, size_t n)
{
    if (src->dict) {
        column *c = col_new_coded(col_ref(src->dict), n);
        if (n)
            memcpy(buf_grow(&c->data, n * sizeof(uint32_t)), col_codes(src) + from, n * sizeof(uint32_t));
        c->len = n;
        return c;
    }
    if (src->is_const) {
        column *one = col_new(src->type);
        col_push_from(one, src, 0);
        return col_new_const(one, n);
    }
    column *c = col_new(src->type);
    col_reserve(c, n);
    col_push_range(c, src, from, n);
    return c;
}

column *col_clone(const column *src) { return col_slice(src, 0, src->len); }

column *col_gather(const column *src, const uint32_t *rows, size_t n)
{
    if (src->is_const) {
        column *one = col_new(src->type);
        col_push_from(one, src, 0);
        return col_new_const(one, n);
    }
    column *c = col_new(src->type);
    col_reserve(c, n);
    switch (layout_of(src->type)) {
    case L_FIXED: {
        uint32_t w = width_of(src->type);
        uint8_t *d = buf_grow(&c->data, n * w);
        const uint8_t *s = src->data.p;
        switch (w) {
        case 1: for (size_t k = 0; k < n; k++) d[k] = s[rows[k]]; break;
        case 2: for (size_t k = 0; k < n; k++) memcpy(d + 2 * k, s + 2 * (size_t)rows[k], 2); break;
        case 4: for (size_t k = 0; k < n; k++) memcpy(d + 4 * k, s + 4 * (size_t)rows[k], 4); break;
        case 8: for (size_t k = 0; k < n; k++) memcpy(d + 8 * k, s + 8 * (size_t)rows[k], 8); break;
        default: for (size_t k = 0; k < n; k++) memcpy(d + (size_t)w * k, s + (size_t)w * rows[k], w); break;
        }
        c->len = n;
        return c;
    }
    case L_NULLABLE: {
        col_free(c->inner);
        c->inner = col_gather(src->inner, rows, n);
        uint8_t *d = buf_grow(&c->nulls, n);
        for (size_t k = 0; k < n; k++)
            d[k] = src->nulls.p[rows[k]];
        c->len = n;
        return c;
    }
    case L_TUPLE:
        for (int f = 0; f < c->nfields; f++) {
            col_free(c->fields[f]);
            c->fields[f] = col_gather(src->fields[f], rows, n);
        }
        c->len = n;
        return c;
    default:
        for (size_t k = 0; k < n; k++)
            col_push_from(c, src, rows[k]);
        return c;
    }
}

column *col_filter(const column *src, const uint8_t *keep, size_t kept)
{
    if (src->dict) {
        /* one spare slot: the branch-free loop stores every row before deciding */
        column *c = col_new_coded(col_ref(src->dict), kept + 1);
        uint32_t *d = buf_grow(&c->data, kept * sizeof(uint32_t));
        const uint32_t *s = col_codes(src);
        size_t k = 0;
        for (size_t i = 0; i < src->len; i++) {
            d[k] = s[i];
            k += keep[i] != 0;
        }
        c->len = kept;
        return c;
    }
    if (src->is_const) {
        column *one = col_new(src->type);
        col_push_from(one, src, 0);
        return col_new_const(one, kept);
    }
    column *c = col_new(src->type);
    col_reserve(c, kept);
    switch (layout_of(src->type)) {
    case L_FIXED: {
        uint32_t w = width_of(src->type);
        /* one spare value: the branch-free loops below store every row before deciding */
        buf_reserve(&c->data, (kept + 1) * w);
        uint8_t *d = buf_grow(&c->data, kept * w);
        const uint8_t *s = src->data.p;
        size_t k = 0;
        if (w == 8) {
            for (size_t i = 0; i < src->len; i++) {
                memcpy(d + 8 * k, s + 8 * i, 8);
                k += keep[i] != 0;
            }
        } else if (w == 4) {
            for (size_t i = 0; i < src->len; i++) {
                memcpy(d + 4 * k, s + 4 * i, 4);
                k += keep[i] != 0;
            }
        } else {
            for (size_t i = 0; i < src->len; i++)
                if (keep[i]) {
                    memcpy(d + (size_t)w * k, s + (size_t)w * i, w);
                    k++;
                }
        }
        c->len = kept;
        return c;
    }
    case L_STRING: {
        const uint64_t *o = col_offs(src);
        for (size_t i = 0; i < src->len; i++)
            if (keep[i]) {
                buf_append(&c->data, src->data.p + o[i], o[i + 1] - o[i]);
                uint64_t end = c->data.len;
                buf_append(&c->offs, &end, sizeof end);
            }
        c->len = kept;
        return c;
    }
    case L_NULLABLE: {
        col_free(c->inner);
        c->inner = col_filter(src->inner, keep, kept);
        for (size_t i = 0; i < src->len; i++)
            if (keep[i])
                buf_putc(&c->nulls, (char)src->nulls.p[i]);
        c->len = kept;
        return c;
    }
    case L_TUPLE:
        for (int f = 0; f < c->nfields; f++) {
            col_free(c->fields[f]);
            c->fields[f] = col_filter(src->fields[f], keep, kept);
        }
        c->len = kept;
        return c;
    case L_ARRAY:
        for (size_t i = 0; i < src->len; i++)
            if (keep[i])
                col_push_from(c, src, i);
        return c;
    }
    return c;
}

static int cmp_num(double a, double b, int nan_direction)
{
    bool an = isnan(a), bn = isnan(b);
    if (an || bn) {
        if (an && bn)
            return 0;
        return an ? nan_direction : -nan_direction;
    }
    return (a > b) - (a < b);
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

int col_compare(const column *a, size_t i, const column *b, size_t j, int nan_direction)
{
    i = col_idx(a, i);
    j = col_idx(b, j);
    const type *t = type_phys(a->type);
    switch (t->id) {
    case T_NOTHING: return 0;
    case T_UINT8: case T_BOOL: return CMP(COL_DATA(a, uint8_t)[i], COL_DATA(b, uint8_t)[j]);
    case T_UINT16: case T_DATE: return CMP(COL_DATA(a, uint16_t)[i], COL_DATA(b, uint16_t)[j]);
    case T_UINT32: case T_DATETIME: case T_IPV4: return CMP(COL_DATA(a, uint32_t)[i], COL_DATA(b, uint32_t)[j]);
    case T_UINT64: return CMP(COL_DATA(a, uint64_t)[i], COL_DATA(b, uint64_t)[j]);
    case T_UINT128: case T_UUID: return CMP(COL_DATA(a, uint128_t)[i], COL_DATA(b, uint128_t)[j]);
    case T_INT8: case T_ENUM8: return CMP(COL_DATA(a, int8_t)[i], COL_DATA(b, int8_t)[j]);
    case T_INT16: case T_ENUM16: return CMP(COL_DATA(a, int16_t)[i], COL_DATA(b, int16_t)[j]);
    case T_INT32: case T_DATE32: case T_DECIMAL32: return CMP(COL_DATA(a, int32_t)[i], COL_DATA(b, int32_t)[j]);
    case T_INT64: case T_DATETIME64: case T_DECIMAL64: return CMP(COL_DATA(a, int64_t)[i], COL_DATA(b, int64_t)[j]);
    case T_INT128: case T_DECIMAL128: return CMP(COL_DATA(a, int128_t)[i], COL_DATA(b, int128_t)[j]);
    case T_UINT256: return i256_cmp_u(COL_DATA(a, i256)[i], COL_DATA(b, i256)[j]);
    case T_INT256: case T_DECIMAL256: return i256_cmp_s(COL_DATA(a, i256)[i], COL_DATA(b, i256)[j]);
    case T_FLOAT32: return cmp_num(COL_DATA(a, float)[i], COL_DATA(b, float)[j], nan_direction);
    case T_FLOAT64: return cmp_num(COL_DATA(a, double)[i], COL_DATA(b, double)[j], nan_direction);
    case T_STRING: case T_FIXEDSTRING: case T_AGGSTATE: case T_IPV6: {
        size_t la, lb;
        const char *sa = col_str(a, i, &la), *sb = col_str(b, j, &lb);
        int r = memcmp(sa, sb, la < lb ? la : lb);
        if (r)
            return r < 0 ? -1 : 1;
        return CMP(la, lb);
    }
    case T_NULLABLE: {
        bool na = a->nulls.p[i], nb = b->nulls.p[j];
        if (na || nb) {
            if (na && nb)
                return 0;
            return na ? nan_direction : -nan_direction;
        }
        return col_compare(a->inner, i, b->inner, j, nan_direction);
    }
    case T_ARRAY:
    case T_MAP: {
        const uint64_t *oa = col_offs(a), *ob = col_offs(b);
        size_t la = oa[i + 1] - oa[i], lb = ob[j + 1] - ob[j];
        for (size_t k = 0; k < la && k < lb; k++) {
            int r = col_compare(a->inner, oa[i] + k, b->inner, ob[j] + k, nan_direction);
            if (r)
                return r;
        }
        return CMP(la, lb);
    }
    case T_TUPLE:
        for (int f = 0; f < a->nfields; f++) {
            int r = col_compare(a->fields[f], i, b->fields[f], j, nan_direction);
            if (r)
                return r;
        }
        return 0;
    default: return 0;
    }
}

static uint64_t hash_bytes(const void *p, size_t n)
{
    /* FNV-style over 8-byte words, then a strong finaliser: fast and good enough for
     * hash tables (never persisted, never compared with ClickHouse). */
    const uint8_t *s = p;
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ mix64(w)) * 0x100000001b3ULL;
        s += 8;
        n -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, s, n);
    h ^= mix64(tail ^ ((uint64_t)n << 56));
    return mix64(h);
}

uint64_t col_hash_row(const column *c, size_t i)
{
    uint64_t h = 0;
    i = col_idx(c, i);
    switch (layout_of(c->type)) {
    case L_FIXED: {
        uint32_t w = width_of(c->type);
        if (w == 8) {
            uint64_t v;
            memcpy(&v, c->data.p + 8 * i, 8);
            return mix64(v);
        }
        return hash_bytes(c->data.p + (size_t)w * i, w);
    }
    case L_STRING: {
        size_t n;
        const char *s = col_str(c, i, &n);
        return hash_bytes(s, n);
    }
    case L_NULLABLE:
        if (c->nulls.p[i])
            return 0x5bd1e995ULL;
        return col_hash_row(c->inner, i);
    case L_ARRAY: {
        const uint64_t *o = col_offs(c);
        h = o[i + 1] - o[i];
        for (uint64_t k = o[i]; k < o[i + 1]; k++)
            h = mix64(h ^ col_hash_row(c->inner, k));
        return h;
    }
    case L_TUPLE:
        for (int f = 0; f < c->nfields; f++)
            h = mix64(h ^ col_hash_row(c->fields[f], i));
        return h;
    }
    return h;
}

void col_hash_update(const column *c, uint64_t *h, size_t n)
{
    if (!c->is_const && layout_of(c->type) == L_FIXED && width_of(c->type) <= 8) {
        uint32_t w = width_of(c->type);
        const uint8_t *d = c->data.p;
        for (size_t i = 0; i < n; i++) {
            uint64_t v = 0;
            memcpy(&v, d + (size_t)w * i, w);
            h[i] = mix64(h[i] * 31 + v);
        }
        return;
    }
    for (size_t i = 0; i < n; i++)
        h[i] = mix64(h[i] * 31 + col_hash_row(c, i));
}

bool col_equal_rows(const column *a, size_t i, const column *b, size_t j)
{
    return col_compare(a, i, b, j, 1) == 0;
}

size_t col_bytes(const column *c)
{
    size_t n = c->data.len + c->offs.len + c->nulls.len;
    if (c->dict) /* the dictionary is shared: count the values the codes stand for */
        n += (size_t)((double)col_bytes(c->dict) * (double)c->len / (double)(c->dict->len ? c->dict->len : 1));
    if (c->inner)
        n += col_bytes(c->inner);
    for (int f = 0; f < c->nfields; f++)
        n += col_bytes(c->fields[f]);
    return n;
}

double col_get_f64(const column *c, size_t i)
{
    i = col_idx(c, i);
    switch (type_phys(c->type)->id) {
    case T_FLOAT32: return COL_DATA(c, float)[i];
    case T_FLOAT64: return COL_DATA(c, double)[i];
    case T_UINT64: return (double)COL_DATA(c, uint64_t)[i];
    case T_UINT128: return (double)COL_DATA(c, uint128_t)[i];
    case T_INT128: case T_DECIMAL128: return (double)COL_DATA(c, int128_t)[i];
    case T_UINT256: return i256_to_double_u(COL_DATA(c, i256)[i]);
    case T_INT256: case T_DECIMAL256: return i256_to_double_s(COL_DATA(c, i256)[i]);
    default: return (double)col_get_i64(c, i);
    }
}

int64_t col_get_i64(const column *c, size_t i)
{
    i = col_idx(c, i);
    switch (type_phys(c->type)->id) {
    case T_UINT8: case T_BOOL: return COL_DATA(c, uint8_t)[i];
    case T_UINT16: case T_DATE: return COL_DATA(c, uint16_t)[i];
    case T_UINT32: case T_DATETIME: case T_IPV4: return COL_DATA(c, uint32_t)[i];
    case T_UINT64: return (int64_t)COL_DATA(c, uint64_t)[i];
    case T_INT8: case T_ENUM8: return COL_DATA(c, int8_t)[i];
    case T_INT16: case T_ENUM16: return COL_DATA(c, int16_t)[i];
    case T_INT32: case T_DATE32: case T_DECIMAL32: return COL_DATA(c, int32_t)[i];
    case T_INT64: case T_DATETIME64: case T_DECIMAL64: return COL_DATA(c, int64_t)[i];
    case T_INT128: case T_DECIMAL128: return (int64_t)COL_DATA(c, int128_t)[i];
    case T_UINT128: case T_UUID: return (int64_t)COL_DATA(c, uint128_t)[i];
    case T_UINT256: case T_INT256: case T_DECIMAL256: return (int64_t)COL_DATA(c, i256)[i].w[0];
    case T_FLOAT32: return (int64_t)COL_DATA(c, float)[i];
    case T_FLOAT64: return (int64_t)COL_DATA(c, double)[i];
    default: return 0;
    }
}

i256 col_get_i256(const column *c, size_t i)
{
    switch (type_phys(c->type)->id) {
    case T_UINT256: case T_INT256: case T_DECIMAL256: return COL_DATA(c, i256)[col_idx(c, i)];
    case T_UINT128: case T_UUID: return i256_from_u128(COL_DATA(c, uint128_t)[col_idx(c, i)]);
    case T_INT128: case T_DECIMAL128: return i256_from_i128(COL_DATA(c, int128_t)[col_idx(c, i)]);
    case T_UINT64: return i256_from_u64(COL_DATA(c, uint64_t)[col_idx(c, i)]);
    case T_FLOAT32: case T_FLOAT64: return i256_from_double(col_get_f64(c, i));
    default: return i256_from_i64(col_get_i64(c, i));
    }
}

void col_get_i256_n(const column *c, size_t n, i256 *v)
{
    size_t m = c->is_const ? (n ? 1 : 0) : n;
    const void *p = c->data.p;
#define LOAD(T, CONV)                                 \
    for (size_t i = 0; i < m; i++)                    \
        v[i] = CONV(((const T *)p)[i]);               \
    break;
    switch (type_phys(c->type)->id) {
    case T_INT8: LOAD(int8_t, i256_from_i64)
    case T_INT16: LOAD(int16_t, i256_from_i64)
    case T_INT32: case T_DECIMAL32: LOAD(int32_t, i256_from_i64)
    case T_INT64: case T_DECIMAL64: LOAD(int64_t, i256_from_i64)
    case T_UINT8: case T_BOOL: LOAD(uint8_t, i256_from_u64)
    case T_UINT16: LOAD(uint16_t, i256_from_u64)
    case T_UINT32: LOAD(uint32_t, i256_from_u64)
    case T_UINT64: LOAD(uint64_t, i256_from_u64)
    case T_INT128: case T_DECIMAL128: LOAD(int128_t, i256_from_i128)
    case T_UINT128: LOAD(uint128_t, i256_from_u128)
    case T_INT256: case T_UINT256: case T_DECIMAL256: memcpy(v, p, m * sizeof *v); break;
    default:
        for (size_t i = 0; i < m; i++)
            v[i] = col_get_i256(c, i);
        break;
    }
#undef LOAD
    for (size_t i = m; i < n; i++)
        v[i] = v[0];
}

uint64_t col_get_u64(const column *c, size_t i)
{
    if (type_phys(c->type)->id == T_UINT64)
        return COL_DATA(c, uint64_t)[col_idx(c, i)];
    return (uint64_t)col_get_i64(c, i);
}
