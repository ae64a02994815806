/* Reading a range of granules of some columns of one part. Each column stream is read
 * through its own compressed reader, positioned by the stream's marks. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct col_reader {
    mt_serial *s;
    int nstreams;
    mt_creader **cr;
    buf *marks;
    mt_byte_src *srcs;
} col_reader;

struct mt_part_reader {
    mt_table *m;
    mt_part *p;
    int ncols;
    int *cols;
    col_reader *c;
    size_t g, g1;
};

static int src_read(void *ctx, void *dst, size_t n) { return mt_creader_read(ctx, dst, n); }

static void close_cols(mt_part_reader *r)
{
    for (int i = 0; r->c && i < r->ncols; i++) {
        col_reader *c = &r->c[i];
        for (int k = 0; k < c->nstreams; k++) {
            if (c->cr[k])
                mt_creader_close(c->cr[k]);
            buf_free(&c->marks[k]);
        }
        free(c->cr);
        free(c->marks);
        free(c->srcs);
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
    free(r->cols);
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
    r->c = xcalloc((size_t)ncols + 1, sizeof *r->c);
    r->g = g0;
    r->g1 = g1 < p->ngranules ? g1 : p->ngranules;
    table *t = m->t;
    for (int i = 0; i < ncols; i++) {
        col_reader *c = &r->c[i];
        int col = cols[i];
        c->s = mt_serial_new_ex(t->sch->names[col], t->sch->types[col], &p->opts[col]);
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
            c->srcs[k] = (mt_byte_src){src_read, c->cr[k]};
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
            err_prefix("While reading column %s of part %s: ", t->sch->names[col], p->dir);
            mt_part_reader_close(r);
            return -1;
        }
    }
    *out = r;
    return 0;
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
    block *b = block_new(r->ncols, rows);
    for (int i = 0; i < r->ncols; i++) {
        col_reader *c = &r->c[i];
        column *col = col_new(r->m->t->sch->types[r->cols[i]]);
        col_reserve(col, rows);
        for (size_t g = r->g; g < g_end; g++) {
            size_t n = (size_t)(p->granule_start[g + 1] - p->granule_start[g]);
            if (mt_serial_read(c->s, col, n, c->srcs)) {
                err_prefix("While reading column %s of part %s (granule %zu): ", r->m->t->sch->names[r->cols[i]],
                           p->dir, g);
                col_free(col);
                b->rows = rows;
                block_free(b);
                return -1;
            }
        }
        if (col->len != rows) {
            err_set(ERR_CORRUPTED_DATA, "Part %s: column %s gave %zu rows for granules %zu..%zu, expected %zu", p->dir,
                    r->m->t->sch->names[r->cols[i]], col->len, r->g, g_end, rows);
            col_free(col);
            block_free(b);
            return -1;
        }
        b->cols[i] = col;
    }
    r->g = g_end;
    *out = b;
    return 0;
}
