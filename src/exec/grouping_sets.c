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

void grouping_sets_keys(const select_plan *p, int set, column *const *keys, size_t rows, column **out)
{
    for (int k = 0; p->nsets && k < p->nkeys; k++)
        out[k] = p->set_masks[set] >> k & 1 ? keys[k] : col_new_defaults(keys[k]->type, rows);
}

void grouping_sets_keys_free(const select_plan *p, int set, column **keys)
{
    for (int k = 0; p->nsets && k < p->nkeys; k++)
        if (!(p->set_masks[set] >> k & 1))
            col_free(keys[k]);
}

static int slot_set(const agg_slot *s)
{
    uint16_t set;
    memcpy(&set, agg_slot_key(s) + s->key_len - sizeof set, sizeof set);
    return set;
}

bool grouping_sets_slot_in_first(const select_plan *p, const agg_slot *s) { return slot_set(s) == 0; }

/* Appends one row of set `set`: key k from keys[k] row `row` when in the set. */
static int add_row(select_plan *p, block *b, int set, column **keys, size_t row, char *states)
{
    uint64_t mask = p->set_masks[set];
    bool use_null = p->key_post_types != NULL;
    for (int k = 0; k < p->nkeys; k++)
        if (keys && mask >> k & 1)
            push_key(b->cols[k], keys[k], row);
        else
            push_absent_key(b->cols[k], (use_null && !(p->sets_const_mask >> k & 1)) ||
                                            type_is_nullable(p->keys[k]->type)); /* its default is NULL */
    for (int a = 0; a < p->naggs; a++)
        if (p->aggs[a]->ops.finalize(p->aggs[a], states + p->agg_offsets[a], b->cols[p->nkeys + a]))
            return -1;
    for (int g = 0; g < p->ngrouping; g++) {
        uint64_t v = grouping_value(p, g, mask);
        col_push_fixed(b->cols[p->nkeys + p->naggs + g], &v);
    }
    b->rows++;
    return 0;
}

int grouping_sets_finalize(select_plan *p, const agg_table *t, block **out)
{
    column **keys = xcalloc((size_t)p->nkeys, sizeof *keys);
    for (int k = 0; k < p->nkeys; k++)
        keys[k] = col_new(p->keys[k]->type);
    block *b = new_sets_block(p);
    int rc = 0;
    size_t row = 0;
    for (size_t i = 0; i < t->cap && !rc; i++) {
        const agg_slot *s = &t->slots[i];
        if (!s->states)
            continue;
        const char *kp = agg_slot_key(s);
        agg_key_deserialize(&kp, keys, p->nkeys);
        rc = add_row(p, b, slot_set(s), keys, row++, s->states);
    }
    /* no input: a GROUPING SETS () still has its row (ROLLUP and CUBE have none) */
    for (int set = 0; t->count == 0 && p->sets_empty_row && set < p->nsets && !rc; set++) {
        if (p->set_masks[set] & ~p->sets_const_mask)
            continue;
        arena a;
        arena_init(&a);
        char *states = arena_alloc(&a, p->state_size ? p->state_size : 1, p->state_align ? p->state_align : 8);
        for (int k = 0; k < p->naggs; k++)
            p->aggs[k]->ops.init(p->aggs[k], states + p->agg_offsets[k]);
        rc = add_row(p, b, set, NULL, 0, states);
        for (int k = 0; k < p->naggs; k++)
            if (p->aggs[k]->ops.destroy)
                p->aggs[k]->ops.destroy(p->aggs[k], states + p->agg_offsets[k]);
        arena_free(&a);
    }
    for (int k = 0; k < p->nkeys; k++)
        col_free(keys[k]);
    free(keys);
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
        if (p->sets_const_mask >> k & 1)
            push_key(b->cols[k], totals->cols[k], 0);
        else
            push_absent_key(b->cols[k], type_is_nullable(p->keys[k]->type));
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
