#include "storage/block_store.h"

#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

void block_store_init(block_store *s)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
}

void block_store_clear_locked(block_store *s)
{
    for (int i = 0; i < s->n; i++)
        block_free(s->blocks[i]);
    s->n = 0;
}

void block_store_destroy(block_store *s)
{
    block_store_clear_locked(s);
    free(s->blocks);
    pthread_mutex_destroy(&s->mu);
}

void block_store_append_locked(block_store *s, block **bs, int n)
{
    if (s->n + n > s->cap) {
        s->cap = (s->n + n) * 2;
        s->blocks = xrealloc(s->blocks, sizeof *s->blocks * (size_t)s->cap);
    }
    for (int i = 0; i < n; i++)
        s->blocks[s->n++] = bs[i];
}

static block *block_share(const block *b)
{
    block *c = block_new(b->ncols, b->rows);
    for (int i = 0; i < b->ncols; i++)
        c->cols[i] = col_ref(b->cols[i]);
    return c;
}

source *block_store_read(block_store *s, const schema *sch)
{
    pthread_mutex_lock(&s->mu);
    block **bs = xcalloc((size_t)s->n + 1, sizeof *bs);
    for (int i = 0; i < s->n; i++)
        bs[i] = block_share(s->blocks[i]);
    int n = s->n;
    pthread_mutex_unlock(&s->mu);
    source *src = source_from_blocks(schema_clone(sch), bs, n);
    for (int i = 0; i < n; i++)
        src->total_rows_hint += bs[i]->rows;
    return src;
}

static int collect_write(block_sink *bs, block *b)
{
    collect_sink *s = (collect_sink *)bs;
    if (b->rows == 0) {
        block_free(b);
        return 0;
    }
    for (int i = 0; i < b->ncols; i++)
        if (b->cols[i]->is_const)
            b->cols[i] = col_materialize(b->cols[i]);
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->blocks = xrealloc(s->blocks, sizeof *s->blocks * (size_t)s->cap);
    }
    s->blocks[s->n++] = b;
    return 0;
}

collect_sink *collect_sink_new(table *t, size_t size)
{
    collect_sink *s = xcalloc(1, size < sizeof *s ? sizeof *s : size);
    s->base.base.write = collect_write;
    s->t = table_ref(t);
    return s;
}

void collect_sink_free(collect_sink *s, bool free_blocks)
{
    if (free_blocks)
        for (int i = 0; i < s->n; i++)
            block_free(s->blocks[i]);
    table_unref(s->t);
    free(s->blocks);
    free(s);
}
