/* Aggregates that collect values: groupUniqArray; and sumKahan (topK is in topk.c).
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

/* Types whose ClickHouse state holds the values raw (groupUniqArray's hash set): numbers
 * and the date/time types stored as one. */
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
        {"groupUniqArray", AGG_NULLS_KEEP_TYPE | AGG_NULL_NO_FLAG | AGG_NULL_LITERAL_NULL, gu_resolve, "Array of the distinct values"},
        {"sumKahan", 0, kahan_resolve, "Sum with Kahan compensation (Float64)"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
