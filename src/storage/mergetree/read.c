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
    bool *coded;          /* per table column: may come back dictionary-coded, or NULL */
    const schema *sch;    /* the source's: stored columns, then the virtual ones */
} mt_src;

typedef struct mt_it {
    mt_src *s;
    query_ctx *q;
    int ncols;
    int *cols;            /* asked for: stored columns, then virtual ones (>= the table's) */
    int nstored;          /* how many of cols are stored columns (the reader's) */
    bool virtuals;        /* some asked column is virtual */
    uint64_t offset;      /* the row of the part the next block starts at */
    task t;
    mt_part_reader *r;
    block *final_result;  /* FINAL: the collapsed partition */
    bool done;
} mt_it;

/* ---- virtual columns ---- */

/* ClickHouse's virtual columns of a MergeTree table, after its stored columns in the
 * source's schema (SELECT * leaves them out). _partition_value exists only with a
 * partition key. */
enum { V_PART, V_PART_INDEX, V_PART_OFFSET, V_PARTITION_ID, V_PART_UUID, V_PART_DATA_VERSION,
       V_PART_STARTING_OFFSET, V_TABLE, V_DATABASE, V_DISK_NAME, V_ROW_EXISTS, V_PARTITION_VALUE, V_COUNT };
static const char *const virtual_names[V_COUNT] = {
    "_part", "_part_index", "_part_offset", "_partition_id", "_part_uuid", "_part_data_version",
    "_part_starting_offset", "_table", "_database", "_disk_name", "_row_exists", "_partition_value"};

static const type *virtual_type(const mt_table *m, int v)
{
    switch (v) {
    case V_PART: case V_PARTITION_ID: case V_TABLE: case V_DATABASE: case V_DISK_NAME:
        return type_lowcard(type_simple(T_STRING));
    case V_PART_UUID: return type_simple(T_UUID);
    case V_ROW_EXISTS: return type_simple(T_UINT8);
    case V_PARTITION_VALUE: return type_tuple(m->part_key.n, m->part_key.types, NULL);
    default: return type_simple(T_UINT64);
    }
}

static column *const_string(const type *t, const char *v, size_t rows)
{
    column *one = col_new(t);
    col_push_str(one, v, strlen(v));
    return col_new_const(one, rows);
}

static column *const_u64(uint64_t v, size_t rows)
{
    column *one = col_new(type_simple(T_UINT64));
    col_push_fixed(one, &v);
    return col_new_const(one, rows);
}

/* Virtual column v for `rows` rows of part i of the snapshot, from row `offset` on. */
static column *virtual_column(const mt_src *s, int v, int i, uint64_t offset, size_t rows)
{
    const mt_part *p = s->parts[i];
    const type *t = virtual_type(s->m, v);
    switch (v) {
    case V_PART: return const_string(t, p->name, rows);
    case V_PARTITION_ID: return const_string(t, p->partition_id, rows);
    case V_TABLE: return const_string(t, s->t->name, rows);
    case V_DATABASE: return const_string(t, s->t->database, rows);
    case V_DISK_NAME: return const_string(t, "default", rows);
    case V_PART_INDEX: return const_u64((uint64_t)i, rows);
    case V_PART_DATA_VERSION: return const_u64((uint64_t)(p->mutation ? p->mutation : p->min_block), rows);
    case V_PART_STARTING_OFFSET: {
        uint64_t start = 0;
        for (int k = 0; k < i; k++)
            start += s->parts[k]->rows;
        return const_u64(start, rows);
    }
    case V_PART_OFFSET: {
        column *c = col_new(type_simple(T_UINT64));
        col_reserve(c, rows);
        for (size_t r = 0; r < rows; r++) {
            uint64_t x = offset + r;
            col_push_fixed(c, &x);
        }
        return c;
    }
    case V_ROW_EXISTS: {
        uint8_t one = 1;
        column *c = col_new(t);
        col_push_fixed(c, &one);
        return col_new_const(c, rows);
    }
    case V_PARTITION_VALUE: {
        column *one = col_new(t);
        for (int f = 0; f < one->nfields; f++)
            col_push_from(one->fields[f], p->partition->cols[f], 0);
        one->len = 1;
        return col_new_const(one, rows);
    }
    default: { /* V_PART_UUID: parts have none */
        column *c = col_new(t);
        col_push_default(c);
        return col_new_const(c, rows);
    }
    }
}

/* b (the stored columns it->cols[0..nstored) of rows from part i) widened to every asked
 * column. Takes b. */
static block *with_virtuals(mt_it *it, int i, block *b)
{
    int n = it->s->t->sch->n;
    block *o = block_new(it->ncols, b->rows);
    int k = 0;
    for (int c = 0; c < it->ncols; c++)
        o->cols[c] = it->cols[c] < n ? col_ref(b->cols[k++])
                                      : virtual_column(it->s, it->cols[c] - n, i, it->offset, b->rows);
    it->offset += b->rows;
    block_free(b);
    return o;
}

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

/* May a value between lo and hi satisfy the filter? A NULL bound column means unbounded;
 * open_lo / open_hi exclude the bound itself (x > lo, x < hi). */
static bool bounds_may_match(const src_filter *f, const column *lo_col, size_t lo, bool open_lo, const column *hi_col,
                             size_t hi, bool open_hi)
{
    bool ok = true;
    const column *v = f->vals;
    int c;
    /* is v[k] above the lower bound / below the upper bound (true when unknown) */
    #define ABOVE_LO(k) (!lo_col || (c = cmp_val(lo_col, lo, v, k, &ok), !ok || (open_lo ? c < 0 : c <= 0)))
    #define BELOW_HI(k) (!hi_col || (c = cmp_val(hi_col, hi, v, k, &ok), !ok || (open_hi ? c > 0 : c >= 0)))
    switch (f->op) {
    case SF_EQ: return ABOVE_LO(0) && BELOW_HI(0);
    case SF_LT: return !lo_col || (c = cmp_val(lo_col, lo, v, 0, &ok), !ok || c < 0);
    case SF_LE: return !lo_col || (c = cmp_val(lo_col, lo, v, 0, &ok), !ok || (open_lo ? c < 0 : c <= 0));
    case SF_GT: return !hi_col || (c = cmp_val(hi_col, hi, v, 0, &ok), !ok || c > 0);
    case SF_GE: return !hi_col || (c = cmp_val(hi_col, hi, v, 0, &ok), !ok || (open_hi ? c > 0 : c >= 0));
    case SF_IN:
        for (size_t k = 0; k < v->len; k++)
            if (ABOVE_LO(k) && BELOW_HI(k))
                return true;
        return false;
    case SF_NE:
    case SF_NOT_IN:
        /* only a single-value range can fail: x != v fails everywhere on [v, v] */
        if (!lo_col || !hi_col || open_lo || open_hi || (c = cmp_val(lo_col, lo, hi_col, hi, &ok), !ok || c != 0))
            return true;
        for (size_t k = 0; k < v->len; k++)
            if ((c = cmp_val(lo_col, lo, v, k, &ok), ok && c == 0))
                return false;
        return true;
    default: return true;
    }
    #undef ABOVE_LO
    #undef BELOW_HI
}

static bool range_may_match(const src_filter *f, const column *lo_col, size_t lo, const column *hi_col, size_t hi)
{
    return bounds_may_match(f, lo_col, lo, false, hi_col, hi, false);
}

/* Can a and b be compared exactly as WHERE compares them? (The same type, or integers.) */
static bool exact_comparable(const column *a, const column *b)
{
    const type *ta = type_phys(a->type), *tb = type_phys(b->type);
    if (ta->id == T_NULLABLE || tb->id == T_NULLABLE)
        return false;
    if (ta == tb || (ta->id == tb->id && !type_is_decimal(ta) && ta->id != T_DATETIME64 && ta->id != T_FIXEDSTRING &&
                     ta->id != T_ARRAY && ta->id != T_TUPLE && ta->id != T_MAP))
        return true;
    return type_is_number(ta) && type_is_number(tb) && !type_is_float(ta) && !type_is_float(tb) &&
           !type_is_decimal(ta) && !type_is_decimal(tb);
}

/* Does every value between the bounds (as in bounds_may_match) satisfy the filter?
 * False when unsure. */
static bool bounds_all_match(const src_filter *f, const column *lo_col, size_t lo, bool open_lo, const column *hi_col,
                             size_t hi, bool open_hi)
{
    const column *v = f->vals;
    bool ok = true;
    int c;
    if ((lo_col && !exact_comparable(lo_col, v)) || (hi_col && !exact_comparable(hi_col, v)))
        return false;
    switch (f->op) {
    case SF_EQ:
    case SF_IN:
        if (!lo_col || !hi_col || open_lo || open_hi || cmp_val(lo_col, lo, hi_col, hi, &ok) != 0 || !ok)
            return false;
        for (size_t k = 0; k < v->len; k++)
            if (cmp_val(lo_col, lo, v, k, &ok) == 0 && ok)
                return true;
        return false;
    case SF_LT: return hi_col && (c = cmp_val(hi_col, hi, v, 0, &ok), ok && (c < 0 || (open_hi && c == 0)));
    case SF_LE: return hi_col && (c = cmp_val(hi_col, hi, v, 0, &ok), ok && c <= 0);
    case SF_GT: return lo_col && (c = cmp_val(lo_col, lo, v, 0, &ok), ok && (c > 0 || (open_lo && c == 0)));
    case SF_GE: return lo_col && (c = cmp_val(lo_col, lo, v, 0, &ok), ok && c >= 0);
    case SF_NE:
    case SF_NOT_IN: {
        src_filter in = {.col = f->col, .op = SF_IN, .vals = f->vals};
        return !bounds_may_match(&in, lo_col, lo, open_lo, hi_col, hi, open_hi);
    }
    default: return false;
    }
}

/* What the filters can be over a set of rows: can_true (some row may satisfy all of them)
 * and can_false (some row may fail one), as ClickHouse's BoolMask. */
typedef struct bmask {
    bool can_true, can_false;
} bmask;

static bmask bm_and(bmask a, bmask b) { return (bmask){a.can_true && b.can_true, a.can_false || b.can_false}; }
static bmask bm_or(bmask a, bmask b) { return (bmask){a.can_true || b.can_true, a.can_false || b.can_false}; }

/* Primary-key analysis of one granule, in the manner of ClickHouse's KeyCondition: the
 * granule holds keys between lo = index[g] and hi = index[g + 1] in lexicographic order,
 * which is the union of "x0 = lo0 and the rest >= lo's rest", "lo0 < x0 < hi0 (rest
 * free)" and "x0 = hi0 and the rest <= hi's rest", recursively. Filters on the table's
 * columns (f.col >= 0) are exact over a key column that is that column; filters derived
 * through monotonic key functions (f.col = -(i + 1)) only prune. */
typedef struct key_ctx {
    mt_table *m;
    const mt_part *p;
    size_t g;
    const src_filter *fl;
    int n;
    const int *skip_to;   /* per key column: the later key column that orders it, or itself */
} key_ctx;

static bmask col_mask(const key_ctx *c, int i, const column *lo, size_t lr, bool olo, const column *hi, size_t hr,
                      bool ohi)
{
    bmask r = {true, false};
    for (int f = 0; f < c->n; f++) {
        const src_filter *fl = &c->fl[f];
        bool direct = c->m->sort.src_col[i] == fl->col;
        if (!direct && fl->col != -(i + 1))
            continue;
        if (!bounds_may_match(fl, lo, lr, olo, hi, hr, ohi))
            r.can_true = false;
        if (direct && !bounds_all_match(fl, lo, lr, olo, hi, hr, ohi))
            r.can_false = true;
    }
    return r;
}

enum { RECT_BOTH, RECT_FROM_LO, RECT_TO_HI, RECT_FREE };

/* The filters over the granule's keys on columns i…, bounded as mode says. */
static bmask key_rect(const key_ctx *c, int i, int mode)
{
    if (i >= c->m->nprimary)
        return (bmask){true, false};
    if (c->skip_to[i] != i)
        return key_rect(c, c->skip_to[i], mode);
    const column *k = c->p->index[i];
    size_t lo = c->g, hi = c->g + 1;
    switch (mode) {
    case RECT_FREE: return bm_and(col_mask(c, i, NULL, 0, false, NULL, 0, false), key_rect(c, i + 1, RECT_FREE));
    case RECT_FROM_LO:
        return bm_or(bm_and(col_mask(c, i, k, lo, false, k, lo, false), key_rect(c, i + 1, RECT_FROM_LO)),
                     bm_and(col_mask(c, i, k, lo, true, NULL, 0, false), key_rect(c, i + 1, RECT_FREE)));
    case RECT_TO_HI:
        return bm_or(bm_and(col_mask(c, i, k, hi, false, k, hi, false), key_rect(c, i + 1, RECT_TO_HI)),
                     bm_and(col_mask(c, i, NULL, 0, false, k, hi, true), key_rect(c, i + 1, RECT_FREE)));
    default:
        if (col_compare(k, lo, k, hi, 1) == 0)
            return bm_and(col_mask(c, i, k, lo, false, k, lo, false), key_rect(c, i + 1, RECT_BOTH));
        return bm_or(bm_or(bm_and(col_mask(c, i, k, lo, false, k, lo, false), key_rect(c, i + 1, RECT_FROM_LO)),
                           bm_and(col_mask(c, i, k, lo, true, k, hi, true), key_rect(c, i + 1, RECT_FREE))),
                     bm_and(col_mask(c, i, k, hi, false, k, hi, false), key_rect(c, i + 1, RECT_TO_HI)));
    }
}

/* Key column i = f(x) with f monotonic non-decreasing, followed by key columns that are
 * also functions of x and then x itself at column j: ordering by columns i…j is ordering
 * by x, so the analysis bounds x at column j directly (toDate(t), t orders as t). */
static void key_skips(const mt_table *m, int *skip_to)
{
    for (int i = 0; i < m->nprimary; i++) {
        skip_to[i] = i;
        int x = m->sort.mono_col[i];
        if (x < 0)
            continue;
        for (int j = i + 1; j < m->nprimary; j++) {
            if (m->sort.src_col[j] == x) {
                skip_to[i] = j;
                break;
            }
            if (m->sort.mono_col[j] != x)
                break;
        }
    }
}

/* Marks the granules of part p: 0 none can match, 1 some may, 2 all rows match every
 * filter (when the filters are all on key columns). */
static uint8_t *prune_granules(mt_table *m, const mt_part *p, const src_filter *fl, int n, size_t *kept)
{
    uint8_t *keep = xmalloc(p->ngranules + 1);
    memset(keep, 1, p->ngranules + 1);
    *kept = p->ngranules;
    if (!p->index || p->nindex < p->ngranules + 1 || !m->nprimary)
        return keep; /* no final index entry: the last granule's end is unknown */
    bool any = false, all_on_key = true;
    for (int f = 0; f < n; f++) {
        bool on_key = false;
        for (int i = 0; i < m->nprimary; i++) {
            any |= m->sort.src_col[i] == fl[f].col || fl[f].col == -(i + 1);
            on_key |= m->sort.src_col[i] == fl[f].col || fl[f].col < 0;
        }
        all_on_key &= on_key;
    }
    if (!any)
        return keep;
    int *skip_to = xmalloc(sizeof(int) * (size_t)(m->nprimary + 1));
    key_skips(m, skip_to);
    for (size_t g = 0; g < p->ngranules; g++) {
        key_ctx c = {m, p, g, fl, n, skip_to};
        bmask r = key_rect(&c, 0, RECT_BOTH);
        if (!r.can_true) {
            keep[g] = 0;
            (*kept)--;
        } else if (!r.can_false && all_on_key) {
            keep[g] = 2;
        }
    }
    free(skip_to);
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

/* Conditions on a column c become conditions on key column j = f(c) (f monotonic):
 * c = v → j = f(v), c < v and c <= v → j <= f(v), c > v and c >= v → j >= f(v), IN maps
 * each value. Derived filters name the key column as col = -(j + 1). */
static int derive_filters(mt_table *m, const src_filter *fl, int n, src_filter **out)
{
    src_filter *d = NULL;
    int nd = 0;
    table *t = m->t;
    for (int j = 0; j < m->nprimary; j++) {
        int c = m->sort.mono_col[j];
        if (c < 0)
            continue;
        for (int f = 0; f < n; f++) {
            /* only ordering ops carry over through f (not !=, NOT IN or LIKE patterns) */
            bool ordering = fl[f].op == SF_EQ || fl[f].op == SF_LT || fl[f].op == SF_LE || fl[f].op == SF_GT ||
                            fl[f].op == SF_GE || fl[f].op == SF_IN;
            if (fl[f].col != c || !ordering || !fl[f].vals->len ||
                type_phys(fl[f].vals->type) != type_strip_nullable(t->sch->types[c]) ||
                type_is_nullable(t->sch->types[c]))
                continue;
            size_t rows = fl[f].vals->len;
            block *b = block_new(t->sch->n, rows);
            for (int k = 0; k < t->sch->n; k++)
                b->cols[k] = k == c ? col_ref(fl[f].vals) : col_new_defaults(t->sch->types[k], rows);
            column *fv;
            int rc = expr_eval(m->sort.exprs[j], b, &fv);
            block_free(b);
            if (rc) {
                err_clear(); /* a value the function rejects: just no pruning */
                continue;
            }
            if (fv->is_const)
                fv = col_materialize(fv);
            src_filter_op op = fl[f].op;
            if (op == SF_LT)
                op = SF_LE;
            if (op == SF_GT)
                op = SF_GE;
            d = xrealloc(d, sizeof *d * (size_t)(nd + 1));
            d[nd++] = (src_filter){.col = -(j + 1), .op = op, .vals = fv};
        }
    }
    *out = d;
    return nd;
}

static void mt_set_filter(source *src, const src_filter *given, int ngiven, query_ctx *q)
{
    (void)q;
    mt_src *s = src->impl;
    if (s->final)
        return;
    src_filter *derived;
    int nd = derive_filters(s->m, given, ngiven, &derived);
    int n = ngiven + nd;
    src_filter *fl = xmalloc(sizeof *fl * (size_t)(n + 1));
    if (ngiven)
        memcpy(fl, given, sizeof *fl * (size_t)ngiven);
    if (nd)
        memcpy(fl + ngiven, derived, sizeof *fl * (size_t)nd);
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
    for (int i = 0; i < nd; i++)
        col_free(derived[i].vals);
    free(derived);
    free(fl);
}

static uint64_t mt_take_matching(source *src, query_ctx *q)
{
    (void)q;
    mt_src *s = src->impl;
    uint64_t n = 0;
    for (int i = 0; s->keep && i < s->nparts; i++)
        for (size_t g = 0; s->keep[i] && g < s->parts[i]->ngranules; g++)
            if (s->keep[i][g] == 2) {
                n += s->parts[i]->granule_start[g + 1] - s->parts[i]->granule_start[g];
                s->keep[i][g] = 0;
            }
    build_tasks(s);
    src->ntasks = s->ntasks;
    return n;
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
    /* Stored columns, then (when the query asks for any) every virtual column, which the
     * collapse carries along with its row. */
    block *acc = block_new_empty(it->virtuals ? s->sch : t->sch);
    int rc = 0;
    for (int i = it->t.part; i < it->t.partition_end && !rc; i++) {
        mt_part_reader *r;
        if ((rc = mt_part_reader_open(m, s->parts[i], all, nall, 0, s->parts[i]->ngranules, &r)))
            break;
        block *b;
        uint64_t offset = 0;
        while (!(rc = mt_part_reader_next(r, 1 << 20, &b)) && b) {
            query_add_read(it->q, b->rows, block_bytes(b));
            if (it->virtuals) {
                block *w = block_new(acc->ncols, b->rows);
                for (int c = 0; c < acc->ncols; c++)
                    w->cols[c] = c < nall ? col_ref(b->cols[c]) : virtual_column(s, c - nall, i, offset, b->rows);
                offset += b->rows;
                block_free(b);
                b = w;
            }
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
    block *res = mt_collapse_sorted(m, acc, perm, true);
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
    /* The reader reads the stored columns; virtual ones are made for each block. */
    int n = s->t->sch->n;
    int *stored = xmalloc(sizeof(int) * (size_t)(ncols + 1));
    for (int i = 0; i < ncols; i++) {
        if (cols[i] < n)
            stored[it->nstored++] = cols[i];
        else
            it->virtuals = true;
    }
    if (!s->final && it->t.g0 < s->parts[it->t.part]->ngranules)
        it->offset = s->parts[it->t.part]->granule_start[it->t.g0];
    int rc = s->final ? read_final(it)
                      : mt_part_reader_open(s->m, s->parts[it->t.part], stored, it->nstored, it->t.g0, it->t.g1,
                                            &it->r);
    if (!rc && it->r && s->coded) {
        bool *want = xcalloc((size_t)ncols + 1, sizeof *want);
        for (int i = 0; i < it->nstored; i++)
            want[i] = s->coded[stored[i]];
        mt_part_reader_accept_codes(it->r, want);
        free(want);
    }
    free(stored);
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
        query_add_read(it->q, (*out)->rows, mt_part_reader_block_bytes(it->r));
    if (*out && it->virtuals)
        *out = with_virtuals(it, it->t.part, *out);
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
    free(s->coded);
    table_unref(s->t);
    free(s);
}

/* String columns the query evaluates per distinct value (exec/select_codes.h) are read
 * coded while their values repeat (mt_part_reader_accept_codes). */
static void mt_accept_codes(source *src, const bool *coded)
{
    mt_src *s = src->impl;
    int n = src->sch->n;
    free(s->coded);
    s->coded = xcalloc((size_t)n + 1, sizeof *s->coded);
    memcpy(s->coded, coded, sizeof *coded * (size_t)n);
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
    int nstored = m->t->sch->n, nvirt = m->part_key.n ? V_COUNT : V_PARTITION_VALUE;
    src->sch = schema_new(nstored + nvirt);
    for (int c = 0; c < nstored; c++)
        schema_set(src->sch, c, m->t->sch->names[c], m->t->sch->types[c]);
    for (int v = 0; v < nvirt; v++)
        schema_set(src->sch, nstored + v, virtual_names[v], virtual_type(m, v));
    src->nvisible = nstored;
    s->sch = src->sch;
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
    src->take_matching = mt_take_matching;
    src->accept_codes = mt_accept_codes;
    src->impl = s;
    *out = src;
    return 0;
}
