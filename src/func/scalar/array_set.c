/* Array functions over whole arrays: hasAll, hasAny, hasSubstr (one array against another),
 * arrayPopFront/arrayPopBack, arrayCompact, arrayFlatten (flatten), emptyArrayToSingle,
 * arrayWithConstant, replicate, arrayRotateLeft/Right and arrayShiftLeft/Right.
 *
 * hasAll/hasAny/hasSubstr compare the elements of both arrays in their least supertype
 * (NO_COMMON_TYPE without one); NaN equals nothing and a NULL element compares as the default
 * value under it (NULL = NULL, but also NULL = 0 and NULL = ''), as ClickHouse 26.7 does;
 * a FixedString compared with a String loses its zero padding first (ClickHouse casts it to
 * String, which drops the padding). arrayCompact compares neighbours bit for bit, as
 * ClickHouse does: NaN equals NaN and 0 differs from -0.
 * The count of arrayWithConstant is bounded as in ClickHouse (TOO_LARGE_ARRAY_SIZE past
 * 1e9 elements); rotations and shifts take any Int/UInt count, a UInt64 read as Int64. */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/supertype.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

static int need_array(const fn_call *c, int i, const char *what)
{
    return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "%s for function %s must be an array but it has type %s",
                   what, c->name, c->arg_types[i]->name);
}

/* The array type without LowCardinality elements: ClickHouse's default implementation for
 * LowCardinality unwraps it inside arrays too, so most of these return plain elements. */
static const type *no_lowcard(const type *t)
{
    if (t->id == T_ARRAY)
        return type_array(no_lowcard(t->inner));
    return t->id == T_LOWCARDINALITY ? t->inner : t;
}

/* ---- hasAll / hasAny / hasSubstr ---- */

enum { SET_ALL, SET_ANY, SET_SUBSTR };

typedef struct set_state {
    int kind;
    const type *super;     /* element supertype */
    bool strip[2];         /* argument i's elements are FixedString compared as String */
} set_state;

/* Elements of array column a (arg i) cast to the supertype; FixedString padding dropped
 * when it meets a String. */
static column *set_elems(const fn_call *c, const set_state *st, const column *a, int i)
{
    const type *et = c->arg_types[i]->inner;
    if (!st->strip[i])
        return a->inner->type == st->super ? col_ref(a->inner)
                                            : type_cast_super(a->inner, et, st->super, c->env ? c->env->timezone : NULL);
    const column *in = a->inner;
    bool nullable = type_phys(in->type)->id == T_NULLABLE;
    const column *v = nullable ? in->inner : in;
    column *r = col_new(st->super);
    col_reserve(r, in->len);
    for (size_t e = 0; e < in->len; e++) {
        if (nullable && in->nulls.p[e]) {
            col_push_null(r);
            continue;
        }
        size_t len;
        const char *s = col_str(v, e, &len);
        while (len && s[len - 1] == 0)
            len--;
        if (type_phys(st->super)->id == T_NULLABLE) {
            col_push_str(r->inner, s, len);
            col_nullable_commit(r, false);
        } else {
            col_push_str(r, s, len);
        }
    }
    return r;
}

/* Equality as ClickHouse 26.7's hasAll/hasAny/hasSubstr: a NULL element compares as the
 * value under it (the type's default, so hasAny([NULL], [0]) = 1), NaN equals nothing. */
static bool elem_eq(const column *x, uint64_t i, const column *y, uint64_t j)
{
    const type *t = type_phys(x->type);
    if (t->id == T_NULLABLE) {
        x = x->inner, y = y->inner;
        t = type_phys(t->inner);
    }
    if (t->id == T_FLOAT64 && (COL_DATA(x, double)[i] != COL_DATA(x, double)[i]))
        return false;
    if (t->id == T_FLOAT32 && (COL_DATA(x, float)[i] != COL_DATA(x, float)[i]))
        return false;
    return col_equal_rows(x, i, y, j);
}

static bool contains(const column *x, uint64_t b, uint64_t e, const column *y, uint64_t j)
{
    for (uint64_t k = b; k < e; k++)
        if (elem_eq(x, k, y, j))
            return true;
    return false;
}

/* Big pairs of arrays: x's elements sorted once (col_compare orders NULL-free values
 * consistently with elem_eq: 0 and -0 tie, NaN sorts last and matches nothing), then each
 * element of y is looked up by binary search, so hasAll/hasAny stay O((n + m) log n). */
#define SORT_FROM ((uint64_t)1 << 14)

static int cmp_rows(const void *p, const void *q, void *ctx)
{
    return col_compare(ctx, *(const uint64_t *)p, ctx, *(const uint64_t *)q, 1);
}

static bool sorted_contains(const column *xv, const uint64_t *idx, uint64_t cnt, const column *y, uint64_t j)
{
    const column *yv = type_phys(y->type)->id == T_NULLABLE ? y->inner : y;
    uint64_t lo = 0, hi = cnt;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (col_compare(xv, idx[mid], yv, j, 1) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cnt && elem_eq(xv, idx[lo], yv, j);
}

static int set_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const set_state *st = c->state;
    column *x = set_elems(c, st, a[0], 0);
    column *y = x ? set_elems(c, st, a[1], 1) : NULL;
    if (!y) {
        col_free(x);
        return -1;
    }
    const uint64_t *ox = col_offs(a[0]), *oy = col_offs(a[1]);
    uint8_t *d;
    column *res = num_new_u8(n, &d);
    for (size_t i = 0; i < n; i++) {
        uint64_t xb = ox[i], xe = ox[i + 1], yb = oy[i], ye = oy[i + 1];
        uint8_t r;
        if (st->kind != SET_SUBSTR && (xe - xb) * (ye - yb) > SORT_FROM) {
            const column *xv = type_phys(x->type)->id == T_NULLABLE ? x->inner : x;
            uint64_t cnt = xe - xb, *idx = mem_alloc(cnt * sizeof *idx);
            for (uint64_t k = 0; k < cnt; k++)
                idx[k] = xb + k;
            qsort_r(idx, cnt, sizeof *idx, cmp_rows, (void *)xv);
            r = st->kind == SET_ALL;
            for (uint64_t j = yb; j < ye && r == (st->kind == SET_ALL); j++)
                r = sorted_contains(xv, idx, cnt, y, j);
            mem_free(idx);
        } else if (st->kind == SET_ALL) {
            r = 1;
            for (uint64_t j = yb; j < ye && r; j++)
                r = contains(x, xb, xe, y, j);
        } else if (st->kind == SET_ANY) {
            r = 0;
            for (uint64_t j = yb; j < ye && !r; j++)
                r = contains(x, xb, xe, y, j);
        } else {
            uint64_t m = ye - yb;
            r = m == 0;
            for (uint64_t s = xb; !r && s + m <= xe; s++) {
                uint64_t k = 0;
                while (k < m && elem_eq(x, s + k, y, yb + k))
                    k++;
                r = k == m;
            }
        }
        d[i] = r;
    }
    col_free(x);
    col_free(y);
    *out = res;
    return 0;
}

static int set_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    for (int i = 0; i < 2; i++)
        if (c->arg_types[i]->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d for function %s must be an array but it has type %s",
                           i + 1, c->name, c->arg_types[i]->name);
    const type *pair[2] = {c->arg_types[0]->inner, c->arg_types[1]->inner};
    const type *sup = type_supertype(2, pair);
    if (!sup)
        return -1;
    set_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    st->super = sup;
    const char *nm = c->def->name;
    st->kind = !strcmp(nm, "hasAll") ? SET_ALL : !strcmp(nm, "hasAny") ? SET_ANY : SET_SUBSTR;
    for (int i = 0; i < 2; i++)
        st->strip[i] = type_phys(type_strip_nullable(pair[i]))->id == T_FIXEDSTRING &&
                       type_phys(type_strip_nullable(sup))->id == T_STRING;
    c->ret = type_simple(T_UINT8);
    c->exec = set_exec;
    return 0;
}

/* ---- arrayPopFront / arrayPopBack / arrayCompact ---- */

/* Bitwise equality of two elements of one column (floats: NaN equals NaN, 0 is not -0). */
static bool same_bits(const column *in, size_t i, size_t j)
{
    const type *t = type_phys(in->type);
    if (t->id == T_NULLABLE) {
        bool ni = in->nulls.p[i], nj = in->nulls.p[j];
        if (ni || nj)
            return ni && nj;
        return same_bits(in->inner, i, j);
    }
    if (t->width && t->id != T_FIXEDSTRING && (type_is_number(t) || num_is_float(t)))
        return memcmp(in->data.p + i * t->width, in->data.p + j * t->width, t->width) == 0;
    return col_equal_rows(in, i, in, j);
}

enum { POP_FRONT, POP_BACK, COMPACT };

static int pop_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int kind = (int)(intptr_t)c->state;
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t b = o[i], e = o[i + 1];
        if (kind == COMPACT) {
            for (uint64_t k = b; k < e; k++)
                if (k == b || !same_bits(in, k, k - 1))
                    col_push_from(res->inner, in, k);
        } else if (e > b) {
            col_push_range(res->inner, in, kind == POP_FRONT ? b + 1 : b, e - b - 1);
        }
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int pop_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (c->arg_types[0]->id != T_ARRAY)
        return need_array(c, 0, "First argument");
    const char *nm = c->def->name;
    c->state = (void *)(intptr_t)(!strcmp(nm, "arrayPopFront") ? POP_FRONT : !strcmp(nm, "arrayPopBack") ? POP_BACK : COMPACT);
    c->ret = no_lowcard(c->arg_types[0]);
    c->exec = pop_exec;
    return 0;
}


/* ---- arrayFlatten ---- */

static int flatten_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int depth = (int)(intptr_t)c->state;
    /* Follows the offsets down to the innermost array: row i spans leaf [lo, hi). */
    const column *lvl = a[0];
    column *res = col_new(c->ret);
    col_reserve(res, n);
    const column *leaf = lvl;
    for (int d = 0; d < depth; d++)
        leaf = leaf->inner;
    for (size_t i = 0; i < n; i++) {
        uint64_t lo = i, hi = i + 1;
        const column *cur = lvl;
        for (int d = 0; d < depth; d++) {
            const uint64_t *o = col_offs(cur);
            lo = o[lo], hi = o[hi];
            cur = cur->inner;
        }
        col_push_range(res->inner, leaf, lo, hi - lo);
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int flatten_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (t->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s, expected Array",
                       t->name, c->name);
    int depth = 0;
    while (t->id == T_ARRAY) {
        depth++;
        t = t->inner;
    }
    c->state = (void *)(intptr_t)depth;
    c->ret = type_array(no_lowcard(t));
    c->exec = flatten_exec;
    return 0;
}

/* ---- emptyArrayToSingle ---- */

static int single_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        if (o[i + 1] == o[i])
            col_push_default(res->inner); /* NULL for Nullable elements */
        else
            col_push_range(res->inner, in, o[i], o[i + 1] - o[i]);
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int single_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (c->arg_types[0]->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function %s must be array", c->name);
    if (c->arg_types[0]->inner->id == T_NOTHING)
        return err_set(ERR_NOT_IMPLEMENTED, "Cannot get value from Nothing");
    c->ret = c->arg_types[0];
    c->exec = single_exec;
    return 0;
}

/* ---- arrayWithConstant / replicate ---- */

#define MAX_ARRAY_ELEMS 1000000000ULL

static int with_const_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *nt = c->arg_types[0];
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        int64_t k;
        if (num_is_float(nt)) {
            double f = col_get_f64(a[0], i);
            k = f != f ? 0 : f >= 9.2e18 ? INT64_MAX : f <= -9.2e18 ? INT64_MIN : (int64_t)f;
        } else {
            k = col_get_i64(a[0], i);
        }
        if (k < 0) {
            col_free(res);
            return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Array size %lld cannot be negative: while executing function %s",
                           (long long)k, c->name);
        }
        unsigned w = type_phys(c->ret->inner)->width;
        if ((uint64_t)k > MAX_ARRAY_ELEMS || res->inner->len + (uint64_t)k > MAX_ARRAY_ELEMS) {
            col_free(res);
            return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Array size %lld with element size %u bytes is too large: while "
                           "executing function %s", (long long)k, w ? w : 1, c->name);
        }
        for (int64_t j = 0; j < k; j++)
            col_push_from(res->inner, a[1], col_idx(a[1], i));
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int with_const_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *nt = c->arg_types[0];
    if (nt->id == T_LOWCARDINALITY || !(num_is_int(nt) || num_is_float(nt)) || num_size(nt) > 8)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s, expected Integer",
                       nt->name, c->name);
    c->ret = type_array(c->arg_types[1]);
    c->exec = with_const_exec;
    return 0;
}

static int replicate_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const uint64_t *o = col_offs(a[1]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        for (uint64_t j = o[i]; j < o[i + 1]; j++)
            col_push_from(res->inner, a[0], col_idx(a[0], i));
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int replicate_resolve(fn_call *c)
{
    if (c->nargs < 2)
        return fn_bad_nargs(c, "at least 2");
    for (int i = 1; i < c->nargs; i++)
        if (c->arg_types[i]->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as %s argument 'array' to "
                           "function '%s'. Expected: Array, got: %s", i == 1 ? "2nd" : i == 2 ? "3rd" : "nth",
                           c->name, c->arg_types[i]->name);
    if (c->nargs > 2)
        return err_set(ERR_NOT_IMPLEMENTED, "%s with more than one array is not supported", c->name);
    c->ret = type_array(c->arg_types[0]);
    c->exec = replicate_exec;
    return 0;
}

/* ---- arrayRotateLeft/Right, arrayShiftLeft/Right ---- */

enum { ROT_LEFT, ROT_RIGHT, SHIFT_LEFT, SHIFT_RIGHT };

static int rotate_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int kind = (int)(intptr_t)c->state;
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    column *fill = NULL;
    if (c->nargs == 3) {
        fill = type_cast_super(a[2], c->arg_types[2], c->ret->inner, c->env ? c->env->timezone : NULL);
        if (!fill)
            return -1;
    }
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t b = o[i], len = o[i + 1] - o[i];
        int64_t k = col_get_i64(a[1], i);
        if (k == INT64_MIN) {
            col_free(fill);
            col_free(res);
            return err_set(ERR_VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE, "Shift number %lld is out of range", (long long)k);
        }
        /* left by k == right by -k; the magnitude taken without overflowing INT64_MIN */
        bool left = (kind == ROT_LEFT || kind == SHIFT_LEFT) == (k >= 0);
        uint64_t m = k >= 0 ? (uint64_t)k : (uint64_t)0 - (uint64_t)k;
        if (kind == ROT_LEFT || kind == ROT_RIGHT) {
            uint64_t s = len ? m % len : 0;
            if (!left && s)
                s = len - s;
            col_push_range(res->inner, in, b + s, len - s);
            col_push_range(res->inner, in, b, s);
        } else {
            uint64_t s = m < len ? m : len;
            if (!left)
                for (uint64_t j = 0; j < s; j++)
                    fill ? col_push_from(res->inner, fill, col_idx(fill, i)) : col_push_default(res->inner);
            col_push_range(res->inner, in, left ? b + s : b, len - s);
            if (left)
                for (uint64_t j = 0; j < s; j++)
                    fill ? col_push_from(res->inner, fill, col_idx(fill, i)) : col_push_default(res->inner);
        }
        col_array_commit(res);
    }
    col_free(fill);
    *out = res;
    return 0;
}

static int rotate_resolve(fn_call *c)
{
    const char *nm = c->def->name;
    int kind = !strcmp(nm, "arrayRotateLeft") ? ROT_LEFT : !strcmp(nm, "arrayRotateRight") ? ROT_RIGHT
             : !strcmp(nm, "arrayShiftLeft") ? SHIFT_LEFT : SHIFT_RIGHT;
    bool shift = kind == SHIFT_LEFT || kind == SHIFT_RIGHT;
    if (c->nargs != 2 && !(shift && c->nargs == 3))
        return fn_bad_nargs(c, shift ? "2 or 3" : "2");
    if (c->arg_types[0]->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s, expected Array",
                       c->arg_types[0]->name, c->name);
    const type *nt = c->arg_types[1];
    if (!num_is_int(nt) || nt->id == T_BOOL || num_size(nt) > 8)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s, expected Native Integer",
                       nt->name, c->name);
    if (c->nargs == 3) {
        const type *pair[2] = {c->arg_types[0]->inner, c->arg_types[2]};
        const type *sup = type_supertype(2, pair);
        if (!sup || sup != c->arg_types[0]->inner) {
            err_clear();
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s, expected %s",
                           c->arg_types[2]->name, c->name, c->arg_types[0]->inner->name);
        }
    }
    c->state = (void *)(intptr_t)kind;
    c->ret = no_lowcard(c->arg_types[0]);
    c->exec = rotate_exec;
    return 0;
}

void func_register_array_set(void)
{
    static const func_def defs[] = {
        {"hasAll", 0, set_resolve, free, "1 if the first array contains every element of the second"},
        {"hasAny", 0, set_resolve, free, "1 if the arrays have an element in common"},
        {"hasSubstr", 0, set_resolve, free, "1 if the second array occurs in the first as a contiguous run"},
        {"arrayPopFront", 0, pop_resolve, NULL, "the array without its first element"},
        {"arrayPopBack", 0, pop_resolve, NULL, "the array without its last element"},
        {"arrayCompact", 0, pop_resolve, NULL, "the array without consecutive duplicates"},
        {"arrayFlatten", 0, flatten_resolve, NULL, "the elements of nested arrays as one flat array"},
        {"emptyArrayToSingle", 0, single_resolve, NULL, "an empty array as one default element"},
        {"arrayWithConstant", FN_OWN_NULLS, with_const_resolve, NULL, "an array of n copies of a value"},
        {"replicate", FN_OWN_NULLS | FN_OWN_LOWCARD, replicate_resolve, NULL, "an array of the value, as long as the array argument"},
        {"arrayRotateLeft", 0, rotate_resolve, NULL, "the array rotated left by n"},
        {"arrayRotateRight", 0, rotate_resolve, NULL, "the array rotated right by n"},
        {"arrayShiftLeft", 0, rotate_resolve, NULL, "the array shifted left by n, filled with a default"},
        {"arrayShiftRight", 0, rotate_resolve, NULL, "the array shifted right by n, filled with a default"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("flatten", "arrayFlatten");
}
