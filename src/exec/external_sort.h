/* external_sort: the ORDER BY step when max_bytes_before_external_sort (or its ratio)
 * gives a threshold — sorted runs spilled to a temporary file, then a k-way merge.
 *
 *  1. Blocks pushed are held as they come; without a spill, finish sorts each on its own
 *     (a permutation) and merges them as in 3. — which is also the in-memory sort of
 *     step_sort_new (step.h): this step with no threshold.
 *  2. When the held blocks pass the threshold (block_bytes) — or the query's tracked
 *     memory passes it while they hold at least an eighth of it —, each is sorted on its
 *     own (a permutation, no copy; cut to the LIMIT's rows) and they are merged into one
 *     sorted run written to the query's spill file (spill.h) as FORMAT Native blocks of
 *     bounded size, and freed. Memory stays near the threshold plus one output block.
 *  3. At finish, the held blocks and the runs are merged: one block per run is in memory
 *     at a time. Ties keep input order (runs in the order they were written, blocks in
 *     the order they came), as the in-memory sort does. At most `want` rows (the LIMIT's
 *     offset + limit) are produced, and the merge stops when the next step has enough
 *     (STEP_ENOUGH).
 *
 * Ownership and errors as step.h; I/O errors as spill.h. The spill file is closed (and so
 * removed) by destroy, whether the step finished, failed or was cancelled. */
#ifndef SHALE_EXEC_EXTERNAL_SORT_H
#define SHALE_EXEC_EXTERNAL_SORT_H

#include "exec/query.h"
#include "exec/step.h"

/* As step_sort_new, spilling past threshold bytes (> 0). q gives the spill directory and
 * the cancellation checks; it outlives the step. */
step *step_external_sort_new(query_ctx *q, uint64_t threshold, int first, int nkeys, const bool *desc,
                             const int *nulls, size_t want);
/* Runs this step wrote so far (for tests). */
int external_sort_runs(const step *s);

#endif
