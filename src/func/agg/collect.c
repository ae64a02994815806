/* Aggregates that collect values: groupUniqArray, topK; and sumKahan.
 *
 * groupUniqArray([max_size])(x): the distinct values. For fixed-width values of up to 8
 * bytes the result order is ClickHouse's: its hash set (intHash64 of the zero-extended
 * bits, 16 cells growing 4x when more than half full, linear probing, the all-zero key
 * kept aside and listed first) is reproduced, and the array lists the cells in order.
 * Its state (numbers, Date, Date32, DateTime) is that set as ClickHouse writes it (chset.h).
 * String and FixedString follow ClickHouse's HashSetWithSavedHash (StringRefHash, 8 cells
 * growing 4x, the empty string as the zero key), so order and state are ClickHouse's.
 * Other types (wide numbers, arrays...) are listed in first-seen order, which differs from
 * ClickHouse's (compare them through arraySort).
 *
 * topK(N[, load_factor])(x): ClickHouse's Filtered Space-Saving with capacity
 * N * load_factor (default 3): counters kept sorted by (count desc, error asc) with
 * one-step bubbling, an "alpha" map of 6 * capacity (rounded up to a power of 2) slots
 * for evicted keys, the reduce-and-combine merge. The result is the first N counters.
 * Ties: ClickHouse's final merge sorts with an unstable sort, so the order of values with
 * equal counts may differ from ClickHouse's; counts that differ order exactly. The state
 * (numbers) is SpaceSaving's layout; it equals ClickHouse's while nothing was evicted.
 *
 * sumKahan(x): Float64 Kahan-compensated sum of numbers (an exact Decimal(38, S) sum
 * for Decimal arguments), with ClickHouse's batch loop (four interleaved lanes) and merge
 * step, so single-block results match to the last bit; over many blocks the last bits
 * depend on block boundaries and thread merges and may differ.
 *
 * States own their memory (mem_*), released by destroy. */
#include "agg_impl.h"
#include "base/mix.h"
#include "chset.h"
#include "func/agg_state.h"

#include <math.h>
#include <stdlib.h>

void agg_register_collect(void);

/* ---- a set of row indices into a value column, keyed by a 64-bit hash ---- */

typedef struct rowset {
    uint32_t *cells; /* index + 1, 0 = empty, UINT32_MAX = deleted */
    size_t cap, used;
} rowset;

static uint64_t row_hash(const column *c, size_t i) { return mix64(col_hash_row(c, i)); }

static void rs_free(rowset *s)
{
    mem_free(s->cells);
    memset(s, 0, sizeof *s);
}

/* Finds value src[i] among vals; returns its index or -1, and the free cell in *slot. */
static int64_t rs_find(const rowset *s, const column *vals, const column *src, size_t i, uint64_t h, size_t *slot)
{
    if (!s->cap) {
        *slot = SIZE_MAX;
        return -1;
    }
    size_t m = s->cap - 1, p = h & m, free_slot = SIZE_MAX;
    for (;;) {
        uint32_t c = s->cells[p];
        if (c == 0) {
            *slot = free_slot != SIZE_MAX ? free_slot : p;
            return -1;
        }
        if (c == UINT32_MAX) {
            if (free_slot == SIZE_MAX)
                free_slot = p;
        } else if (col_equal_rows(vals, c - 1, src, i)) {
            *slot = p;
            return c - 1;
        }
        p = (p + 1) & m;
    }
}

static void rs_rebuild(rowset *s, const column *vals, const uint8_t *dead, size_t need)
{
    size_t cap = 16;
    while (cap < need * 2 + 2)
        cap *= 2;
    mem_free(s->cells);
    s->cells = mem_calloc(cap * sizeof *s->cells);
    s->cap = cap;
    s->used = 0;
    for (size_t j = 0; j < vals->len; j++) {
        if (dead && dead[j])
            continue;
        size_t p = row_hash(vals, j) & (cap - 1);
        while (s->cells[p])
            p = (p + 1) & (cap - 1);
        s->cells[p] = (uint32_t)j + 1;
        s->used++;
    }
}

/* ---- groupUniqArray ---- */

typedef struct gu_state {
    chset fx;           /* fixed-width path: ClickHouse's hash set, cell for cell; string
                           path: ClickHouse's string set's cells, each (row + 1) << 32 | hash */
    column *vals;       /* generic and string paths: the distinct values */
    rowset set;
    bool str_empty;     /* string path: the empty string (ClickHouse's zero key) is in */
} gu_state;

/* String and FixedString: ClickHouse's HashSetWithSavedHash of the bytes (StringRefHash),
 * reproduced by the fixed-width chset over keys whose low 32 bits are the saved hash. */
static bool gu_str(const agg_call *a)
{
    type_id t = type_base(a->ret->inner)->id;
    return t == T_STRING || t == T_FIXEDSTRING;
}

static bool gu_fixed(const agg_call *a)
{
    const type *t = type_phys(a->ret->inner);
    return t->width && t->width <= 8 && t->id != T_FIXEDSTRING && t->id != T_NULLABLE;
}

static size_t gu_limit(const agg_call *a) { return a->nparams ? (size_t)a->params[0] : SIZE_MAX; }

/* ClickHouse inserts only while the set is below max_size. */
static void gu_insert_key(const agg_call *a, gu_state *s, uint128_t k)
{
    if (s->fx.size < gu_limit(a))
        chset_insert(&s->fx, k);
}

/* Appends src[i] to vals unless it is there already; true when appended. */
static bool gu_add_distinct(const agg_call *a, gu_state *s, const column *src, size_t i)
{
    uint64_t h = row_hash(src, i);
    size_t slot;
    if (rs_find(&s->set, s->vals, src, i, h, &slot) >= 0)
        return false;
    if (slot == SIZE_MAX || (s->set.used + 1) * 2 > s->set.cap) {
        rs_rebuild(&s->set, s->vals, NULL, s->vals->len + 1);
        rs_find(&s->set, s->vals, src, i, h, &slot);
    }
    s->set.cells[slot] = (uint32_t)s->vals->len + 1;
    s->set.used++;
    column v = *src;
    v.type = s->vals->type;
    col_push_from(s->vals, &v, i);
    return true;
}

static void gu_insert_row(const agg_call *a, gu_state *s, const column *src, size_t i)
{
    if (!s->vals)
        s->vals = col_new(type_phys(a->ret->inner));
    if (s->vals->len >= gu_limit(a))
        return;
    gu_add_distinct(a, s, src, i);
}

/* The string path's insert: the empty string is ClickHouse's zero key, kept aside but
 * counted in the set's size (which the growth check reads). */
static void gu_insert_str(const agg_call *a, gu_state *s, const column *src, size_t i)
{
    if (s->fx.size >= gu_limit(a))
        return;
    size_t n;
    const char *p = col_str(src, i, &n);
    if (n == 0) {
        if (!s->str_empty) {
            s->str_empty = true;
            s->fx.size++;
        }
        return;
    }
    if (!s->vals)
        s->vals = col_new(type_phys(a->ret->inner));
    if (gu_add_distinct(a, s, src, i))
        chset_insert(&s->fx, ((uint128_t)s->vals->len << 32) | ch_string_ref_hash(p, n));
}

static inline size_t gu_str_row(uint128_t k) { return (size_t)(k >> 32) - 1; }

static inline void gu_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    gu_state *s = st;
    const column *c = args[0];
    if (gu_fixed(a)) {
        uint128_t k = 0;
        unsigned w = type_phys(a->ret->inner)->width;
        memcpy(&k, c->data.p + col_idx(c, i) * w, w);
        gu_insert_key(a, s, k);
    } else if (gu_str(a)) {
        gu_insert_str(a, s, c, i);
    } else {
        gu_insert_row(a, s, c, col_idx(c, i));
    }
}
AGG_ROW_OPS(gu, gu_row)

static void gu_init(const agg_call *a, void *st)
{
    gu_state *s = st;
    memset(s, 0, sizeof *s);
    if (gu_str(a))
        chset_init(&s->fx, 8, CHS_TRIVIAL128, 3); /* home cell: the saved hash's low bits */
    else
        chset_init(&s->fx, (int)type_phys(a->ret->inner)->width, CHS_INTHASH64, 4);
}

static void gu_destroy(const agg_call *a, void *st)
{
    gu_state *s = st;
    chset_free(&s->fx);
    col_free(s->vals);
    s->vals = NULL;
    rs_free(&s->set);
    s->str_empty = false;
}

static void gu_merge_key(void *ctx, uint128_t k) { gu_insert_key(((void **)ctx)[0], ((void **)ctx)[1], k); }

/* The string set in ClickHouse's iteration order: the empty string, then the cells. */
typedef struct gu_str_iter {
    const agg_call *a;
    gu_state *s;
    void (*fn)(const struct gu_str_iter *it, const column *vals, size_t row);
    void *ctx;
} gu_str_iter;

static void gu_str_cell(void *ctx, uint128_t k)
{
    const gu_str_iter *it = ctx;
    it->fn(it, it->s->vals, gu_str_row(k));
}

static void gu_str_each(gu_str_iter *it)
{
    if (it->s->str_empty)
        it->fn(it, NULL, 0);
    chset_each(&it->s->fx, gu_str_cell, it);
}

static void gu_str_merge_one(const gu_str_iter *it, const column *vals, size_t row)
{
    gu_state *d = it->ctx;
    if (!vals) { /* the empty string */
        if (!d->str_empty && d->fx.size < gu_limit(it->a)) {
            d->str_empty = true;
            d->fx.size++;
        }
        return;
    }
    gu_insert_str(it->a, d, vals, row);
}

static void gu_merge(const agg_call *a, void *dst, void *src)
{
    gu_state *d = dst, *s = src;
    if (gu_str(a)) {
        gu_str_iter it = {a, s, gu_str_merge_one, d};
        gu_str_each(&it);
    } else if (gu_fixed(a)) {
        void *ctx[2] = {(void *)a, d};
        chset_each(&s->fx, gu_merge_key, ctx);
    } else if (s->vals) {
        for (size_t j = 0; j < s->vals->len; j++)
            gu_insert_row(a, d, s->vals, j);
    }
    gu_destroy(a, src);
}

static void gu_push_key(void *ctx, uint128_t k) { col_push_fixed(ctx, &k); /* little-endian: low bytes */ }

static void gu_str_put(const gu_str_iter *it, const column *vals, size_t row)
{
    size_t n = 0;
    const char *p = vals ? col_str(vals, row, &n) : "";
    agg_put_varuint(it->ctx, n);
    buf_append(it->ctx, p, n);
}

static void gu_str_push(const gu_str_iter *it, const column *vals, size_t row)
{
    column *out = it->ctx;
    if (vals)
        col_push_from(out, vals, row);
    else
        col_push_default(out); /* the empty string */
}

/* HashSet::write / read of the fixed-width set; the string set as ClickHouse's generic
 * groupUniqArray writes it (VarUInt count, each string as VarUInt length + bytes, in
 * iteration order) and reads it (each string inserted in turn). */
static void gu_serialize(const agg_call *a, const void *st, buf *out)
{
    gu_state *s = (gu_state *)st;
    if (gu_str(a)) {
        agg_put_varuint(out, s->fx.size);
        gu_str_iter it = {a, s, gu_str_put, out};
        gu_str_each(&it);
        return;
    }
    chset_write(&s->fx, out);
}

static int gu_str_deserialize(const agg_call *a, gu_state *s, agg_rd *in)
{
    uint64_t n;
    gu_destroy(a, s);
    gu_init(a, s);
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > gu_limit(a) || n > (uint64_t)(in->end - in->p))
        return n > gu_limit(a) ? err_set(ERR_INCORRECT_DATA, "groupUniqArray state holds %llu values, more than its "
                                         "max_size", (unsigned long long)n)
                               : agg_rd_short(in, (size_t)n);
    column *one = col_new(type_phys(a->ret->inner)); /* the strings read, in order */
    const type *t = type_phys(a->ret->inner);
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        uint64_t len;
        if (agg_rd_varuint(in, &len) < 0 || len > (uint64_t)(in->end - in->p)) {
            rc = len > (uint64_t)(in->end - in->p) ? agg_rd_short(in, (size_t)len) : -1;
            break;
        }
        if (t->id == T_FIXEDSTRING && len != t->width) {
            rc = err_set(ERR_INCORRECT_DATA, "groupUniqArray state holds a value of %llu bytes for %s",
                         (unsigned long long)len, t->name);
            break;
        }
        col_push_str(one, (const char *)in->p, (size_t)len);
        in->p += len;
        gu_insert_str(a, s, one, (size_t)i);
    }
    col_free(one);
    return rc;
}

static int gu_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    gu_state *s = st;
    if (gu_str(a))
        return gu_str_deserialize(a, s, in);
    if (chset_read(&s->fx, in) < 0)
        return -1;
    if (s->fx.size > gu_limit(a))
        return err_set(ERR_INCORRECT_DATA, "groupUniqArray state holds %llu values, more than its max_size",
                       (unsigned long long)s->fx.size);
    return 0;
}

/* Types whose ClickHouse state holds the values raw (groupUniqArray's hash set, topK's
 * counters): numbers and the date/time types stored as one. */
static bool gu_has_state(const agg_call *a)
{
    const type *t = type_base(a->ret->inner);
    switch (t->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
    case T_FLOAT32: case T_FLOAT64: case T_DATE: case T_DATE32: case T_DATETIME: return true;
    default: return false;
    }
}

static int gu_finalize(const agg_call *a, void *st, column *out)
{
    gu_state *s = st;
    if (gu_str(a)) {
        gu_str_iter it = {a, s, gu_str_push, out->inner};
        gu_str_each(&it);
    } else if (gu_fixed(a)) {
        chset_each(&s->fx, gu_push_key, out->inner);
    } else if (s->vals && s->vals->len) {
        col_push_range(out->inner, s->vals, 0, s->vals->len);
    }
    col_array_commit(out);
    return 0;
}

static int gu_resolve(agg_call *a)
{
    if (agg_need_args(a, 1) < 0)
        return -1;
    if (a->nparams > 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Incorrect number of parameters for aggregate function %s, should be 0 or 1", a->def->name);
    if (a->nparams == 1 && (a->params[0] < 1 || a->params[0] != floor(a->params[0])))
        return err_set(ERR_BAD_ARGUMENTS, "Parameter for aggregate function %s should be positive number", a->def->name);
    a->ret = type_array(type_base(a->arg_types[0]));
    a->state_size = sizeof(gu_state);
    a->state_align = _Alignof(gu_state);
    a->ops = (agg_ops){.init = gu_init, .merge = gu_merge, .finalize = gu_finalize, .destroy = gu_destroy};
    if (gu_has_state(a) || gu_str(a)) {
        a->ops.serialize = gu_serialize;
        a->ops.deserialize = gu_deserialize;
    }
    AGG_SET_ADD_OPS(a, gu);
    return 0;
}

/* ---- topK: Filtered Space-Saving ---- */

typedef struct tk_state {
    column *vals;      /* values; an evicted value's row stays, marked dead */
    uint8_t *dead;
    uint64_t *count, *error, *hash;
    uint32_t *list;    /* value indices, by (count desc, error asc) */
    uint32_t *slot;    /* value index -> position in list */
    size_t n, cap_rows;/* live counters (list length) and rows allocated */
    uint64_t *alpha;
    size_t nalpha;
    rowset set;
} tk_state;

static size_t tk_capacity(const agg_call *a)
{
    double lf = a->nparams > 1 ? a->params[1] : 3;
    return (size_t)a->params[0] * (size_t)lf;
}

static size_t tk_alpha_size(size_t cap)
{
    uint64_t x = (uint64_t)cap * 6;
    return (size_t)1 << (64 - __builtin_clzll(x));
}

static inline bool tk_greater(const tk_state *s, uint32_t x, uint32_t y)
{
    return s->count[x] > s->count[y] || (s->count[x] == s->count[y] && s->error[x] < s->error[y]);
}

static void tk_percolate(tk_state *s, uint32_t idx)
{
    while (s->slot[idx] > 0) {
        uint32_t pos = s->slot[idx], prev = s->list[pos - 1];
        if (!tk_greater(s, idx, prev))
            break;
        s->list[pos - 1] = idx;
        s->list[pos] = prev;
        s->slot[idx] = pos - 1;
        s->slot[prev] = pos;
    }
}

static void tk_grow_rows(tk_state *s, size_t need)
{
    if (need <= s->cap_rows)
        return;
    size_t c = s->cap_rows ? s->cap_rows * 2 : 16;
    while (c < need)
        c *= 2;
    s->dead = mem_realloc(s->dead, c);
    s->count = mem_realloc(s->count, c * sizeof *s->count);
    s->error = mem_realloc(s->error, c * sizeof *s->error);
    s->hash = mem_realloc(s->hash, c * sizeof *s->hash);
    s->list = mem_realloc(s->list, c * sizeof *s->list);
    s->slot = mem_realloc(s->slot, c * sizeof *s->slot);
    s->cap_rows = c;
}

/* Appends src[i] as a new counter at the end of the list (then bubbles it up). */
static void tk_push(tk_state *s, const column *src, size_t i, uint64_t h, uint64_t cnt, uint64_t err, bool perc)
{
    size_t idx = s->vals->len;
    tk_grow_rows(s, idx + 1);
    column v = *src;
    v.type = s->vals->type;
    col_push_from(s->vals, &v, i);
    s->dead[idx] = 0;
    s->count[idx] = cnt;
    s->error[idx] = err;
    s->hash[idx] = h;
    s->list[s->n] = (uint32_t)idx;
    s->slot[idx] = (uint32_t)s->n;
    s->n++;
    size_t slot;
    if (rs_find(&s->set, s->vals, s->vals, idx, h, &slot) < 0 && slot != SIZE_MAX &&
        (s->set.used + 1) * 2 <= s->set.cap) {
        s->set.cells[slot] = (uint32_t)idx + 1;
        s->set.used++;
    } else {
        rs_rebuild(&s->set, s->vals, s->dead, s->n);
    }
    if (perc)
        tk_percolate(s, (uint32_t)idx);
}

/* Drops the last counter of the list. Dead rows are compacted away when they outnumber
 * the live ones. */
static void tk_pop_last(tk_state *s)
{
    uint32_t idx = s->list[--s->n];
    s->dead[idx] = 1;
    size_t live = s->n;
    if (s->vals->len > 2 * live + 16) {
        /* compact: keep live rows in list order */
        column *nv = col_new(s->vals->type);
        col_reserve(nv, live);
        for (size_t k = 0; k < live; k++) {
            uint32_t j = s->list[k];
            col_push_from(nv, s->vals, j);
            s->count[k] = s->count[j];
            s->error[k] = s->error[j];
            s->hash[k] = s->hash[j];
        }
        for (size_t k = 0; k < live; k++) {
            s->list[k] = (uint32_t)k;
            s->slot[k] = (uint32_t)k;
            s->dead[k] = 0;
        }
        col_free(s->vals);
        s->vals = nv;
    }
    rs_rebuild(&s->set, s->vals, s->dead, live);
}

static void tk_insert(const agg_call *a, tk_state *s, const column *src, size_t i, uint64_t inc, uint64_t err)
{
    if (!s->vals) {
        s->vals = col_new(type_phys(a->ret->inner));
        s->nalpha = tk_alpha_size(tk_capacity(a));
        s->alpha = mem_calloc(s->nalpha * sizeof *s->alpha);
    }
    uint64_t h = row_hash(src, i);
    size_t slot;
    int64_t idx = rs_find(&s->set, s->vals, src, i, h, &slot);
    if (idx >= 0) {
        s->count[idx] += inc;
        s->error[idx] += err;
        tk_percolate(s, (uint32_t)idx);
        return;
    }
    size_t cap = tk_capacity(a);
    if (s->n < cap) {
        tk_push(s, src, i, h, inc, err, true);
        return;
    }
    uint32_t min = s->list[s->n - 1];
    if (inc > s->count[min]) {
        tk_pop_last(s);
        tk_push(s, src, i, h, inc, err, true);
        return;
    }
    size_t am = s->nalpha - 1;
    uint64_t *alpha = &s->alpha[h & am];
    if (*alpha + inc < s->count[min]) {
        *alpha += inc;
        return;
    }
    uint64_t al = *alpha;
    s->alpha[s->hash[min] & am] = s->count[min];
    tk_pop_last(s);
    tk_push(s, src, i, h, al + inc, al + err, true);
}

static inline void tk_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    tk_insert(a, st, args[0], col_idx(args[0], i), 1, 0);
}
AGG_ROW_OPS(tk, tk_row)

static void tk_init(const agg_call *a, void *st) { memset(st, 0, sizeof(tk_state)); }

static void tk_destroy(const agg_call *a, void *st)
{
    tk_state *s = st;
    col_free(s->vals);
    mem_free(s->dead);
    mem_free(s->count);
    mem_free(s->error);
    mem_free(s->hash);
    mem_free(s->list);
    mem_free(s->slot);
    mem_free(s->alpha);
    rs_free(&s->set);
    memset(s, 0, sizeof *s);
}

static const tk_state *tk_sort_state;
static int tk_cmp(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    if (tk_greater(tk_sort_state, a, b))
        return -1;
    if (tk_greater(tk_sort_state, b, a))
        return 1;
    return tk_sort_state->slot[a] < tk_sort_state->slot[b] ? -1 : tk_sort_state->slot[a] > tk_sort_state->slot[b];
}

/* Parallel Space-Saving reduce-and-combine (d absorbs s). */
static void tk_merge(const agg_call *a, void *dst, void *src)
{
    tk_state *d = dst, *s = src;
    if (!s->vals || !s->n) {
        tk_destroy(a, src);
        return;
    }
    if (!d->vals) {
        tk_destroy(a, dst);
        *d = *s;
        memset(s, 0, sizeof *s);
        return;
    }
    size_t cap = tk_capacity(a);
    uint64_t m1 = d->n == cap ? d->count[d->list[d->n - 1]] : 0;
    uint64_t m2 = s->n == cap ? s->count[s->list[s->n - 1]] : 0;
    if (m2)
        for (size_t k = 0; k < d->n; k++) {
            d->count[d->list[k]] += m2;
            d->error[d->list[k]] += m2;
        }
    for (size_t k = s->n; k-- > 0;) {
        uint32_t j = s->list[k];
        size_t slot;
        int64_t idx = rs_find(&d->set, d->vals, s->vals, j, s->hash[j], &slot);
        if (idx >= 0) {
            d->count[idx] += s->count[j] - m2;
            d->error[idx] += s->error[j] - m2;
        } else {
            tk_push(d, s->vals, j, s->hash[j], s->count[j] + m1, s->error[j] + m1, false);
        }
    }
    /* sort by (count desc, error asc); equal counters keep their list order */
    if (d->n) { /* d->list may be NULL when empty */
        tk_sort_state = d;
        uint32_t *order = mem_alloc(d->n * sizeof *order);
        memcpy(order, d->list, d->n * sizeof *order);
        qsort(order, d->n, sizeof *order, tk_cmp);
        tk_sort_state = NULL;
        memcpy(d->list, order, d->n * sizeof *order);
        mem_free(order);
    }
    for (size_t k = 0; k < d->n; k++)
        d->slot[d->list[k]] = (uint32_t)k;
    while (d->n > cap)
        tk_pop_last(d);
    tk_destroy(a, src);
}

static int tk_finalize(const agg_call *a, void *st, column *out)
{
    tk_state *s = st;
    size_t k = (size_t)a->params[0];
    for (size_t j = 0; j < s->n && j < k; j++)
        col_push_from(out->inner, s->vals, s->list[j]);
    col_array_commit(out);
    return 0;
}

/* SpaceSaving::write: VarUInt counters, each the key (raw, numbers only here), VarUInt count
 * and VarUInt error, in list order; then VarUInt alpha map size and the alpha values. */
static void tk_serialize(const agg_call *a, const void *st, buf *out)
{
    const tk_state *s = st;
    agg_put_varuint(out, s->n);
    for (size_t k = 0; k < s->n; k++) {
        uint32_t j = s->list[k];
        agg_put_value(out, s->vals, j);
        agg_put_varuint(out, s->count[j]);
        agg_put_varuint(out, s->error[j]);
    }
    agg_put_varuint(out, s->vals ? s->nalpha : 0);
    for (size_t k = 0; s->vals && k < s->nalpha; k++)
        agg_put_varuint(out, s->alpha[k]);
}

/* SpaceSaving::read: each counter pushed in the order written (and percolated), then the
 * alpha map, which must be empty or of the size this capacity uses. */
static int tk_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    tk_state *s = st;
    uint64_t n, na;
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > tk_capacity(a))
        return err_set(ERR_INCORRECT_DATA, "topK state holds %llu counters, more than its capacity %zu",
                       (unsigned long long)n, tk_capacity(a));
    tk_destroy(a, st);
    column *key = NULL;
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        uint64_t cnt, err;
        col_free(key);
        key = col_new(type_phys(a->ret->inner));
        if (agg_get_value(in, key) < 0 || agg_rd_varuint(in, &cnt) < 0 || agg_rd_varuint(in, &err) < 0) {
            rc = -1;
            break;
        }
        if (!s->vals) {
            s->vals = col_new(key->type);
            s->nalpha = tk_alpha_size(tk_capacity(a));
            s->alpha = mem_calloc(s->nalpha * sizeof *s->alpha);
        }
        uint64_t h = row_hash(key, 0);
        size_t slot;
        if (rs_find(&s->set, s->vals, key, 0, h, &slot) >= 0)
            rc = err_set(ERR_INCORRECT_DATA, "topK state lists a value twice");
        else
            tk_push(s, key, 0, h, cnt, err, true);
    }
    col_free(key);
    if (rc < 0 || agg_rd_varuint(in, &na) < 0)
        return -1;
    if (na && na != tk_alpha_size(tk_capacity(a)))
        return err_set(ERR_INCORRECT_DATA, "topK state has an alpha map of %llu entries, expected %zu",
                       (unsigned long long)na, tk_alpha_size(tk_capacity(a)));
    if (na > (uint64_t)(in->end - in->p))
        return agg_rd_short(in, (size_t)na);
    if (na && !s->vals) {
        s->vals = col_new(type_phys(a->ret->inner));
        s->nalpha = (size_t)na;
        s->alpha = mem_calloc(s->nalpha * sizeof *s->alpha);
    }
    for (uint64_t k = 0; k < na; k++)
        if (agg_rd_varuint(in, &s->alpha[k]) < 0)
            return -1;
    return 0;
}

/* Numbers only: ClickHouse keys the alpha map of strings and other types by hashes shale
 * does not compute. */
static bool tk_has_state(const agg_call *a) { return gu_has_state(a); }

static int tk_resolve(agg_call *a)
{
    if (agg_need_args(a, 1) < 0)
        return -1;
    if (a->nparams > 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires two parameters or less",
                       a->def->name);
    if (a->nparams == 0) {
        a->params[0] = 10; /* topK(x) = topK(10)(x); params always has room for one */
        a->nparams = 1;
    }
    for (int p = 0; p < a->nparams; p++)
        if (a->params[p] < 1 || a->params[p] != floor(a->params[p]) || a->params[p] > 0xFFFFFF)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Parameter %d is illegal for aggregate function '%s'", p,
                           a->def->name);
    a->ret = type_array(type_base(a->arg_types[0]));
    a->state_size = sizeof(tk_state);
    a->state_align = _Alignof(tk_state);
    a->ops = (agg_ops){.init = tk_init, .merge = tk_merge, .finalize = tk_finalize, .destroy = tk_destroy};
    if (tk_has_state(a)) {
        a->ops.serialize = tk_serialize;
        a->ops.deserialize = tk_deserialize;
    }
    AGG_SET_ADD_OPS(a, tk);
    return 0;
}

/* ---- sumKahan ---- */

typedef struct kahan_state {
    double sum, comp;
    int128_t dec; /* Decimal arguments: an exact sum, Decimal(38, S) as in ClickHouse */
} kahan_state;

static inline void kahan_add(kahan_state *s, double x)
{
    double y = x - s->comp;
    double t = s->sum + y;
    s->comp = (t - s->sum) - y;
    s->sum = t;
}

/* Folds the Kahan pair (fs, fc) into s; the same float steps as ClickHouse's merge. */
static void kahan_fold(kahan_state *s, double fs, double fc)
{
    double raw = s->sum + fs;
    double rhs = raw - s->sum;
    double comps = ((fs - rhs) + (s->sum - (raw - rhs))) + s->comp + fc;
    s->sum = raw + comps;
    s->comp = comps - (s->sum - raw);
}

static inline double kahan_val(const column *c, size_t i) { return col_get_f64(c, col_idx(c, i)); }

static inline void kahan_dec_add(kahan_state *s, const column *c, size_t i)
{
    const type *t = type_phys(c->type);
    size_t k = col_idx(c, i);
    s->dec += t->id == T_DECIMAL32 ? COL_DATA(c, int32_t)[k]
              : t->id == T_DECIMAL64 ? COL_DATA(c, int64_t)[k]
                                     : COL_DATA(c, int128_t)[k];
}

/* One state, whole block: like ClickHouse, four interleaved Kahan lanes over the largest
 * multiple of 4 rows, folded into the state, then the remaining rows one by one (this
 * decides the last bits of the result). mask may be NULL. */
static void kahan_block(const agg_call *a, kahan_state *s, const column *c, size_t rows, const uint8_t *m)
{
    if (a->data) {
        for (size_t i = 0; i < rows; i++)
            if (!m || m[i])
                kahan_dec_add(s, c, i);
        return;
    }
    kahan_state lane[4] = {{0}};
    size_t un = rows / 4 * 4;
    for (size_t i = 0; i < un; i += 4)
        for (size_t l = 0; l < 4; l++)
            if (!m || m[i + l])
                kahan_add(&lane[l], kahan_val(c, i + l));
    for (size_t l = 0; l < 4; l++)
        kahan_fold(s, lane[l].sum, lane[l].comp);
    for (size_t i = un; i < rows; i++)
        if (!m || m[i])
            kahan_add(s, kahan_val(c, i));
}

static void kahan_add_all(const agg_call *a, void *st, column *const *args, size_t rows)
{
    kahan_block(a, st, args[0], rows, NULL);
}

static void kahan_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    kahan_block(a, st, args[0], rows, m);
}

/* GROUP BY: ClickHouse's results match running the block's masked four-lane loop once
 * per group (as -If does), so that is what happens here, state by state, when a block
 * touches at most 64 groups; with more, rows are added one by one (linear time; the last
 * bits may then differ from ClickHouse's). */
static void kahan_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                       const uint8_t *m)
{
    if (!rows)
        return;
    char *seen[64];
    int nseen = 0;
    for (size_t i = 0; i < rows && nseen <= 64; i++) {
        if (m && !m[i])
            continue;
        int k = 0;
        while (k < nseen && seen[k] != sts[i])
            k++;
        if (k == nseen) {
            if (nseen == 64) {
                nseen = 65;
                break;
            }
            seen[nseen++] = sts[i];
        }
    }
    if (nseen > 64) {
        for (size_t i = 0; i < rows; i++) {
            if (m && !m[i])
                continue;
            kahan_state *st = (kahan_state *)(sts[i] + off);
            if (a->data)
                kahan_dec_add(st, args[0], i);
            else
                kahan_add(st, kahan_val(args[0], i));
        }
        return;
    }
    uint8_t *mask = mem_alloc(rows);
    uint8_t *done = mem_calloc(rows);
    for (size_t i = 0; i < rows; i++) {
        if (done[i] || (m && !m[i]))
            continue;
        char *st = sts[i];
        for (size_t j = i; j < rows; j++) {
            mask[j] = sts[j] == st && (!m || m[j]);
            done[j] |= mask[j];
        }
        memset(mask, 0, i);
        kahan_block(a, (kahan_state *)(st + off), args[0], rows, mask);
    }
    mem_free(mask);
    mem_free(done);
}

static void kahan_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    kahan_rows(a, sts, off, args, rows, NULL);
}

static void kahan_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                                const uint8_t *m)
{
    kahan_rows(a, sts, off, args, rows, m);
}

static void kahan_init(const agg_call *a, void *st) { memset(st, 0, sizeof(kahan_state)); }

static void kahan_merge(const agg_call *a, void *dst, void *src)
{
    kahan_state *d = dst, *s = src;
    kahan_fold(d, s->sum, s->comp);
    d->dec += s->dec;
}

static int kahan_finalize(const agg_call *a, void *st, column *out)
{
    kahan_state *s = st;
    if (a->data)
        col_push_fixed(out, &s->dec);
    else
        col_push_fixed(out, &s->sum);
    return 0;
}

static int kahan_resolve(agg_call *a)
{
    if (agg_need_args(a, 1) < 0 || agg_no_params(a) < 0)
        return -1;
    const type *t = type_base(a->arg_types[0]);
    if (!type_is_number(t) || t->id == T_BOOL)
        return agg_bad_type(a, 0);
    a->ret = type_simple(T_FLOAT64);
    if (type_is_decimal(t)) {
        a->data = malloc(1); /* a flag: the argument is a Decimal */
        a->ret = type_decimal(38, t->scale);
    }
    a->state_size = sizeof(kahan_state);
    a->state_align = _Alignof(kahan_state);
    a->ops = (agg_ops){.init = kahan_init, .merge = kahan_merge, .finalize = kahan_finalize};
    AGG_SET_ADD_OPS(a, kahan);
    return 0;
}

void agg_register_collect(void)
{
    static const agg_def defs[] = {
        {"groupUniqArray", AGG_NULLS_KEEP_TYPE, gu_resolve, "Array of the distinct values"},
        {"topK", AGG_NULLS_KEEP_TYPE, tk_resolve, "The (approximately) most frequent values"},
        {"sumKahan", 0, kahan_resolve, "Sum with Kahan compensation (Float64)"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
