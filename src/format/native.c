/* ClickHouse's Native format, both directions, byte-compatible with ClickHouse 26.7's
 * `FORMAT Native` (no BlockInfo, no per-column serialization-kind byte: that is only sent
 * in the client/server protocol).
 *
 * A stream is a sequence of blocks:
 *   VarUInt columns, VarUInt rows, then per column: String name, String type name and, when
 *   rows > 0, the column's state prefixes followed by its data.
 * Data is ClickHouse's bulk binary serialization:
 *   fixed width   little-endian values (Bool 1 byte, Date UInt16, DateTime UInt32,
 *                 DateTime64 Int64, Enum8/16 Int8/16, Decimal Int32/64/128, UUID two UInt64
 *                 halves, first 16 hex digits first: exactly shale's uint128 layout)
 *   Nothing       one '0' byte per row
 *   String        VarUInt length + bytes per value; FixedString raw bytes
 *   Nullable(T)   null map (1 byte per row) then T's data
 *   Array(T)      UInt64 cumulative offsets then T's data for all elements
 *   Tuple         each element's data in turn
 *   Map(K, V)     as Array(Tuple(keys K, values V)): offsets, all keys, all values
 *   LowCardinality(T): prefix UInt64 1 (SharedDictionariesWithAdditionalKeys); data:
 *                 UInt64 flags (index width 0..3 = UInt8..UInt64 | HasAdditionalKeys 1<<9 |
 *                 NeedUpdateDictionary 1<<10), UInt64 key count, the keys as T (Nullable
 *                 stripped), UInt64 row count, the indexes. Key 0 is the default value, or
 *                 for LowCardinality(Nullable(T)) key 0 stands for NULL and key 1 is the
 *                 default; other keys follow in order of first appearance.
 * All prefixes of a column (nested ones included: Array(LowCardinality(String)) writes the
 * version before the offsets) come before any of its data, as ClickHouse writes them.
 *
 * Reading trusts nothing: every count is checked against the bytes actually present
 * (buffers grow with the data read, so a lying header cannot make us allocate much), and
 * errors name the block, column and byte offset. Not thread-safe per instance. */
#include "format/binrd.h"
#include "format/out_internal.h"
#include "format/native_block.h"
#include "format/rd.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

enum {
    LC_VERSION = 1,                 /* SharedDictionariesWithAdditionalKeys */
    LC_NEED_GLOBAL_DICT = 1 << 8,
    LC_HAS_ADDITIONAL_KEYS = 1 << 9,
    LC_NEED_UPDATE_DICT = 1 << 10,
    MAX_STRING_SIZE = 1 << 30,      /* ClickHouse's DEFAULT_MAX_STRING_SIZE */
    MAX_COLUMNS = 1 << 20,
};

/* ================================ writing ================================ */

void fmt_put_varuint(buf *b, uint64_t v)
{
    uint8_t tmp[10];
    int n = 0;
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        tmp[n++] = byte | (v ? 0x80 : 0);
    } while (v);
    buf_append(b, tmp, (size_t)n);
}

static void put_u64(buf *b, uint64_t v) { buf_append(b, &v, 8); }

void fmt_put_string(buf *b, const char *s, size_t n)
{
    fmt_put_varuint(b, n);
    buf_append(b, s, n);
}

static void write_prefix(buf *b, const type *t)
{
    switch (t->id) {
    case T_LOWCARDINALITY:
        put_u64(b, LC_VERSION);
        break;
    case T_NULLABLE:
    case T_ARRAY:
    case T_MAP:
        write_prefix(b, t->inner);
        break;
    case T_TUPLE:
        for (int i = 0; i < t->nfields; i++)
            write_prefix(b, t->fields[i]);
        break;
    default:
        break;
    }
}

static void write_data(buf *b, const type *t, const column *c, size_t from, size_t n);

/* The bytes of value i of a String/FixedString/fixed-width column (the dictionary key). */
static const uint8_t *key_bytes(const column *c, const type *kt, size_t i, size_t *len)
{
    if (kt->id == T_STRING)
        return (const uint8_t *)col_str(c, i, len);
    *len = kt->width;
    return c->data.p + i * kt->width;
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* LowCardinality(T) data for rows [from, from+n) of a plainly stored column. */
static void write_lowcard(buf *b, const type *t, const column *c, size_t from, size_t n)
{
    if (n == 0)
        return; /* ClickHouse writes nothing for an empty range (e.g. all arrays empty) */
    const type *inner = t->inner;
    bool nullable = inner->id == T_NULLABLE;
    const type *kt = nullable ? inner->inner : inner;
    const column *vals = nullable ? c->inner : c;
    column *keys = col_new(kt);
    uint32_t ndef = nullable ? 2 : 1; /* reserved keys: (NULL,) default */
    for (uint32_t k = 0; k < ndef; k++)
        col_push_default(keys);
    size_t cap = 16;
    while (cap < 2 * (n + 2))
        cap <<= 1;
    uint32_t *slots = mem_alloc(cap * sizeof *slots); /* key index + 1, 0 = empty */
    memset(slots, 0, cap * sizeof *slots);
    uint64_t *idx = mem_alloc(n * sizeof *idx);
    for (size_t r = 0; r < n; r++) {
        size_t i = from + r;
        if (nullable && c->nulls.p[i]) {
            idx[r] = 0;
            continue;
        }
        size_t len;
        const uint8_t *p = key_bytes(vals, kt, i, &len);
        if (kt->id == T_STRING ? len == 0 : all_zero(p, len)) {
            idx[r] = ndef - 1;
            continue;
        }
        size_t h = (size_t)XXH3_64bits(p, len) & (cap - 1);
        for (;;) {
            uint32_t s = slots[h];
            if (!s) {
                col_push_range(keys, vals, i, 1);
                slots[h] = (uint32_t)keys->len;
                idx[r] = keys->len - 1;
                break;
            }
            size_t kl;
            const uint8_t *kp = key_bytes(keys, kt, s - 1, &kl);
            if (kl == len && memcmp(kp, p, len) == 0) {
                idx[r] = s - 1;
                break;
            }
            h = (h + 1) & (cap - 1);
        }
    }
    size_t nk = keys->len;
    int width = nk <= 0x100 ? 0 : nk <= 0x10000 ? 1 : nk <= 0x100000000ull ? 2 : 3;
    put_u64(b, (uint64_t)width | LC_HAS_ADDITIONAL_KEYS | LC_NEED_UPDATE_DICT);
    put_u64(b, nk);
    write_data(b, kt, keys, 0, nk);
    put_u64(b, n);
    size_t w = (size_t)1 << width;
    uint8_t *dst = buf_grow(b, n * w);
    for (size_t r = 0; r < n; r++)
        memcpy(dst + r * w, &idx[r], w); /* little-endian: the low bytes */
    mem_free(idx);
    mem_free(slots);
    col_free(keys);
}

static void write_data(buf *b, const type *t, const column *c, size_t from, size_t n)
{
    if (t->id == T_LOWCARDINALITY) {
        write_lowcard(b, t, c, from, n);
        return;
    }
    switch (t->id) {
    case T_NULLABLE:
        buf_append(b, c->nulls.p + from, n);
        write_data(b, t->inner, c->inner, from, n);
        break;
    case T_ARRAY:
    case T_MAP: {
        const uint64_t *o = col_offs(c);
        uint64_t *dst = buf_grow(b, n * 8);
        for (size_t i = 0; i < n; i++) {
            uint64_t v = o[from + i + 1] - o[from];
            memcpy(dst + i, &v, 8);
        }
        write_data(b, t->inner, c->inner, o[from], o[from + n] - o[from]);
        break;
    }
    case T_TUPLE:
        for (int f = 0; f < t->nfields; f++)
            write_data(b, t->fields[f], c->fields[f], from, n);
        break;
    case T_STRING: {
        const uint64_t *o = col_offs(c);
        buf_reserve(b, (size_t)(o[from + n] - o[from]) + n);
        for (size_t i = from; i < from + n; i++)
            fmt_put_string(b, (const char *)c->data.p + o[i], (size_t)(o[i + 1] - o[i]));
        break;
    }
    case T_AGGSTATE: { /* states back to back, each ending where its layout says */
        const uint64_t *o = col_offs(c);
        buf_append(b, c->data.p + o[from], (size_t)(o[from + n] - o[from]));
        break;
    }
    case T_NOTHING:
        memset(buf_grow(b, n), '0', n);
        break;
    default:
        buf_append(b, c->data.p + from * t->width, n * t->width);
        break;
    }
}

static int native_write(fmt_writer *w, const block *b)
{
    fmt_put_varuint(&w->b, (uint64_t)b->ncols);
    fmt_put_varuint(&w->b, b->rows);
    for (int i = 0; i < b->ncols; i++) {
        const type *t = w->header->types[i];
        fmt_put_string(&w->b, w->header->names[i], strlen(w->header->names[i]));
        fmt_put_string(&w->b, t->name, strlen(t->name));
        if (!b->rows)
            continue;
        column *c = col_materialize(col_ref(b->cols[i]));
        write_prefix(&w->b, t);
        write_data(&w->b, t, c, 0, b->rows);
        col_free(c);
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    return 0;
}

const fmt_out_vt fmt_out_native[] = {
    {"Native", NULL, native_write, NULL, NULL, 0},
    {NULL, NULL, NULL, NULL, NULL, 0},
};

/* ================================ reading ================================ */

typedef struct nctx {
    binrd b;            /* first: where() gets &x->b */
    uint64_t blockno;   /* 1-based, for messages */
    const char *col;    /* column being read, for messages */
    const char *tname;
    bool kinds;         /* protocol blocks: a serialization-kind byte follows each type name */
} nctx;

static const char *src_name(const nctx *x) { return x->b.in->in && x->b.in->in->name ? x->b.in->in->name : ""; }

static int where(const binrd *bp)
{
    const nctx *x = (const nctx *)bp;
    if (x->col)
        return err_suffix(": while reading column '%s' of type %s in block %llu at byte offset %llu of '%s'",
                          x->col, x->tname ? x->tname : "?", (unsigned long long)x->blockno,
                          (unsigned long long)rbuf_offset(x->b.in), src_name(x));
    return err_suffix(": while reading the header of block %llu at byte offset %llu of '%s'",
                      (unsigned long long)x->blockno, (unsigned long long)rbuf_offset(x->b.in), src_name(x));
}

static int get_bytes(nctx *x, void *dst, size_t n)
{
    if (rbuf_need(x->b.in, n) < 0)
        return -1;
    size_t avail = (size_t)(x->b.in->end - x->b.in->pos);
    if (avail < n)
        return binrd_truncated(&x->b, avail, n);
    memcpy(dst, x->b.in->pos, n);
    x->b.in->pos += n;
    return 0;
}

static int get_u64(nctx *x, uint64_t *v) { return get_bytes(x, v, 8); }

/* A length-prefixed string (column name or type) as a new NUL-terminated string. */
static int get_name(nctx *x, char **out, size_t *len)
{
    uint64_t n;
    if (binrd_varuint(&x->b, &n))
        return -1;
    if (n > (1 << 24))
        return binrd_corrupt(&x->b, "Too large name or type name in Native format: %llu bytes", (unsigned long long)n);
    buf b = {0};
    if (binrd_append(&x->b, &b, n)) {
        buf_free(&b);
        return -1;
    }
    *len = (size_t)n;
    *out = xstrndup(n ? (const char *)b.p : "", (size_t)n);
    buf_free(&b);
    return 0;
}

static int read_prefix(nctx *x, const type *t)
{
    switch (t->id) {
    case T_LOWCARDINALITY: {
        uint64_t v;
        if (get_u64(x, &v))
            return -1;
        if (v != LC_VERSION)
            return binrd_corrupt(&x->b, "Invalid version for SerializationLowCardinality key column: %llu (expected %d)",
                           (unsigned long long)v, LC_VERSION);
        return 0;
    }
    case T_NULLABLE:
    case T_ARRAY:
    case T_MAP:
        return read_prefix(x, t->inner);
    case T_TUPLE:
        for (int i = 0; i < t->nfields; i++)
            if (read_prefix(x, t->fields[i]))
                return -1;
        return 0;
    default:
        return 0;
    }
}

static int read_data(nctx *x, const type *t, column *c, uint64_t n);

static int read_lowcard(nctx *x, const type *t, column *c, uint64_t n)
{
    if (n == 0)
        return 0;
    const type *inner = t->inner;
    bool nullable = inner->id == T_NULLABLE;
    const type *kt = nullable ? inner->inner : inner;
    column *dst = nullable ? c->inner : c;
    column *keys = NULL;
    buf idx = {0};
    uint64_t got = 0;
    int rc = -1;
    while (got < n) {
        uint64_t flags, nr;
        if (get_u64(x, &flags))
            goto out;
        int width = (int)(flags & 0xFF);
        if (width > 3 || (flags & ~(uint64_t)(0xFF | LC_NEED_GLOBAL_DICT | LC_HAS_ADDITIONAL_KEYS | LC_NEED_UPDATE_DICT))) {
            binrd_corrupt(&x->b, "Invalid LowCardinality index type/flags: 0x%llx", (unsigned long long)flags);
            goto out;
        }
        if (flags & LC_NEED_GLOBAL_DICT) {
            err_set(ERR_NOT_IMPLEMENTED, "LowCardinality with a global (shared) dictionary is not supported in Native input");
            binrd_where(&x->b);
            goto out;
        }
        if (flags & LC_HAS_ADDITIONAL_KEYS) {
            uint64_t nk;
            if (get_u64(x, &nk))
                goto out;
            col_free(keys);
            keys = col_new(kt);
            if (read_data(x, kt, keys, nk))
                goto out;
        } else if (!keys) {
            binrd_corrupt(&x->b, "LowCardinality data without a dictionary");
            goto out;
        }
        if (get_u64(x, &nr))
            goto out;
        if (nr > n - got) {
            binrd_corrupt(&x->b, "LowCardinality has %llu more rows than the block (%llu expected)",
                    (unsigned long long)(nr - (n - got)), (unsigned long long)(n - got));
            goto out;
        }
        size_t w = (size_t)1 << width;
        idx.len = 0;
        if (binrd_append(&x->b, &idx, nr * w))
            goto out;
        size_t kw = kt->id == T_STRING ? 0 : kt->width;
        for (uint64_t r = 0; r < nr; r++) {
            uint64_t k = 0;
            memcpy(&k, idx.p + r * w, w);
            if (k >= keys->len) {
                binrd_corrupt(&x->b, "LowCardinality index %llu at row %llu is out of the dictionary of %zu keys",
                        (unsigned long long)k, (unsigned long long)(got + r + 1), keys->len);
                goto out;
            }
            if (nullable && k == 0) {
                col_push_null(c);
                continue;
            }
            if (kw) {
                col_push_fixed(dst, keys->data.p + k * kw);
            } else {
                size_t len;
                const char *s = col_str(keys, (size_t)k, &len);
                col_push_str(dst, s, len);
            }
            if (nullable)
                col_nullable_commit(c, false);
        }
        got += nr;
    }
    rc = 0;
out:
    col_free(keys);
    buf_free(&idx);
    return rc;
}

static int read_data(nctx *x, const type *t, column *c, uint64_t n)
{
    if (t->id == T_LOWCARDINALITY)
        return read_lowcard(x, t, c, n);
    switch (t->id) {
    case T_NULLABLE: {
        size_t at = c->nulls.len;
        if (binrd_append(&x->b, &c->nulls, n))
            return -1;
        for (size_t i = at; i < c->nulls.len; i++)
            c->nulls.p[i] = c->nulls.p[i] != 0;
        if (read_data(x, t->inner, c->inner, n))
            return -1;
        c->len += (size_t)n;
        return 0;
    }
    case T_ARRAY:
    case T_MAP: {
        if (n > SIZE_MAX / 8)
            return binrd_corrupt(&x->b, "Too many rows: %llu", (unsigned long long)n);
        size_t at = c->offs.len / 8;
        if (binrd_append(&x->b, &c->offs, n * 8))
            return -1;
        uint64_t *o = (uint64_t *)(void *)c->offs.p;
        uint64_t base = c->inner->len, prev = 0;
        for (size_t i = at; i < at + n; i++) {
            if (o[i] < prev)
                return binrd_corrupt(&x->b, "Array offsets are not monotonic at row %zu: %llu after %llu", i - at + 1,
                               (unsigned long long)o[i], (unsigned long long)prev);
            prev = o[i];
            o[i] += base;
        }
        if (prev > (uint64_t)1 << 48)
            return binrd_corrupt(&x->b, "Too large array size: %llu elements", (unsigned long long)prev);
        c->len += (size_t)n; /* offsets are in place; the elements follow */
        return read_data(x, t->inner, c->inner, prev);
    }
    case T_TUPLE:
        for (int f = 0; f < t->nfields; f++)
            if (read_data(x, t->fields[f], c->fields[f], n))
                return -1;
        c->len += (size_t)n;
        return 0;
    case T_AGGSTATE:
        for (uint64_t i = 0; i < n; i++)
            if (binrd_aggstate(&x->b, t, c))
                return -1;
        return 0;
    case T_STRING: {
        col_reserve(c, n < 65536 ? (size_t)n : 65536);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t len;
            if (binrd_varuint(&x->b, &len))
                return -1;
            if (len > MAX_STRING_SIZE)
                return binrd_corrupt(&x->b, "Too large string size: %llu at row %llu", (unsigned long long)len,
                               (unsigned long long)(i + 1));
            if (binrd_append(&x->b, &c->data, len))
                return -1;
            uint64_t end = c->data.len;
            buf_append(&c->offs, &end, 8);
            c->len++;
        }
        return 0;
    }
    default: {
        size_t w = t->width;
        if (w == 0)
            return binrd_corrupt(&x->b, "Unsupported type %s in Native format", t->name);
        if (n > SIZE_MAX / w)
            return binrd_corrupt(&x->b, "Too many rows: %llu", (unsigned long long)n);
        size_t at = c->data.len;
        if (binrd_append(&x->b, &c->data, n * w))
            return -1;
        if (t->id == T_NOTHING)
            memset(c->data.p + at, 0, (size_t)n);
        c->len += (size_t)n;
        return 0;
    }
    }
}

/* A protocol block's serialization-kind byte after a column's type name (x->kinds): only
 * the default serialization is read. */
static int read_kind(nctx *x, const char *name)
{
    if (!x->kinds)
        return 0;
    uint8_t custom;
    if (get_bytes(x, &custom, 1))
        return -1;
    if (custom != 0) {
        err_set(ERR_NOT_IMPLEMENTED, "Column '%s' comes with a custom (sparse) serialization, which is not supported",
                name);
        return binrd_where(&x->b);
    }
    return 0;
}

/* Reads one column (name, type, data) of a block of `rows` rows. *col is NULL when rows
 * is 0 and want_col is false. */
static int read_column(nctx *x, uint64_t rows, char **name, const type **t, column **col)
{
    *name = NULL;
    *col = NULL;
    x->col = NULL;
    size_t nl, tl;
    char *tn = NULL;
    if (get_name(x, name, &nl))
        return -1;
    if (get_name(x, &tn, &tl))
        return -1;
    x->col = *name;
    x->tname = tn;
    if (read_kind(x, *name)) {
        free(tn);
        x->tname = NULL;
        return -1;
    }
    *t = type_parse(tn, tl);
    if (!*t) {
        err_prefix("Cannot parse type name '%s' in Native format: ", tn);
        binrd_where(&x->b);
        free(tn);
        x->tname = NULL;
        return -1;
    }
    *col = col_new(*t);
    int rc = 0;
    if (rows && (read_prefix(x, *t) || read_data(x, *t, *col, rows)))
        rc = -1;
    x->tname = (*t)->name;
    free(tn);
    if (rc == 0 && (*col)->len != rows)
        rc = binrd_corrupt(&x->b, "Column has %zu rows, block header says %llu", (*col)->len, (unsigned long long)rows);
    return rc;
}

/* Adapts a column of the file's type to the requested type: only the LowCardinality and
 * Nullable wrappers may differ. Takes c; NULL (error set) if impossible. */
static column *adapt(nctx *x, column *c, const type *want, bool null_as_default)
{
    const type *have = c->type;
    if (have == want)
        return c;
    const type *hp = type_phys(have), *wp = type_phys(want);
    if (hp == wp) { /* LowCardinality added or removed: same layout */
        c->type = want;
        return c;
    }
    if (wp->id == T_NULLABLE && type_phys(wp->inner) == hp) {
        column *n = col_new(want);
        col_free(n->inner);
        c->type = wp->inner;
        n->inner = c;
        buf_resize_zero(&n->nulls, c->len);
        n->len = c->len;
        return n;
    }
    if (hp->id == T_NULLABLE && type_phys(hp->inner) == wp) {
        if (!null_as_default)
            for (size_t i = 0; i < c->len; i++)
                if (c->nulls.p[i]) {
                    col_free(c);
                    err_set(ERR_INCORRECT_DATA, "Cannot insert NULL at row %zu into a column of type %s", i + 1,
                            want->name);
                    binrd_where(&x->b);
                    return NULL;
                }
        column *in = col_ref(c->inner);
        col_free(c);
        in->type = want;
        return in;
    }
    col_free(c);
    err_set(ERR_TYPE_MISMATCH, "Type mismatch for column '%s' in Native format: the data has type %s, %s expected",
            x->col ? x->col : "", have->name, want->name);
    binrd_where(&x->b);
    return NULL;
}

typedef struct native_rd {
    rd_bin base;
    rbuf *in;
    schema *want;   /* NULL: the columns of the data as they come */
    fmt_settings st;
    uint64_t blockno;
    bool done;
    uint8_t *seen;
} native_rd;

static int native_next(rd_bin *bp, block **out)
{
    native_rd *r = (native_rd *)bp;
    *out = NULL;
    while (!r->done) {
        int c0 = rd_peek(r->in, 0);
        if (c0 == -2)
            return -1;
        if (c0 == -1) {
            r->done = true;
            break;
        }
        nctx x = {{r->in, where}, ++r->blockno, NULL, NULL, false};
        uint64_t ncols, rows;
        if (binrd_varuint(&x.b, &ncols) || binrd_varuint(&x.b, &rows))
            goto fail;
        if (ncols > MAX_COLUMNS) {
            binrd_corrupt(&x.b, "Too many columns in Native block: %llu", (unsigned long long)ncols);
            goto fail;
        }
        int n = r->want ? r->want->n : (int)ncols;
        block *b = block_new((int)n, (size_t)rows);
        if (r->want)
            memset(r->seen, 0, (size_t)n + 1);
        for (int i = 0; i < (int)ncols; i++) {
            char *name;
            const type *t;
            column *c;
            if (read_column(&x, rows, &name, &t, &c)) {
                col_free(c);
                free(name);
                block_free(b);
                goto fail;
            }
            int dst = i;
            if (r->want) {
                dst = schema_find(r->want, name);
                if (dst < 0) {
                    col_free(c);
                    if (r->st.skip_unknown_fields) {
                        free(name);
                        continue;
                    }
                    err_set(ERR_INCORRECT_DATA, "Unknown column '%s' found in Native data", name);
                    binrd_where(&x.b);
                    free(name);
                    block_free(b);
                    goto fail;
                }
                if (r->seen[dst]) {
                    col_free(c);
                    err_set(ERR_INCORRECT_DATA, "Duplicate column '%s' in Native data", name);
                    binrd_where(&x.b);
                    free(name);
                    block_free(b);
                    goto fail;
                }
                r->seen[dst] = 1;
                c = adapt(&x, c, r->want->types[dst], r->st.null_as_default);
                if (!c) {
                    free(name);
                    block_free(b);
                    goto fail;
                }
            }
            b->cols[dst] = c;
            free(name);
        }
        x.col = NULL;
        if (r->want)
            for (int i = 0; i < n; i++)
                if (!r->seen[i]) {
                    err_set(ERR_INCORRECT_DATA, "Column '%s' of type %s is missing in Native data", r->want->names[i],
                            r->want->types[i]->name);
                    binrd_where(&x.b);
                    block_free(b);
                    goto fail;
                }
        if (!rows) {
            block_free(b);
            continue;
        }
        *out = b;
        return 0;
    }
    return 0;
fail:
    r->done = true;
    return -1;
}

static void native_free(rd_bin *bp)
{
    native_rd *r = (native_rd *)bp;
    schema_free(r->want);
    free(r->seen);
    free(r);
}

int native_reader_new(rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out)
{
    native_rd *r = xcalloc(1, sizeof *r);
    r->base.next = native_next;
    r->base.free = native_free;
    r->in = in;
    r->want = s && s->n ? schema_clone(s) : NULL;
    r->st = *st;
    r->seen = xcalloc((size_t)(s ? s->n : 0) + 1, 1);
    *out = &r->base;
    return 0;
}

int native_infer_schema(rbuf *in, const fmt_settings *st, schema **out)
{
    (void)st;
    *out = NULL;
    nctx x = {{in, where}, 1, NULL, NULL, false};
    int c0 = rd_peek(in, 0);
    if (c0 == -2)
        return -1;
    uint64_t ncols = 0, rows = 0;
    if (c0 >= 0 && (binrd_varuint(&x.b, &ncols) || binrd_varuint(&x.b, &rows)))
        goto fail;
    if (c0 == -1 || ncols == 0)
        return err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                       "The table structure cannot be extracted from a Native format file: the file is empty. You "
                       "can specify the structure manually");
    if (ncols > MAX_COLUMNS) {
        binrd_corrupt(&x.b, "Too many columns in Native block: %llu", (unsigned long long)ncols);
        goto fail;
    }
    schema *s = schema_new((int)ncols);
    for (int i = 0; i < (int)ncols; i++) {
        char *name;
        const type *t;
        column *c;
        if (read_column(&x, rows, &name, &t, &c)) {
            col_free(c);
            free(name);
            schema_free(s);
            goto fail;
        }
        schema_set(s, i, name, t);
        col_free(c);
        free(name);
    }
    *out = s;
    return 0;
fail:
    return err_prefix("The table structure cannot be extracted from a Native format file. Error: ");
}

/* ============================ protocol blocks ============================ */

/* Rows [from, to) of a String or fixed-width column in pieces of about NATIVE_CHUNK bytes,
 * flushed after each: the same bytes as one write_data (these layouts are the values one
 * after another), sent while they are still in the cache. */
static int write_leaf_chunked(buf *b, const type *t, const column *c, size_t rows, native_flush_fn flush, void *ctx)
{
    const uint64_t *o = t->id == T_STRING ? col_offs(c) : NULL;
    size_t w = t->width ? t->width : 1;
    for (size_t from = 0; from < rows;) {
        size_t k;
        if (o) {
            size_t to = from + 1;
            while (to < rows && o[to] - o[from] < NATIVE_CHUNK)
                to++;
            k = to - from;
        } else {
            k = NATIVE_CHUNK / w > 0 ? NATIVE_CHUNK / w : 1;
            if (k > rows - from)
                k = rows - from;
        }
        write_data(b, t, c, from, k);
        from += k;
        if (b->len >= NATIVE_CHUNK && flush(ctx, b))
            return -1;
    }
    return 0;
}

int native_block_write_flushed(buf *b, const schema *header, const block *blk, uint64_t revision,
                               native_flush_fn flush, void *ctx)
{
    /* BlockInfo: field 1 is_overflows, field 2 bucket_num (-1: not a bucket), 0 ends it. */
    if (revision) {
        fmt_put_varuint(b, 1);
        buf_putc(b, 0);
        fmt_put_varuint(b, 2);
        int32_t bucket = -1;
        buf_append(b, &bucket, 4);
        fmt_put_varuint(b, 0);
    }
    size_t rows = blk ? blk->rows : 0;
    fmt_put_varuint(b, (uint64_t)header->n);
    fmt_put_varuint(b, rows);
    for (int i = 0; i < header->n; i++) {
        const type *t = header->types[i];
        fmt_put_string(b, header->names[i], strlen(header->names[i]));
        fmt_put_string(b, t->name, strlen(t->name));
        if (revision >= NATIVE_REVISION_WITH_CUSTOM_SERIALIZATION)
            buf_putc(b, 0); /* the default serialization */
        if (!rows)
            continue;
        column *c = col_materialize(col_ref(blk->cols[i]));
        int rc = 0;
        /* width is 0 for the layouts of other columns; LowCardinality's is its keys'. */
        if (flush && (t->id == T_STRING || (t->width && t->id != T_LOWCARDINALITY))) {
            rc = write_leaf_chunked(b, t, c, rows, flush, ctx);
        } else {
            write_prefix(b, t);
            write_data(b, t, c, 0, rows);
            if (flush && b->len >= NATIVE_CHUNK)
                rc = flush(ctx, b);
        }
        col_free(c);
        if (rc)
            return -1;
    }
    return 0;
}

void native_block_write(buf *b, const schema *header, const block *blk, uint64_t revision)
{
    native_block_write_flushed(b, header, blk, revision, NULL, NULL);
}

static int where_proto(const binrd *bp)
{
    const nctx *x = (const nctx *)bp;
    if (x->col)
        return err_suffix(": while reading column '%s' of type %s of a data block at byte offset %llu", x->col,
                          x->tname ? x->tname : "?", (unsigned long long)rbuf_offset(x->b.in));
    return err_suffix(": while reading a data block at byte offset %llu", (unsigned long long)rbuf_offset(x->b.in));
}

/* BlockInfo (its fields are not used: shale sends no overflow rows and no buckets). */
static int read_block_info(nctx *x)
{
    for (int fields = 0;; fields++) {
        uint64_t field;
        if (binrd_varuint(&x->b, &field))
            return -1;
        if (field == 0)
            return 0;
        uint8_t tmp[4];
        if (field == 1) {
            if (get_bytes(x, tmp, 1))
                return -1;
        } else if (field == 2) {
            if (get_bytes(x, tmp, 4))
                return -1;
        } else {
            return binrd_corrupt(&x->b, "Unknown BlockInfo field number %llu", (unsigned long long)field);
        }
        if (fields > 16)
            return binrd_corrupt(&x->b, "Too many BlockInfo fields");
    }
}

/* A protocol block's head: BlockInfo, the column and row counts (bounded). */
static int read_block_head(nctx *x, uint64_t *ncols, uint64_t *rows)
{
    if (read_block_info(x) || binrd_varuint(&x->b, ncols) || binrd_varuint(&x->b, rows))
        return -1;
    if (*ncols > MAX_COLUMNS)
        return binrd_corrupt(&x->b, "Too many columns in a data block: %llu", (unsigned long long)*ncols);
    if (*rows > ((uint64_t)1 << 40))
        return binrd_corrupt(&x->b, "Too many rows in a data block: %llu", (unsigned long long)*rows);
    return 0;
}

int native_block_read(rbuf *in, uint64_t revision, schema **header, block **out)
{
    *header = NULL;
    *out = NULL;
    nctx x = {{in, where_proto}, 1, NULL, NULL, revision >= NATIVE_REVISION_WITH_CUSTOM_SERIALIZATION};
    uint64_t ncols, rows;
    if (read_block_head(&x, &ncols, &rows))
        return -1;
    schema *s = schema_new((int)ncols);
    block *b = block_new((int)ncols, (size_t)rows);
    for (int i = 0; i < (int)ncols; i++) {
        char *name;
        const type *t;
        column *c;
        if (read_column(&x, rows, &name, &t, &c)) {
            col_free(c);
            free(name);
            block_free(b);
            schema_free(s);
            return -1;
        }
        schema_set(s, i, name, t);
        b->cols[i] = c;
        free(name);
    }
    *header = s;
    *out = b;
    return 0;
}

/* ---- protocol blocks passed on as FORMAT Native (shale client's Native output) ---- */

/* n input bytes written out as they are, straight from the read buffer. */
static int pass_bytes(nctx *x, outstream *out, uint64_t n)
{
    rbuf *in = x->b.in;
    uint64_t got = 0;
    while (got < n) {
        if (in->pos == in->end) {
            long r = rbuf_fill(in);
            if (r < 0)
                return -1;
            if (r == 0)
                return binrd_truncated(&x->b, got, n);
        }
        size_t avail = (size_t)(in->end - in->pos);
        size_t k = n - got < avail ? (size_t)(n - got) : avail;
        if (out->write(out, in->pos, k))
            return -1;
        in->pos += k;
        got += k;
    }
    return 0;
}

static int pass_varuint(outstream *out, uint64_t v)
{
    uint8_t tmp[10];
    int n = 0;
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        tmp[n++] = byte | (v ? 0x80 : 0);
    } while (v);
    return out->write(out, tmp, (size_t)n);
}

static int pass_string(outstream *out, const char *s, size_t n)
{
    return pass_varuint(out, n) || out->write(out, s, n) ? -1 : 0;
}

/* n String values: the ones wholly in the read buffer are scanned and written as one span;
 * one that crosses the buffer's end is read and written in pieces. */
static int pass_strings(nctx *x, outstream *out, uint64_t n)
{
    rbuf *in = x->b.in;
    uint64_t i = 0;
    while (i < n) {
        const uint8_t *p = (const uint8_t *)in->pos, *end = (const uint8_t *)in->end, *q = p;
        while (i < n && q < end) {
            uint64_t len;
            size_t h;
            if (!binrd_whole_string(q, end, MAX_STRING_SIZE, true, &len, &h))
                break;
            q += h + (size_t)len;
            i++;
        }
        if (q > p) {
            if (out->write(out, p, (size_t)(q - p)))
                return -1;
            in->pos = (char *)q;
        }
        if (i == n)
            break;
        uint64_t len;
        if (binrd_varuint(&x->b, &len))
            return -1;
        if (len > MAX_STRING_SIZE)
            return binrd_corrupt(&x->b, "Too large string size: %llu at row %llu", (unsigned long long)len,
                                 (unsigned long long)(i + 1));
        if (pass_varuint(out, len) || pass_bytes(x, out, len))
            return -1;
        i++;
    }
    return 0;
}

/* Types whose protocol bytes are FORMAT Native's as write_data writes them (no prefixes,
 * nothing to normalise but a null map): fixed-width values, String, and Nullable, Array,
 * Map and Tuple of those. */
static bool passable(const type *t)
{
    switch (t->id) {
    case T_STRING: return true;
    case T_NULLABLE:
    case T_ARRAY:
    case T_MAP: return passable(t->inner);
    case T_TUPLE:
        for (int i = 0; i < t->nfields; i++)
            if (!passable(t->fields[i]))
                return false;
        return true;
    case T_NOTHING:
    case T_LOWCARDINALITY:
    case T_AGGSTATE: return false;
    default: return t->width > 0;
    }
}

/* n values of a passable type, checked as read_data checks them; scratch holds what must
 * be looked at whole (array offsets) or changed (null maps, as 0 and 1). */
static int pass_data(nctx *x, const type *t, outstream *out, buf *scratch, uint64_t n)
{
    switch (t->id) {
    case T_NULLABLE:
    case T_ARRAY:
    case T_MAP: {
        size_t w = t->id == T_NULLABLE ? 1 : 8;
        if (n > SIZE_MAX / w)
            return binrd_corrupt(&x->b, "Too many rows: %llu", (unsigned long long)n);
        scratch->len = 0;
        if (binrd_append(&x->b, scratch, n * w))
            return -1;
        uint64_t inner = n;
        if (t->id == T_NULLABLE) {
            for (size_t i = 0; i < scratch->len; i++)
                scratch->p[i] = scratch->p[i] != 0;
        } else {
            uint64_t prev = 0;
            for (size_t i = 0; i < (size_t)n; i++) {
                uint64_t o;
                memcpy(&o, scratch->p + i * 8, 8);
                if (o < prev)
                    return binrd_corrupt(&x->b, "Array offsets are not monotonic at row %zu: %llu after %llu", i + 1,
                                         (unsigned long long)o, (unsigned long long)prev);
                prev = o;
            }
            if (prev > (uint64_t)1 << 48)
                return binrd_corrupt(&x->b, "Too large array size: %llu elements", (unsigned long long)prev);
            inner = prev;
        }
        if (scratch->len && out->write(out, scratch->p, scratch->len))
            return -1;
        return pass_data(x, t->inner, out, scratch, inner);
    }
    case T_TUPLE:
        for (int f = 0; f < t->nfields; f++)
            if (pass_data(x, t->fields[f], out, scratch, n))
                return -1;
        return 0;
    case T_STRING: return pass_strings(x, out, n);
    default:
        if (n > SIZE_MAX / t->width)
            return binrd_corrupt(&x->b, "Too many rows: %llu", (unsigned long long)n);
        return pass_bytes(x, out, n * t->width);
    }
}

/* One column of a block of `rows` rows (rows 0: read, nothing written). */
static int pass_column(nctx *x, uint64_t rows, outstream *out, buf *scratch)
{
    char *name = NULL, *tn = NULL;
    size_t nl, tl;
    x->col = NULL;
    x->tname = NULL;
    int rc = get_name(x, &name, &nl) || get_name(x, &tn, &tl) || read_kind(x, name) ? -1 : 0;
    const type *t = NULL;
    if (!rc) {
        x->col = name;
        x->tname = tn;
        if (!(t = type_parse(tn, tl))) {
            err_prefix("Cannot parse type name '%s' in Native format: ", tn);
            rc = binrd_where(&x->b);
        }
    }
    if (!rc && rows) {
        x->tname = t->name;
        rc = pass_string(out, name, nl) || pass_string(out, t->name, strlen(t->name)) ? -1 : 0;
        if (!rc && passable(t)) {
            rc = pass_data(x, t, out, scratch, rows);
        } else if (!rc) {
            /* Decoded and written again, as the Native writer writes a decoded block. */
            column *c = col_new(t);
            rc = read_prefix(x, t) || read_data(x, t, c, rows) ? -1 : 0;
            if (!rc && c->len != rows)
                rc = binrd_corrupt(&x->b, "Column has %zu rows, block header says %llu", c->len,
                                   (unsigned long long)rows);
            if (!rc) {
                scratch->len = 0;
                write_prefix(scratch, t);
                write_data(scratch, t, c, 0, rows);
                rc = out->write(out, scratch->p, scratch->len);
            }
            col_free(c);
        }
    }
    x->col = NULL;
    x->tname = NULL;
    free(name);
    free(tn);
    return rc;
}

int native_block_pass(rbuf *in, uint64_t revision, outstream *out, uint64_t *rows_out)
{
    *rows_out = 0;
    nctx x = {{in, where_proto}, 1, NULL, NULL, revision >= NATIVE_REVISION_WITH_CUSTOM_SERIALIZATION};
    uint64_t ncols, rows;
    if (read_block_head(&x, &ncols, &rows))
        return -1;
    /* A block of no rows is nothing in FORMAT Native's output (its columns are read). */
    if (rows && (pass_varuint(out, ncols) || pass_varuint(out, rows)))
        return -1;
    buf scratch = {0};
    int rc = 0;
    for (uint64_t i = 0; i < ncols && !rc; i++)
        rc = pass_column(&x, rows, out, &scratch);
    buf_free(&scratch);
    if (!rc)
        *rows_out = rows;
    return rc;
}
