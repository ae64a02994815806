/* GROUP BY ROLLUP / CUBE / GROUPING SETS: the second aggregation.
 *
 * The workers aggregate by every key (the union of the sets), as a plain GROUP BY does.
 * Each grouping set then re-aggregates those groups by its own keys, merging their states
 * (a state merged into several sets stays the caller's); ROLLUP(a, b) is the sets (a, b),
 * (a), (), CUBE every subset. The rows of all sets form one post block
 *   [keys (plan->key_post_types)..., aggregates..., grouping(…) columns...]
 * in which a key outside the row's set is its type's default, or NULL with
 * group_by_use_nulls; grouping(k1, …, kn) has bit n-1-i set when ki is outside the set.
 *
 * Errors: -1 with err_set when an aggregate's finalisation fails. Not thread-safe (runs
 * on the main thread after the workers). */
#ifndef SHALE_EXEC_GROUPING_SETS_H
#define SHALE_EXEC_GROUPING_SETS_H

#include "exec/agg_hash.h"
#include "exec/select.h"

/* The post block of every set over the groups of t (aggregated by all keys; t and its
 * states are not changed). */
int grouping_sets_finalize(select_plan *p, const agg_table *t, block **out);
/* The WITH TOTALS row in the post layout: totals (a plain post block, taken) with its keys
 * converted to the post types (their defaults, never NULL, as ClickHouse prints them) and
 * every grouping(…) column all ones. */
block *grouping_sets_totals(select_plan *p, block *totals);

#endif
