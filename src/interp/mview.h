/* Materialized views in the statement layer (the engine side: storage/engine_mview.c).
 *
 * A materialized view is a trigger on INSERT: every block inserted into its source table
 * (the first table its SELECT reads) goes through its SELECT — which then reads that
 * block wherever it names the source table — and the result is inserted, by column
 * name, into the view's target: the table named by TO, or the view's inner table
 * `.inner_id.<uuid>` created with it from its ENGINE clauses. The target's own views
 * fire in turn (chains), one block at a time, as in ClickHouse: an aggregating view
 * writes one result per inserted block (blocks squashed as ClickHouse squashes them
 * before its views), which the target's engine (SummingMergeTree, AggregatingMergeTree)
 * folds together on merge.
 *
 * Errors: -1 with ClickHouse's code and message. Not thread-safe beyond what INSERT is
 * (one statement at a time per query). */
#ifndef SHALE_INTERP_MVIEW_H
#define SHALE_INTERP_MVIEW_H

#include "exec/query.h"
#include "parse/ast.h"
#include "storage/table.h"

/* CREATE MATERIALIZED VIEW (st->show_what "MATERIALIZED VIEW"): checks the statement,
 * creates the inner table when there is no TO, the view, and with POPULATE fills the
 * target from the source's current rows. */
int mview_create(const ast *st, query_ctx *q);

/* The sink INSERT writes t's blocks (t->sch's columns) into: t's own, and when views
 * read t, one that also pushes each block through them. finish()/abort() end t's own
 * insert; the views' inserts are done block by block. stmt: the INSERT, whose kind
 * decides the blocks the views see (ClickHouse reads inserted data, and the SELECT of a
 * trivial INSERT … SELECT under optimize_trivial_insert_select, in blocks of at most
 * max_insert_block_size rows; another SELECT's blocks are its own). */
int mview_table_sink(table *t, const ast *stmt, query_ctx *q, table_sink **out);

/* DROP of a materialized view: drops the view and then its inner table (not a TO target).
 * Returns 1, doing nothing, when db.name is not a materialized view. */
int mview_drop(const char *db, const char *name, query_ctx *q);

#endif
