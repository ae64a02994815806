/* A table's blocks kept in memory (ENGINE = Memory, and the Log family's loaded copy) and
 * the sink that collects an INSERT's blocks before they are made visible together.
 *
 * Thread-safety: the store's mutex guards its list; block_store_read takes a snapshot (new
 * blocks sharing the stored columns, see column.h), so later appends and clears do not
 * disturb readers. A collecting sink belongs to one INSERT. */
#ifndef SHALE_STORAGE_BLOCK_STORE_H
#define SHALE_STORAGE_BLOCK_STORE_H

#include "storage/table.h"

#include <pthread.h>

typedef struct block_store {
    pthread_mutex_t mu;
    block **blocks;
    int n, cap;
} block_store;

void block_store_init(block_store *s);
void block_store_destroy(block_store *s);
/* Appends (takes) the blocks; the caller holds s->mu. */
void block_store_append_locked(block_store *s, block **bs, int n);
/* Frees every block; the caller holds s->mu. */
void block_store_clear_locked(block_store *s);
/* A source over a snapshot of the blocks, one read task per block. */
source *block_store_read(block_store *s, const schema *sch);

/* An INSERT's blocks (non-empty, constants materialised), collected by its write(). */
typedef struct collect_sink {
    table_sink base;
    table *t; /* a reference, dropped by collect_sink_free */
    block **blocks;
    int n, cap;
} collect_sink;

/* A new sink with base.base.write set; the engine sets finish and abort. */
collect_sink *collect_sink_new(table *t, size_t size);
/* Drops the table reference and frees the sink (not its blocks unless free_blocks). */
void collect_sink_free(collect_sink *s, bool free_blocks);

#endif
