/* Reading a range of granules of some columns of one part. Each column stream is read
 * through its own compressed reader, positioned by the stream's marks.
 *
 * A part written before an ALTER may lack a column (ADD COLUMN) or hold it with another
 * type (MODIFY COLUMN, until the mutation rewrote the part): as ClickHouse does, a
 * missing column is its DEFAULT / MATERIALIZED expression computed over the part's other
 * columns (the type's default without one), and an old type is CAST to the table's. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/func.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct col_reader {
    mt_serial *s;
    int nstreams;
    mt_creader **cr;
    buf *marks;
    mt_byte_src *srcs;
    mt_codes *codes;    /* read dictionary-coded (mt_part_reader_accept_codes), or NULL */
    uint64_t coded_rows;
} col_reader;

/* A column read coded goes back to plain values when its dictionary grows past this, or
 * past a quarter of the rows read: coding then costs more than it saves. */
#define CODES_MAX_ENTRIES 65536
#define CODES_MIN_RATIO 4

struct mt_part_reader {
    mt_table *m;
    mt_part *p;
    int ncols;
    int *cols;          /* the requested stored columns */
    int nread;          /* columns read from the part: the requested ones the part has,
                           then (conversion only) those that missing columns' defaults use */
    int *read_col;      /* stored column of each read column */
    col_reader *c;      /* nread readers */
    bool convert;       /* some requested column is missing or has another type */
    size_t g, g1;
    buf codes;          /* scratch: the codes of one coded column */
    size_t last_bytes;  /* of the block last returned, as if decoded */
};

static int src_read(void *ctx, void *dst, size_t n) { return mt_creader_read(ctx, dst, n); }
static int src_peek(void *ctx, const uint8_t **p, size_t *avail) { return mt_creader_peek(ctx, p, avail); }
static void src_skip(void *ctx, size_t k) { mt_creader_skip(ctx, k); }

static void close_cols(mt_part_reader *r)
{
    for (int i = 0; r->c && i < r->nread; i++) {
        col_reader *c = &r->c[i];
        for (int k = 0; k < c->nstreams; k++) {
            if (c->cr[k])
                mt_creader_close(c->cr[k]);
            buf_free(&c->marks[k]);
        }
        free(c->cr);
        free(c->marks);
        free(c->srcs);
        mt_codes_free(c->codes);
        mt_serial_free(c->s);
    }
    free(r->c);
    r->c = NULL;
}

void mt_part_reader_close(mt_part_reader *r)
{
    if (!r)
        return;
    close_cols(r);
    buf_free(&r->codes);
    free(r->cols);
    free(r->read_col);
    mt_part_unref(r->p);
    free(r);
}

static int seek_granule(mt_part_reader *r, col_reader *c, size_t g)
{
    for (int k = 0; k < c->nstreams; k++) {
        const uint64_t *mk = (const uint64_t *)(const void *)c->marks[k].p;
        size_t nm = c->marks[k].len / 24;
        if (g >= nm)
            return err_set(ERR_CORRUPTED_DATA, "Part %s: stream %s has %zu marks, granule %zu requested", r->p->dir,
                           mt_serial_stream_name(c->s, k), nm, g);
        if (mt_creader_seek(c->cr[k], mk[g * 3], mk[g * 3 + 1]))
            return -1;
    }
    return 0;
}

int mt_part_reader_open(mt_table *m, mt_part *p, const int *cols, int ncols, size_t g0, size_t g1,
                        mt_part_reader **out)
{
    mt_part_reader *r = xcalloc(1, sizeof *r);
    r->m = m;
    r->p = mt_part_ref(p);
    r->ncols = ncols;
    r->cols = xmalloc(sizeof(int) * (size_t)(ncols + 1));
    if (ncols)
        memcpy(r->cols, cols, sizeof(int) * (size_t)ncols);
    table *t = m->t;
    int nst = t->sch->n;
    /* Which stored columns to read from the part. */
    uint8_t *want = xcalloc((size_t)nst + 1, 1);
    for (int i = 0; i < ncols; i++) {
        int c = cols[i], pc = p->colmap[c];
        if (pc >= 0) {
            want[c] = 1;
            if (strcmp(p->psch->types[pc]->name, t->sch->types[c]->name))
                r->convert = true;
        } else {
            r->convert = true;
            if (m->defaults && m->defaults[c])
                expr_columns(m->defaults[c], want);
        }
    }
    r->read_col = xcalloc((size_t)nst + 1, sizeof *r->read_col);
    if (!r->convert) {
        for (int i = 0; i < ncols; i++)
            r->read_col[r->nread++] = cols[i];
    } else {
        /* defaults may use columns the part lacks too: those are computed in order */
        for (int c = 0; c < nst; c++)
            if (want[c] && p->colmap[c] >= 0)
                r->read_col[r->nread++] = c;
    }
    free(want);
    r->c = xcalloc((size_t)r->nread + 1, sizeof *r->c);
    r->g = g0;
    r->g1 = g1 < p->ngranules ? g1 : p->ngranules;
    for (int i = 0; i < r->nread; i++) {
        col_reader *c = &r->c[i];
        int pc = p->colmap[r->read_col[i]];
        c->s = mt_serial_new_ex(p->psch->names[pc], p->psch->types[pc], &p->opts[pc]);
        c->nstreams = mt_serial_nstreams(c->s);
        c->cr = xcalloc((size_t)c->nstreams, sizeof *c->cr);
        c->marks = xcalloc((size_t)c->nstreams, sizeof *c->marks);
        c->srcs = xcalloc((size_t)c->nstreams, sizeof *c->srcs);
        int rc = 0;
        for (int k = 0; k < c->nstreams && !rc; k++) {
            const char *sn = mt_serial_stream_name(c->s, k);
            char *path = mt_sprintf("%s%s.bin", p->dir, sn);
            rc = mt_creader_open(path, &c->cr[k]);
            free(path);
            if (!rc)
                rc = mt_read_marks(p->dir, sn, &c->marks[k]);
            c->srcs[k] = (mt_byte_src){src_read, c->cr[k], src_peek, src_skip};
        }
        /* The stream prefixes are at the part's start; then move to the first granule. */
        if (!rc && r->g < r->g1)
            rc = mt_serial_read_start(c->s, c->srcs, true);
        if (!rc && r->g > 0 && r->g < r->g1) {
            rc = seek_granule(r, c, r->g);
            if (!rc)
                rc = mt_serial_read_start(c->s, c->srcs, false);
        }
        if (rc) {
            err_prefix("While reading column %s of part %s: ", p->psch->names[pc], p->dir);
            mt_part_reader_close(r);
            return -1;
        }
    }
    *out = r;
    return 0;
}

/* CAST of a column to type t (an old part's column after MODIFY COLUMN). */
static int cast_column(column *src, const type *t, column **out)
{
    func_env env = {.timezone = "UTC"};
    return func_cast_column(src, t, &env, out);
}

/* Replaces the rows of full's column c where the Nullable column `was` held NULL by the
 * value of the column's default expression. */
static int fill_nulls_with_default(expr *def, block *full, int c, const column *was)
{
    column *v;
    if (expr_eval(def, full, &v))
        return -1;
    column *conv = full->cols[c];
    column *o = col_new(conv->type);
    col_reserve(o, full->rows);
    for (size_t i = 0; i < full->rows; i++)
        col_push_from(o, col_is_null(was, i) ? v : conv, i);
    col_free(v);
    col_free(conv);
    full->cols[c] = o;
    return 0;
}

/* The requested columns from the columns read (b, nread columns in read_col order):
 * old types cast, missing columns computed from their defaults. */
static int convert_block(mt_part_reader *r, block *b, block **out)
{
    mt_table *m = r->m;
    const schema *sch = m->t->sch;
    size_t rows = b->rows;
    block *full = block_new(sch->n, rows);
    /* A Nullable column made non-Nullable by MODIFY COLUMN … DEFAULT: its NULL rows take
     * the default (ClickHouse's rule); the rows are cast without them first. */
    column **nulls_of = xcalloc((size_t)sch->n + 1, sizeof *nulls_of);
    int rc = 0;
    for (int i = 0; i < r->nread && !rc; i++) {
        int c = r->read_col[i];
        const type *pt = r->p->psch->types[r->p->colmap[c]];
        if (strcmp(pt->name, sch->types[c]->name)) {
            column *from = b->cols[i];
            if (type_is_nullable(pt) && !type_is_nullable(sch->types[c]) && m->defaults && m->defaults[c] &&
                !from->is_const && from->nulls.p) {
                nulls_of[c] = col_ref(from);
                from = from->inner;
            }
            rc = cast_column(from, sch->types[c], &full->cols[c]);
            if (rc)
                err_prefix("While converting column %s of part %s from %s to %s: ", sch->names[c], r->p->name,
                           pt->name, sch->types[c]->name);
        } else {
            full->cols[c] = col_ref(b->cols[i]);
        }
    }
    for (int c = 0; c < sch->n && !rc; c++)
        if (!full->cols[c])
            full->cols[c] = col_new_defaults(sch->types[c], rows);
    for (int c = 0; c < sch->n && !rc; c++) {
        if (r->p->colmap[c] >= 0)
            continue;
        if (m->default_ok && !m->default_ok[c]) {
            rc = err_set(ERR_NOT_IMPLEMENTED, "Part %s has no column %s and its default expression cannot be "
                         "computed when reading", r->p->name, sch->names[c]);
        } else if (m->defaults && m->defaults[c]) {
            column *v;
            if (!(rc = expr_eval(m->defaults[c], full, &v))) {
                col_free(full->cols[c]);
                full->cols[c] = v->is_const ? col_materialize(v) : v;
            }
        }
    }
    for (int c = 0; c < sch->n; c++) {
        if (!rc && nulls_of[c])
            rc = fill_nulls_with_default(m->defaults[c], full, c, nulls_of[c]);
        col_free(nulls_of[c]);
    }
    free(nulls_of);
    block *o = NULL;
    if (!rc) {
        o = block_new(r->ncols, rows);
        for (int i = 0; i < r->ncols; i++)
            o->cols[i] = col_ref(full->cols[r->cols[i]]);
    }
    block_free(full);
    block_free(b);
    *out = o;
    return rc;
}

void mt_part_reader_accept_codes(mt_part_reader *r, const bool *coded)
{
    if (r->convert)
        return; /* read columns are not the requested ones */
    for (int i = 0; i < r->nread; i++)
        if (coded[i] && !r->c[i].codes && mt_serial_codable(r->c[i].s))
            r->c[i].codes = mt_codes_new(r->p->psch->types[r->p->colmap[r->read_col[i]]]);
}

size_t mt_part_reader_block_bytes(const mt_part_reader *r) { return r->last_bytes; }

/* Column c's rows of granules [g0, g1), coded: the column and the bytes its values take
 * decoded (offsets included, as col_bytes counts a String column). */
static int read_coded(mt_part_reader *r, col_reader *c, size_t g0, size_t g1, size_t rows, column **out,
                      size_t *bytes)
{
    const mt_part *p = r->p;
    r->codes.len = 0;
    uint64_t vb = 0;
    for (size_t g = g0; g < g1; g++) {
        size_t n = (size_t)(p->granule_start[g + 1] - p->granule_start[g]);
        if (mt_serial_read_codes(c->s, c->codes, &r->codes, n, c->srcs, &vb))
            return err_prefix("While reading column %s of part %s (granule %zu): ",
                              p->psch->names[p->colmap[r->read_col[c - r->c]]], p->dir, g);
    }
    column *col = col_new_coded(mt_codes_dict(c->codes), rows);
    memcpy(buf_grow(&col->data, r->codes.len), r->codes.p, r->codes.len);
    col->len = rows;
    *bytes = (size_t)vb + (rows + 1) * 8;
    *out = col;
    c->coded_rows += rows;
    size_t entries = mt_codes_size(c->codes);
    if (entries > CODES_MAX_ENTRIES || (entries > 4096 && entries * CODES_MIN_RATIO > c->coded_rows)) {
        mt_codes_free(c->codes); /* plain values from the next block on */
        c->codes = NULL;
    }
    return 0;
}

/* The bytes a String column (or Nullable(String)'s values) of `rows` rows takes, reserved
 * at once from the part's average (its streams' uncompressed size per row, an upper bound
 * by the length prefixes, plus an eighth and a compressed block for the rows that run
 * longer): read by growing, a block's string data was copied again at every doubling.
 * LowCardinality columns are left alone (their streams hold the keys once). */
static void reserve_strings(const mt_part *p, int pc, column *col, size_t rows)
{
    const type *t = p->psch->types[pc];
    if (!p->col_bytes || !p->rows || t->id == T_LOWCARDINALITY)
        return;
    column *leaf = col;
    if (t->id == T_NULLABLE) {
        t = t->inner;
        leaf = col->inner;
    }
    if (t->id != T_STRING)
        return;
    double est = (double)p->col_bytes[pc] / (double)p->rows * (double)rows;
    buf_reserve(&leaf->data, (size_t)(est + est / 8) + (1 << 20));
}

int mt_part_reader_next(mt_part_reader *r, size_t max_rows, block **out)
{
    *out = NULL;
    if (r->g >= r->g1)
        return 0;
    const mt_part *p = r->p;
    size_t g_end = r->g + 1;
    while (g_end < r->g1 && p->granule_start[g_end + 1] - p->granule_start[r->g] <= max_rows)
        g_end++;
    size_t rows = (size_t)(p->granule_start[g_end] - p->granule_start[r->g]);
    block *b = block_new(r->nread, rows);
    size_t bytes = 0;
    for (int i = 0; i < r->nread; i++) {
        col_reader *c = &r->c[i];
        const schema *ps = p->psch;
        int pc = p->colmap[r->read_col[i]];
        if (c->codes) {
            size_t cb = 0;
            if (read_coded(r, c, r->g, g_end, rows, &b->cols[i], &cb)) {
                b->rows = rows;
                block_free(b);
                return -1;
            }
            bytes += cb;
            continue;
        }
        column *col = col_new(ps->types[pc]);
        col_reserve(col, rows);
        reserve_strings(p, pc, col, rows);
        for (size_t g = r->g; g < g_end; g++) {
            size_t n = (size_t)(p->granule_start[g + 1] - p->granule_start[g]);
            if (mt_serial_read(c->s, col, n, c->srcs)) {
                err_prefix("While reading column %s of part %s (granule %zu): ", ps->names[pc], p->dir, g);
                col_free(col);
                b->rows = rows;
                block_free(b);
                return -1;
            }
        }
        if (col->len != rows) {
            err_set(ERR_CORRUPTED_DATA, "Part %s: column %s gave %zu rows for granules %zu..%zu, expected %zu", p->dir,
                    ps->names[pc], col->len, r->g, g_end, rows);
            col_free(col);
            block_free(b);
            return -1;
        }
        bytes += col_bytes(col);
        b->cols[i] = col;
    }
    r->g = g_end;
    r->last_bytes = bytes;
    if (r->convert)
        return convert_block(r, b, out);
    *out = b;
    return 0;
}
