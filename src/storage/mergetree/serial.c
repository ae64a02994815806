/* Column serialization in MergeTree Wide parts (see serial.h).
 *
 * A column's type becomes a small tree of nodes, one per level that owns streams (Nullable
 * → .null, Array → .sizeN, LowCardinality → .dict + keys, leaves → the data stream);
 * Tuple nodes own none and just fan out. The stream list is built in ClickHouse's
 * enumerateStreams order, which is also the order its writer first touches them.
 * LowCardinality's shared-dictionary format lives in serial_lowcard.c. */
#include "storage/mergetree/serial.h"
#include "storage/mergetree/serial_int.h"

#include "base/err.h"
#include "func/agg_state.h"
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Flag on the last VarUInt of a granule in a .sparse.idx stream. */
#define MT_SPARSE_END_OF_GRANULE (1ull << 62)

/* ---- names ---- */

void mt_escape_file_name(const char *name, buf *out)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        unsigned char ch = *p;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_') {
            buf_putc(out, (char)ch);
        } else {
            char e[3] = {'%', hex[ch >> 4], hex[ch & 15]};
            buf_append(out, e, 3);
        }
    }
}

static int add_stream(mt_serial *s, const char *base, const char *suffix)
{
    if (s->nstreams == s->cap_streams) {
        s->cap_streams = s->cap_streams ? s->cap_streams * 2 : 4;
        s->names = xrealloc(s->names, (size_t)s->cap_streams * sizeof *s->names);
    }
    size_t a = strlen(base), b = strlen(suffix);
    char *n = xmalloc(a + b + 1);
    memcpy(n, base, a);
    memcpy(n + a, suffix, b + 1);
    s->names[s->nstreams] = n;
    return s->nstreams++;
}

/* suffix: the substream path so far (".null" is added per stream, not inherited);
 * depth: array nesting level for .sizeN. */
static mt_node *build(mt_serial *s, const type *t, const char *suffix, int depth);

/* ClickHouse writes sparse columns only for plain values (numbers, String, FixedString,
 * dates, decimals, UUID); the flag is ignored for other types. */
static bool can_sparse(const type *t)
{
    return t->id != T_NULLABLE && t->id != T_ARRAY && t->id != T_TUPLE && t->id != T_LOWCARDINALITY &&
           t->id != T_AGGSTATE;
}

/* A sparse level over the streams of t: ".sparse.idx" first, then t's own streams. */
static mt_node *build_sparse(mt_serial *s, const type *t, const char *suffix, int depth)
{
    mt_node *nd = xcalloc(1, sizeof *nd);
    nd->kind = N_SPARSE;
    nd->t = type_phys(t);
    buf sb = {0};
    buf_puts(&sb, suffix);
    buf_puts(&sb, ".sparse.idx");
    nd->stream = add_stream(s, s->base, buf_cstr(&sb));
    buf_free(&sb);
    nd->kids = xcalloc(1, sizeof *nd->kids);
    nd->nkids = 1;
    nd->kids[0] = build(s, t, suffix, depth);
    return nd;
}

static mt_node *build(mt_serial *s, const type *t, const char *suffix, int depth)
{
    mt_node *nd = xcalloc(1, sizeof *nd);
    nd->t = type_phys(t);
    buf sb = {0};
    switch (t->id) {
    case T_LOWCARDINALITY: {
        nd->kind = N_LOWCARD;
        nd->t = t->inner;
        nd->lc_nullable = t->inner->id == T_NULLABLE;
        nd->lc_key_type = nd->lc_nullable ? t->inner->inner : t->inner;
        buf_puts(&sb, suffix);
        buf_puts(&sb, ".dict");
        nd->stream2 = add_stream(s, s->base, buf_cstr(&sb));
        nd->stream = add_stream(s, s->base, suffix);
        break;
    }
    case T_NULLABLE:
        nd->kind = N_NULLABLE;
        buf_puts(&sb, suffix);
        buf_puts(&sb, ".null");
        nd->stream = add_stream(s, s->base, buf_cstr(&sb));
        nd->kids = xcalloc(1, sizeof *nd->kids);
        nd->nkids = 1;
        nd->kids[0] = build(s, t->inner, suffix, depth);
        break;
    case T_ARRAY: {
        nd->kind = N_ARRAY;
        /* A column of a Nested table ("n.x") shares the sizes of its table: the top-level
         * sizes stream is named after the table ("n.size0"). */
        const char *dot = strchr(s->name, '.');
        if (depth == 0 && suffix[0] == 0 && dot) {
            char *tbl = xmalloc((size_t)(dot - s->name) + 1);
            memcpy(tbl, s->name, (size_t)(dot - s->name));
            tbl[dot - s->name] = 0;
            buf eb = {0};
            mt_escape_file_name(tbl, &eb);
            nd->stream = add_stream(s, buf_cstr(&eb), ".size0");
            buf_free(&eb);
            free(tbl);
        } else {
            buf_printf(&sb, "%s.size%d", suffix, depth);
            nd->stream = add_stream(s, s->base, buf_cstr(&sb));
        }
        nd->kids = xcalloc(1, sizeof *nd->kids);
        nd->nkids = 1;
        nd->kids[0] = build(s, t->inner, suffix, depth + 1);
        break;
    }
    case T_TUPLE:
        nd->kind = N_TUPLE;
        nd->nkids = t->nfields;
        nd->kids = xcalloc((size_t)t->nfields, sizeof *nd->kids);
        for (int i = 0; i < t->nfields; i++) {
            sb.len = 0;
            buf_puts(&sb, suffix);
            buf_puts(&sb, "%2E");
            if (t->field_names) {
                mt_escape_file_name(t->field_names[i], &sb);
            } else {
                buf_printf(&sb, "%d", i + 1);
            }
            bool sparse = depth == 0 && suffix[0] == 0 && i < 64 && (s->opts.sparse_elems >> i & 1) &&
                          can_sparse(t->fields[i]);
            nd->kids[i] = (sparse ? build_sparse : build)(s, t->fields[i], buf_cstr(&sb), depth);
        }
        break;
    case T_STRING:
        nd->kind = N_STRING;
        nd->stream2 = -1;
        if (s->opts.string_size_stream) { /* the sizes come first in ClickHouse's order */
            buf_puts(&sb, suffix);
            buf_puts(&sb, ".size");
            nd->stream2 = add_stream(s, s->base, buf_cstr(&sb));
        }
        nd->stream = add_stream(s, s->base, suffix);
        break;
    case T_AGGSTATE: /* the states back to back in one stream, as ClickHouse writes them */
        nd->kind = N_AGGSTATE;
        nd->stream = add_stream(s, s->base, suffix);
        break;
    default:
        nd->kind = N_FIXED; /* numbers, dates, enums, decimals, UUID, FixedString, Nothing */
        nd->width = t->width ? t->width : 1;
        nd->stream = add_stream(s, s->base, suffix);
        break;
    }
    buf_free(&sb);
    return nd;
}

static void node_free(mt_node *nd)
{
    if (!nd)
        return;
    for (int i = 0; i < nd->nkids; i++)
        node_free(nd->kids[i]);
    free(nd->kids);
    buf_free(&nd->sp_pos);
    mt_lc_free(nd);
    free(nd);
}

static void mark_dicts(const mt_node *nd, bool *isdict)
{
    if (nd->kind == N_LOWCARD)
        isdict[nd->stream2] = true;
    for (int k = 0; k < nd->nkids; k++)
        mark_dicts(nd->kids[k], isdict);
}

static void renumber(mt_node *nd, const int *perm)
{
    if (nd->kind != N_TUPLE)
        nd->stream = perm[nd->stream];
    if (nd->kind == N_LOWCARD || (nd->kind == N_STRING && nd->stream2 >= 0))
        nd->stream2 = perm[nd->stream2];
    for (int k = 0; k < nd->nkids; k++)
        renumber(nd->kids[k], perm);
}

mt_serial *mt_serial_new(const char *name, const type *t) { return mt_serial_new_ex(name, t, NULL); }

mt_serial *mt_serial_new_ex(const char *name, const type *t, const mt_serial_opts *opts)
{
    mt_serial *s = xcalloc(1, sizeof *s);
    if (opts)
        s->opts = *opts;
    size_t n = strlen(name);
    s->name = xmalloc(n + 1);
    memcpy(s->name, name, n + 1);
    buf eb = {0};
    mt_escape_file_name(name, &eb);
    s->base = xmalloc(eb.len + 1);
    memcpy(s->base, buf_cstr(&eb), eb.len + 1);
    buf_free(&eb);
    s->root = (s->opts.sparse && can_sparse(t) ? build_sparse : build)(s, t, "", 0);
    /* ClickHouse's writer touches every LowCardinality .dict stream first (the prefix
     * writes their version), so they come first in its stream order (columns_substreams.txt). */
    int *perm = xmalloc((size_t)s->nstreams * sizeof *perm), np = 0;
    bool *isdict = xcalloc((size_t)s->nstreams + 1, sizeof *isdict);
    mark_dicts(s->root, isdict);
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < s->nstreams; k++)
            if (isdict[k] == (pass == 0))
                perm[k] = np++;
    char **names = xmalloc((size_t)s->nstreams * sizeof *names);
    for (int k = 0; k < s->nstreams; k++)
        names[perm[k]] = s->names[k];
    free(s->names);
    s->names = names;
    s->cap_streams = s->nstreams;
    renumber(s->root, perm);
    free(perm);
    free(isdict);
    s->lc_max_dict = 8192;
    return s;
}

void mt_serial_free(mt_serial *s)
{
    if (!s)
        return;
    node_free(s->root);
    for (int i = 0; i < s->nstreams; i++)
        free(s->names[i]);
    free(s->names);
    free(s->name);
    free(s->base);
    buf_free(&s->scratch);
    buf_free(&s->scratch2);
    free(s);
}

void mt_serial_set_lc_max_dict(mt_serial *s, size_t n) { s->lc_max_dict = n; }

int mt_serial_nstreams(const mt_serial *s) { return s->nstreams; }
const char *mt_serial_stream_name(const mt_serial *s, int k)
{
    return k >= 0 && k < s->nstreams ? s->names[k] : NULL;
}

/* ---- writing ---- */

void mt_put_varuint(buf *b, uint64_t v)
{
    while (v >= 0x80) {
        buf_putc(b, (char)(v | 0x80));
        v >>= 7;
    }
    buf_putc(b, (char)v);
}

/* Sends b to the sink and empties it (serializers build a granule's bytes in a scratch
 * buffer so the sink sees few large writes). */
static void flush(buf *b, mt_byte_sink *k)
{
    if (b->len)
        k->write(k->ctx, b->p, b->len);
    b->len = 0;
}

/* Appends rows [from, from+n) of a non-nullable leaf column (String / fixed) in bulk
 * binary form to b. */
void mt_leaf_bulk(const column *c, size_t from, size_t n, buf *b)
{
    const type *t = type_phys(c->type);
    if (t->id == T_STRING) {
        for (size_t i = from; i < from + n; i++) {
            size_t len;
            const char *p = col_str(c, i, &len);
            mt_put_varuint(b, len);
            buf_append(b, p, len);
        }
        return;
    }
    size_t w = t->width ? t->width : 1;
    if (c->is_const) {
        for (size_t i = 0; i < n; i++)
            buf_append(b, c->data.p, w);
    } else {
        buf_append(b, c->data.p + from * w, n * w);
    }
}

static void write_node(mt_serial *s, mt_node *nd, const column *c, size_t from, size_t n, mt_byte_sink *sinks);

/* ClickHouse's isDefaultAt for the leaves that can be sparse: an empty String, all-zero
 * bytes otherwise. */
static bool is_default_row(const column *c, size_t i)
{
    size_t len;
    const char *p;
    if (type_phys(c->type)->id == T_STRING) {
        col_str(c, i, &len);
        return len == 0;
    }
    size_t w = c->type->width ? c->type->width : 1;
    p = (const char *)c->data.p + col_idx(c, i) * w;
    for (size_t k = 0; k < w; k++)
        if (p[k])
            return false;
    return true;
}

/* One granule in sparse form: per non-default row the count of default rows before it
 * (since the previous non-default row), then the trailing defaults | 1<<62; the values of
 * the non-default rows go through the inner streams. */
static void write_sparse(mt_serial *s, mt_node *nd, const column *c, size_t from, size_t n, mt_byte_sink *sinks)
{
    buf *b = &s->scratch;
    nd->sp_pos.len = 0;
    size_t start = from;
    for (size_t i = from; i < from + n; i++) {
        if (is_default_row(c, i))
            continue;
        mt_put_varuint(b, i - start);
        start = i + 1;
        uint32_t r = (uint32_t)i;
        buf_append(&nd->sp_pos, &r, 4);
    }
    mt_put_varuint(b, (uint64_t)(from + n - start) | MT_SPARSE_END_OF_GRANULE);
    flush(b, &sinks[nd->stream]);
    size_t k = nd->sp_pos.len / 4;
    if (k) {
        column *v = col_gather(c, (const uint32_t *)(const void *)nd->sp_pos.p, k);
        write_node(s, nd->kids[0], v, 0, k, sinks);
        col_free(v);
    }
}

static void write_node(mt_serial *s, mt_node *nd, const column *c, size_t from, size_t n, mt_byte_sink *sinks)
{
    buf *b = &s->scratch;
    switch (nd->kind) {
    case N_STRING:
        if (nd->stream2 >= 0) {
            /* size-stream form: UInt64 lengths to .size, the bytes alone to the data stream */
            for (size_t i = from; i < from + n; i++) {
                size_t len;
                col_str(c, i, &len);
                uint64_t v = len;
                buf_append(b, &v, 8);
            }
            flush(b, &sinks[nd->stream2]);
            if (c->is_const) {
                size_t len;
                const char *p = col_str(c, 0, &len);
                for (size_t i = 0; i < n; i++)
                    buf_append(b, p, len);
            } else {
                const uint64_t *o = col_offs(c);
                if (o[from + n] > o[from]) /* (data.p may be NULL when every value is empty) */
                    buf_append(b, c->data.p + o[from], (size_t)(o[from + n] - o[from]));
            }
            flush(b, &sinks[nd->stream]);
            break;
        }
        mt_leaf_bulk(c, from, n, b);
        flush(b, &sinks[nd->stream]);
        break;
    case N_FIXED:
        mt_leaf_bulk(c, from, n, b);
        flush(b, &sinks[nd->stream]);
        break;
    case N_AGGSTATE:
        for (size_t i = from; i < from + n; i++) {
            size_t len;
            const char *p = col_str(c, i, &len);
            buf_append(b, p, len);
        }
        flush(b, &sinks[nd->stream]);
        break;
    case N_NULLABLE:
        if (c->is_const) {
            for (size_t i = 0; i < n; i++)
                buf_putc(b, (char)(c->nulls.p[0] ? 1 : 0));
        } else {
            buf_append(b, c->nulls.p + from, n);
        }
        flush(b, &sinks[nd->stream]);
        write_node(s, nd->kids[0], c->inner, c->is_const ? 0 : from, c->is_const ? 1 : n, sinks);
        if (c->is_const) /* the inner value repeats; write the remaining copies */
            for (size_t i = 1; i < n; i++)
                write_node(s, nd->kids[0], c->inner, 0, 1, sinks);
        break;
    case N_ARRAY: {
        const uint64_t *o = col_offs(c);
        if (c->is_const) {
            for (size_t i = 0; i < n; i++) {
                uint64_t sz = o[1] - o[0];
                buf_append(b, &sz, 8);
            }
            flush(b, &sinks[nd->stream]);
            for (size_t i = 0; i < n; i++)
                write_node(s, nd->kids[0], c->inner, o[0], o[1] - o[0], sinks);
        } else {
            for (size_t i = from; i < from + n; i++) {
                uint64_t sz = o[i + 1] - o[i];
                buf_append(b, &sz, 8);
            }
            flush(b, &sinks[nd->stream]);
            write_node(s, nd->kids[0], c->inner, o[from], o[from + n] - o[from], sinks);
        }
        break;
    }
    case N_TUPLE:
        for (int k = 0; k < nd->nkids; k++) {
            if (c->is_const) {
                for (size_t i = 0; i < n; i++)
                    write_node(s, nd->kids[k], c->fields[k], 0, 1, sinks);
            } else {
                write_node(s, nd->kids[k], c->fields[k], from, n, sinks);
            }
        }
        break;
    case N_LOWCARD:
        mt_lc_write(s, nd, c, from, n, sinks);
        break;
    case N_SPARSE:
        write_sparse(s, nd, c, from, n, sinks);
        break;
    }
}

static void prefix_node(mt_serial *s, mt_node *nd, mt_byte_sink *sinks)
{
    if (nd->kind == N_LOWCARD)
        mt_lc_write_prefix(s, nd, sinks);
    for (int k = 0; k < nd->nkids; k++)
        prefix_node(s, nd->kids[k], sinks);
}

static void suffix_node(mt_serial *s, mt_node *nd, mt_byte_sink *sinks)
{
    if (nd->kind == N_LOWCARD)
        mt_lc_write_suffix(s, nd, sinks);
    for (int k = 0; k < nd->nkids; k++)
        suffix_node(s, nd->kids[k], sinks);
}

void mt_serial_write_prefix(mt_serial *s, mt_byte_sink *sinks) { prefix_node(s, s->root, sinks); }
void mt_serial_write_suffix(mt_serial *s, mt_byte_sink *sinks) { suffix_node(s, s->root, sinks); }

void mt_serial_write(mt_serial *s, const column *c, size_t from, size_t n, mt_byte_sink *sinks)
{
    if (n == 0)
        return;
    write_node(s, s->root, c, from, n, sinks);
}

bool mt_serial_can_write_picked(const mt_serial *s) { return s->root->kind == N_FIXED || s->root->kind == N_STRING; }

/* The scratch buffer goes to the sink whenever it holds this much, so it stays in the
 * cache however wide the granule (the sink sees a byte stream: where it is cut does not
 * change the file). */
#define PICK_FLUSH ((size_t)256 << 10)

void mt_serial_write_picked(mt_serial *s, const column *const *srcs, const uint64_t *ids, size_t n,
                            mt_byte_sink *sinks)
{
    mt_node *nd = s->root;
    buf *b = &s->scratch;
    if (nd->kind == N_FIXED) {
        size_t w = nd->width;
        for (size_t i = 0; i < n;) {
            size_t k = n - i < PICK_FLUSH / w ? n - i : PICK_FLUSH / w;
            uint8_t *d = buf_grow(b, k * w);
            for (size_t j = 0; j < k; j++, i++) {
                const column *c = srcs[ids[i] >> 32];
                memcpy(d + j * w, c->data.p + (size_t)(uint32_t)ids[i] * w, w);
            }
            flush(b, &sinks[nd->stream]);
        }
        return;
    }
    if (nd->stream2 >= 0) { /* size-stream form: the lengths, then the bytes */
        for (size_t i = 0; i < n; i++) {
            size_t len;
            col_str(srcs[ids[i] >> 32], (uint32_t)ids[i], &len);
            uint64_t v = len;
            buf_append(b, &v, 8);
            if (b->len >= PICK_FLUSH)
                flush(b, &sinks[nd->stream2]);
        }
        flush(b, &sinks[nd->stream2]);
    }
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *p = col_str(srcs[ids[i] >> 32], (uint32_t)ids[i], &len);
        if (nd->stream2 < 0)
            mt_put_varuint(b, len);
        if (len >= PICK_FLUSH) { /* a long value goes to the sink as it is */
            flush(b, &sinks[nd->stream]);
            sinks[nd->stream].write(sinks[nd->stream].ctx, p, len);
            continue;
        }
        buf_append(b, p, len);
        if (b->len >= PICK_FLUSH)
            flush(b, &sinks[nd->stream]);
    }
    flush(b, &sinks[nd->stream]);
}

/* ---- reading ---- */

int mt_src_read(mt_serial *s, int stream, mt_byte_src *srcs, void *dst, size_t n)
{
    if (n == 0)
        return 0;
    if (srcs[stream].read(srcs[stream].ctx, dst, n) < 0)
        return err_suffix(" (reading stream '%s' of column '%s')", s->names[stream], s->name);
    return 0;
}

int mt_src_varuint(mt_serial *s, int stream, mt_byte_src *srcs, uint64_t *v)
{
    uint64_t r = 0;
    for (int i = 0; i < 10; i++) {
        uint8_t byte;
        if (mt_src_read(s, stream, srcs, &byte, 1) < 0)
            return -1;
        r |= (uint64_t)(byte & 0x7F) << (7 * i);
        if (!(byte & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return err_set(ERR_INCORRECT_DATA, "Malformed VarUInt in stream '%s' of column '%s'", s->names[stream], s->name);
}

/* Reads nbytes into the end of b in bounded steps, so a corrupt count cannot make us
 * allocate far more than the stream actually holds. On failure b keeps its old length. */
static int read_append(mt_serial *s, int stream, mt_byte_src *srcs, buf *b, size_t nbytes)
{
    size_t old = b->len;
    while (nbytes) {
        size_t step = nbytes < (1u << 20) ? nbytes : (1u << 20);
        uint8_t *p = buf_grow(b, step);
        if (mt_src_read(s, stream, srcs, p, step) < 0) {
            b->len = old;
            return -1;
        }
        nbytes -= step;
    }
    return 0;
}

/* Strings larger than this are treated as corrupt data (ClickHouse's limit is 1 GiB). */
#define MT_MAX_STRING (1ull << 30)

/* Where String values read go: appended to a column, or coded into a dictionary. */
typedef struct str_out {
    column *c;             /* plain */
    mt_codes *d;           /* coded: the codes go to `codes` */
    buf *codes;
    uint64_t bytes;        /* coded: the values' bytes */
    int64_t empty;         /* coded: the code of '' once known, else -1 */
} str_out;

static void put_code(str_out *o, const uint8_t *p, size_t len)
{
    uint32_t code;
    if (len == 0) {
        if (o->empty < 0)
            o->empty = mt_codes_put(o->d, p, 0);
        code = (uint32_t)o->empty;
    } else {
        code = mt_codes_put(o->d, p, len);
        o->bytes += len;
    }
    buf_append(o->codes, &code, sizeof code);
}

/* One String value the careful way: its varuint and bytes through read(). For a value
 * that crosses a compressed block's end, a source without peek, and the errors. */
static int read_string_slow(mt_serial *s, int stream, mt_byte_src *srcs, str_out *o, size_t row)
{
    uint64_t len;
    if (mt_src_varuint(s, stream, srcs, &len) < 0)
        return -1;
    if (len > MT_MAX_STRING)
        return err_set(ERR_INCORRECT_DATA, "Too large string size %llu in stream '%s' of column '%s' (row %zu)",
                       (unsigned long long)len, s->names[stream], s->name, row);
    if (o->d) {
        buf *b = &s->scratch2;
        b->len = 0;
        if (read_append(s, stream, srcs, b, (size_t)len) < 0)
            return -1;
        put_code(o, b->p ? b->p : (const uint8_t *)"", (size_t)len);
        return 0;
    }
    column *c = o->c;
    if (read_append(s, stream, srcs, &c->data, (size_t)len) < 0)
        return -1;
    uint64_t end = c->data.len;
    buf_append(&c->offs, &end, 8);
    c->len++;
    return 0;
}

/* The String value at q (varuint length + bytes) when it lies wholly before end and is
 * well-formed: its length and the length of its varuint. False otherwise (the caller
 * takes it through read_string_slow, which reads across blocks and reports errors). */
static inline bool whole_value(const uint8_t *q, const uint8_t *end, uint64_t *len, size_t *h)
{
    uint64_t v = q[0];
    size_t n = 1;
    if (v & 0x80) {
        v &= 0x7F;
        bool more = true;
        while (more && n < 10 && q + n < end) {
            v |= (uint64_t)(q[n] & 0x7F) << (7 * n);
            more = q[n++] & 0x80;
        }
        if (more)
            return false;
    }
    if (v > MT_MAX_STRING || v > (uint64_t)(end - q) - n)
        return false;
    *len = v;
    *h = n;
    return true;
}

/* n String values (varuint length + bytes each), parsed in place in the source's
 * decompressed block: the values wholly inside it are taken in one tight loop, one that
 * crosses its end (or anything unusual) goes through read_string_slow. */
static int read_strings(mt_serial *s, int stream, mt_byte_src *srcs, str_out *o, size_t n)
{
    mt_byte_src *src = &srcs[stream];
    column *c = o->c;
    size_t i = 0;
    if (!src->peek) {
        for (; i < n; i++)
            if (read_string_slow(s, stream, srcs, o, i) < 0)
                return -1;
        return 0;
    }
    buf_reserve(o->d ? o->codes : &c->offs, n * (o->d ? 4 : 8));
    while (i < n) {
        const uint8_t *p;
        size_t avail;
        if (src->peek(src->ctx, &p, &avail) < 0)
            return err_suffix(" (reading stream '%s' of column '%s')", s->names[stream], s->name);
        const uint8_t *q = p, *end = p + avail;
        size_t k = 0, left = n - i;
        if (o->d) {
            uint32_t *cw = (uint32_t *)(void *)(o->codes->p + o->codes->len);
            while (k < left && q < end) {
                if (q[0] == 0) { /* '' : most values of a sparse text column */
                    if (o->empty < 0)
                        o->empty = mt_codes_put(o->d, q, 0);
                    cw[k++] = (uint32_t)o->empty;
                    q++;
                    continue;
                }
                uint64_t len;
                size_t h;
                if (!whole_value(q, end, &len, &h))
                    break;
                cw[k++] = mt_codes_put(o->d, q + h, (size_t)len);
                o->bytes += len;
                q += h + (size_t)len;
            }
            o->codes->len += k * 4;
        } else {
            buf_reserve(&c->data, avail); /* the values inside the block fit in its size */
            uint8_t *d = c->data.p;
            size_t dlen = c->data.len;
            uint64_t *ow = (uint64_t *)(void *)(c->offs.p + c->offs.len);
            while (k < left && q < end) {
                uint64_t len;
                size_t h;
                if (!whole_value(q, end, &len, &h))
                    break;
                if (len)
                    memcpy(d + dlen, q + h, (size_t)len);
                dlen += (size_t)len;
                ow[k++] = dlen;
                q += h + (size_t)len;
            }
            c->data.len = dlen;
            c->offs.len += k * 8;
            c->len += k;
        }
        i += k;
        src->skip(src->ctx, (size_t)(q - p));
        if (i < n && (q < end || avail == 0)) {
            if (read_string_slow(s, stream, srcs, o, i) < 0)
                return -1;
            i++;
        }
    }
    return 0;
}

/* Appends n rows of a leaf (String / fixed-width) read in bulk form to c. On error c is
 * left with whole rows only. */
int mt_read_leaf(mt_serial *s, int stream, mt_byte_src *srcs, column *c, size_t n)
{
    const type *t = type_phys(c->type);
    if (t->id == T_STRING) {
        str_out o = {.c = c};
        return read_strings(s, stream, srcs, &o, n);
    }
    size_t w = t->width ? t->width : 1;
    if (n > SIZE_MAX / w)
        return err_set(ERR_INCORRECT_DATA, "Too many rows (%zu) in stream '%s'", n, s->names[stream]);
    if (read_append(s, stream, srcs, &c->data, n * w) < 0)
        return -1;
    c->len += n;
    return 0;
}

/* n values of the size-stream form: n UInt64 lengths from .size, then their bytes. On
 * error c is unchanged. */
static int read_sized_strings(mt_serial *s, mt_node *nd, column *c, size_t n, mt_byte_src *srcs)
{
    buf *b = &s->scratch;
    b->len = 0;
    if (n > SIZE_MAX / 8)
        return err_set(ERR_INCORRECT_DATA, "Too many rows (%zu) in stream '%s'", n, s->names[nd->stream2]);
    if (read_append(s, nd->stream2, srcs, b, n * 8) < 0)
        return -1;
    size_t old_data = c->data.len, old_offs = c->offs.len;
    uint64_t end = old_data;
    for (size_t i = 0; i < n; i++) {
        uint64_t len;
        memcpy(&len, b->p + i * 8, 8);
        if (len > MT_MAX_STRING) {
            c->offs.len = old_offs;
            return err_set(ERR_INCORRECT_DATA, "Too large string size %llu in stream '%s' of column '%s' (row %zu)",
                           (unsigned long long)len, s->names[nd->stream2], s->name, i);
        }
        end += len;
        buf_append(&c->offs, &end, 8);
    }
    /* the bytes are read in bounded steps, so corrupt sizes cannot make us allocate more
     * than the stream holds */
    if (read_append(s, nd->stream, srcs, &c->data, (size_t)(end - old_data)) < 0) {
        c->offs.len = old_offs;
        return -1;
    }
    c->len += n;
    return 0;
}

/* The size-stream form read coded: the lengths, then the bytes into scratch2, then each
 * value's code. */
static int read_sized_codes(mt_serial *s, mt_node *nd, str_out *o, size_t n, mt_byte_src *srcs)
{
    buf *b = &s->scratch, *v = &s->scratch2;
    b->len = v->len = 0;
    if (n > SIZE_MAX / 8)
        return err_set(ERR_INCORRECT_DATA, "Too many rows (%zu) in stream '%s'", n, s->names[nd->stream2]);
    if (read_append(s, nd->stream2, srcs, b, n * 8) < 0)
        return -1;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t len;
        memcpy(&len, b->p + i * 8, 8);
        if (len > MT_MAX_STRING)
            return err_set(ERR_INCORRECT_DATA, "Too large string size %llu in stream '%s' of column '%s' (row %zu)",
                           (unsigned long long)len, s->names[nd->stream2], s->name, i);
        total += len;
    }
    if (read_append(s, nd->stream, srcs, v, (size_t)total) < 0)
        return -1;
    buf_reserve(o->codes, n * 4);
    const uint8_t *p = v->p ? v->p : (const uint8_t *)"";
    for (size_t i = 0; i < n; i++) {
        uint64_t len;
        memcpy(&len, b->p + i * 8, 8);
        put_code(o, p, (size_t)len);
        p += len;
    }
    return 0;
}

bool mt_serial_codable(const mt_serial *s) { return s->root->kind == N_STRING; }

int mt_serial_read_codes(mt_serial *s, mt_codes *d, buf *codes, size_t n, mt_byte_src *srcs, uint64_t *value_bytes)
{
    mt_node *nd = s->root;
    if (nd->kind != N_STRING)
        return err_set(ERR_LOGICAL_ERROR, "column '%s' cannot be read dictionary-coded", s->name);
    str_out o = {.d = d, .codes = codes, .empty = -1};
    int rc = nd->stream2 >= 0 ? read_sized_codes(s, nd, &o, n, srcs) : read_strings(s, nd->stream, srcs, &o, n);
    *value_bytes += o.bytes;
    return rc;
}

static int read_node(mt_serial *s, mt_node *nd, column *c, size_t n, mt_byte_src *srcs);

/* n aggregate function states. A state carries no length: read what its layout says it
 * still needs until it parses (the stream cannot be read past the state's end). */
static int read_states(mt_serial *s, mt_node *nd, column *c, size_t n, mt_byte_src *srcs)
{
    buf *b = &s->scratch;
    for (size_t i = 0; i < n; i++) {
        b->len = 0;
        for (;;) {
            size_t used, need;
            if (agg_state_span_need(nd->t, b->p ? b->p : (const uint8_t *)"", b->len, &used, &need) == 0)
                break;
            if (need == 0 || b->len + need > MT_MAX_STRING)
                return err_suffix(" (state at row %zu of stream '%s' of column '%s')", i, s->names[nd->stream],
                                  s->name);
            err_clear();
            if (read_append(s, nd->stream, srcs, b, need) < 0)
                return -1;
        }
        col_push_str(c, (const char *)b->p, b->len);
    }
    return 0;
}

/* n rows of a sparse column (format in write_sparse). Reads may end inside a group: the
 * rest of it waits in sp_defaults / sp_value for the next read. On error c is unchanged. */
static int read_sparse(mt_serial *s, mt_node *nd, column *c, size_t n, mt_byte_src *srcs)
{
    buf *pos = &nd->sp_pos;
    pos->len = 0;
    size_t done = 0;
    while (done < n) {
        if (nd->sp_defaults) {
            size_t take = nd->sp_defaults < n - done ? (size_t)nd->sp_defaults : n - done;
            done += take;
            nd->sp_defaults -= take;
        } else if (nd->sp_value) {
            uint64_t r = done++;
            buf_append(pos, &r, 8);
            nd->sp_value = false;
        } else {
            uint64_t g;
            if (mt_src_varuint(s, nd->stream, srcs, &g) < 0)
                return -1;
            nd->sp_value = !(g & MT_SPARSE_END_OF_GRANULE);
            nd->sp_defaults = g & ~MT_SPARSE_END_OF_GRANULE;
        }
    }
    size_t k = pos->len / 8;
    column *v = col_new(c->type);
    if (k && read_node(s, nd->kids[0], v, k, srcs) < 0) {
        col_free(v);
        return -1;
    }
    col_reserve(c, c->len + n);
    const uint64_t *pp = (const uint64_t *)(const void *)pos->p;
    size_t i = 0;
    for (size_t j = 0; j <= k; j++) {
        size_t next = j < k ? (size_t)pp[j] : n;
        for (; i < next; i++)
            col_push_default(c);
        if (j < k) {
            col_push_from(c, v, j);
            i++;
        }
    }
    col_free(v);
    return 0;
}

static int read_node(mt_serial *s, mt_node *nd, column *c, size_t n, mt_byte_src *srcs)
{
    switch (nd->kind) {
    case N_STRING:
        if (nd->stream2 >= 0)
            return read_sized_strings(s, nd, c, n, srcs);
        return mt_read_leaf(s, nd->stream, srcs, c, n);
    case N_FIXED:
        return mt_read_leaf(s, nd->stream, srcs, c, n);
    case N_AGGSTATE:
        return read_states(s, nd, c, n, srcs);
    case N_NULLABLE: {
        size_t old = c->nulls.len;
        if (read_append(s, nd->stream, srcs, &c->nulls, n) < 0)
            return -1;
        for (size_t i = old; i < old + n; i++)
            c->nulls.p[i] = c->nulls.p[i] != 0;
        if (read_node(s, nd->kids[0], c->inner, n, srcs) < 0) {
            c->nulls.len = old;
            return -1;
        }
        c->len += n;
        return 0;
    }
    case N_ARRAY: {
        size_t old = c->offs.len;
        uint64_t base = col_offs(c)[c->len];
        if (read_append(s, nd->stream, srcs, &c->offs, n * 8) < 0)
            return -1;
        /* sizes → offsets (in place; the sizes sit after the current last offset) */
        uint64_t *o = (uint64_t *)(void *)(c->offs.p + old);
        uint64_t acc = base;
        for (size_t i = 0; i < n; i++) {
            uint64_t sz = o[i];
            if (sz > (1ull << 40) || acc + sz < acc) {
                c->offs.len = old;
                return err_set(ERR_INCORRECT_DATA, "Too large array size %llu in stream '%s' of column '%s' (row %zu)",
                               (unsigned long long)sz, s->names[nd->stream], s->name, i);
            }
            acc += sz;
            o[i] = acc;
        }
        if (read_node(s, nd->kids[0], c->inner, (size_t)(acc - base), srcs) < 0) {
            c->offs.len = old;
            return -1;
        }
        c->len += n;
        return 0;
    }
    case N_TUPLE:
        for (int k = 0; k < nd->nkids; k++)
            if (read_node(s, nd->kids[k], c->fields[k], n, srcs) < 0)
                return -1;
        c->len += n;
        return 0;
    case N_LOWCARD:
        return mt_lc_read(s, nd, c, n, srcs);
    case N_SPARSE:
        return read_sparse(s, nd, c, n, srcs);
    }
    return 0;
}

static int start_node(mt_serial *s, mt_node *nd, mt_byte_src *srcs, bool at_part_start)
{
    if (nd->kind == N_LOWCARD && mt_lc_read_start(s, nd, srcs, at_part_start) < 0)
        return -1;
    if (nd->kind == N_SPARSE) { /* a granule's offsets start afresh */
        nd->sp_defaults = 0;
        nd->sp_value = false;
    }
    for (int k = 0; k < nd->nkids; k++)
        if (start_node(s, nd->kids[k], srcs, at_part_start) < 0)
            return -1;
    return 0;
}

int mt_serial_read_start(mt_serial *s, mt_byte_src *srcs, bool at_part_start)
{
    return start_node(s, s->root, srcs, at_part_start);
}

int mt_serial_read(mt_serial *s, column *c, size_t n, mt_byte_src *srcs)
{
    if (c->is_const)
        return err_set(ERR_LOGICAL_ERROR, "mt_serial_read into a constant column '%s'", s->name);
    return read_node(s, s->root, c, n, srcs);
}

/* ---- single values (serializeBinary) ---- */

static void value_write(const column *c, size_t row, buf *out)
{
    row = col_idx(c, row);
    const type *t = type_phys(c->type);
    switch (t->id) {
    case T_STRING: {
        size_t len;
        const char *p = col_str(c, row, &len);
        mt_put_varuint(out, len);
        buf_append(out, p, len);
        return;
    }
    case T_NULLABLE:
        if (c->nulls.p[row]) {
            buf_putc(out, 1);
            return;
        }
        buf_putc(out, 0);
        value_write(c->inner, row, out);
        return;
    case T_ARRAY: {
        const uint64_t *o = col_offs(c);
        mt_put_varuint(out, o[row + 1] - o[row]);
        for (uint64_t i = o[row]; i < o[row + 1]; i++)
            value_write(c->inner, (size_t)i, out);
        return;
    }
    case T_TUPLE:
        for (int k = 0; k < c->nfields; k++)
            value_write(c->fields[k], row, out);
        return;
    default: {
        size_t w = t->width ? t->width : 1;
        buf_append(out, c->data.p + row * w, w);
        return;
    }
    }
}

void mt_value_write(const column *c, size_t row, buf *out) { value_write(c, row, out); }

static int value_read(column *c, const uint8_t *p, size_t n, size_t *used, int depth)
{
    const type *t = type_phys(c->type);
    if (depth > 64)
        return err_set(ERR_INCORRECT_DATA, "Too deeply nested value of type %s", c->type->name);
    switch (t->id) {
    case T_STRING:
    case T_ARRAY: {
        uint64_t len = 0;
        size_t k = 0;
        for (;; k++) {
            if (k >= n || k >= 10)
                return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read size of a %s value: %zu bytes available",
                               c->type->name, n);
            len |= (uint64_t)(p[k] & 0x7F) << (7 * k);
            if (!(p[k] & 0x80))
                break;
        }
        k++;
        if (t->id == T_STRING) {
            if (len > n - k)
                return err_set(ERR_CANNOT_READ_ALL_DATA,
                               "Cannot read all data: String value of %llu bytes, %zu available",
                               (unsigned long long)len, n - k);
            col_push_str(c, (const char *)p + k, (size_t)len);
            *used = k + (size_t)len;
            return 0;
        }
        if (len > n - k) /* each element takes at least one byte */
            return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data: array of %llu elements, %zu bytes available",
                           (unsigned long long)len, n - k);
        size_t pos = k;
        for (uint64_t i = 0; i < len; i++) {
            size_t u;
            if (value_read(c->inner, p + pos, n - pos, &u, depth + 1) < 0)
                return -1;
            pos += u;
        }
        col_array_commit(c);
        *used = pos;
        return 0;
    }
    case T_NULLABLE:
        if (n < 1)
            return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data: Nullable value, no bytes left");
        if (p[0]) {
            col_push_null(c);
            *used = 1;
            return 0;
        }
        if (value_read(c->inner, p + 1, n - 1, used, depth + 1) < 0)
            return -1;
        col_nullable_commit(c, false);
        (*used)++;
        return 0;
    case T_TUPLE: {
        size_t pos = 0;
        for (int k = 0; k < c->nfields; k++) {
            size_t u;
            if (value_read(c->fields[k], p + pos, n - pos, &u, depth + 1) < 0)
                return -1;
            pos += u;
        }
        c->len++;
        *used = pos;
        return 0;
    }
    default: {
        size_t w = t->width ? t->width : 1;
        if (n < w)
            return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data: %s value needs %zu bytes, %zu available",
                           c->type->name, w, n);
        col_push_fixed(c, p);
        *used = w;
        return 0;
    }
    }
}

int mt_value_read(column *c, const uint8_t *p, size_t n, size_t *used)
{
    return value_read(c, p, n, used, 0);
}
