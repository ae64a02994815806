/* select_codes: SELECT over dictionary-coded columns (column.h).
 *
 * Parquet writers store most string columns of few distinct values as a dictionary page
 * plus a code per row. A String column that the query reads only
 *   - in WHERE conjuncts that involve no other column (`c NOT IN ('', 'anon')`,
 *     `c LIKE '%x%'`, `length(c) > 3`, any deterministic expression of c alone), and/or
 *   - as the only GROUP BY key, as itself,
 * is asked of the source dictionary-coded (source.accept_codes). Its conjuncts then run
 * once per dictionary entry, and give a row mask through the codes; GROUP BY looks each
 * distinct value up in the hash table once per block instead of once per row (select.c).
 * Blocks whose column arrives as ordinary values (another format, a chunk that fell back
 * to PLAIN pages) take the ordinary path: the same conjuncts run per row.
 *
 * Ownership: a codes_plan borrows the select_plan's expressions and lives while the run
 * does. Thread-safety: the plan is read-only during the run; each worker has its own
 * codes_cache. Errors: -1 with err_set, from expression evaluation. */
#ifndef SHALE_EXEC_SELECT_CODES_H
#define SHALE_EXEC_SELECT_CODES_H

#include "exec/select.h"

#include <stdint.h>

typedef struct codes_plan codes_plan;

/* The plan for p, or NULL when no column can be coded (or the source cannot code). */
codes_plan *codes_plan_new(const select_plan *p);
void codes_plan_free(codes_plan *c);
/* Per source schema column: whether to ask for it coded (for source.accept_codes). */
const bool *codes_plan_flags(const codes_plan *c);
/* The block column of the GROUP BY key when it may arrive coded, else -1. */
int codes_plan_key_col(const codes_plan *c);

/* A worker's masks, cached per dictionary (the blocks of a Parquet column chunk share
 * one dictionary, so its conjuncts run once per chunk). */
typedef struct codes_cache codes_cache;
codes_cache *codes_cache_new(const codes_plan *c);
void codes_cache_free(codes_cache *k);

/* The whole WHERE over b: keep[i] = 1 for rows that pass. Returns the number of rows
 * kept, or -1 with err_set. */
long codes_where(const codes_plan *c, codes_cache *k, const block *b, uint8_t *keep);

#endif
