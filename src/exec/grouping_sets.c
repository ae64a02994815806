/* ROLLUP / CUBE / GROUPING SETS: re-aggregation of the full-key groups per set. */
#include "exec/grouping_sets.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

static const type *post_type(const select_plan *p, int k)
{
    return p->key_post_types ? p->key_post_types[k] : p->keys[k]->type;
}

static block *new_sets_block(const select_plan *p)
{
    block *b = block_new(p->nkeys + p->naggs + p->ngrouping, 0);
    for (int k = 0; k < p->nkeys; k++)
        b->cols[k] = col_new(post_type(p, k));
    for (int a = 0; a < p->naggs; a++)
        b->cols[p->nkeys + a] = col_new(p->aggs[a]->ret);
    for (int g = 0; g < p->ngrouping; g++)
        b->cols[p->nkeys + p->naggs + g] = col_new(type_simple(T_UINT64));
    return b;
}

/* grouping(…) of call g for a row of the set `mask`. */
static uint64_t grouping_value(const select_plan *p, int g, uint64_t mask)
{
    uint64_t v = 0;
    for (int i = 0; i < p->grouping_nargs[g]; i++)
        v = v << 1 | !(mask >> p->grouping_args[g][i] & 1);
    return v;
}

/* Appends key value `row` of src (the key's own type) to dst (its post type): the same
 * layout, or the Nullable form of it. */
static void push_key(column *dst, const column *src, size_t row)
{
    if (type_is_nullable(dst->type) && !type_is_nullable(src->type)) {
        col_push_from(dst->inner, src, row);
        col_nullable_commit(dst, false);
    } else {
        col_push_from(dst, src, row);
    }
}

static void push_absent_key(column *dst, bool use_null)
{
    if (use_null && type_is_nullable(dst->type))
        col_push_null(dst);
    else if (type_is_nullable(dst->type)) {
        col_push_default(dst->inner);
        col_nullable_commit(dst, false);
    } else
        col_push_default(dst);
}

typedef struct set_group {
    char *states;
    size_t row; /* a row of the full-key groups with this set's key */
} set_group;

/* Aggregates the full-key groups by the keys of set `mask` and appends its rows to b. */
static int add_set(select_plan *p, uint64_t mask, column **keys, char **states, size_t nrows, block *b)
{
    column *sub[64];
    int m = 0;
    for (int k = 0; k < p->nkeys; k++)
        if (mask >> k & 1)
            sub[m++] = keys[k];
    agg_table t;
    agg_table_init(&t);
    buf kb = {0};
    set_group *groups = NULL;
    size_t ngroups = 0, cap = 0;
    for (size_t r = 0; r < nrows || (r == 0 && nrows == 0 && m == 0 && p->sets_empty_row); r++) {
        kb.len = 0;
        if (nrows)
            agg_key_serialize(&kb, sub, m, r);
        bool inserted;
        const char *key = kb.p ? (const char *)kb.p : "";
        agg_slot *s = agg_table_find_or_insert(&t, key, kb.len, agg_key_hash(key, kb.len),
                                               p->state_size, p->state_align, &inserted);
        if (inserted) {
            for (int a = 0; a < p->naggs; a++)
                p->aggs[a]->ops.init(p->aggs[a], s->states + p->agg_offsets[a]);
            if (ngroups == cap) {
                cap = cap ? cap * 2 : 64;
                groups = xrealloc(groups, sizeof *groups * cap);
            }
            groups[ngroups++] = (set_group){.states = s->states, .row = r};
        }
        if (nrows)
            for (int a = 0; a < p->naggs; a++)
                p->aggs[a]->ops.merge(p->aggs[a], s->states + p->agg_offsets[a], states[r] + p->agg_offsets[a]);
    }
    buf_free(&kb);
    int rc = 0;
    bool use_null = p->key_post_types != NULL;
    for (size_t i = 0; i < ngroups; i++) {
        for (int k = 0; k < p->nkeys; k++)
            if (mask >> k & 1)
                push_key(b->cols[k], keys[k], groups[i].row);
            else
                push_absent_key(b->cols[k], use_null);
        for (int a = 0; a < p->naggs && !rc; a++)
            rc = p->aggs[a]->ops.finalize(p->aggs[a], groups[i].states + p->agg_offsets[a], b->cols[p->nkeys + a]);
        for (int g = 0; g < p->ngrouping; g++) {
            uint64_t v = grouping_value(p, g, mask);
            col_push_fixed(b->cols[p->nkeys + p->naggs + g], &v);
        }
        if (rc)
            break;
        b->rows++;
    }
    for (size_t i = 0; i < ngroups; i++)
        for (int a = 0; a < p->naggs; a++)
            if (p->aggs[a]->ops.destroy)
                p->aggs[a]->ops.destroy(p->aggs[a], groups[i].states + p->agg_offsets[a]);
    free(groups);
    agg_table_free(&t);
    return rc;
}

int grouping_sets_finalize(select_plan *p, const agg_table *t, block **out)
{
    column **keys = xcalloc((size_t)p->nkeys, sizeof *keys);
    for (int k = 0; k < p->nkeys; k++)
        keys[k] = col_new(p->keys[k]->type);
    char **states = xmalloc(sizeof *states * (t->count + 1));
    size_t n = 0;
    for (size_t i = 0; i < t->cap; i++) {
        const agg_slot *s = &t->slots[i];
        if (!s->states)
            continue;
        const char *kp = agg_slot_key(s);
        agg_key_deserialize(&kp, keys, p->nkeys);
        states[n++] = s->states;
    }
    block *b = new_sets_block(p);
    int rc = 0;
    for (int i = 0; i < p->nsets && !rc; i++)
        rc = add_set(p, p->set_masks[i], keys, states, n, b);
    for (int k = 0; k < p->nkeys; k++)
        col_free(keys[k]);
    free(keys);
    free(states);
    if (rc) {
        block_free(b);
        return -1;
    }
    *out = b;
    return 0;
}

block *grouping_sets_totals(select_plan *p, block *totals)
{
    block *b = new_sets_block(p);
    for (int k = 0; k < p->nkeys; k++)
        push_absent_key(b->cols[k], false);
    for (int a = 0; a < p->naggs; a++) {
        col_free(b->cols[p->nkeys + a]);
        b->cols[p->nkeys + a] = col_ref(totals->cols[p->nkeys + a]);
    }
    for (int g = 0; g < p->ngrouping; g++) {
        uint64_t v = grouping_value(p, g, 0);
        col_push_fixed(b->cols[p->nkeys + p->naggs + g], &v);
    }
    b->rows = 1;
    block_free(totals);
    return b;
}
