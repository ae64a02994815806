/* SELECT from a MergeTree table: a snapshot of the active parts, cut into tasks of granule
 * ranges that workers read in parallel. WHERE conjuncts on primary-key columns and on the
 * partition key's columns (set_filter) drop granules and whole parts before reading, as
 * ClickHouse's primary-key and min/max analysis does; the rows read are still filtered.
 * FINAL reads each partition as one task and collapses rows as the engine's merge would. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASK_GRANULES 16 /* granules per task: ~128k rows, enough tasks to share */

typedef struct task {
    int part;
    size_t g0, g1;
    int partition_end;    /* FINAL: parts [part, partition_end) of one partition */
} task;

typedef struct mt_src {
    table *t;             /* referenced: the query may outlive a DROP */
    mt_table *m;
    int nparts;
    mt_part **parts;
    bool final;
    int ntasks;
    task *tasks;
    uint8_t **keep;       /* per part: granules that may match (NULL = all) */
    int max_block;
} mt_src;

typedef struct mt_it {
    mt_src *s;
    query_ctx *q;
    int ncols;
    int *cols;
    task t;
    mt_part_reader *r;
    block *final_result;  /* FINAL: the collapsed partition */
    bool done;
} mt_it;

/* ---- comparing index values with filter constants ---- */

static bool numeric_like(const type *t)
{
    t = type_phys(t);
    return type_is_number(t) || t->id == T_DATE || t->id == T_DATE32 || t->id == T_DATETIME ||
           t->id == T_DATETIME64 || t->id == T_ENUM8 || t->id == T_ENUM16;
}

/* Compares a (row i) with b (row j): sets *ok = false when the types cannot be compared
 * (then nothing is pruned). */
static int cmp_val(const column *a, size_t i, const column *b, size_t j, bool *ok)
{
    const type *ta = type_phys(a->type), *tb = type_phys(b->type);
    *ok = true;
    if (ta->id == T_NULLABLE || tb->id == T_NULLABLE || col_is_null(a, i) || col_is_null(b, j)) {
        *ok = false;
        return 0;
    }
    if (numeric_like(ta) && numeric_like(tb)) {
        if (type_is_decimal(ta) || type_is_decimal(tb) || ta->id == T_DATETIME64 || tb->id == T_DATETIME64) {
            if (ta != tb) {
                *ok = false;
                return 0;
            }
            return col_compare(a, i, b, j, 1);
        }
        if (!type_is_float(ta) && !type_is_float(tb)) {
            bool sa = type_is_signed(ta) || ta->id == T_ENUM8 || ta->id == T_ENUM16 || ta->id == T_DATE32;
            bool sb = type_is_signed(tb) || tb->id == T_ENUM8 || tb->id == T_ENUM16 || tb->id == T_DATE32;
            __int128 x = sa ? (__int128)col_get_i64(a, i) : (__int128)col_get_u64(a, i);
            __int128 y = sb ? (__int128)col_get_i64(b, j) : (__int128)col_get_u64(b, j);
            return x < y ? -1 : x > y;
        }
        double x = col_get_f64(a, i), y = col_get_f64(b, j);
        if (x != x || y != y) {
            *ok = false;
            return 0;
        }
        return x < y ? -1 : x > y;
    }
    if (type_is_string(ta) && type_is_string(tb)) {
        size_t la, lb;
        const char *pa = col_str(a, i, &la), *pb = col_str(b, j, &lb);
        int c = memcmp(pa, pb, la < lb ? la : lb);
        return c ? (c < 0 ? -1 : 1) : (la < lb ? -1 : la > lb);
    }
    if (ta == tb)
        return col_compare(a, i, b, j, 1);
    *ok = false;
    return 0;
}

/* May a value in [lo_col[lo], hi_col[hi]] satisfy the filter? */
static bool range_may_match(const src_filter *f, const column *lo_col, size_t lo, const column *hi_col, size_t hi)
{
    bool ok1, ok2;
    const column *v = f->vals;
    switch (f->op) {
    case SF_EQ: {
        int a = cmp_val(lo_col, lo, v, 0, &ok1), b = cmp_val(hi_col, hi, v, 0, &ok2);
        return !ok1 || !ok2 || (a <= 0 && b >= 0);
    }
    case SF_LT: return cmp_val(lo_col, lo, v, 0, &ok1) < 0 || !ok1;
    case SF_LE: return cmp_val(lo_col, lo, v, 0, &ok1) <= 0 || !ok1;
    case SF_GT: return cmp_val(hi_col, hi, v, 0, &ok1) > 0 || !ok1;
    case SF_GE: return cmp_val(hi_col, hi, v, 0, &ok1) >= 0 || !ok1;
    case SF_IN:
        for (size_t k = 0; k < v->len; k++) {
            int a = cmp_val(lo_col, lo, v, k, &ok1), b = cmp_val(hi_col, hi, v, k, &ok2);
            if (!ok1 || !ok2 || (a <= 0 && b >= 0))
                return true;
        }
        return false;
    default: return true;
    }
}

/* Marks the granules of part p that may hold rows matching every filter. */
static uint8_t *prune_granules(mt_table *m, const mt_part *p, const src_filter *fl, int n, size_t *kept)
{
    uint8_t *keep = xmalloc(p->ngranules + 1);
    memset(keep, 1, p->ngranules + 1);
    *kept = p->ngranules;
    if (!p->index || p->nindex < p->ngranules + 1)
        return keep; /* no final index entry: the last granule's end is unknown */
    for (int f = 0; f < n; f++) {
        int k = -1;
        for (int i = 0; i < m->nprimary; i++)
            if (m->sort.src_col[i] == fl[f].col) {
                k = i;
                break;
            }
        if (k < 0)
            continue;
        const column *ck = p->index[k];
        for (size_t g = 0; g < p->ngranules; g++) {
            if (!keep[g])
                continue;
            /* Column k is ordered within the granule only when all earlier key columns
             * are equal at both of its ends. */
            bool prefix_const = true;
            for (int j = 0; j < k && prefix_const; j++)
                prefix_const = col_compare(p->index[j], g, p->index[j], g + 1, 1) == 0;
            if (!prefix_const)
                continue;
            if (!range_may_match(&fl[f], ck, g, ck, g + 1)) {
                keep[g] = 0;
                (*kept)--;
            }
        }
    }
    return keep;
}

static bool part_may_match(mt_table *m, const mt_part *p, const src_filter *fl, int n)
{
    if (!p->minmax)
        return true;
    for (int f = 0; f < n; f++)
        for (int i = 0; i < m->nminmax; i++)
            if (m->minmax_cols[i] == fl[f].col && p->minmax[i] && p->minmax[i]->len == 2 &&
                !range_may_match(&fl[f], p->minmax[i], 0, p->minmax[i], 1))
                return false;
    return true;
}

/* ---- tasks ---- */

static void add_task(mt_src *s, task t)
{
    s->tasks = xrealloc(s->tasks, sizeof *s->tasks * (size_t)(s->ntasks + 1));
    s->tasks[s->ntasks++] = t;
}

static void build_tasks(mt_src *s)
{
    free(s->tasks);
    s->tasks = NULL;
    s->ntasks = 0;
    if (s->final) {
        for (int i = 0; i < s->nparts;) {
            int j = i + 1;
            while (j < s->nparts && !strcmp(s->parts[j]->partition_id, s->parts[i]->partition_id))
                j++;
            add_task(s, (task){.part = i, .partition_end = j});
            i = j;
        }
        return;
    }
    for (int i = 0; i < s->nparts; i++) {
        const mt_part *p = s->parts[i];
        const uint8_t *keep = s->keep ? s->keep[i] : NULL;
        size_t g = 0;
        while (g < p->ngranules) {
            if (keep && !keep[g]) {
                g++;
                continue;
            }
            size_t e = g + 1;
            while (e < p->ngranules && e - g < TASK_GRANULES && (!keep || keep[e]))
                e++;
            add_task(s, (task){.part = i, .g0 = g, .g1 = e});
            g = e;
        }
    }
}

static void mt_set_filter(source *src, const src_filter *fl, int n, query_ctx *q)
{
    (void)q;
    mt_src *s = src->impl;
    if (s->final)
        return;
    s->keep = xcalloc((size_t)s->nparts + 1, sizeof *s->keep);
    for (int i = 0; i < s->nparts; i++) {
        size_t kept;
        if (!part_may_match(s->m, s->parts[i], fl, n)) {
            s->keep[i] = xcalloc(s->parts[i]->ngranules + 1, 1);
            continue;
        }
        s->keep[i] = prune_granules(s->m, s->parts[i], fl, n, &kept);
    }
    build_tasks(s);
    src->ntasks = s->ntasks;
}

/* ---- reading ---- */

static int read_final(mt_it *it)
{
    mt_src *s = it->s;
    mt_table *m = s->m;
    table *t = m->t;
    /* All columns of the partition's parts, in order, then sorted and collapsed. */
    int nall = t->sch->n;
    int *all = xmalloc(sizeof(int) * (size_t)(nall + 1));
    for (int i = 0; i < nall; i++)
        all[i] = i;
    block *acc = block_new_empty(t->sch);
    int rc = 0;
    for (int i = it->t.part; i < it->t.partition_end && !rc; i++) {
        mt_part_reader *r;
        if ((rc = mt_part_reader_open(m, s->parts[i], all, nall, 0, s->parts[i]->ngranules, &r)))
            break;
        block *b;
        while (!(rc = mt_part_reader_next(r, 1 << 20, &b)) && b) {
            query_add_read(it->q, b->rows, block_bytes(b));
            block_append(acc, b);
            block_free(b);
        }
        mt_part_reader_close(r);
    }
    free(all);
    if (rc) {
        block_free(acc);
        return -1;
    }
    column **keys = xcalloc((size_t)m->sort.n + 1, sizeof *keys);
    if (mt_key_eval(&m->sort, acc, keys)) {
        free(keys);
        block_free(acc);
        return -1;
    }
    uint32_t *perm = mt_sort_perm(keys, m->sort.n, acc->rows);
    for (int k = 0; k < m->sort.n; k++)
        col_free(keys[k]);
    free(keys);
    block *res = mt_collapse_sorted(m, acc, perm);
    free(perm);
    if (!res)
        return -1;
    /* Keep only the requested columns. */
    block *out = block_new(it->ncols, res->rows);
    for (int c = 0; c < it->ncols; c++)
        out->cols[c] = col_ref(res->cols[it->cols[c]]);
    block_free(res);
    it->final_result = out;
    return 0;
}

static int mt_open(source *src, int tk, const int *cols, int ncols, query_ctx *q, void **out)
{
    mt_src *s = src->impl;
    mt_it *it = xcalloc(1, sizeof *it);
    it->s = s;
    it->q = q;
    it->ncols = ncols;
    it->cols = xmalloc(sizeof(int) * (size_t)(ncols + 1));
    if (ncols)
        memcpy(it->cols, cols, sizeof(int) * (size_t)ncols);
    it->t = s->tasks[tk];
    int rc = s->final ? read_final(it)
                      : mt_part_reader_open(s->m, s->parts[it->t.part], cols, ncols, it->t.g0, it->t.g1, &it->r);
    if (rc) {
        free(it->cols);
        free(it);
        return -1;
    }
    *out = it;
    return 0;
}

static int mt_next(void *itp, block **out)
{
    mt_it *it = itp;
    *out = NULL;
    if (it->s->final) {
        if (it->final_result) {
            *out = it->final_result;
            it->final_result = NULL;
        }
        return 0;
    }
    if (mt_part_reader_next(it->r, (size_t)it->s->max_block, out))
        return -1;
    if (*out)
        query_add_read(it->q, (*out)->rows, block_bytes(*out));
    return 0;
}

static void mt_close(void *itp)
{
    mt_it *it = itp;
    if (!it)
        return;
    mt_part_reader_close(it->r);
    block_free(it->final_result);
    free(it->cols);
    free(it);
}

static int64_t mt_count_rows(source *src, query_ctx *q)
{
    (void)q;
    mt_src *s = src->impl;
    if (s->final && s->m->kind != MT_PLAIN)
        return -1;
    int64_t n = 0;
    for (int i = 0; i < s->nparts; i++)
        n += (int64_t)s->parts[i]->rows;
    return n;
}

static void mt_destroy(source *src)
{
    mt_src *s = src->impl;
    if (!s)
        return;
    for (int i = 0; s->keep && i < s->nparts; i++)
        free(s->keep[i]);
    free(s->keep);
    mt_snapshot_free(s->parts, s->nparts);
    free(s->tasks);
    table_unref(s->t);
    free(s);
}

int mt_read_source(mt_table *m, bool final, query_ctx *q, source **out)
{
    mt_src *s = xcalloc(1, sizeof *s);
    s->t = table_ref(m->t);
    s->m = m;
    s->final = final;
    int64_t mb = settings_int(q->st, "max_block_size");
    s->max_block = mb > 0 ? (int)mb : 65409;
    s->nparts = mt_snapshot(m, &s->parts);
    build_tasks(s);
    source *src = xcalloc(1, sizeof *src);
    src->sch = schema_clone(m->t->sch);
    src->nvisible = src->sch->n;
    src->ntasks = s->ntasks;
    uint64_t total = 0;
    for (int i = 0; i < s->nparts; i++)
        total += s->parts[i]->rows;
    src->total_rows_hint = total;
    src->open = mt_open;
    src->next = mt_next;
    src->close = mt_close;
    src->destroy = mt_destroy;
    src->count_rows = mt_count_rows;
    src->set_filter = mt_set_filter;
    src->impl = s;
    *out = src;
    return 0;
}
