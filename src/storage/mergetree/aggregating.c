/* AggregatingMergeTree: rows with equal sorting keys become one row whose
 * AggregateFunction columns hold the merge of the group's states and whose
 * SimpleAggregateFunction(f, T) columns hold f over the group's values; every other
 * column keeps the group's first row, as ClickHouse's AggregatingSortedAlgorithm does.
 * Used by mt_collapse_sorted (merges, OPTIMIZE, FINAL and optimize_on_insert). */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/agg_state.h"

#include <stdlib.h>

/* The merged states of each group of an AggregateFunction column. */
static column *merge_states(const column *src, const uint32_t *order, const size_t *bounds, size_t ng)
{
    const agg_call *a = agg_state_call(src->type);
    if (!a)
        return NULL;
    column *out = col_new(src->type);
    buf b = {0};
    for (size_t g = 0; g < ng; g++) {
        if (bounds[g + 1] - bounds[g] == 1) {
            /* a group of one row keeps its state's bytes: merging it into a fresh state
             * could lay a hash set out differently (ClickHouse keeps it as is too) */
            size_t n;
            const char *p = col_str(src, order[bounds[g]], &n);
            col_push_str(out, p, n);
            continue;
        }
        /* like ClickHouse, the group's first state is read as the accumulator and the
         * others are merged into it (merging all into a fresh state could order a hash
         * set's cells differently) */
        void *st = agg_state_new(a);
        for (size_t i = bounds[g]; i < bounds[g + 1]; i++) {
            size_t n, used;
            const char *p = col_str(src, order[i], &n);
            int rc = i > bounds[g] ? agg_state_merge_bytes(a, st, (const uint8_t *)p, n)
                                   : agg_state_read(a, st, (const uint8_t *)p, n, &used);
            if (rc == 0 && i == bounds[g] && used != n)
                rc = err_set(ERR_INCORRECT_DATA, "Aggregate function state has %zu bytes after its end", n - used);
            if (rc < 0) {
                agg_state_free(a, st);
                buf_free(&b);
                col_free(out);
                return NULL;
            }
        }
        b.len = 0;
        agg_state_write(a, st, &b);
        agg_state_free(a, st);
        col_push_str(out, (const char *)b.p, b.len);
    }
    buf_free(&b);
    return out;
}

/* f over each group's values of a SimpleAggregateFunction(f, T) column. */
static column *simple_agg(const column *src, const uint32_t *order, const size_t *bounds, size_t ng)
{
    const type *t = type_strip_simple_agg(src->type);
    agg_call *a;
    if (agg_resolve(src->type->agg_func, 1, &t, 0, NULL, &a) < 0)
        return NULL;
    column *out = col_new(src->type);
    int rc = 0;
    for (size_t g = 0; g < ng && rc == 0; g++) {
        column *vals = col_gather(src, order + bounds[g], bounds[g + 1] - bounds[g]);
        vals->type = t;
        void *st = agg_state_new(a);
        a->ops.add_all(a, st, &vals, vals->len);
        rc = a->ops.finalize(a, st, out);
        agg_state_free(a, st);
        vals->type = src->type;
        col_free(vals);
    }
    agg_call_free(a);
    if (rc < 0) {
        col_free(out);
        return NULL;
    }
    return out;
}

int mt_aggregate_groups(const block *b, const uint32_t *order, const size_t *bounds, size_t ng, block *o)
{
    for (int c = 0; c < b->ncols; c++) {
        const type *t = b->cols[c]->type;
        column *r;
        if (type_phys(t)->id == T_AGGSTATE)
            r = merge_states(b->cols[c], order, bounds, ng);
        else if (t->simple_agg)
            r = simple_agg(b->cols[c], order, bounds, ng);
        else
            continue;
        if (!r)
            return -1;
        col_free(o->cols[c]);
        o->cols[c] = r;
    }
    return 0;
}
