/* GROUP BY ROLLUP / CUBE / GROUPING SETS.
 *
 * The workers put each row into one group per set: its key is the set's keys (the other
 * keys at their defaults) followed by the set's number (grouping_sets_keys and a uint16 the
 * caller appends), so every set is aggregated from the rows themselves (an aggregate's
 * merge consumes its source, so sets cannot be derived from one another's states).
 * ROLLUP(a, b) is the sets (a, b), (a), (); CUBE every subset; constant keys are in every
 * set (ClickHouse leaves them out of ROLLUP and CUBE). The final post block is
 *   [keys (plan->key_post_types)..., aggregates..., grouping(…) columns...]
 * in which a key outside the row's set is its type's default, or NULL with
 * group_by_use_nulls; grouping(k1, …, kn) has bit n-1-i set when ki is outside the set.
 *
 * Errors: -1 with err_set when an aggregate's finalisation fails. Not thread-safe (each
 * worker calls grouping_sets_keys on its own columns). */
#ifndef SHALE_EXEC_GROUPING_SETS_H
#define SHALE_EXEC_GROUPING_SETS_H

#include "exec/agg_hash.h"
#include "exec/select.h"

/* The key columns of set `set` for a block of `rows` rows: keys[k] itself (borrowed) when
 * in the set, else a column of defaults (owned: grouping_sets_keys_free). */
void grouping_sets_keys(const select_plan *p, int set, column *const *keys, size_t rows, column **out);
void grouping_sets_keys_free(const select_plan *p, int set, column **keys);
/* Whether a group of the merged table belongs to the first set (all keys). */
bool grouping_sets_slot_in_first(const select_plan *p, const agg_slot *s);
/* The post block of the groups of t (states finalised, not destroyed). */
int grouping_sets_finalize(select_plan *p, const agg_table *t, block **out);
/* The WITH TOTALS row in the post layout: totals (a plain post block, taken) with its keys
 * converted to the post types (their defaults, never NULL, as ClickHouse prints them) and
 * every grouping(…) column all ones. */
block *grouping_sets_totals(select_plan *p, block *totals);

#endif
