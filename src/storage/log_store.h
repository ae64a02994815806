/* The Log family's store (engine_log.c), shared with the Join and Set engines
 * (engine_joinset.c): the inserted blocks, kept in memory and, when persistent, appended to
 * one Native stream in the table's data directory that is loaded again at start.
 *
 * open sets t->impl; close frees it. insert gives a sink whose finish() appends its blocks
 * (durably first when persistent); truncate empties the table. log_store_blocks gives the
 * in-memory store (block_store.h: read snapshots with block_store_read).
 * Thread-safety and errors: as block_store.h and table.h. */
#ifndef SHALE_STORAGE_LOG_STORE_H
#define SHALE_STORAGE_LOG_STORE_H

#include "storage/block_store.h"
#include "storage/table.h"

/* created: CREATE (nothing to load); persistent = false keeps the rows in memory only;
 * extra (malloc'ed, or NULL) is the engine's own state, taken (freed by close). */
int log_store_open(table *t, bool created, bool persistent, void *extra);
block_store *log_store_blocks(table *t);
void *log_store_extra(const table *t);
int log_store_insert(table *t, query_ctx *q, table_sink **out);
int log_store_truncate(table *t, query_ctx *q);
void log_store_close(table *t);
/* Makes b (taken, t->sch's columns) the table's only rows: a mutation's result. */
int log_store_replace(table *t, block *b);

#endif
