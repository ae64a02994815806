/* Aggregate states written to and read from spill files (agg.h, "Spilling states"). */
#include "agg_impl.h"

#include "column/rowser.h"

static bool is_plain(const agg_call *a)
{
    /* A state owning memory has a destroy; the wrappers pass theirs through. */
    while (agg_wraps_state(a))
        a = a->nested;
    return !a->ops.destroy;
}

int agg_state_spill_check(const agg_call *a)
{
    const agg_call *base = a;
    while (agg_wraps_state(base))
        base = base->nested;
    if (!base->ops.destroy || (base->ops.spill_write && base->ops.spill_read))
        return 0;
    return err_set(ERR_NOT_IMPLEMENTED,
                   "External GROUP BY cannot spill the state of aggregate function %s yet: raise "
                   "max_bytes_before_external_group_by (and max_memory_usage) to aggregate in memory",
                   a->name);
}

void agg_state_spill_write(const agg_call *a, const void *state, buf *out)
{
    if (is_plain(a)) {
        buf_append(out, state, a->state_size);
    } else if (agg_wraps_state(a)) {
        size_t n = a->nested->state_size;
        agg_state_spill_write(a->nested, state, out);
        buf_append(out, (const char *)state + n, a->state_size - n);
    } else {
        a->ops.spill_write(a, state, out);
    }
}

void agg_state_spill_read(const agg_call *a, void *state, const char **p)
{
    if (is_plain(a)) {
        memcpy(state, *p, a->state_size);
        *p += a->state_size;
    } else if (agg_wraps_state(a)) {
        size_t n = a->nested->state_size;
        agg_state_spill_read(a->nested, state, p);
        memcpy((char *)state + n, *p, a->state_size - n);
        *p += a->state_size - n;
    } else {
        a->ops.spill_read(a, state, p);
    }
}

void agg_spill_put_col(buf *out, const column *c)
{
    uint32_t n = c ? (uint32_t)c->len + 1 : 0; /* 0: no column */
    buf_append(out, &n, 4);
    for (uint32_t i = 0; c && i < c->len; i++)
        col_row_write(out, c, i);
}

column *agg_spill_get_col(const char **p, const type *t)
{
    uint32_t n;
    memcpy(&n, *p, 4);
    *p += 4;
    if (!n)
        return NULL;
    column *c = col_new(t);
    for (uint32_t i = 0; i + 1 < n; i++)
        col_row_read(p, c);
    return c;
}

void agg_spill_write_serialized(const agg_call *a, const void *st, buf *out,
                                void (*ser)(const agg_call *, const void *, buf *))
{
    buf tmp = {0};
    ser(a, st, &tmp);
    uint64_t n = tmp.len;
    buf_append(out, &n, 8);
    buf_append(out, tmp.p, tmp.len);
    buf_free(&tmp);
}

void agg_spill_read_serialized(const agg_call *a, void *st, const char **p,
                               int (*de)(const agg_call *, void *, agg_rd *))
{
    uint64_t n;
    memcpy(&n, *p, 8);
    agg_rd r = {(const uint8_t *)*p + 8, (const uint8_t *)*p + 8 + n, 0};
    a->ops.init(a, st);
    de(a, st, &r); /* written by this process: well formed */
    *p += 8 + n;
}
