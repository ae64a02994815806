/* ENGINE = Memory: the inserted blocks, kept in memory for the life of the process (the
 * data is not persisted, as in ClickHouse: after a restart the table is empty).
 *
 * Thread-safety: a mutex guards the block list. Readers take a snapshot (a new block
 * per stored block whose columns are extra references, see column.h), so inserts and
 * TRUNCATE running later do not disturb them; each block is one read task, so a SELECT
 * reads blocks in parallel. An INSERT's blocks become visible together at finish(). */
#include "base/mem.h"
#include "storage/table.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct mem_table {
    pthread_mutex_t mu;
    block **blocks;
    int n, cap;
} mem_table;

static int memory_open(table *t, bool created, query_ctx *q)
{
    (void)created;
    (void)q;
    mem_table *m = xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->mu, NULL);
    t->impl = m;
    return 0;
}

static block *block_share(const block *b)
{
    block *c = block_new(b->ncols, b->rows);
    for (int i = 0; i < b->ncols; i++)
        c->cols[i] = col_ref(b->cols[i]);
    return c;
}

static int memory_read(table *t, bool final, query_ctx *q, source **out)
{
    (void)final;
    (void)q;
    mem_table *m = t->impl;
    pthread_mutex_lock(&m->mu);
    block **bs = xcalloc((size_t)m->n + 1, sizeof *bs);
    for (int i = 0; i < m->n; i++)
        bs[i] = block_share(m->blocks[i]);
    int n = m->n;
    pthread_mutex_unlock(&m->mu);
    source *s = source_from_blocks(schema_clone(t->sch), bs, n);
    for (int i = 0; i < n; i++)
        s->total_rows_hint += bs[i]->rows;
    *out = s;
    return 0;
}

typedef struct mem_sink {
    table_sink base;
    table *t;
    block **blocks;
    int n, cap;
} mem_sink;

static int memory_write(block_sink *bs, block *b)
{
    mem_sink *s = (mem_sink *)bs;
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

static int memory_finish(table_sink *ts)
{
    mem_sink *s = (mem_sink *)ts;
    mem_table *m = s->t->impl;
    pthread_mutex_lock(&m->mu);
    if (m->n + s->n > m->cap) {
        m->cap = (m->n + s->n) * 2;
        m->blocks = xrealloc(m->blocks, sizeof *m->blocks * (size_t)m->cap);
    }
    for (int i = 0; i < s->n; i++)
        m->blocks[m->n++] = s->blocks[i];
    pthread_mutex_unlock(&m->mu);
    table_unref(s->t);
    free(s->blocks);
    free(s);
    return 0;
}

static void memory_abort(table_sink *ts)
{
    mem_sink *s = (mem_sink *)ts;
    for (int i = 0; i < s->n; i++)
        block_free(s->blocks[i]);
    table_unref(s->t);
    free(s->blocks);
    free(s);
}

static int memory_insert(table *t, query_ctx *q, table_sink **out)
{
    (void)q;
    mem_sink *s = xcalloc(1, sizeof *s);
    s->base.base.write = memory_write;
    s->base.finish = memory_finish;
    s->base.abort = memory_abort;
    s->t = table_ref(t);
    *out = &s->base;
    return 0;
}

static void free_blocks(mem_table *m)
{
    for (int i = 0; i < m->n; i++)
        block_free(m->blocks[i]);
    m->n = 0;
}

static int memory_truncate(table *t, query_ctx *q)
{
    (void)q;
    mem_table *m = t->impl;
    pthread_mutex_lock(&m->mu);
    free_blocks(m);
    pthread_mutex_unlock(&m->mu);
    return 0;
}

static void memory_close(table *t)
{
    mem_table *m = t->impl;
    if (!m)
        return;
    free_blocks(m);
    free(m->blocks);
    pthread_mutex_destroy(&m->mu);
    free(m);
    t->impl = NULL;
}

const table_engine engine_memory = {
    .name = "Memory",
    .open = memory_open,
    .read = memory_read,
    .insert = memory_insert,
    .truncate = memory_truncate,
    .close = memory_close,
};
