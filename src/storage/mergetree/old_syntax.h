/* ClickHouse's deprecated MergeTree engine syntax ("old syntax"):
 *
 *   ENGINE = MergeTree(date, [sample_expr,] key, index_granularity)
 *   ReplacingMergeTree(…, [version]), SummingMergeTree(…, [(columns to sum)]),
 *   AggregatingMergeTree(…)
 *
 * is the engine with arguments and none of PARTITION BY, ORDER BY, PRIMARY KEY, SAMPLE BY
 * or SETTINGS (nor INDEX declarations). Such a table is partitioned by toYYYYMM(date),
 * sorted (and indexed) by key, sampled by sample_expr, with that index_granularity; its
 * parts are named <min date>_<max date>_<min block>_<max block>_<level> (dates YYYYMMDD)
 * and hold no partition.dat nor minmax file (both follow from the name).
 *
 * The table's text keeps the engine clause as written (SHOW CREATE prints it so); this
 * module derives from it the storage clauses the rest of shale reads.
 *
 * Pure functions over the AST; errors come back as -1 with err_set (ClickHouse's codes
 * and messages). Thread-safe. */
#ifndef SHALE_STORAGE_MERGETREE_OLD_SYNTAX_H
#define SHALE_STORAGE_MERGETREE_OLD_SYNTAX_H

#include "base/arena.h"
#include "base/buf.h"
#include "parse/ast.h"

#include <stdbool.h>

/* Does CREATE statement `create` with engine clause `engine` (NULL: create->engine) use
 * the old syntax? Engines whose names do not end in MergeTree never do. */
bool mt_old_syntax(const ast *create, const ast *engine);

/* The arguments of an old-syntax engine clause, pointers into it. */
typedef struct mt_old_args {
    const ast *date;        /* the date column (an identifier) */
    const ast *sample_by;   /* NULL when not given */
    const ast *key;         /* the sorting key: one expression or a tuple */
    uint64_t granularity;   /* index_granularity */
    const ast *granularity_ast;
    int nrest;              /* the engine's own parameters after them (the version column, */
    ast *const *rest;       /* the columns to sum) */
} mt_old_args;

/* Splits an old-syntax engine clause as ClickHouse does: the number of arguments first
 * (NUMBER_OF_ARGUMENTS_DOESNT_MATCH), then — when !allow (a CREATE without the setting
 * allow_deprecated_syntax_for_merge_tree) — BAD_ARGUMENTS, then the date column (an
 * identifier), the granularity (a non-negative integer literal) and the count again.
 * Engines that shale does not have are refused by the catalog before. */
int mt_old_args_split(const ast *engine, bool allow, mt_old_args *out);

/* The storage clauses an old-syntax CREATE stands for: a shallow copy of `create` with
 * partition_key = toYYYYMM(date), order_by_key = the key (a tuple's elements), sample_by,
 * settings = [index_granularity = n] and an engine clause with only its own parameters;
 * nodes in arena a. *out = create itself for the new syntax. */
int mt_old_syntax_expand(const ast *create, arena *a, const ast **out);

/* system.tables' partition_key, sorting_key, primary_key and sampling_key of a MergeTree
 * family table, appended to out[0..3] as ClickHouse prints them (keys' elements joined
 * by ", "); nothing for other engines. */
void mt_key_texts(const ast *create, buf out[4]);

#endif
