/* Writing one Wide part: sorted blocks in, a complete part directory out.
 *
 * Each write() cuts its block into granules (index_granularity rows, fewer when rows are
 * wide: index_granularity_bytes / average row size, as ClickHouse's adaptive granularity);
 * before each granule every stream of every column records a mark. Columns are
 * independent, so they are serialized and compressed in parallel. finish() adds the final
 * mark, the primary index, count, columns, partition and min/max files and checksums.txt,
 * each fsync'd; the caller then renames the directory into place (mt_commit_part). */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct col_writer {
    mt_serial *s;
    int nstreams;
    mt_cwriter **cw;
    mt_byte_sink *sinks;
    buf *marks;           /* per stream: 24 bytes per mark */
    mt_codec **generic;   /* per stream: the codec of a special stream (owned), or NULL */
    int err;              /* set by a worker thread */
    char errmsg[512];
    int errcode;
} col_writer;

struct mt_part_writer {
    mt_table *m;
    char *dir;
    int ncols;
    col_writer *cols;
    uint64_t rows;
    size_t ngranules;
    buf primary;          /* primary.idx */
    block *last_row;      /* the last row written (for the final index entry) */
    column **min, **max;  /* minmax columns: one value each */
    bool opened_streams;
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static bool special_stream(const char *name)
{
    if (ends_with(name, ".null") || ends_with(name, ".dict") || ends_with(name, ".sparse.idx"))
        return true;
    const char *p = strrchr(name, '.');
    return p && !strncmp(p, ".size", 5) && p[5] >= '0' && p[5] <= '9';
}

static void sink_write(void *ctx, const void *p, size_t n) { mt_cwriter_write(ctx, p, n); }

char *mt_part_writer_prefix(const mt_part_writer *w, const char *partition_id)
{
    const mt_table *m = w->m;
    for (int i = 0; m->old_format && i < m->nminmax; i++)
        if (m->minmax_cols[i] == m->date_col && w->min[i] && w->max[i])
            return mt_date_prefix(*(const uint16_t *)w->min[i]->data.p, *(const uint16_t *)w->max[i]->data.p);
    return xstrdup(partition_id);
}

uint64_t mt_part_writer_rows(const mt_part_writer *w) { return w->rows; }
const char *mt_part_writer_dir(const mt_part_writer *w) { return w->dir; }

int mt_part_writer_open(mt_table *m, const char *tmp_name, mt_part_writer **out)
{
    mt_part_writer *w = xcalloc(1, sizeof *w);
    w->m = m;
    w->dir = mt_sprintf("%s%s/", m->t->data_dir, tmp_name);
    if (mkdir(w->dir, 0755) && errno != EEXIST) {
        int e = errno;
        err_set(e == ENOSPC ? ERR_NOT_ENOUGH_SPACE : ERR_CANNOT_CREATE_DIRECTORY, "Cannot create directory %s: %s",
                w->dir, strerror(e));
        free(w->dir);
        free(w);
        return -1;
    }
    table *t = m->t;
    w->ncols = t->sch->n;
    w->cols = xcalloc((size_t)w->ncols + 1, sizeof *w->cols);
    for (int c = 0; c < w->ncols; c++) {
        col_writer *cw = &w->cols[c];
        cw->s = mt_serial_new(t->sch->names[c], t->sch->types[c]);
        cw->nstreams = mt_serial_nstreams(cw->s);
        cw->cw = xcalloc((size_t)cw->nstreams, sizeof *cw->cw);
        cw->sinks = xcalloc((size_t)cw->nstreams, sizeof *cw->sinks);
        cw->marks = xcalloc((size_t)cw->nstreams, sizeof *cw->marks);
        cw->generic = xcalloc((size_t)cw->nstreams, sizeof *cw->generic);
        for (int k = 0; k < cw->nstreams; k++) {
            const char *sn = mt_serial_stream_name(cw->s, k);
            char *path = mt_sprintf("%s%s.bin", w->dir, sn);
            /* Null maps, array sizes and dictionaries get only the generic part of the
             * column's codec (LZ4/ZSTD/…), as ClickHouse applies specialised codecs such
             * as Delta only to the values. */
            const mt_codec *codec = m->codecs[c];
            if (special_stream(sn) && !mt_codec_generic_part(codec, &cw->generic[k]))
                codec = cw->generic[k];
            err_clear();
            int rc = mt_cwriter_open(path, codec, m->set.min_compress_block_size, m->set.max_compress_block_size,
                                     &cw->cw[k]);
            free(path);
            if (rc) {
                mt_part_writer_abort(w);
                return -1;
            }
            cw->sinks[k] = (mt_byte_sink){sink_write, cw->cw[k]};
        }
        mt_serial_write_prefix(cw->s, cw->sinks);
    }
    w->min = xcalloc((size_t)m->nminmax + 1, sizeof *w->min);
    w->max = xcalloc((size_t)m->nminmax + 1, sizeof *w->max);
    *out = w;
    return 0;
}

/* ---- granules ---- */

size_t mt_granule_rows(const mt_table *m, size_t row_bytes)
{
    size_t g = (size_t)m->set.index_granularity;
    if (g == 0)
        g = 8192;
    if (m->set.index_granularity_bytes) {
        size_t per_row = row_bytes + 1;
        size_t by_bytes = (size_t)m->set.index_granularity_bytes / per_row;
        if (by_bytes < 1)
            by_bytes = 1;
        if (by_bytes < g)
            g = by_bytes;
    }
    return g;
}

static size_t granule_rows(const mt_table *m, const block *b)
{
    return mt_granule_rows(m, b->rows ? block_bytes(b) / b->rows : 0);
}

typedef struct write_job {
    mt_part_writer *w;
    const block *b;       /* the rows to write, or NULL: */
    block *const *bs;     /* the rows picked from source blocks (write_picked) */
    int nb;
    const uint64_t *ids;
    size_t n;
    bool release;         /* free each source column once written (write_picked) */
    const uint8_t *skip;  /* columns not to write now (vertical merges), or NULL */
    size_t g;             /* rows per granule */
    _Atomic int next_col;
} write_job;

static void put_mark(buf *marks, uint64_t a, uint64_t b, uint64_t rows)
{
    uint64_t v[3] = {a, b, rows};
    buf_append(marks, v, sizeof v);
}

/* Serializes col (rows of stored column c) as granules of g rows. */
static int write_column(mt_part_writer *w, int c, const column *col, size_t g)
{
    col_writer *cw = &w->cols[c];
    column *mat = NULL;
    if (col->is_const)
        col = mat = col_materialize(col_ref((column *)col));
    int rc = 0;
    for (size_t from = 0; from < col->len && !rc; from += g) {
        size_t n = col->len - from < g ? col->len - from : g;
        for (int k = 0; k < cw->nstreams; k++) {
            uint64_t co, uo;
            mt_cwriter_mark(cw->cw[k], &co, &uo);
            put_mark(&cw->marks[k], co, uo, n);
        }
        mt_serial_write(cw->s, col, from, n, cw->sinks);
        for (int k = 0; k < cw->nstreams && !rc; k++)
            rc = mt_cwriter_granule_end(cw->cw[k]);
    }
    col_free(mat);
    return rc;
}

/* Column c of the rows ids[0..n) of the blocks bs, as granules of g rows, serialized
 * straight from the blocks when the column's serialization allows it, else through one
 * granule gathered at a time: no gathered copy of the whole column is ever made. */
static int write_column_picked(mt_part_writer *w, int c, block *const *bs, int nb, const uint64_t *ids, size_t n,
                               size_t g, bool release)
{
    col_writer *cw = &w->cols[c];
    const column **srcs = xmalloc(sizeof *srcs * ((size_t)nb + 1));
    for (int i = 0; i < nb; i++)
        srcs[i] = bs[i]->cols[c];
    bool direct = mt_serial_can_write_picked(cw->s);
    int rc = 0;
    for (size_t from = 0; from < n && !rc; from += g) {
        size_t k = n - from < g ? n - from : g;
        for (int s = 0; s < cw->nstreams; s++) {
            uint64_t co, uo;
            mt_cwriter_mark(cw->cw[s], &co, &uo);
            put_mark(&cw->marks[s], co, uo, k);
        }
        if (direct) {
            mt_serial_write_picked(cw->s, srcs, ids + from, k, cw->sinks);
        } else {
            column *one = mt_gather_rows(bs, nb, c, ids + from, k);
            mt_serial_write(cw->s, one, 0, k, cw->sinks);
            col_free(one);
        }
        for (int s = 0; s < cw->nstreams && !rc; s++)
            rc = mt_cwriter_granule_end(cw->cw[s]);
    }
    free(srcs);
    for (int i = 0; i < nb && release; i++) {
        /* (keeps the type: a later gather's col_new reads it) */
        column *old = bs[i]->cols[c];
        bs[i]->cols[c] = col_new(old->type);
        col_free(old);
    }
    return rc;
}

static void capture_error(col_writer *cw)
{
    cw->err = 1;
    cw->errcode = err_code();
    snprintf(cw->errmsg, sizeof cw->errmsg, "%s", err_msg());
}

static void *write_worker(void *arg)
{
    write_job *j = arg;
    for (;;) {
        int c = atomic_fetch_add(&j->next_col, 1);
        if (c >= j->w->ncols)
            break;
        if (j->skip && j->skip[c])
            continue;
        int rc = j->b ? write_column(j->w, c, j->b->cols[c], j->g)
                      : write_column_picked(j->w, c, j->bs, j->nb, j->ids, j->n, j->g, j->release);
        if (rc)
            capture_error(&j->w->cols[c]);
    }
    return NULL;
}

static void update_minmax(mt_part_writer *w, const block *b)
{
    mt_table *m = w->m;
    for (int i = 0; i < m->nminmax; i++) {
        const column *c = b->cols[m->minmax_cols[i]];
        size_t lo = 0, hi = 0;
        for (size_t r = 1; r < b->rows; r++) {
            if (col_compare(c, r, c, lo, 1) < 0)
                lo = r;
            if (col_compare(c, r, c, hi, 1) > 0)
                hi = r;
        }
        if (!w->min[i] || col_compare(c, lo, w->min[i], 0, 1) < 0) {
            col_free(w->min[i]);
            w->min[i] = col_slice(c, lo, 1);
        }
        if (!w->max[i] || col_compare(c, hi, w->max[i], 0, 1) > 0) {
            col_free(w->max[i]);
            w->max[i] = col_slice(c, hi, 1);
        }
    }
}

/* The primary index gets the key of each granule's first row: evaluate the key on just
 * those rows (firsts: one row per granule). */
static int index_of_firsts(mt_part_writer *w, const block *firsts)
{
    mt_table *m = w->m;
    column **keys = xcalloc((size_t)m->sort.n + 1, sizeof *keys);
    mt_key k = m->sort;
    k.n = m->nprimary;
    int rc = mt_key_eval(&k, firsts, keys);
    if (!rc)
        for (size_t r = 0; r < firsts->rows; r++)
            for (int i = 0; i < m->nprimary; i++)
                mt_value_write(keys[i], r, &w->primary);
    for (int i = 0; i < m->nprimary; i++)
        col_free(keys[i]);
    free(keys);
    return rc;
}

static int append_index(mt_part_writer *w, const block *b, size_t g)
{
    if (!w->m->nprimary)
        return 0;
    size_t n = (b->rows + g - 1) / g;
    uint32_t *rows = xmalloc(sizeof *rows * (n + 1));
    for (size_t i = 0; i < n; i++)
        rows[i] = (uint32_t)(i * g);
    block *firsts = block_new(b->ncols, n);
    for (int c = 0; c < b->ncols; c++)
        firsts->cols[c] = col_gather(b->cols[c], rows, n);
    free(rows);
    int rc = index_of_firsts(w, firsts);
    block_free(firsts);
    return rc;
}

/* Runs the column writers of j in parallel: a thread per core (at most one per column). */
static int run_columns(mt_part_writer *w, write_job *j, size_t rows)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nth = (int)(ncpu > 1 ? ncpu : 1);
    if (nth > w->ncols)
        nth = w->ncols;
    if (rows < 65536)
        nth = 1;
    pthread_t th[64];
    int started = 0;
    for (int i = 1; i < nth && i < 64; i++)
        if (pthread_create(&th[started], NULL, write_worker, j) == 0)
            started++;
    write_worker(j);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (int c = 0; c < w->ncols; c++)
        if (w->cols[c].err)
            return err_set(w->cols[c].errcode, "%s", w->cols[c].errmsg);
    return 0;
}

/* The rows of b, with granules of g rows, in every column but those in skip. */
static int write_rows(mt_part_writer *w, const block *b, const uint8_t *skip, size_t g)
{
    if (!b->rows)
        return 0;
    if (append_index(w, b, g))
        return -1;
    update_minmax(w, b);
    write_job j = {.w = w, .b = b, .skip = skip, .g = g, .next_col = 0};
    if (run_columns(w, &j, b->rows))
        return -1;
    w->rows += b->rows;
    w->ngranules += (b->rows + g - 1) / g;
    block_free(w->last_row);
    w->last_row = block_slice(b, b->rows - 1, 1);
    return 0;
}

int mt_part_writer_write(mt_part_writer *w, const block *b) { return write_rows(w, b, NULL, granule_rows(w->m, b)); }

int mt_part_writer_write_some(mt_part_writer *w, const block *b, const uint8_t *later, size_t g)
{
    return write_rows(w, b, later, g);
}

/* ---- writing rows picked from source blocks ---- */

column *mt_gather_rows(block *const *bs, int nb, int c, const uint64_t *ids, size_t n)
{
    if (nb == 1) {
        uint32_t *rows = xmalloc(sizeof *rows * (n + 1));
        for (size_t i = 0; i < n; i++)
            rows[i] = (uint32_t)ids[i];
        column *o = col_gather(bs[0]->cols[c], rows, n);
        free(rows);
        return o;
    }
    column *o = col_new(bs[0]->cols[c]->type);
    const type *t = type_phys(o->type);
    if (t->id != T_STRING) {
        uint32_t w = t->width;
        uint8_t *d = buf_grow(&o->data, n * w);
        for (size_t i = 0; i < n; i++) {
            uint64_t id = ids[i];
            const column *s = bs[id >> 32]->cols[c];
            memcpy(d + i * w, s->data.p + col_idx(s, (uint32_t)id) * w, w);
        }
        o->len = n;
        return o;
    }
    size_t total = 0, len;
    for (size_t i = 0; i < n; i++) {
        uint64_t id = ids[i];
        col_str(bs[id >> 32]->cols[c], (uint32_t)id, &len);
        total += len;
    }
    /* one reservation, then offsets and bytes written directly (the offsets buffer starts
     * with the leading 0) */
    char *d = buf_grow(&o->data, total);
    uint64_t *offs = (uint64_t *)buf_grow(&o->offs, n * sizeof(uint64_t)) - 1;
    uint64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t id = ids[i];
        const char *p = col_str(bs[id >> 32]->cols[c], (uint32_t)id, &len);
        memcpy(d + at, p, len);
        at += len;
        offs[i + 1] = at;
    }
    o->len = n;
    return o;
}

/* Plain fixed-width values or Strings, materialised: what write_picked reads in place. */
static bool pickable(const column *c)
{
    const type *t = type_phys(c->type);
    bool plain = (t->width && t->id != T_NULLABLE && t->id != T_ARRAY && t->id != T_TUPLE) || t->id == T_STRING;
    return plain && !c->is_const && !c->dict;
}

bool mt_part_writer_can_pick(block *const *bs, int nb)
{
    for (int i = 0; i < nb; i++)
        for (int c = 0; c < bs[i]->ncols; c++)
            if (!pickable(bs[i]->cols[c]))
                return false;
    return true;
}

/* What block_bytes() of the gathered rows would be (the granule size depends on it):
 * fixed-width values, or String bytes plus n + 1 offsets. */
static size_t picked_bytes(block *const *bs, int c, const uint64_t *ids, size_t n)
{
    const type *t = type_phys(bs[0]->cols[c]->type);
    if (t->id != T_STRING)
        return n * t->width;
    size_t total = 0, len;
    for (size_t i = 0; i < n; i++) {
        col_str(bs[ids[i] >> 32]->cols[c], (uint32_t)ids[i], &len);
        total += len;
    }
    return total + (n + 1) * sizeof(uint64_t);
}

void mt_part_writer_widen_minmax(mt_part_writer *w, const block *b)
{
    if (b->rows)
        update_minmax(w, b);
}

static const column *picked_col(block *const *bs, int c, uint64_t id) { return bs[id >> 32]->cols[c]; }

/* update_minmax over picked rows: the same first lowest / first highest row. */
static void update_minmax_picked(mt_part_writer *w, block *const *bs, const uint64_t *ids, size_t n)
{
    mt_table *m = w->m;
    for (int i = 0; i < m->nminmax; i++) {
        int mc = m->minmax_cols[i];
        uint64_t lo = ids[0], hi = ids[0];
        for (size_t r = 1; r < n; r++) {
            const column *c = picked_col(bs, mc, ids[r]);
            if (col_compare(c, (uint32_t)ids[r], picked_col(bs, mc, lo), (uint32_t)lo, 1) < 0)
                lo = ids[r];
            if (col_compare(c, (uint32_t)ids[r], picked_col(bs, mc, hi), (uint32_t)hi, 1) > 0)
                hi = ids[r];
        }
        const column *cl = picked_col(bs, mc, lo), *ch = picked_col(bs, mc, hi);
        if (!w->min[i] || col_compare(cl, (uint32_t)lo, w->min[i], 0, 1) < 0) {
            col_free(w->min[i]);
            w->min[i] = col_slice(cl, (uint32_t)lo, 1);
        }
        if (!w->max[i] || col_compare(ch, (uint32_t)hi, w->max[i], 0, 1) > 0) {
            col_free(w->max[i]);
            w->max[i] = col_slice(ch, (uint32_t)hi, 1);
        }
    }
}

/* The rows ids[0..k) as a block of every column. */
static block *gather_block(block *const *bs, int nb, const uint64_t *ids, size_t k)
{
    block *o = block_new(bs[0]->ncols, k);
    for (int c = 0; c < bs[0]->ncols; c++)
        o->cols[c] = mt_gather_rows(bs, nb, c, ids, k);
    return o;
}

int mt_part_writer_write_picked(mt_part_writer *w, block *const *bs, int nb, const uint64_t *ids, size_t n, bool release)
{
    if (!n)
        return 0;
    int ncols = bs[0]->ncols;
    size_t bytes = 0;
    for (int c = 0; c < ncols; c++)
        bytes += picked_bytes(bs, c, ids, n);
    size_t g = mt_granule_rows(w->m, bytes / n);
    size_t ng = (n + g - 1) / g;
    if (w->m->nprimary) {
        uint64_t *fids = xmalloc(sizeof *fids * (ng + 1));
        for (size_t i = 0; i < ng; i++)
            fids[i] = ids[i * g];
        block *firsts = gather_block(bs, nb, fids, ng);
        free(fids);
        int rc = index_of_firsts(w, firsts);
        block_free(firsts);
        if (rc)
            return -1;
    }
    update_minmax_picked(w, bs, ids, n);
    block_free(w->last_row);
    w->last_row = block_new(ncols, 1);
    for (int c = 0; c < ncols; c++)
        w->last_row->cols[c] = col_slice(picked_col(bs, c, ids[n - 1]), (uint32_t)ids[n - 1], 1);
    write_job j = {.w = w, .bs = bs, .nb = nb, .ids = ids, .n = n, .g = g, .release = release, .next_col = 0};
    if (run_columns(w, &j, n))
        return -1;
    w->rows += n;
    w->ngranules += ng;
    return 0;
}

int mt_part_writer_write_column(mt_part_writer *w, int c, const column *col, size_t g)
{
    if (write_column(w, c, col, g)) {
        capture_error(&w->cols[c]);
        return -1;
    }
    return 0;
}

/* ---- finish ---- */

static void put_col_name(buf *b, const char *name)
{
    buf_putc(b, '`');
    for (const char *p = name; *p; p++) {
        if (*p == '`' || *p == '\\')
            buf_putc(b, '\\');
        buf_putc(b, *p);
    }
    buf_putc(b, '`');
}

int mt_part_writer_finish(mt_part_writer *w, const block *partition)
{
    mt_table *m = w->m;
    table *t = m->t;
    mt_checksums cs = {0};
    int rc = 0;
    /* Final marks, then close the data files. */
    for (int c = 0; c < w->ncols && !rc; c++) {
        col_writer *cw = &w->cols[c];
        mt_serial_write_suffix(cw->s, cw->sinks);
        for (int k = 0; k < cw->nstreams && !rc; k++) {
            uint64_t co, uo;
            mt_cwriter_mark(cw->cw[k], &co, &uo);
            put_mark(&cw->marks[k], co, uo, 0);
            mt_file_checksum sum;
            rc = mt_cwriter_finish(cw->cw[k], &sum);
            cw->cw[k] = NULL;
            const char *sn = mt_serial_stream_name(cw->s, k);
            char *bin = mt_sprintf("%s.bin", sn);
            if (!rc) {
                sum.is_compressed = true;
                mt_checksums_add(&cs, bin, &sum);
            }
            free(bin);
            char *mrk = mt_sprintf("%s.mrk2", sn);
            if (!rc)
                rc = mt_write_small_file(w->dir, mrk, cw->marks[k].p, cw->marks[k].len, &cs);
            free(mrk);
        }
    }
    /* The final index entry: the last row's key. */
    if (!rc && m->nprimary && w->last_row) {
        column **keys = xcalloc((size_t)m->sort.n + 1, sizeof *keys);
        mt_key k = m->sort;
        k.n = m->nprimary;
        rc = mt_key_eval(&k, w->last_row, keys);
        for (int i = 0; !rc && i < m->nprimary; i++)
            mt_value_write(keys[i], 0, &w->primary);
        for (int i = 0; i < m->nprimary; i++)
            col_free(keys[i]);
        free(keys);
    }
    if (!rc)
        rc = mt_write_small_file(w->dir, "primary.idx", w->primary.p, w->primary.len, &cs);
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, w->rows);
    if (!rc)
        rc = mt_write_small_file(w->dir, "count.txt", num, strlen(num), &cs);
    /* An old-syntax table's part has its partition and date range in its name. */
    if (!rc && m->part_key.n && partition && !m->old_format) {
        buf pd = {0};
        for (int i = 0; i < m->part_key.n; i++)
            mt_value_write(partition->cols[i], 0, &pd);
        rc = mt_write_small_file(w->dir, "partition.dat", pd.p, pd.len, &cs);
        buf_free(&pd);
        for (int i = 0; !rc && i < m->nminmax; i++) {
            buf mm = {0}, name = {0};
            if (w->min[i]) {
                mt_value_write(w->min[i], 0, &mm);
                mt_value_write(w->max[i], 0, &mm);
            }
            buf_puts(&name, "minmax_");
            mt_escape_file_name(t->sch->names[m->minmax_cols[i]], &name);
            buf_puts(&name, ".idx");
            rc = mt_write_small_file(w->dir, buf_cstr(&name), mm.p, mm.len, &cs);
            buf_free(&mm);
            buf_free(&name);
        }
    }
    if (!rc) {
        buf ct = {0};
        buf_printf(&ct, "columns format version: 1\n%d columns:\n", t->sch->n);
        for (int c = 0; c < t->sch->n; c++) {
            put_col_name(&ct, t->sch->names[c]);
            buf_printf(&ct, " %s\n", t->sch->types[c]->name);
        }
        rc = mt_write_small_file(w->dir, "columns.txt", ct.p, ct.len, NULL);
        buf_free(&ct);
    }
    if (!rc) {
        const char *codec = mt_codec_text(m->default_codec);
        rc = mt_write_small_file(w->dir, "default_compression_codec.txt", codec, strlen(codec), NULL);
    }
    if (!rc)
        rc = mt_checksums_write(&cs, w->dir);
    if (!rc)
        rc = mt_fsync_dir(w->dir);
    mt_checksums_free(&cs);
    return rc;
}

static void free_cols(mt_part_writer *w)
{
    for (int c = 0; w->cols && c < w->ncols; c++) {
        col_writer *cw = &w->cols[c];
        for (int k = 0; k < cw->nstreams; k++) {
            if (cw->cw && cw->cw[k])
                mt_cwriter_abort(cw->cw[k]);
            if (cw->marks)
                buf_free(&cw->marks[k]);
            if (cw->generic)
                mt_codec_free(cw->generic[k]);
        }
        free(cw->generic);
        free(cw->cw);
        free(cw->sinks);
        free(cw->marks);
        mt_serial_free(cw->s);
    }
    free(w->cols);
    w->cols = NULL;
}

void mt_part_writer_free(mt_part_writer *w)
{
    if (!w)
        return;
    free_cols(w);
    buf_free(&w->primary);
    block_free(w->last_row);
    for (int i = 0; w->min && i < w->m->nminmax; i++) {
        col_free(w->min[i]);
        col_free(w->max[i]);
    }
    free(w->min);
    free(w->max);
    free(w->dir);
    free(w);
}

void mt_part_writer_abort(mt_part_writer *w)
{
    if (!w)
        return;
    free_cols(w);
    char *dir = xstrdup(w->dir);
    mt_part_writer_free(w);
    mt_remove_tree(dir);
    free(dir);
}
