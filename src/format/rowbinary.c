/* ClickHouse's RowBinary, RowBinaryWithNames and RowBinaryWithNamesAndTypes, both
 * directions, byte-compatible with ClickHouse 26.7.
 *
 * Rows one after another, each value in column order in its binary serialization:
 *   fixed width   little-endian bytes (the same layout as Native: Bool 1 byte, Date UInt16,
 *                 DateTime UInt32, DateTime64 Int64, Decimal Int32..128, Enum Int8/16,
 *                 UUID two UInt64 halves)
 *   String        VarUInt (LEB128) length + bytes; FixedString(N) N raw bytes
 *   Nullable(T)   one byte 1 = NULL (nothing follows) or 0 followed by T's value
 *   Array(T)      VarUInt element count, then the elements
 *   Tuple         each element in turn
 *   LowCardinality(T) as T
 * WithNames adds a header: VarUInt column count and the names as Strings; WithNamesAndTypes
 * then the type names as Strings.
 *
 * Reading trusts nothing: every length is checked against the bytes actually present (the
 * column grows with the data read, so a lying length cannot make us allocate much) and errors
 * name the row, the column and the byte offset. Not thread-safe per instance. */
#include "format/binrd.h"
#include "format/out_internal.h"
#include "format/rd.h"

#include "base/err.h"
#include "base/mem.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { RB_NAMES = 1, RB_TYPES = 2, MAX_STRING_SIZE = 1 << 30, MAX_COLUMNS = 1 << 20 };

/* ================================ writing ================================ */

static void put_value(buf *b, const type *t, const column *c, size_t i)
{
    switch (t->id) {
    case T_LOWCARDINALITY:
        put_value(b, t->inner, c, i);
        break;
    case T_NULLABLE:
        if (c->nulls.p[i]) {
            buf_putc(b, 1);
        } else {
            buf_putc(b, 0);
            put_value(b, t->inner, c->inner, i);
        }
        break;
    case T_ARRAY:
    case T_MAP: { /* a map is written as its Array(Tuple(key, value)) */
        const uint64_t *o = col_offs(c);
        fmt_put_varuint(b, o[i + 1] - o[i]);
        for (uint64_t j = o[i]; j < o[i + 1]; j++)
            put_value(b, t->inner, c->inner, (size_t)j);
        break;
    }
    case T_TUPLE:
        for (int f = 0; f < t->nfields; f++)
            put_value(b, t->fields[f], c->fields[f], i);
        break;
    case T_STRING: {
        const uint64_t *o = col_offs(c);
        fmt_put_string(b, (const char *)c->data.p + o[i], (size_t)(o[i + 1] - o[i]));
        break;
    }
    case T_AGGSTATE: { /* the state's bytes, not length-prefixed */
        const uint64_t *o = col_offs(c);
        buf_append(b, c->data.p + o[i], (size_t)(o[i + 1] - o[i]));
        break;
    }
    case T_NOTHING:
        buf_putc(b, '0');
        break;
    default:
        buf_append(b, c->data.p + i * t->width, t->width);
        break;
    }
}

static int rb_start(fmt_writer *w)
{
    if (!(w->vt->variant & RB_NAMES))
        return 0;
    fmt_put_varuint(&w->b, (uint64_t)w->header->n);
    for (int i = 0; i < w->header->n; i++)
        fmt_put_string(&w->b, w->header->names[i], strlen(w->header->names[i]));
    if (w->vt->variant & RB_TYPES)
        for (int i = 0; i < w->header->n; i++)
            fmt_put_string(&w->b, w->header->types[i]->name, strlen(w->header->types[i]->name));
    return 0;
}

static int rb_write(fmt_writer *w, const block *b)
{
    column **cols = xcalloc((size_t)b->ncols + 1, sizeof *cols);
    for (int c = 0; c < b->ncols; c++)
        cols[c] = col_materialize(col_ref(b->cols[c]));
    int rc = 0;
    for (size_t r = 0; r < b->rows && rc == 0; r++) {
        for (int c = 0; c < b->ncols; c++)
            put_value(&w->b, w->header->types[c], cols[c], r);
        rc = fmt_maybe_flush(w);
    }
    for (int c = 0; c < b->ncols; c++)
        col_free(cols[c]);
    free(cols);
    return rc;
}

const fmt_out_vt fmt_out_rowbinary[] = {
    {"RowBinary", rb_start, rb_write, NULL, NULL, 0},
    {"RowBinaryWithNames", rb_start, rb_write, NULL, NULL, RB_NAMES},
    {"RowBinaryWithNamesAndTypes", rb_start, rb_write, NULL, NULL, RB_NAMES | RB_TYPES},
    {0},
};

/* ================================ reading ================================ */

typedef struct rb_rd {
    binrd b;           /* first: where() gets &r->b */
    rd_bin base;
    rbuf *in;
    const char *format;
    schema *want;      /* the caller's columns */
    int nfile;         /* columns in the data */
    int *dst;          /* per data column: index in want, or -1 to skip */
    const type **ftype; /* per data column: its type */
    column **skip;     /* per data column skipped: a scratch column */
    fmt_settings st;
    uint64_t row;      /* rows read so far */
    const char *col;   /* column being read, for messages */
    bool header_done, done;
} rb_rd;

static const char *src_name(const rb_rd *r) { return r->in->in && r->in->in->name ? r->in->in->name : ""; }

static int where(const binrd *bp)
{
    const rb_rd *r = (const rb_rd *)bp;
    if (r->col)
        return err_suffix(": (at row %llu, column '%s', byte offset %llu of '%s')", (unsigned long long)r->row + 1,
                          r->col, (unsigned long long)rbuf_offset(r->in), src_name(r));
    return err_suffix(": (in the header of %s data, byte offset %llu of '%s')", r->format,
                      (unsigned long long)rbuf_offset(r->in), src_name(r));
}

static int get_byte(rb_rd *r, int *v)
{
    int c = rd_peek(r->in, 0);
    if (c == -2)
        return -1;
    if (c == -1)
        return binrd_truncated(&r->b, 0, 1);
    r->in->pos++;
    *v = c;
    return 0;
}

static int get_string(rb_rd *r, buf *b)
{
    uint64_t n;
    if (binrd_varuint(&r->b, &n))
        return -1;
    if (n > MAX_STRING_SIZE)
        return binrd_corrupt(&r->b, "Too large string size: %llu", (unsigned long long)n);
    return binrd_append(&r->b, b, n);
}

static int get_value(rb_rd *r, const type *t, column *c)
{
    switch (t->id) {
    case T_LOWCARDINALITY:
        return get_value(r, t->inner, c);
    case T_NULLABLE: {
        int m = 0;
        if (get_byte(r, &m))
            return -1;
        if (m) {
            col_push_null(c);
            return 0;
        }
        if (get_value(r, t->inner, c->inner))
            return -1;
        col_nullable_commit(c, false);
        return 0;
    }
    case T_ARRAY:
    case T_MAP: {
        uint64_t n;
        if (binrd_varuint(&r->b, &n))
            return -1;
        if (n > (uint64_t)1 << 48)
            return binrd_corrupt(&r->b, "Too large array size: %llu", (unsigned long long)n);
        for (uint64_t j = 0; j < n; j++)
            if (get_value(r, t->inner, c->inner))
                return -1;
        col_array_commit(c);
        return 0;
    }
    case T_TUPLE:
        for (int f = 0; f < t->nfields; f++)
            if (get_value(r, t->fields[f], c->fields[f]))
                return -1;
        c->len++;
        return 0;
    case T_STRING: {
        if (get_string(r, &c->data))
            return -1;
        uint64_t end = c->data.len;
        buf_append(&c->offs, &end, 8);
        c->len++;
        return 0;
    }
    case T_AGGSTATE:
        return binrd_aggstate(&r->b, t, c);
    case T_NOTHING:
        return binrd_corrupt(&r->b, "Cannot read a value of type Nothing");
    default:
        if (t->width == 0)
            return binrd_corrupt(&r->b, "Unsupported type %s in %s format", t->name, r->format);
        if (binrd_append(&r->b, &c->data, t->width))
            return -1;
        if (t->id == T_ENUM8 || t->id == T_ENUM16) {
            const uint8_t *p = c->data.p + c->data.len - t->width;
            int16_t v = t->id == T_ENUM8 ? (int8_t)p[0] : (int16_t)(p[0] | p[1] << 8);
            bool known = false;
            for (int k = 0; k < t->nitems && !known; k++)
                known = t->items[k].value == v;
            if (!known) {
                err_set(ERR_UNKNOWN_ELEMENT_OF_ENUM, "Unexpected value %d in enum", v);
                return binrd_where(&r->b);
            }
        }
        c->len++;
        return 0;
    }
}

/* Reads n length-prefixed strings into names[] (new strings). */
static int get_names(rb_rd *r, char **names, uint64_t n)
{
    buf b = {0};
    for (uint64_t i = 0; i < n; i++) {
        b.len = 0;
        if (get_string(r, &b)) {
            buf_free(&b);
            return -1;
        }
        names[i] = xstrndup(b.len ? (const char *)b.p : "", b.len);
    }
    buf_free(&b);
    return 0;
}

static void free_names(char **v, uint64_t n)
{
    if (!v)
        return;
    for (uint64_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Reads the header; names/types (new arrays, n entries) when the format has them. */
static int read_header(rb_rd *r, bool with_types, uint64_t *n, char ***names, char ***types)
{
    *names = *types = NULL;
    if (binrd_varuint(&r->b, n))
        return -1;
    if (*n > MAX_COLUMNS)
        return binrd_corrupt(&r->b, "Too many columns: %llu", (unsigned long long)*n);
    *names = xcalloc((size_t)*n + 1, sizeof **names);
    if (get_names(r, *names, *n))
        return -1;
    if (with_types) {
        *types = xcalloc((size_t)*n + 1, sizeof **types);
        if (get_names(r, *types, *n))
            return -1;
    }
    return 0;
}

static int setup_columns(rb_rd *r, bool names, bool types)
{
    int n = r->want->n;
    if (!names) {
        r->nfile = n;
        r->dst = xcalloc((size_t)n + 1, sizeof *r->dst);
        r->ftype = xcalloc((size_t)n + 1, sizeof *r->ftype);
        for (int i = 0; i < n; i++) {
            r->dst[i] = i;
            r->ftype[i] = r->want->types[i];
        }
        return 0;
    }
    uint64_t nf;
    char **fn = NULL, **ft = NULL;
    int rc = -1;
    if (read_header(r, types, &nf, &fn, &ft))
        goto out;
    r->nfile = (int)nf;
    r->dst = xcalloc((size_t)nf + 1, sizeof *r->dst);
    r->ftype = xcalloc((size_t)nf + 1, sizeof *r->ftype);
    r->skip = xcalloc((size_t)nf + 1, sizeof *r->skip);
    bool *seen = xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < (int)nf; i++) {
        int d = r->st.with_names_use_header ? schema_find(r->want, fn[i]) : (i < n ? i : -1);
        const type *t = NULL;
        if (ft) {
            t = type_parse(ft[i], strlen(ft[i]));
            if (!t) {
                err_prefix("Cannot parse type name '%s' of column '%s': ", ft[i], fn[i]);
                binrd_where(&r->b);
                free(seen);
                goto out;
            }
        }
        if (d >= 0 && seen[d]) {
            binrd_corrupt(&r->b, "Duplicate column '%s' in %s data", fn[i], r->format);
            free(seen);
            goto out;
        }
        if (d < 0) {
            if (!t || !r->st.skip_unknown_fields) {
                err_set(ERR_INCORRECT_DATA, t ? "Unknown field found in %s header: '%s'"
                                              : "Cannot skip unknown field '%s' in %s format, because its type is unknown",
                        t ? r->format : fn[i], t ? fn[i] : r->format);
                binrd_where(&r->b);
                free(seen);
                goto out;
            }
            r->skip[i] = col_new(t);
        } else {
            seen[d] = true;
            /* input_format_with_types_use_header: the names must match exactly, as in
             * ClickHouse (LowCardinality(String) is not String). */
            if (t && strcmp(t->name, r->want->types[d]->name) != 0) {
                err_set(ERR_INCORRECT_DATA, "Type of '%s' must be %s, not %s", fn[i], r->want->types[d]->name,
                        t->name);
                binrd_where(&r->b);
                free(seen);
                goto out;
            }
            t = r->want->types[d];
        }
        r->dst[i] = d;
        r->ftype[i] = t;
    }
    free(seen);
    rc = 0;
out:
    free_names(fn, nf);
    free_names(ft, nf);
    return rc;
}

static int rb_next(rd_bin *bp, block **out)
{
    rb_rd *r = (rb_rd *)(void *)((char *)bp - offsetof(rb_rd, base));
    *out = NULL;
    if (r->done)
        return 0;
    const fmt_fmtinfo *fi = rd_lookup(r->format);
    if (!r->header_done) {
        r->header_done = true;
        if (setup_columns(r, fi->names, fi->types))
            return -1;
    }
    int n = r->want->n;
    block *b = block_new(n, 0);
    for (int i = 0; i < n; i++)
        b->cols[i] = col_new(r->want->types[i]);
    size_t rows = 0;
    size_t maxrows = r->st.max_block_rows > 0 ? (size_t)r->st.max_block_rows : 65536;
    int64_t maxbytes = r->st.max_block_bytes > 0 ? r->st.max_block_bytes : 1 << 20;
    uint64_t start = rbuf_offset(r->in);
    while (rows < maxrows && (int64_t)(rbuf_offset(r->in) - start) < maxbytes) {
        int c0 = rd_peek(r->in, 0);
        if (c0 == -2)
            goto fail;
        if (c0 == -1) {
            r->done = true;
            break;
        }
        if (r->nfile == 0) { /* a row of no columns reads no bytes: it would never end */
            binrd_corrupt(&r->b, "Unexpected data after the header: the %s data has no columns", r->format);
            goto fail;
        }
        for (int i = 0; i < r->nfile; i++) {
            r->col = r->dst[i] >= 0 ? r->want->names[r->dst[i]] : "(skipped)";
            column *c = r->dst[i] >= 0 ? b->cols[r->dst[i]] : r->skip[i];
            if (get_value(r, r->ftype[i], c))
                goto fail;
            if (r->dst[i] < 0 && c->len >= 1024) { /* skipped values are not kept */
                col_free(r->skip[i]);
                r->skip[i] = col_new(r->ftype[i]);
            }
        }
        r->col = NULL;
        rows++;
        r->row++;
        for (int i = 0; i < n; i++)
            if (b->cols[i]->len < rows)
                col_push_default(b->cols[i]); /* a column the header does not have */
    }
    if (!rows) {
        block_free(b);
        return 0;
    }
    b->rows = rows;
    *out = b;
    return 0;
fail:
    block_free(b);
    return -1;
}

static void rb_free(rd_bin *bp)
{
    rb_rd *r = (rb_rd *)(void *)((char *)bp - offsetof(rb_rd, base));
    if (r->skip)
        for (int i = 0; i < r->nfile; i++)
            col_free(r->skip[i]);
    free(r->skip);
    free(r->dst);
    free(r->ftype);
    schema_free(r->want);
    free(r);
}

int rowbinary_reader_new(const char *format, rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out)
{
    *out = NULL;
    if (!s)
        return err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE, "The table structure cannot be extracted from a %s format file",
                       format);
    rb_rd *r = xcalloc(1, sizeof *r);
    r->base.next = rb_next;
    r->base.free = rb_free;
    r->in = in;
    r->b = (binrd){in, where};
    r->format = rd_lookup(format)->name;
    r->want = schema_clone(s);
    r->st = *st;
    *out = &r->base;
    return 0;
}

int rowbinary_infer_schema(const char *format, rbuf *in, const fmt_settings *st, schema **out)
{
    *out = NULL;
    const fmt_fmtinfo *fi = rd_lookup(format);
    if (!fi->types)
        return err_set(ERR_BAD_ARGUMENTS,
                       "%s file format doesn't support schema inference. You must specify the structure manually",
                       fi->name);
    rb_rd r = {.b = {in, where}, .in = in, .format = fi->name, .st = *st};
    uint64_t n;
    char **names, **types;
    int rc = -1;
    if (read_header(&r, true, &n, &names, &types))
        goto out;
    schema *s = schema_new((int)n);
    for (uint64_t i = 0; i < n; i++) {
        const type *t = type_parse(types[i], strlen(types[i]));
        if (!t) {
            err_prefix("Cannot parse type name '%s' of column '%s': ", types[i], names[i]);
            binrd_where(&r.b);
            schema_free(s);
            goto out;
        }
        schema_set(s, (int)i, names[i], t);
    }
    *out = s;
    rc = 0;
out:
    free_names(names, n);
    free_names(types, n);
    return rc;
}
