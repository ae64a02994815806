/* ENGINE = Memory: the inserted blocks, kept in memory for the life of the process (the
 * data is not persisted, as in ClickHouse: after a restart the table is empty).
 *
 * Thread-safety: storage/block_store.h (snapshots for readers; each block is one read
 * task, so a SELECT reads blocks in parallel). An INSERT's blocks become visible together
 * at finish(). */
#include "base/mem.h"
#include "storage/block_store.h"
#include "storage/table.h"

#include <stdlib.h>

static int memory_open(table *t, bool created, query_ctx *q)
{
    (void)created;
    (void)q;
    block_store *m = xcalloc(1, sizeof *m);
    block_store_init(m);
    t->impl = m;
    return 0;
}

static int memory_read(table *t, bool final, query_ctx *q, source **out)
{
    (void)final;
    (void)q;
    *out = block_store_read(t->impl, t->sch);
    return 0;
}

static int memory_finish(table_sink *ts)
{
    collect_sink *s = (collect_sink *)ts;
    block_store *m = s->t->impl;
    pthread_mutex_lock(&m->mu);
    block_store_append_locked(m, s->blocks, s->n);
    pthread_mutex_unlock(&m->mu);
    collect_sink_free(s, false);
    return 0;
}

static void memory_abort(table_sink *ts) { collect_sink_free((collect_sink *)ts, true); }

static int memory_insert(table *t, query_ctx *q, table_sink **out)
{
    (void)q;
    collect_sink *s = collect_sink_new(t, sizeof *s);
    s->base.finish = memory_finish;
    s->base.abort = memory_abort;
    *out = &s->base;
    return 0;
}

static int memory_truncate(table *t, query_ctx *q)
{
    (void)q;
    block_store *m = t->impl;
    pthread_mutex_lock(&m->mu);
    block_store_clear_locked(m);
    pthread_mutex_unlock(&m->mu);
    return 0;
}

static void memory_close(table *t)
{
    block_store *m = t->impl;
    if (!m)
        return;
    block_store_destroy(m);
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
