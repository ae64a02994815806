/* More Map functions: mapFromArrays, mapUpdate, mapConcat, mapContainsKeyLike,
 * mapExtractKeyLike (the constructor, m[k], mapKeys/Values/Contains are in map.c; the
 * lambda forms mapFilter, mapApply, mapExists, mapAll, mapSort, mapReverseSort are
 * rewritten by the analyzer into their array forms, sql/map_hof.c).
 *
 * A Map column has Array(Tuple(K, V))'s layout (column/type.h), so building one is
 * filling the keys and values fields of the inner tuple and committing a row. Kernels
 * get materialised arguments whose offsets start at 0 (func.h). As ClickHouse:
 * mapFromArrays takes Arrays (or Maps, read as arrays of pairs) of equal sizes and keys
 * without NULLs; mapUpdate wants two maps of one type and keeps the first map's entries
 * whose key the second lacks, then the second's; mapConcat appends maps of any key and
 * value types with a supertype, duplicates kept; the KeyLike functions match String keys
 * against a LIKE pattern (the `like` function does the matching). Thread-safe: no state
 * but the resolved `like` call, read-only during execution. */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/supertype.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

/* Array(T) for a Map argument: its entries as an array of pairs. */
static const type *as_array_type(const type *t)
{
    return t->id == T_MAP ? type_array(t->inner) : t;
}

/* ---- mapFromArrays(keys, values) ---- */

static int from_arrays_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const uint64_t *ko = col_offs(a[0]), *vo = col_offs(a[1]);
    for (size_t i = 0; i < n; i++)
        if (ko[i + 1] - ko[i] != vo[i + 1] - vo[i])
            return err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH, "Two arguments of function %s must have equal sizes",
                           c->name);
    column *keys = a[0]->inner;
    if (type_phys(keys->type)->id == T_NULLABLE) {
        for (uint64_t e = ko[0]; e < ko[n]; e++)
            if (keys->nulls.p[e])
                return err_set(ERR_BAD_ARGUMENTS,
                               "The nested column of first argument in function %s must not contain NULLs", c->name);
        keys = keys->inner;
    }
    column *res = col_new(c->ret);
    column *tup = res->inner;
    col_free(tup->fields[0]);
    col_free(tup->fields[1]);
    tup->fields[0] = col_slice(keys, (size_t)ko[0], (size_t)(ko[n] - ko[0]));
    tup->fields[1] = col_slice(a[1]->inner, (size_t)vo[0], (size_t)(vo[n] - vo[0]));
    tup->len = (size_t)(ko[n] - ko[0]);
    res->offs.len = 0;
    uint64_t *o = buf_grow(&res->offs, (n + 1) * sizeof *o);
    for (size_t i = 0; i <= n; i++)
        o[i] = ko[i] - ko[0];
    res->len = n;
    *out = res;
    return 0;
}

static int from_arrays_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *t[2];
    for (int i = 0; i < 2; i++) {
        t[i] = as_array_type(c->arg_types[i]);
        if (t[i]->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "Arguments of function %s must be Array or Map, but %s is given", c->name,
                           c->arg_types[i]->name);
    }
    const type *kt = type_strip_nullable(t[0]->inner);
    if (!(c->ret = type_map(kt, t[1]->inner)))
        return -1;
    c->exec = from_arrays_exec;
    return 0;
}

/* ---- mapConcat(m1, m2, ...) ---- */

static int concat_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *rt = c->ret;
    column **cast = xcalloc((size_t)c->nargs, sizeof *cast);
    int rc = 0;
    for (int j = 0; j < c->nargs && !rc; j++)
        if (!(cast[j] = fn_cast_arg(c, col_ref(a[j]), c->arg_types[j], rt, n)))
            rc = -1;
    column *res = NULL;
    if (!rc) {
        res = col_new(rt);
        col_reserve(res, n);
        for (size_t i = 0; i < n; i++) {
            for (int j = 0; j < c->nargs; j++) {
                const uint64_t *o = col_offs(cast[j]);
                size_t from = (size_t)o[i], cnt = (size_t)(o[i + 1] - o[i]);
                col_push_range(res->inner, cast[j]->inner, from, cnt);
            }
            col_array_commit(res);
        }
    }
    for (int j = 0; j < c->nargs; j++)
        if (cast[j])
            col_free(cast[j]);
    free(cast);
    *out = res;
    return rc;
}

static int concat_resolve(fn_call *c)
{
    if (c->nargs < 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function %s requires at least one argument, passed 0",
                       c->name);
    const type **ks = xcalloc((size_t)c->nargs, sizeof *ks), **vs = xcalloc((size_t)c->nargs, sizeof *vs);
    int rc = 0;
    for (int j = 0; j < c->nargs && !rc; j++) {
        const type *t = c->arg_types[j];
        if (t->id != T_MAP)
            rc = err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Function %s requires at least one argument of type Map, got %s",
                         c->name, t->name);
        else
            ks[j] = t->inner->fields[0], vs[j] = t->inner->fields[1];
    }
    const type *kt = rc ? NULL : type_supertype(c->nargs, ks);
    const type *vt = kt ? type_supertype(c->nargs, vs) : NULL;
    free(ks);
    free(vs);
    if (!kt || !vt || !(c->ret = type_map(kt, vt)))
        return -1;
    c->exec = concat_exec;
    return 0;
}

/* ---- mapUpdate(m1, m2) ---- */

static int update_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)c;
    const uint64_t *o1 = col_offs(a[0]), *o2 = col_offs(a[1]);
    const column *k1 = a[0]->inner->fields[0], *k2 = a[1]->inner->fields[0];
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        for (uint64_t e = o1[i]; e < o1[i + 1]; e++) {
            bool replaced = false;
            for (uint64_t f = o2[i]; f < o2[i + 1] && !replaced; f++)
                replaced = col_equal_rows(k1, (size_t)e, k2, (size_t)f);
            if (!replaced)
                col_push_from(res->inner, a[0]->inner, (size_t)e);
        }
        col_push_range(res->inner, a[1]->inner, (size_t)o2[i], (size_t)(o2[i + 1] - o2[i]));
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int update_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    for (int j = 0; j < 2; j++)
        if (c->arg_types[j]->id != T_MAP)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Arguments of function %s must be Map, but %s is given",
                           c->name, c->arg_types[j]->name);
    if (c->arg_types[0] != c->arg_types[1])
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "The Key And Value type of Map for function %s must be the same",
                       c->name);
    c->ret = c->arg_types[0];
    c->exec = update_exec;
    return 0;
}

/* ---- mapContainsKeyLike(m, pattern), mapExtractKeyLike(m, pattern) ---- */

/* One byte per entry of the map column: 1 when the entry's key matches. NULL on error. */
static uint8_t *match_keys(const fn_call *c, column **a, size_t n)
{
    const fn_call *like = c->state;
    const uint64_t *o = col_offs(a[0]);
    size_t total = (size_t)(o[n] - o[0]);
    column *keys = col_slice(a[0]->inner->fields[0], (size_t)o[0], total);
    column *pat;
    if (a[1]->is_const) {
        pat = col_new_const(col_slice(a[1], 0, 1), total);
    } else {
        uint32_t *rows = xmalloc((total ? total : 1) * sizeof *rows);
        for (size_t i = 0; i < n; i++)
            for (uint64_t e = o[i]; e < o[i + 1]; e++)
                rows[e - o[0]] = (uint32_t)i;
        pat = col_gather(a[1], rows, total);
        free(rows);
    }
    column *args[2] = {keys, pat}, *m = NULL;
    int rc = fn_exec(like, args, total, &m);
    col_free(keys);
    col_free(pat);
    if (rc)
        return NULL;
    m = col_materialize(m);
    uint8_t *hit = xmalloc(total + 1);
    memcpy(hit, m->data.p, total);
    col_free(m);
    return hit;
}

static int contains_like_exec(const fn_call *c, column **a, size_t n, column **out)
{
    uint8_t *hit = match_keys(c, a, n);
    if (!hit)
        return -1;
    const uint64_t *o = col_offs(a[0]);
    uint8_t *d;
    *out = num_new_u8(n, &d);
    for (size_t i = 0; i < n; i++) {
        d[i] = 0;
        for (uint64_t e = o[i]; e < o[i + 1] && !d[i]; e++)
            d[i] = hit[e - o[0]];
    }
    free(hit);
    return 0;
}

static int extract_like_exec(const fn_call *c, column **a, size_t n, column **out)
{
    uint8_t *hit = match_keys(c, a, n);
    if (!hit)
        return -1;
    const uint64_t *o = col_offs(a[0]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        for (uint64_t e = o[i]; e < o[i + 1]; e++)
            if (hit[e - o[0]])
                col_push_from(res->inner, a[0]->inner, (size_t)e);
        col_array_commit(res);
    }
    free(hit);
    *out = res;
    return 0;
}

static void like_call_free(void *p) { fn_call_free(p); }

static int key_like_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *mt = c->arg_types[0];
    if (mt->id != T_MAP)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be a Map", c->name);
    const type *kt = type_phys(mt->inner->fields[0]);
    if (!type_is_string(kt))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Key type of map for function %s must be String or FixedString",
                       c->name);
    if (!type_is_string(c->arg_types[1]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function %s must be String", c->name);
    const type *lt[2] = {kt, c->arg_types[1]};
    column *const ca[2] = {NULL, c->const_args[1]};
    fn_call *like;
    if (func_resolve("like", 2, lt, ca, c->env, &like))
        return -1;
    c->state = like;
    bool extract = strcmp(c->def->name, "mapExtractKeyLike") == 0;
    c->ret = extract ? mt : type_simple(T_UINT8);
    c->exec = extract ? extract_like_exec : contains_like_exec;
    return 0;
}

void func_register_map_fn(void)
{
    static const func_def defs[] = {
        {"mapFromArrays", 0, from_arrays_resolve, NULL, "a map from an array of keys and one of values"},
        {"mapConcat", 0, concat_resolve, NULL, "the entries of all the maps"},
        {"mapUpdate", 0, update_resolve, NULL, "the first map with the entries of the second put over it"},
        {"mapContainsKeyLike", 0, key_like_resolve, like_call_free, "1 if a key matches the LIKE pattern"},
        {"mapExtractKeyLike", 0, key_like_resolve, like_call_free, "the entries whose key matches the LIKE pattern"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("MAP_FROM_ARRAYS", "mapFromArrays");
}
