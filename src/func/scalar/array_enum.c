/* More array functions: arrayZip, arrayResize, arrayEnumerateUniq, arrayEnumerateDense.
 *
 * As ClickHouse: arrayZip pairs arrays of equal sizes into an array of tuples;
 * arrayResize(arr, n[, extender]) cuts or pads on the right (n > 0) or on the left (n < 0)
 * with the extender (the element type's default without one; the elements become the
 * supertype of both); arrayEnumerateUniq numbers each element by how many times its value
 * (or tuple of values across several arrays) occurred so far in the row, and
 * arrayEnumerateDense by the order in which distinct values first appeared. NULL is a
 * value like the others there. Kernels get materialised arrays whose offsets start at 0.
 * Thread-safe: no state. */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/supertype.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

/* res (an Array column whose elements are filled) gets n rows with the offsets o (which
 * may start above 0) rebased to 0. Returns res. */
static column *with_offsets(column *res, const uint64_t *o, size_t n)
{
    res->offs.len = 0;
    uint64_t *ro = buf_grow(&res->offs, (n + 1) * sizeof *ro);
    for (size_t i = 0; i <= n; i++)
        ro[i] = o[i] - o[0];
    res->len = n;
    return res;
}

/* ---- arrayZip(a1, a2, ...) ---- */

static int zip_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const uint64_t *o0 = col_offs(a[0]);
    for (int j = 1; j < c->nargs; j++) {
        const uint64_t *o = col_offs(a[j]);
        for (size_t i = 0; i < n; i++)
            if (o[i + 1] - o[i] != o0[i + 1] - o0[i])
                return err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH,
                               "The argument 1 and argument %d of function %s have different array sizes", j + 1,
                               c->name);
    }
    column *res = col_new(c->ret);
    column *tup = res->inner;
    size_t total = (size_t)(o0[n] - o0[0]);
    for (int j = 0; j < c->nargs; j++) {
        const uint64_t *o = col_offs(a[j]);
        col_free(tup->fields[j]);
        tup->fields[j] = col_slice(a[j]->inner, (size_t)o[0], total);
    }
    tup->len = total;
    *out = with_offsets(res, o0, n);
    return 0;
}

static int zip_resolve(fn_call *c)
{
    if (c->nargs == 0)
        return err_set(ERR_NOT_IMPLEMENTED, "arrayZip() without arguments (an array of empty tuples) is not supported");
    const type **f = xcalloc((size_t)c->nargs, sizeof *f);
    for (int j = 0; j < c->nargs; j++) {
        if (c->arg_types[j]->id != T_ARRAY) {
            free(f);
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of function %s must be array. Found %s instead",
                           j + 1, c->name, c->arg_types[j]->name);
        }
        f[j] = c->arg_types[j]->inner;
    }
    c->ret = type_array(type_tuple(c->nargs, f, NULL));
    free(f);
    c->exec = zip_exec;
    return 0;
}

/* ---- arrayResize(arr, size[, extender]) ---- */

#define ARRAY_SIZE_MAX (1ll << 30) /* ClickHouse's limit on one array */

static int resize_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *et = c->ret->inner;
    const type *at = c->arg_types[0];
    column *arr = fn_cast_arg(c, col_ref(a[0]), at, c->ret, n);
    if (!arr)
        return -1;
    column *ext = c->nargs == 3 ? fn_cast_arg(c, col_ref(a[2]), c->arg_types[2], et, n) : col_new_defaults(et, 1);
    if (!ext) {
        col_free(arr);
        return -1;
    }
    column *res = col_new(c->ret);
    col_reserve(res, n);
    const uint64_t *o = col_offs(arr);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        int64_t want = col_get_i64(a[1], i);
        if (want > ARRAY_SIZE_MAX || want < -ARRAY_SIZE_MAX) {
            rc = err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Too large array size: %lld, maximum: %lld", (long long)want,
                         (long long)ARRAY_SIZE_MAX);
            break;
        }
        size_t len = (size_t)(o[i + 1] - o[i]), w = (size_t)(want < 0 ? -want : want);
        size_t e = c->nargs == 3 ? i : 0;
        if (want >= 0) {
            col_push_range(res->inner, arr->inner, (size_t)o[i], len < w ? len : w);
            for (size_t k = len; k < w; k++)
                col_push_from(res->inner, ext, e);
        } else {
            for (size_t k = len; k < w; k++)
                col_push_from(res->inner, ext, e);
            size_t keep = len < w ? len : w;
            col_push_range(res->inner, arr->inner, (size_t)o[i] + len - keep, keep);
        }
        col_array_commit(res);
    }
    col_free(arr);
    col_free(ext);
    if (rc) {
        col_free(res);
        return -1;
    }
    *out = res;
    return 0;
}

static int resize_resolve(fn_call *c)
{
    if (c->nargs != 2 && c->nargs != 3)
        return fn_bad_nargs(c, "2 or 3");
    const type *at = c->arg_types[0];
    if (at->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be an array but it has type %s.",
                       c->name, at->name);
    if (!type_is_integer(c->arg_types[1]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "A value of illegal type was provided as 2nd argument 'size' to function '%s'. Expected: "
                       "Number, got: %s",
                       c->name, c->arg_types[1]->name);
    const type *et = at->inner;
    if (c->nargs == 3) {
        const type *pair[2] = {at->inner, c->arg_types[2]};
        if (!(et = type_supertype(2, pair)))
            return -1;
    }
    c->ret = type_array(et);
    c->exec = resize_exec;
    return 0;
}

/* ---- arrayEnumerateUniq(a1, ...), arrayEnumerateDense(a1, ...) ---- */

/* Hash of element e across all the arrays (the value tuple it stands for). */
static uint64_t elem_hash(column **a, int na, size_t e)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int j = 0; j < na; j++)
        h = (h ^ col_hash_row(a[j]->inner, e)) * 0x100000001B3ull;
    return h;
}

static bool elem_equal(column **a, int na, size_t x, size_t y)
{
    for (int j = 0; j < na; j++)
        if (!col_equal_rows(a[j]->inner, x, a[j]->inner, y))
            return false;
    return true;
}

static int enumerate_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool dense = c->state != NULL;
    const uint64_t *o0 = col_offs(a[0]);
    for (int j = 1; j < c->nargs; j++) {
        const uint64_t *o = col_offs(a[j]);
        for (size_t i = 0; i < n; i++)
            if (o[i + 1] - o[i] != o0[i + 1] - o0[i])
                return err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH, "Lengths of all arrays passed to %s must be equal",
                               c->name);
    }
    size_t total = (size_t)(o0[n] - o0[0]);
    column *vals = col_new(type_simple(T_UINT32));
    uint32_t *d = buf_grow(&vals->data, (total ? total : 1) * 4);
    vals->len = total;
    /* per row: an open-addressing table of (first element, count or dense number) */
    size_t cap = 0;
    uint64_t *slot_elem = NULL; /* element index + 1, 0 = empty */
    uint32_t *slot_val = NULL;
    for (size_t i = 0; i < n; i++) {
        size_t len = (size_t)(o0[i + 1] - o0[i]);
        size_t need = 4;
        while (need < len * 2)
            need *= 2;
        if (need > cap) {
            free(slot_elem);
            free(slot_val);
            cap = need;
            slot_elem = xmalloc(cap * sizeof *slot_elem);
            slot_val = xmalloc(cap * sizeof *slot_val);
        }
        memset(slot_elem, 0, need * sizeof *slot_elem);
        uint32_t distinct = 0;
        for (uint64_t e = o0[i]; e < o0[i + 1]; e++) {
            size_t h = (size_t)elem_hash(a, c->nargs, (size_t)e) & (need - 1);
            while (slot_elem[h] && !elem_equal(a, c->nargs, (size_t)(slot_elem[h] - 1), (size_t)e))
                h = (h + 1) & (need - 1);
            if (!slot_elem[h]) {
                slot_elem[h] = e + 1;
                slot_val[h] = dense ? ++distinct : 0;
            }
            if (!dense)
                slot_val[h]++;
            d[e - o0[0]] = slot_val[h];
        }
    }
    free(slot_elem);
    free(slot_val);
    column *res = col_new(c->ret);
    col_free(res->inner);
    res->inner = vals;
    *out = with_offsets(res, o0, n);
    return 0;
}

static int enumerate_resolve(fn_call *c)
{
    if (c->nargs < 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Number of arguments for function %s doesn't match: passed 0, should be at least 1.", c->name);
    for (int j = 0; j < c->nargs; j++)
        if (c->arg_types[j]->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "All arguments for function %s must be arrays but argument %d has type %s.",
                           c->name, j + 1, c->arg_types[j]->name);
    c->state = strcmp(c->def->name, "arrayEnumerateDense") == 0 ? (void *)1 : NULL;
    c->ret = type_array(type_simple(T_UINT32));
    c->exec = enumerate_exec;
    return 0;
}

void func_register_array_enum(void)
{
    static const func_def defs[] = {
        {"arrayZip", 0, zip_resolve, NULL, "the arrays' elements paired into tuples"},
        {"arrayResize", FN_OWN_NULLS, resize_resolve, NULL, "the array cut or padded to a size"},
        {"arrayEnumerateUniq", 0, enumerate_resolve, NULL, "each element's occurrence number so far"},
        {"arrayEnumerateDense", 0, enumerate_resolve, NULL, "each element's distinct value number"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
