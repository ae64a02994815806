/* Map functions: map (the constructor), element access m[k] (arrayElement on a Map, which
 * array.c hands over to map_element_resolve), mapKeys, mapValues, mapContains.
 * (length/empty/notEmpty of maps live beside the array ones in string.c.)
 *
 * A Map(K, V) column is stored as Array(Tuple(keys K, values V)) (column/type.h), so keys
 * and values are the two fields of the inner tuple column and a row's entries are the
 * range the offsets give. Keys are kept in the order written, duplicates included, and a
 * lookup returns the first entry whose key equals the one asked, as ClickHouse does; a
 * missing key gives V's default (NULL for Nullable(V)). A looked-up key is compared after
 * casting it and the map's keys to their least supertype, so map(toUInt8(1), 'x')[1000]
 * is simply absent; keys of different kinds (String against a number) are an error. */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/supertype.h"

#include "base/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- map(k1, v1, k2, v2, ...) ---- */

/* Casts a to t (a supertype of its type) unless it already has it. Takes a. */
static column *cast_arg(const fn_call *c, column *a, const type *from, const type *t, size_t n)
{
    if (type_base(from)->id == T_NOTHING) { /* a NULL literal */
        col_free(a);
        return col_new_defaults(t, n);
    }
    column *m = col_materialize(a);
    if (from == t || m->type == t)
        return m;
    column *r = type_cast_super(m, from, t, c->env ? c->env->timezone : NULL);
    col_free(m);
    return r;
}

static int map_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *kt = c->ret->inner->fields[0], *vt = c->ret->inner->fields[1];
    int k = c->nargs;
    column **cast = xcalloc((size_t)k + 1, sizeof *cast);
    int rc = 0;
    for (int j = 0; j < k && !rc; j++)
        if (!(cast[j] = cast_arg(c, col_ref(a[j]), c->arg_types[j], j % 2 ? vt : kt, n)))
            rc = -1;
    column *res = NULL;
    if (!rc) {
        res = col_new(c->ret);
        col_reserve(res, n);
        column *keys = res->inner->fields[0], *vals = res->inner->fields[1];
        for (size_t i = 0; i < n; i++) {
            for (int j = 0; j < k; j += 2) {
                col_push_from(keys, cast[j], i);
                col_push_from(vals, cast[j + 1], i);
                res->inner->len++;
            }
            col_array_commit(res);
        }
    }
    for (int j = 0; j < k; j++)
        if (cast[j])
            col_free(cast[j]);
    free(cast);
    *out = res;
    return rc;
}

static int map_resolve(fn_call *c)
{
    if (c->nargs % 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Function %s requires even number of arguments, but %d given", c->name, c->nargs);
    int h = c->nargs / 2;
    const type **kts = xcalloc((size_t)h + 1, sizeof *kts), **vts = xcalloc((size_t)h + 1, sizeof *vts);
    for (int j = 0; j < h; j++) {
        kts[j] = c->arg_types[2 * j];
        vts[j] = c->arg_types[2 * j + 1];
    }
    const type *kt = h ? type_supertype(h, kts) : type_simple(T_NOTHING);
    const type *vt = kt && h ? type_supertype(h, vts) : type_simple(T_NOTHING);
    free(kts);
    free(vts);
    if (!kt || !vt || !(c->ret = type_map(kt, vt)))
        return -1;
    c->exec = map_exec;
    return 0;
}

/* ---- lookups: m[k], mapContains(m, k) ---- */

/* The first entry of row i whose key equals the looked-up key, or -1. keys and want are
 * cast to one type; want has one value per row. */
static int64_t find_key(const column *m, const column *keys, const column *want, size_t i)
{
    const uint64_t *o = col_offs(m);
    size_t r = col_idx(m, i);
    for (uint64_t e = o[r]; e < o[r + 1]; e++)
        if (col_equal_rows(keys, (size_t)e, want, col_idx(want, i)))
            return (int64_t)e;
    return -1;
}

/* Keys and the looked-up value cast to their common type; fails like ClickHouse. */
static int lookup_columns(const fn_call *c, column **a, size_t n, column **keys, column **want)
{
    const type *common = c->state; /* keys and the looked-up value are compared as this */
    const type *kt = c->arg_types[0]->inner->fields[0];
    const column *inner = a[0]->inner;
    *keys = cast_arg(c, col_ref(inner->fields[0]), kt, common, inner->len);
    *want = *keys ? cast_arg(c, col_ref(a[1]), c->arg_types[1], common, n) : NULL;
    if (!*want) {
        if (*keys)
            col_free(*keys);
        return -1;
    }
    return 0;
}

static int element_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *keys, *want;
    if (lookup_columns(c, a, n, &keys, &want))
        return -1;
    const column *vals = a[0]->inner->fields[1];
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        int64_t e = find_key(a[0], keys, want, i);
        if (e >= 0)
            col_push_from(res, vals, (size_t)e);
        else
            col_push_default(res);
    }
    col_free(keys);
    col_free(want);
    *out = res;
    return 0;
}

static int contains_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *keys, *want;
    if (lookup_columns(c, a, n, &keys, &want))
        return -1;
    uint8_t *d;
    *out = num_new_u8(n, &d);
    for (size_t i = 0; i < n; i++)
        d[i] = find_key(a[0], keys, want, i) >= 0;
    col_free(keys);
    col_free(want);
    return 0;
}

/* Sets c->state to the comparison type (a type pointer, not owned) of the map's keys and argument 1. strict: keys and
 * the value must be of one kind (both integers, both strings, or one base type), as
 * arrayElement requires; otherwise any supertype will do (mapContains). */
static int lookup_resolve(fn_call *c, bool strict)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *mt = c->arg_types[0];
    if (mt->id != T_MAP)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be a Map, got %s instead",
                       c->name, mt->name);
    const type *kt = mt->inner->fields[0], *at = c->arg_types[1];
    const type *kb = type_base(kt), *ab = type_base(at);
    if (strict && !(kb == ab || (type_is_integer(kb) && type_is_integer(ab)) ||
                    (type_is_string(kb) && type_is_string(ab))))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types of arguments: %s, %s for function %s", mt->name,
                       at->name, c->name);
    const type *pair[2] = {kt, at};
    const type *common = type_supertype(2, pair);
    if (!common)
        return strict ? err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types of arguments: %s, %s for function %s",
                                mt->name, at->name, c->name)
                      : -1;
    c->state = (void *)(uintptr_t)common; /* interned: lives as long as the process */
    return 0;
}

int map_element_resolve(fn_call *c)
{
    if (lookup_resolve(c, true))
        return -1;
    c->ret = c->arg_types[0]->inner->fields[1];
    c->exec = element_exec;
    return 0;
}

static int contains_resolve(fn_call *c)
{
    if (lookup_resolve(c, false))
        return -1;
    c->ret = type_simple(T_UINT8);
    c->exec = contains_exec;
    return 0;
}

/* ---- mapKeys, mapValues: the keys or values as arrays (same offsets) ---- */

static int parts_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int f = c->state != NULL;
    column *res = col_new(c->ret);
    res->offs.len = 0;
    buf_append(&res->offs, a[0]->offs.p, (n + 1) * sizeof(uint64_t));
    col_free(res->inner);
    res->inner = col_ref(a[0]->inner->fields[f]);
    res->len = n;
    *out = res;
    return 0;
}

static int parts_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (c->arg_types[0]->id != T_MAP)
        return fn_bad_types(c);
    bool values = strcmp(c->def->name, "mapValues") == 0;
    c->state = values ? (void *)1 : NULL;
    c->ret = type_array(c->arg_types[0]->inner->fields[values]);
    c->exec = parts_exec;
    return 0;
}

void func_register_map(void)
{
    static const func_def defs[] = {
        {"map", FN_OWN_NULLS, map_resolve, NULL, "map of the key, value argument pairs"},
        {"mapKeys", 0, parts_resolve, NULL, "the keys of a map as an array"},
        {"mapValues", 0, parts_resolve, NULL, "the values of a map as an array"},
        {"mapContains", 0, contains_resolve, NULL, "1 if the map has the key"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
