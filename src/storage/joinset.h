/* ENGINE = Join(strictness, kind, keys…) and ENGINE = Set (engine_joinset.c): tables that
 * hold the right side of a JOIN or of an IN, as ClickHouse's StorageJoin and StorageSet.
 *
 * Both keep the inserted rows in the Log family's store (log_store.h): in memory, and on
 * disk unless SETTINGS persistent = 0. The hash table is built by the query that uses the
 * rows (the JOIN's own, sql/join.c; IN's set), from join_engine_rows / set_engine_read.
 *
 * Ownership: returned blocks and sources belong to the caller. Thread-safety: as
 * log_store.h. Errors: -1 with err_set. */
#ifndef SHALE_STORAGE_JOINSET_H
#define SHALE_STORAGE_JOINSET_H

#include "storage/table.h"

#define JOIN_ENGINE_MAX_KEYS 64

/* What CREATE TABLE … ENGINE = Join(…) SETTINGS … declared (table settings over the
 * session's at CREATE). strictness: "ANY", "ALL", "SEMI", "ANTI"; kind: "LEFT", "INNER",
 * "RIGHT", "FULL". right_any: ClickHouse's RightAny strictness (ANY FULL): one row per key
 * like ANY LEFT. */
typedef struct join_engine_spec {
    const char *strictness, *kind;
    bool right_any;
    int nkeys;
    int key_cols[JOIN_ENGINE_MAX_KEYS]; /* indexes in t->sch */
    bool use_nulls, take_last_row, persistent;
} join_engine_spec;

extern const table_engine engine_join;
extern const table_engine engine_set;

/* The spec of a Join table (t->engine == &engine_join). */
const join_engine_spec *join_engine_spec_of(const table *t);
/* True when the table keeps one row per key (ANY, SEMI and ANTI with LEFT or INNER, and
 * RightAny): the first inserted, or the last with join_any_take_last_row. */
bool join_engine_one_per_key(const join_engine_spec *s);
/* The rows a JOIN or joinGet sees, in one block of t->sch (insertion order of the rows
 * kept); rows with a NULL key are left out when drop_null_keys. */
int join_engine_rows(table *t, bool drop_null_keys, block **out);
/* Makes b (taken) the Join table's rows (a mutation's result). */
int join_engine_replace(table *t, block *b);
/* The rows of a Set table, for IN (a SELECT from it is NOT_IMPLEMENTED, as in ClickHouse). */
int set_engine_read(table *t, query_ctx *q, source **out);

#endif
