/* External GROUP BY: see agg_spill.h for the design. */
#include "exec/agg_spill.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/spill.h"

#include <stdlib.h>
#include <string.h>

typedef struct segment {
    uint64_t off, len;
} segment;

struct agg_spill {
    spill_file *f;
    segment (*segs)[AGG_BUCKETS]; /* segs[k][b]: bucket b of the k-th spill */
    int n, cap;
};

int agg_spill_check(const select_plan *p)
{
    for (int a = 0; a < p->naggs; a++)
        if (agg_state_spill_check(p->aggs[a]))
            return -1;
    if (p->with_totals)
        return err_set(ERR_NOT_IMPLEMENTED,
                       "External GROUP BY (max_bytes_before_external_group_by) with WITH TOTALS is not supported yet");
    return 0;
}

static void destroy_states(const select_plan *p, char *states)
{
    for (int a = 0; a < p->naggs; a++)
        if (p->aggs[a]->ops.destroy)
            p->aggs[a]->ops.destroy(p->aggs[a], states + p->agg_offsets[a]);
}

int agg_spill_write(agg_spill **sp, const select_plan *p, query_ctx *q, agg_table *buckets)
{
    if (agg_spill_check(p))
        return -1;
    agg_spill *s = *sp;
    if (!s) {
        char dir[4096];
        spill_dir(q, dir, sizeof dir);
        spill_file *f;
        if (spill_file_create(dir, &f))
            return -1;
        s = *sp = xcalloc(1, sizeof *s);
        s->f = f;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4;
        s->segs = xrealloc(s->segs, sizeof *s->segs * (size_t)s->cap);
    }
    segment *seg = s->segs[s->n];
    int rc = 0;
    buf rec = {0};
    for (int b = 0; b < AGG_BUCKETS; b++) {
        agg_table *t = &buckets[b];
        seg[b].off = spill_size(s->f);
        for (size_t i = 0; i < t->cap; i++) {
            agg_slot *sl = &t->slots[i];
            if (!sl->states)
                continue;
            /* u32 key length, key, u32 states length, each aggregate's state */
            rec.len = 0;
            buf_append(&rec, &sl->key_len, 4);
            buf_append(&rec, agg_slot_key(sl), sl->key_len);
            size_t at = rec.len;
            buf_grow(&rec, 4);
            for (int a = 0; a < p->naggs; a++)
                agg_state_spill_write(p->aggs[a], sl->states + p->agg_offsets[a], &rec);
            uint32_t slen = (uint32_t)(rec.len - at - 4);
            memcpy(rec.p + at, &slen, 4);
            if (!rc)
                rc = spill_write(s->f, rec.p, rec.len);
            destroy_states(p, sl->states);
        }
        seg[b].len = spill_size(s->f) - seg[b].off;
        agg_table_free(t);
        agg_table_init(t);
    }
    buf_free(&rec);
    if (!rc)
        rc = spill_flush(s->f);
    s->n++;
    return rc ? -1 : 0;
}

int agg_spill_merge_bucket(const select_plan *p, agg_spill *const *spills, int n, int b, agg_table *dst)
{
    size_t align = p->state_align ? p->state_align : 8;
    size_t ss = p->state_size ? p->state_size : 1;
    /* an aligned copy of a record's states (records are packed) */
    char *tmp = mem_alloc(ss + align);
    char *st = tmp + (align - (uintptr_t)tmp % align) % align;
    buf seg = {0};
    int rc = 0;
    for (int w = 0; w < n && !rc; w++) {
        const agg_spill *s = spills[w];
        for (int k = 0; s && k < s->n && !rc; k++) {
            const segment *g = &s->segs[k][b];
            if (!g->len)
                continue;
            seg.len = 0;
            buf_reserve(&seg, g->len);
            if ((rc = spill_read_at(s->f, g->off, seg.p, g->len)))
                break;
            const char *c = (const char *)seg.p, *end = c + g->len;
            while (c < end) {
                uint32_t klen;
                memcpy(&klen, c, 4);
                const char *key = c + 4, *sp = key + klen + 4;
                uint32_t slen;
                memcpy(&slen, key + klen, 4);
                for (int a = 0; a < p->naggs; a++)
                    agg_state_spill_read(p->aggs[a], st + p->agg_offsets[a], &sp);
                c = key + klen + 4 + slen;
                bool inserted;
                agg_slot *d = agg_table_find_or_insert(dst, key, klen, agg_key_hash(key, klen), p->state_size,
                                                       p->state_align, &inserted);
                if (inserted) {
                    memcpy(d->states, st, p->state_size);
                    continue;
                }
                for (int a = 0; a < p->naggs; a++)
                    p->aggs[a]->ops.merge(p->aggs[a], d->states + p->agg_offsets[a], st + p->agg_offsets[a]);
            }
        }
    }
    buf_free(&seg);
    mem_free(tmp);
    return rc;
}

int agg_spill_count(const agg_spill *s) { return s ? s->n : 0; }

void agg_spill_free(agg_spill *s)
{
    if (!s)
        return;
    spill_file_close(s->f);
    free(s->segs);
    free(s);
}
