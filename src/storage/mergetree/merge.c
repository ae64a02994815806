/* Merges: choosing parts (a size-tiered selector in the manner of ClickHouse's simple
 * merge selector), the k-way merge in sort order with bounded memory (one block per input
 * part plus one output block), collapsing rows for Replacing/Summing, and the background
 * threads that merge and remove outdated parts.
 *
 * Wide tables merge vertically, as ClickHouse's vertical merge algorithm: the k-way merge
 * reads only the "merging" columns (those of the sorting key and the min/max index) and
 * records, for each output row, which part it came from (its row source); every other
 * column is then gathered on its own by replaying the row sources over that column of the
 * parts. Memory holds one block of one column per part instead of one block of every
 * column, and the row sources (2 bytes a row). */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* ---- collapsing (Replacing / Summing / Coalescing; the others' rules are in collapsing.c) ---- */

static bool same_key(column *const *keys, int n, size_t a, size_t b)
{
    for (int k = 0; k < n; k++)
        if (!col_equal_rows(keys[k], a, keys[k], b))
            return false;
    return true;
}

static bool is_summable(const type *t)
{
    t = type_phys(t);
    return type_is_number(t) && t->id != T_BOOL;
}

/* Adds row r of src into row 0 of acc (both the same fixed-width number type). */
static void add_into(column *acc, size_t at, const column *src, size_t r)
{
    const type *t = type_phys(acc->type);
    r = col_idx(src, r);
    void *d = acc->data.p + at * t->width;
    const void *s = src->data.p + r * t->width;
    switch (t->id) {
#define ADD(ID, T)                                                                                                     \
    case ID: {                                                                                                         \
        T x, y;                                                                                                        \
        memcpy(&x, d, sizeof x);                                                                                       \
        memcpy(&y, s, sizeof y);                                                                                       \
        x = (T)(x + y);                                                                                                \
        memcpy(d, &x, sizeof x);                                                                                       \
        break;                                                                                                         \
    }
        ADD(T_UINT8, uint8_t) ADD(T_UINT16, uint16_t) ADD(T_UINT32, uint32_t) ADD(T_UINT64, uint64_t)
        ADD(T_INT8, uint8_t) ADD(T_INT16, uint16_t) ADD(T_INT32, uint32_t) ADD(T_INT64, uint64_t)
        ADD(T_UINT128, uint128_t) ADD(T_INT128, uint128_t) ADD(T_FLOAT32, float) ADD(T_FLOAT64, double)
        ADD(T_DECIMAL32, uint32_t) ADD(T_DECIMAL64, uint64_t) ADD(T_DECIMAL128, uint128_t)
#undef ADD
    default: break;
    }
}

static bool is_zero(const column *c, size_t r)
{
    const type *t = type_phys(c->type);
    const uint8_t *p = c->data.p + col_idx(c, r) * t->width;
    if (t->id == T_FLOAT32) {
        float f;
        memcpy(&f, p, 4);
        return f == 0;
    }
    if (t->id == T_FLOAT64) {
        double f;
        memcpy(&f, p, 8);
        return f == 0;
    }
    for (uint32_t i = 0; i < t->width; i++)
        if (p[i])
            return false;
    return true;
}

block *mt_collapse_sorted(mt_table *m, block *b, const uint32_t *perm, bool final)
{
    size_t rows = b->rows;
    uint32_t *order = xmalloc(sizeof *order * (rows + 1));
    for (size_t i = 0; i < rows; i++)
        order[i] = perm ? perm[i] : (uint32_t)i;
    if (m->kind == MT_PLAIN) {
        block *o = block_new(b->ncols, rows);
        for (int c = 0; c < b->ncols; c++)
            o->cols[c] = col_gather(b->cols[c], order, rows);
        free(order);
        block_free(b);
        return o;
    }
    column **keys = xcalloc((size_t)m->sort.n + 1, sizeof *keys);
    if (mt_key_eval(&m->sort, b, keys)) {
        free(keys);
        free(order);
        block_free(b);
        return NULL;
    }
    uint32_t *keep = xmalloc(sizeof *keep * (rows + 1));
    size_t nkeep = 0;
    /* Summing: the groups' first rows are kept and their sums written over them after the
     * gather; sums[k] accumulates in a column of the summed column's type. */
    column **sums = NULL;
    bool *sum_ok = NULL;
    if (m->kind == MT_SUMMING) {
        sums = xcalloc((size_t)m->nsum + 1, sizeof *sums);
        sum_ok = xcalloc((size_t)m->nsum + 1, sizeof *sum_ok);
        for (int k = 0; k < m->nsum; k++) {
            const column *c = b->cols[m->sum_cols[k]];
            sum_ok[k] = is_summable(c->type) && !c->nulls.p && type_phys(c->type)->id != T_NULLABLE;
            sums[k] = col_new(sum_ok[k] ? c->type : type_simple(T_UINT8));
        }
    }
    /* Aggregating (and Summing and Coalescing, for their AggregateFunction columns): each
     * group's rows. */
    size_t *bounds = m->kind == MT_AGGREGATING || m->kind == MT_SUMMING || m->kind == MT_COALESCING
                         ? xmalloc(sizeof *bounds * (rows + 1))
                         : NULL;
    /* Coalescing: for each coalesced column, the row each group takes its value from. */
    uint32_t **picks = NULL;
    if (m->kind == MT_COALESCING) {
        picks = xcalloc((size_t)m->nsum + 1, sizeof *picks);
        for (int k = 0; k < m->nsum; k++)
            picks[k] = xmalloc(sizeof **picks * (rows + 1));
    }
    const column *sign = m->sign_col >= 0 ? b->cols[m->sign_col] : NULL;
    int group_rc = 0;
    size_t gs = 0;
    while (gs < rows && !group_rc) {
        size_t ge = gs + 1;
        while (ge < rows && same_key(keys, m->sort.n, order[gs], order[ge]))
            ge++;
        if (m->kind == MT_COLLAPSING) {
            long kept = mt_collapsing_group(sign, order + gs, ge - gs, final, keep + nkeep);
            if (kept < 0)
                group_rc = -1;
            else
                nkeep += (size_t)kept;
        } else if (m->kind == MT_VERSIONED) {
            nkeep += mt_versioned_group(sign, order + gs, ge - gs, keep + nkeep);
        } else if (m->kind == MT_COALESCING) {
            for (int k = 0; k < m->nsum; k++)
                picks[k][nkeep] = mt_coalesce_pick(b->cols[m->sum_cols[k]], order + gs, ge - gs);
            bounds[nkeep] = gs;
            keep[nkeep++] = order[gs];
        } else if (m->kind == MT_AGGREGATING) {
            bounds[nkeep] = gs;
            keep[nkeep++] = order[gs];
        } else if (m->kind == MT_REPLACING) {
            size_t best = ge - 1;
            if (m->replacing_ver >= 0) {
                const column *v = b->cols[m->replacing_ver];
                for (size_t i = gs; i < ge; i++)
                    if (col_compare(v, order[i], v, order[best], 1) > 0 ||
                        (i > best && col_compare(v, order[i], v, order[best], 1) == 0))
                        best = i;
            }
            keep[nkeep++] = order[best];
        } else {
            bounds[nkeep] = gs;
            keep[nkeep++] = order[gs];
            for (int k = 0; k < m->nsum; k++) {
                if (!sum_ok[k]) {
                    col_push_default(sums[k]);
                    continue;
                }
                const column *c = b->cols[m->sum_cols[k]];
                col_push_from(sums[k], c, order[gs]);
                for (size_t i = gs + 1; i < ge; i++)
                    add_into(sums[k], sums[k]->len - 1, c, order[i]);
            }
        }
        gs = ge;
    }
    for (int k = 0; k < m->sort.n; k++)
        col_free(keys[k]);
    free(keys);
    block *o = block_new(b->ncols, nkeep);
    for (int c = 0; c < b->ncols; c++)
        o->cols[c] = col_gather(b->cols[c], keep, nkeep);
    if (picks) {
        for (int k = 0; k < m->nsum; k++) {
            column **dst = &o->cols[m->sum_cols[k]];
            col_free(*dst);
            *dst = col_gather(b->cols[m->sum_cols[k]], picks[k], nkeep);
            free(picks[k]);
        }
        free(picks);
    }
    int agg_rc = group_rc;
    if (bounds && !agg_rc) {
        bounds[nkeep] = rows;
        agg_rc = mt_aggregate_groups(b, order, bounds, nkeep, o);
    }
    free(bounds);
    if (agg_rc < 0) {
        block_free(o);
        o = NULL;
        if (m->kind == MT_SUMMING) {
            for (int k = 0; k < m->nsum; k++)
                col_free(sums[k]);
            free(sums);
            free(sum_ok);
        }
    } else if (m->kind == MT_SUMMING) {
        /* Write the sums over the kept rows, then drop rows whose sums are all zero. */
        uint8_t *live = xmalloc(nkeep + 1);
        size_t nlive = 0;
        for (size_t r = 0; r < nkeep; r++) {
            bool all_zero = m->nsum > 0;
            for (int k = 0; k < m->nsum; k++) {
                if (!sum_ok[k]) {
                    all_zero = false;
                    continue;
                }
                column *dst = o->cols[m->sum_cols[k]];
                uint32_t w = type_phys(dst->type)->width;
                memcpy(dst->data.p + r * w, sums[k]->data.p + r * w, w);
                if (!is_zero(dst, r))
                    all_zero = false;
            }
            live[r] = !all_zero;
            nlive += live[r];
        }
        if (nlive != nkeep) {
            block *f = block_new(o->ncols, nlive);
            for (int c = 0; c < o->ncols; c++)
                f->cols[c] = col_filter(o->cols[c], live, nlive);
            block_free(o);
            o = f;
        }
        free(live);
        for (int k = 0; k < m->nsum; k++)
            col_free(sums[k]);
        free(sums);
        free(sum_ok);
    }
    free(keep);
    free(order);
    block_free(b);
    return o;
}

/* ---- the k-way merge ---- */

typedef struct cursor {
    mt_part_reader *r;
    block *b;
    column **keys;
    size_t pos;
    int idx;      /* input order: ties go to the older part */
} cursor;

typedef struct merger {
    mt_table *m;
    mt_merge_info *info;
    int n;
    const int *read_cols;   /* the columns the k-way merge reads */
    int nread;
    const uint8_t *later;   /* vertical: columns gathered afterwards (placeholders until then) */
    cursor *cur;
    int *heap;    /* indexes into cur, a binary min-heap */
    int nheap;
    /* rows selected for the next output block: runs of (cursor block, from, count) */
    block **retired;
    int nretired, capretired;
} merger;

static int cmp_cursor(merger *g, int a, int b)
{
    cursor *x = &g->cur[a], *y = &g->cur[b];
    for (int k = 0; k < g->m->sort.n; k++) {
        int c = col_compare(x->keys[k], x->pos, y->keys[k], y->pos, 1);
        if (c)
            return c;
    }
    return x->idx - y->idx;
}

static void sift_down(merger *g, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, s = i;
        if (l < g->nheap && cmp_cursor(g, g->heap[l], g->heap[s]) < 0)
            s = l;
        if (r < g->nheap && cmp_cursor(g, g->heap[r], g->heap[s]) < 0)
            s = r;
        if (s == i)
            return;
        int t = g->heap[i];
        g->heap[i] = g->heap[s];
        g->heap[s] = t;
        i = s;
    }
}

static void retire(merger *g, block *b)
{
    if (g->nretired == g->capretired) {
        g->capretired = g->capretired ? g->capretired * 2 : 8;
        g->retired = xrealloc(g->retired, sizeof *g->retired * (size_t)g->capretired);
    }
    g->retired[g->nretired++] = b;
}

/* A block of the merging columns as a block of every stored column, the gathered ones
 * as constant placeholders (taken over). */
static block *widen(merger *g, block *narrow)
{
    const schema *sch = g->m->t->sch;
    block *b = block_new(sch->n, narrow->rows);
    for (int c = 0, k = 0; c < sch->n; c++)
        b->cols[c] = g->later[c] ? col_new_const(col_new_defaults(sch->types[c], 1), narrow->rows)
                                 : col_ref(narrow->cols[k++]);
    block_free(narrow);
    return b;
}

/* Loads the cursor's next block; false at the end of its part. */
static int load_block(merger *g, cursor *c, bool *has)
{
    for (int k = 0; c->keys && k < g->m->sort.n; k++)
        col_free(c->keys[k]);
    if (c->b)
        retire(g, c->b);
    c->b = NULL;
    *has = false;
    block *b;
    if (mt_part_reader_next(c->r, (size_t)g->m->set.merge_max_block_size, &b))
        return -1;
    if (!b)
        return 0;
    if (g->later)
        b = widen(g, b);
    if (mt_key_eval(&g->m->sort, b, c->keys)) {
        block_free(b);
        return -1;
    }
    c->b = b;
    c->pos = 0;
    *has = b->rows > 0;
    atomic_fetch_add(&g->info->rows_read, b->rows);
    return 0;
}

typedef struct run {
    const block *b;
    size_t from, n;
    int src;      /* the input part */
} run;

static block *build_output(const schema *sch, const run *runs, int nruns, size_t rows, const uint8_t *later)
{
    block *o = block_new_empty(sch);
    for (int c = 0; c < sch->n; c++) {
        if (later && later[c]) {
            col_free(o->cols[c]);
            o->cols[c] = col_new_const(col_new_defaults(sch->types[c], 1), rows);
            continue;
        }
        col_reserve(o->cols[c], rows);
        for (int i = 0; i < nruns; i++)
            col_push_range(o->cols[c], runs[i].b->cols[c], runs[i].from, runs[i].n);
    }
    o->rows = rows;
    return o;
}

/* ---- vertical merges ---- */

static void mark_expr_cols(const expr *e, uint8_t *used)
{
    if (e->kind == EX_COL)
        used[e->col] = 1;
    for (int i = 0; i < e->nargs; i++)
        mark_expr_cols(e->args[i], used);
}

/* Whether to merge vertically, and then `later`: the columns to gather after the k-way
 * merge (all but the sorting key's and the min/max index's), as ClickHouse decides:
 * enable_vertical_merge_algorithm, an ordinary MergeTree (rows that collapse need every
 * column at once), enough rows and enough gathered columns. */
static bool choose_vertical(mt_table *m, mt_part **parts, int n, uint8_t *later)
{
    int ncols = m->t->sch->n;
    uint64_t rows = 0;
    for (int i = 0; i < n; i++)
        rows += parts[i]->rows;
    if (!m->set.enable_vertical_merge_algorithm || m->kind != MT_PLAIN ||
        rows < m->set.vertical_merge_algorithm_min_rows_to_activate)
        return false;
    memset(later, 1, (size_t)ncols);
    uint8_t *used = xcalloc((size_t)ncols + 1, 1);
    for (int k = 0; k < m->sort.n; k++)
        mark_expr_cols(m->sort.exprs[k], used);
    for (int k = 0; k < m->nminmax; k++)
        used[m->minmax_cols[k]] = 1;
    int ngathered = 0;
    for (int c = 0; c < ncols; c++) {
        later[c] = !used[c];
        ngathered += later[c];
    }
    free(used);
    return ngathered > 0 && (uint64_t)ngathered >= m->set.vertical_merge_algorithm_min_columns_to_activate &&
           ngathered < ncols;
}

/* Gathers column c of the merged part: replays the row sources over column c of each
 * part, in the output blocks' row counts (sizes) so that its granules match the others'. */
static int gather_column(mt_table *m, mt_part **parts, int n, int c, const uint16_t *sources, const size_t *sizes,
                         size_t nsizes, size_t g, mt_part_writer *w)
{
    mt_part_reader **r = xcalloc((size_t)n + 1, sizeof *r);
    block **cur = xcalloc((size_t)n + 1, sizeof *cur);
    size_t *pos = xcalloc((size_t)n + 1, sizeof *pos);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        rc = mt_part_reader_open(m, parts[i], &c, 1, 0, parts[i]->ngranules, &r[i]);
    const type *t = m->t->sch->types[c];
    size_t at = 0;
    for (size_t s = 0; s < nsizes && !rc; s++) {
        column *out = col_new(t);
        col_reserve(out, sizes[s]);
        size_t left = sizes[s];
        while (left && !rc) {
            int src = sources[at];
            size_t run = 1;
            while (run < left && sources[at + run] == src)
                run++;
            /* take `run` rows of part src, across its blocks */
            while (run && !rc) {
                if (!cur[src] || pos[src] == cur[src]->rows) {
                    block_free(cur[src]);
                    cur[src] = NULL;
                    pos[src] = 0;
                    if ((rc = mt_part_reader_next(r[src], (size_t)m->set.merge_max_block_size, &cur[src])))
                        break;
                    if (!cur[src]) {
                        rc = err_set(ERR_LOGICAL_ERROR, "Part %s has fewer rows than its row sources in a vertical merge",
                                     parts[src]->name);
                        break;
                    }
                }
                size_t k = cur[src]->rows - pos[src] < run ? cur[src]->rows - pos[src] : run;
                col_push_range(out, cur[src]->cols[0], pos[src], k);
                pos[src] += k;
                run -= k;
                at += k;
                left -= k;
            }
        }
        if (!rc)
            rc = mt_part_writer_write_column(w, c, out, g);
        col_free(out);
        if (!rc && atomic_load(&m->stopping_merges))
            rc = err_set(ERR_ABORTED, "Cancelled merging parts");
    }
    for (int i = 0; i < n; i++) {
        block_free(cur[i]);
        mt_part_reader_close(r[i]);
    }
    free(r);
    free(cur);
    free(pos);
    return rc;
}

static mt_merge_info *merge_register(mt_table *m, mt_part **parts, int n, const char *result)
{
    mt_merge_info *g = xcalloc(1, sizeof *g);
    g->result_name = xstrdup(result);
    g->partition_id = xstrdup(parts[0]->partition_id);
    g->nsources = n;
    g->sources = xcalloc((size_t)n + 1, sizeof *g->sources);
    for (int i = 0; i < n; i++) {
        g->sources[i] = xstrdup(parts[i]->name);
        g->total_bytes += parts[i]->data_compressed_bytes;
        g->total_rows += parts[i]->rows;
    }
    g->start = clock_monotonic();
    pthread_mutex_lock(&m->lock);
    g->next = m->merges;
    m->merges = g;
    pthread_mutex_unlock(&m->lock);
    return g;
}

static void merge_unregister(mt_table *m, mt_merge_info *g)
{
    pthread_mutex_lock(&m->lock);
    for (mt_merge_info **pp = &m->merges; *pp; pp = &(*pp)->next)
        if (*pp == g) {
            *pp = g->next;
            break;
        }
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < g->nsources; i++)
        free(g->sources[i]);
    free(g->sources);
    free(g->result_name);
    free(g->partition_id);
    free(g);
}

/* The merged part's name prefix: the partition ID, or for the old syntax the dates from
 * the earliest to the latest of the parts' (YYYYMMDD compares as text). */
static char *merged_prefix(const mt_table *m, mt_part *const *parts, int n)
{
    if (!m->old_format)
        return xstrdup(parts[0]->partition_id);
    const char *lo = parts[0]->name, *hi = parts[0]->name + 9;
    for (int i = 1; i < n; i++) {
        if (strncmp(parts[i]->name, lo, 8) < 0)
            lo = parts[i]->name;
        if (strncmp(parts[i]->name + 9, hi, 8) > 0)
            hi = parts[i]->name + 9;
    }
    return mt_sprintf("%.8s_%.8s", lo, hi);
}

int mt_merge_parts(mt_table *m, mt_part **parts, int n, bool final, query_ctx *q)
{
    (void)final;
    (void)q;
    table *t = m->t;
    int64_t min_block = parts[0]->min_block, max_block = parts[0]->max_block;
    uint32_t level = 0;
    int64_t mutation = 0; /* a merge of mutated parts keeps the highest mutation version */
    for (int i = 0; i < n; i++) {
        if (parts[i]->mutation > mutation)
            mutation = parts[i]->mutation;
        if (parts[i]->min_block < min_block)
            min_block = parts[i]->min_block;
        if (parts[i]->max_block > max_block)
            max_block = parts[i]->max_block;
        if (parts[i]->level > level)
            level = parts[i]->level;
    }
    level++;
    pthread_mutex_lock(&m->lock);
    uint64_t seq = ++m->tmp_seq;
    pthread_mutex_unlock(&m->lock);
    char *tmp = mt_sprintf("tmp_merge_%s_%" PRId64 "_%" PRId64 "_%u_%" PRIu64, parts[0]->partition_id, min_block,
                           max_block, level, seq);
    char *prefix = merged_prefix(m, parts, n);
    char *result = mt_part_name_ex(prefix, min_block, max_block, level, mutation);
    merger g = {.m = m, .n = n, .info = merge_register(m, parts, n, result)};
    g.cur = xcalloc((size_t)n + 1, sizeof *g.cur);
    g.heap = xcalloc((size_t)n + 1, sizeof *g.heap);
    int ncols = t->sch->n;
    uint8_t *later = xcalloc((size_t)ncols + 1, 1);
    bool vertical = choose_vertical(m, parts, n, later);
    g.info->vertical = vertical;
    g.info->columns_total = ncols;
    int *read_cols = xmalloc(sizeof(int) * (size_t)(ncols + 1));
    int nread = 0;
    for (int i = 0; i < ncols; i++)
        if (!vertical || !later[i])
            read_cols[nread++] = i;
    g.info->columns_gathered = ncols - nread;
    g.read_cols = read_cols;
    g.nread = nread;
    g.later = vertical ? later : NULL;
    /* vertical: the row sources and the output blocks' row counts, and one granule size
     * for the whole part (from the parts' average row size), so that the gathered columns'
     * granules can match the merging columns' */
    buf sources = {0}, sizes = {0};
    size_t vgran = 0;
    if (vertical) {
        uint64_t rows = 0, bytes = 0;
        for (int i = 0; i < n; i++) {
            rows += parts[i]->rows;
            bytes += parts[i]->data_uncompressed_bytes;
        }
        vgran = mt_granule_rows(m, rows ? (size_t)(bytes / rows) : 0);
    }
    mt_part_writer *w = NULL;
    int rc = mt_part_writer_open(m, tmp, &w);
    for (int i = 0; i < n && !rc; i++) {
        cursor *c = &g.cur[i];
        c->idx = i;
        c->keys = xcalloc((size_t)m->sort.n + 1, sizeof *c->keys);
        rc = mt_part_reader_open(m, parts[i], read_cols, nread, 0, parts[i]->ngranules, &c->r);
        bool has = false;
        if (!rc)
            rc = load_block(&g, c, &has);
        if (!rc && has)
            g.heap[g.nheap++] = i;
    }
    for (int i = g.nheap / 2 - 1; i >= 0 && !rc; i--)
        sift_down(&g, i);
    size_t out_max = (size_t)m->set.merge_max_block_size;
    run *runs = xmalloc(sizeof *runs * (out_max + 1));
    int nruns = 0;
    size_t out_rows = 0;
    block *carry = NULL; /* Replacing/Summing: the last key group, which may continue */
    while (!rc) {
        bool done = g.nheap == 0;
        if (!done) {
            int top = g.heap[0];
            cursor *c = &g.cur[top];
            /* Take a run of rows from the top cursor while it stays the smallest. */
            size_t from = c->pos;
            do {
                c->pos++;
                out_rows++;
            } while (out_rows < out_max && c->pos < c->b->rows &&
                     (g.nheap == 1 || cmp_cursor(&g, top, g.heap[1]) <= 0) &&
                     (g.nheap < 3 || cmp_cursor(&g, top, g.heap[2]) <= 0));
            if (nruns && runs[nruns - 1].b == c->b && runs[nruns - 1].from + runs[nruns - 1].n == from)
                runs[nruns - 1].n += c->pos - from;
            else
                runs[nruns++] = (run){c->b, from, c->pos - from, c->idx};
            if (c->pos >= c->b->rows) {
                bool has;
                rc = load_block(&g, c, &has);
                if (rc)
                    break;
                if (!has)
                    g.heap[0] = g.heap[--g.nheap];
            }
            if (g.nheap)
                sift_down(&g, 0);
        }
        if (out_rows >= out_max || (done && (out_rows || carry))) {
            block *o = out_rows ? build_output(t->sch, runs, nruns, out_rows, g.later) : block_new_empty(t->sch);
            for (int i = 0; vertical && i < nruns; i++) {
                uint16_t *rs = buf_grow(&sources, runs[i].n * sizeof *rs);
                for (size_t k = 0; k < runs[i].n; k++)
                    rs[k] = (uint16_t)runs[i].src;
            }
            nruns = 0;
            out_rows = 0;
            for (int i = 0; i < g.nretired; i++)
                block_free(g.retired[i]);
            g.nretired = 0;
            if (m->kind != MT_PLAIN) {
                if (carry) {
                    block_append(carry, o);
                    block_free(o);
                    o = carry;
                    carry = NULL;
                }
                if (!done && o->rows) {
                    /* Hold back the last key group: it may continue in the next block. */
                    column **keys = xcalloc((size_t)m->sort.n + 1, sizeof *keys);
                    rc = mt_key_eval(&m->sort, o, keys);
                    size_t start = o->rows - 1;
                    while (!rc && start > 0 && same_key(keys, m->sort.n, start - 1, o->rows - 1))
                        start--;
                    for (int k = 0; !rc && k < m->sort.n; k++)
                        col_free(keys[k]);
                    free(keys);
                    if (rc) {
                        block_free(o);
                        break;
                    }
                    carry = block_slice(o, start, o->rows - start);
                    block *head = block_slice(o, 0, start);
                    block_free(o);
                    o = head;
                }
                o = mt_collapse_sorted(m, o, NULL, false);
                if (!o) {
                    rc = -1;
                    break;
                }
            }
            if (vertical && o->rows) {
                size_t rows = o->rows;
                buf_append(&sizes, &rows, sizeof rows);
                rc = mt_part_writer_write_some(w, o, later, vgran);
            } else {
                rc = mt_part_writer_write(w, o);
            }
            atomic_fetch_add(&g.info->rows_written, o->rows);
            block_free(o);
            if (!rc && atomic_load(&m->stopping_merges))
                rc = err_set(ERR_ABORTED, "Cancelled merging parts");
        }
        if (done)
            break;
    }
    block_free(carry);
    free(runs);
    for (int i = 0; i < g.nretired; i++)
        block_free(g.retired[i]);
    free(g.retired);
    for (int i = 0; i < n; i++) {
        cursor *c = &g.cur[i];
        for (int k = 0; c->keys && c->b && k < m->sort.n; k++)
            col_free(c->keys[k]);
        free(c->keys);
        block_free(c->b);
        mt_part_reader_close(c->r);
    }
    free(g.cur);
    free(g.heap);
    for (int c = 0; vertical && !rc && c < ncols; c++)
        if (later[c]) {
            rc = gather_column(m, parts, n, c, (const uint16_t *)(const void *)sources.p,
                               (const size_t *)(const void *)sizes.p, sizes.len / sizeof(size_t), vgran, w);
            atomic_fetch_add(&g.info->columns_written, 1);
        }
    buf_free(&sources);
    buf_free(&sizes);
    free(read_cols);
    free(later);
    if (!rc)
        rc = mt_part_writer_finish(w, parts[0]->partition);
    uint64_t read_rows = atomic_load(&g.info->rows_read);
    double elapsed = clock_monotonic() - g.info->start;
    int algorithm = vertical ? MERGE_VERTICAL : MERGE_HORIZONTAL;
    merge_unregister(m, g.info);
    if (rc) {
        if (w)
            mt_part_writer_abort(w);
        free(tmp);
        err_prefix("While merging parts %s..%s: ", parts[0]->name, parts[n - 1]->name);
        if (err_code() != ERR_ABORTED)
            mt_log_event(m, PART_LOG_MERGE, result, parts[0]->partition_id, 0, 0, elapsed, parts, n, read_rows,
                         err_code(), err_msg(), algorithm);
        free(result);
        free(prefix);
        return -1;
    }
    char *dir = xstrdup(mt_part_writer_dir(w));
    mt_part_writer_free(w);
    mt_part *done = NULL;
    rc = mt_commit_part_ex(m, dir, prefix, min_block, max_block, level, mutation, parts, n, &done);
    if (rc)
        mt_remove_tree(dir);
    if (done) {
        mt_log_event(m, PART_LOG_MERGE, done->name, done->partition_id, done->rows, done->bytes_on_disk, elapsed,
                     parts, n, read_rows, 0, "", algorithm);
        mt_part_unref(done);
    }
    free(dir);
    free(tmp);
    free(result);
    free(prefix);
    return rc;
}

/* ---- choosing what to merge ---- */

static double interpolate(double a, double b, double x) { return a + (b - a) * (x < 0 ? 0 : x > 1 ? 1 : x); }

/* ClickHouse's simple merge selector, in outline: a range of adjacent parts may merge when
 * its total is large against its largest part — sum / max >= base, with base lowered from
 * 5 towards 2 as the partition's part count grows or the parts age — and among allowed
 * ranges the one with the least bytes written per part removed wins. */
int mt_select_merge(mt_table *m, bool aggressive, mt_part ***out)
{
    *out = NULL;
    const double fixed_cost = 5.0 * 1024 * 1024;
    double now = (double)time(NULL);
    uint64_t max_bytes = m->set.max_bytes_to_merge_at_max_space_in_pool;
    struct statvfs vfs;
    if (statvfs(m->t->data_dir, &vfs) == 0) {
        uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
        if (free_bytes / 2 < max_bytes)
            max_bytes = free_bytes / 2; /* a merge needs room for its result */
    }
    pthread_mutex_lock(&m->lock);
    int best_i = -1, best_n = 0;
    double best_score = 0;
    for (int i = 0; i < m->nparts;) {
        int j = i;
        int active = 0;
        while (j < m->nparts && !strcmp(m->parts[j]->partition_id, m->parts[i]->partition_id)) {
            active += m->parts[j]->state == PART_ACTIVE;
            j++;
        }
        double parts_ratio = active / 10.0;
        for (int s = i; s < j; s++) {
            uint64_t sum = 0, mx = 0;
            int64_t newest = 0;
            int cnt = 0;
            for (int e = s; e < j && cnt < (int)m->set.max_parts_to_merge_at_once; e++) {
                mt_part *p = m->parts[e];
                if (p->state != PART_ACTIVE)
                    continue;
                /* a part an unfinished mutation still has to rewrite is left to it */
                if (p->merging || p->min_block >= m->resume_floor || mt_mutation_needed(m, p) != INT64_MAX)
                    break;
                cnt++;
                sum += p->bytes_on_disk;
                if (p->bytes_on_disk > mx)
                    mx = p->bytes_on_disk;
                if (p->modification_time > newest)
                    newest = p->modification_time;
                if (sum > max_bytes)
                    break;
                if (cnt < 2)
                    continue;
                double age = now - (double)newest;
                /* Small parts are allowed to merge sooner than large ones. */
                double size_pos = log2((double)sum / (1024.0 * 1024) + 1) / 10.0;
                double max_age = interpolate(10, 3600, size_pos);
                double ratio = age / max_age + parts_ratio;
                double base = aggressive ? 1 : interpolate(5, 2, ratio);
                if (((double)sum + cnt * fixed_cost) / ((double)mx + fixed_cost) < base)
                    continue;
                double score = ((double)sum + cnt * fixed_cost) / (cnt - 1);
                if (best_i < 0 || score < best_score) {
                    best_i = s;
                    best_n = e - s + 1;
                    best_score = score;
                }
            }
        }
        i = j;
    }
    int n = 0;
    if (best_i >= 0) {
        mt_part **sel = xcalloc((size_t)best_n + 1, sizeof *sel);
        for (int k = best_i; k < best_i + best_n; k++)
            if (m->parts[k]->state == PART_ACTIVE) {
                m->parts[k]->merging = true;
                sel[n++] = mt_part_ref(m->parts[k]);
            }
        *out = sel;
    }
    pthread_mutex_unlock(&m->lock);
    return n;
}

/* ---- background ---- */

static void *merge_thread(void *arg)
{
    mt_table *m = arg;
    for (;;) {
        pthread_mutex_lock(&m->lock);
        if (m->stopping) {
            pthread_mutex_unlock(&m->lock);
            break;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&m->cond, &m->lock, &ts);
        bool stop = m->stopping;
        pthread_mutex_unlock(&m->lock);
        if (stop)
            break;
        if (atomic_load(&m->merges_stopped)) {
            mt_remove_outdated(m, false);
            continue;
        }
        if (mt_mutate_step(m, NULL) > 0)
            continue;
        mt_part **sel;
        int n = mt_select_merge(m, false, &sel);
        if (n >= 2) {
            pthread_mutex_lock(&m->lock);
            m->running_merges++;
            pthread_mutex_unlock(&m->lock);
            if (mt_merge_parts(m, sel, n, false, NULL) && err_code() != ERR_ABORTED)
                fprintf(stderr, "shale: warning: background merge in table %s failed: %s\n", table_full_name(m->t),
                        err_msg());
            pthread_mutex_lock(&m->lock);
            m->running_merges--;
            for (int i = 0; i < n; i++)
                sel[i]->merging = false;
            pthread_cond_broadcast(&m->cond);
            pthread_mutex_unlock(&m->lock);
        } else if (n == 1) {
            pthread_mutex_lock(&m->lock);
            sel[0]->merging = false;
            pthread_mutex_unlock(&m->lock);
        }
        for (int i = 0; i < n; i++)
            mt_part_unref(sel[i]);
        free(sel);
        mt_remove_outdated(m, false);
    }
    return NULL;
}

int mt_start_background(mt_table *m)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int n = m->nthreads_wanted > 0 ? m->nthreads_wanted : 1;
    if (n > ncpu)
        n = (int)(ncpu > 0 ? ncpu : 1);
    m->threads = xcalloc((size_t)n + 1, sizeof *m->threads);
    for (int i = 0; i < n; i++)
        if (pthread_create(&m->threads[m->nthreads], NULL, merge_thread, m) == 0)
            m->nthreads++;
    return 0;
}

void mt_set_merges_stopped(mt_table *m, bool stop)
{
    pthread_mutex_lock(&m->lock);
    atomic_store(&m->merges_stopped, stop);
    if (stop) {
        atomic_store(&m->stopping_merges, 1);
        while (m->running_merges)
            pthread_cond_wait(&m->cond, &m->lock);
        if (!m->stopping) /* closing keeps its own request to abort */
            atomic_store(&m->stopping_merges, 0);
    }
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
}

void mt_stop_background(mt_table *m)
{
    pthread_mutex_lock(&m->lock);
    m->stopping = true;
    atomic_store(&m->stopping_merges, 1);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < m->nthreads; i++)
        pthread_join(m->threads[i], NULL);
    free(m->threads);
    m->threads = NULL;
    m->nthreads = 0;
}
