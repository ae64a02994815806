/* __joinGetLookup(k1, …, kn, keys1, …, keysn, values): joinGet's kernel. The analyzer
 * (sql/join_engine.c) reads a Join table's rows (one per key) and passes its key columns
 * and the wanted column as constant arrays of equal length, no NULL in the keys; each
 * row of k1…kn gives the value at the position of the equal key tuple, or the default of
 * the result type (NULL for a Nullable one) when there is none or a key is NULL.
 *
 * The key arguments are converted to the stored keys' types (joinGet's own check has
 * made them equal but for Nullable and LowCardinality). The resolver builds an
 * open-addressing table over the stored keys; the state is read-only afterwards, so a
 * call is shared by threads. */
#include "func/func.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

#define JG_MAX_KEYS 64

typedef struct jg_state {
    int nkeys;
    column *keys[JG_MAX_KEYS]; /* stored keys (the arrays' elements) */
    column *values;
    uint32_t *slots; /* open addressing: row + 1, 0 = empty */
    size_t mask;
} jg_state;

static void jg_free(void *p)
{
    jg_state *s = p;
    if (!s)
        return;
    for (int k = 0; k < s->nkeys; k++)
        col_free(s->keys[k]);
    if (s->values)
        col_free(s->values);
    free(s->slots);
    free(s);
}

static uint64_t row_hash(column *const *keys, int n, size_t i)
{
    uint64_t h = 0;
    for (int k = 0; k < n; k++)
        h = (h ^ col_hash_row(keys[k], i)) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static bool rows_equal(column *const *a, size_t i, column *const *b, size_t j, int n)
{
    for (int k = 0; k < n; k++)
        if (!col_equal_rows(a[k], i, b[k], j))
            return false;
    return true;
}

static int jg_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const jg_state *s = c->state;
    column *probe[JG_MAX_KEYS] = {0};
    const column *vals[JG_MAX_KEYS] = {0};
    int rc = 0;
    for (int k = 0; k < s->nkeys && !rc; k++) {
        const type *want = s->keys[k]->type;
        const type *from = c->arg_types[k];
        if (type_is_nullable(from))
            want = type_nullable(want);
        probe[k] = from == want ? col_materialize(col_ref(a[k])) : fn_cast_arg(c, col_ref(a[k]), from, want, n);
        if (!probe[k])
            rc = -1;
        else
            vals[k] = type_is_nullable(probe[k]->type) ? probe[k]->inner : probe[k];
    }
    column *res = NULL;
    if (!rc) {
        res = col_new(c->ret);
        col_reserve(res, n);
        for (size_t i = 0; i < n; i++) {
            bool null_key = false;
            for (int k = 0; k < s->nkeys; k++)
                null_key |= col_is_null(probe[k], i);
            int64_t found = -1;
            if (!null_key && s->slots)
                for (size_t h = (size_t)row_hash((column *const *)vals, s->nkeys, i) & s->mask;; h = (h + 1) & s->mask) {
                    uint32_t e = s->slots[h];
                    if (!e)
                        break;
                    if (rows_equal(s->keys, e - 1, (column *const *)vals, i, s->nkeys)) {
                        found = (int64_t)e - 1;
                        break;
                    }
                }
            if (found >= 0)
                col_push_from(res, s->values, (size_t)found);
            else
                col_push_default(res);
        }
    }
    for (int k = 0; k < s->nkeys; k++)
        if (probe[k])
            col_free(probe[k]);
    *out = res;
    return rc;
}

/* The elements of constant array argument i (a slice of its only row), or NULL. */
static column *const_elems(const fn_call *c, int i)
{
    const column *k = c->const_args[i];
    if (!k || type_phys(k->type)->id != T_ARRAY || (k->len == 0 && !k->is_const))
        return NULL;
    const uint64_t *o = col_offs(k);
    return col_slice(k->inner, (size_t)o[0], (size_t)(o[1] - o[0]));
}

static int jg_resolve(fn_call *c)
{
    if (c->nargs < 3 || c->nargs % 2 == 0 || (c->nargs - 1) / 2 > JG_MAX_KEYS)
        return fn_bad_nargs(c, "2n + 1");
    jg_state *s = xcalloc(1, sizeof *s);
    s->nkeys = (c->nargs - 1) / 2;
    for (int k = 0; k < s->nkeys; k++)
        if (!(s->keys[k] = const_elems(c, s->nkeys + k))) {
            jg_free(s);
            return fn_bad_types(c);
        }
    if (!(s->values = const_elems(c, c->nargs - 1))) {
        jg_free(s);
        return fn_bad_types(c);
    }
    size_t rows = s->values->len;
    if (rows) {
        size_t cap = 4;
        while (cap < rows * 2)
            cap *= 2;
        s->slots = xcalloc(cap, sizeof *s->slots);
        s->mask = cap - 1;
        for (size_t i = 0; i < rows; i++) {
            size_t h = (size_t)row_hash(s->keys, s->nkeys, i) & s->mask;
            while (s->slots[h] && !rows_equal(s->keys, s->slots[h] - 1, s->keys, i, s->nkeys))
                h = (h + 1) & s->mask;
            if (!s->slots[h]) /* the first row of a key wins (the caller keeps one anyway) */
                s->slots[h] = (uint32_t)i + 1;
        }
    }
    c->state = s;
    c->ret = s->values->type;
    c->exec = jg_exec;
    return 0;
}

void func_register_join_get(void)
{
    static const func_def def = {"__joinGetLookup", FN_OWN_NULLS | FN_OWN_LOWCARD, jg_resolve, jg_free,
                                 "joinGet's lookup in a Join table's rows (internal)"};
    func_register(&def);
}
