/* Tables: what the catalog (storage/catalog.h) keeps per table, and the interface every
 * table engine (MergeTree family, Memory, Null) implements.
 *
 * A table is created from a CREATE TABLE statement; its canonical text (what SHOW CREATE
 * TABLE prints) is persisted by the catalog and parsed again at every start, so engines
 * take everything they need (keys, settings, codecs) from the parsed statement.
 *
 * Ownership: the catalog owns tables; queries take a reference (table_ref / table_unref)
 * for as long as they use one, so DROP waits for nothing and frees the table when the last
 * query is done. Engines must make read(), insert() and the introspection calls safe to
 * run from several queries at once (they run on different threads in the server).
 * Errors: -1 with err_set, naming the table (db.name) and, for data, the part and file. */
#ifndef SHALE_STORAGE_TABLE_H
#define SHALE_STORAGE_TABLE_H

#include "base/arena.h"
#include "exec/source.h"
#include "parse/ast.h"
#include "storage/tablefunc.h"

#include <stdatomic.h>
#include <stdbool.h>

typedef struct table_column {
    const char *name;
    const type *type;
    const char *default_kind; /* NULL, "DEFAULT", "MATERIALIZED", "ALIAS", "EPHEMERAL" */
    const ast *default_expr;  /* NULL when none */
    const ast_list *codec;    /* the CODEC(...) arguments, or NULL */
    const char *comment;      /* NULL when none */
} table_column;

struct table_engine;

/* A definition an ALTER replaced: kept until the table is freed (see catalog_alter_table). */
typedef struct table_retired {
    struct table_retired *next;
    arena a;
    const ast *create;
    int ncols;
    table_column *cols;
    schema *sch;
    char *create_sql;
} table_retired;

typedef struct table {
    char *database;
    char *name;
    char *create_sql;         /* canonical CREATE TABLE text (SHOW CREATE TABLE) */
    arena a;                  /* holds `create` and the strings of `cols` */
    const ast *create;        /* create_sql parsed: columns, engine, keys, settings */
    int ncols;                /* all declared columns, in declaration order */
    table_column *cols;
    schema *sch;              /* stored columns (not ALIAS / EPHEMERAL), in declaration order:
                                 what insert() receives and read() offers */
    char *data_dir;           /* <path>/data/<database>/<name>/ (ends with '/') */
    const struct table_engine *engine;
    void *impl;               /* the engine's state */
    _Atomic int refs;
    struct table_retired *retired; /* definitions replaced by ALTER (catalog.c), freed with the table */
    /* CREATE TABLE declared data skipping indexes (not kept in create_sql, so not known
     * after a restart): only ignore_data_skipping_indices' check reads it. */
    bool has_skip_indexes;
} table;

/* The rows of system.parts for one table are appended through this (see mergetree). */
typedef struct table_engine {
    const char *name;         /* "MergeTree", "ReplacingMergeTree", "Memory", … */
    bool has_data_dir;        /* the catalog creates data_dir before open() and removes it on DROP */
    bool supports_final;
    /* Checks the statement (keys, settings, engine arguments) and prepares t->impl;
     * `created` is true for CREATE (false when the catalog loads the table at start, when
     * the engine also recovers: removes tmp_ directories, loads parts). */
    int (*open)(table *t, bool created, query_ctx *q);
    /* A source over the table's current data (a snapshot: later inserts are not seen).
     * The caller drops its table reference right after read() returns: a source that
     * needs the table later takes its own (table_ref). */
    int (*read)(table *t, bool final, query_ctx *q, source **out);
    /* A sink taking blocks with exactly t->sch's columns (defaults already computed by the
     * caller). finish() makes everything written visible atomically per part and durable. */
    int (*insert)(table *t, query_ctx *q, table_sink **out);
    int (*truncate)(table *t, query_ctx *q);
    /* OPTIMIZE TABLE t [PARTITION p] [FINAL] [DEDUPLICATE]: stmt is the statement. */
    int (*optimize)(table *t, const ast *stmt, query_ctx *q);
    /* CHECK TABLE: one row per part (part_path, is_passed, message) appended to *out
     * (a block of (String, UInt8, String) created by the caller). */
    int (*check)(table *t, query_ctx *q, block *out);
    /* ALTER TABLE t <text>: stmt->str holds the text after the table name
     * (ATTACH PART 'name', DETACH PART, DROP PARTITION …). */
    int (*alter)(table *t, const ast *stmt, query_ctx *q);
    /* BACKUP: calls fn for every file of a consistent snapshot of the table's data (the
     * parts active at one instant, kept on disk until backup() returns): `name` is the
     * file's path relative to the table's directory in the backup ("all_1_1_0/data.bin"),
     * `path` where to read it. fn returning -1 stops the walk with its error. NULL: the
     * engine cannot back up its data (BACKUP fails with NOT_IMPLEMENTED); an engine that
     * keeps no data calls fn for nothing. */
    int (*backup)(struct table *t, query_ctx *q, int (*fn)(void *ctx, const char *name, const char *path),
                  void *ctx);
    /* RESTORE: `dir` (a directory inside t->data_dir, ending in '/') holds the files of
     * the part named `name` in the backup; the engine checks them against the table's
     * columns and makes them a part of the table under fresh block numbers. On success
     * the directory is consumed; on failure it is left for the caller to remove. */
    int (*restore_part)(struct table *t, const char *dir, const char *name, query_ctx *q);
    /* Stops background work and frees t->impl; the data stays on disk. */
    void (*close)(table *t);
} table_engine;

/* Engines by name (case-sensitive, as ClickHouse), NULL if unknown. */
const table_engine *table_engine_find(const char *name);

/* Implementations. */
extern const table_engine engine_memory;
extern const table_engine engine_null;
extern const table_engine engine_mergetree;           /* MergeTree */
extern const table_engine engine_replacing_mergetree; /* ReplacingMergeTree([ver]) */
extern const table_engine engine_summing_mergetree;   /* SummingMergeTree([cols]) */
extern const table_engine engine_aggregating_mergetree; /* AggregatingMergeTree() */
extern const table_engine engine_collapsing_mergetree;  /* CollapsingMergeTree(sign) */
extern const table_engine engine_versioned_collapsing_mergetree; /* VersionedCollapsingMergeTree(sign, ver) */
extern const table_engine engine_coalescing_mergetree;  /* CoalescingMergeTree([cols]) */
extern const table_engine engine_log;                 /* Log, TinyLog, StripeLog (engine_log.c) */
extern const table_engine engine_tinylog;
extern const table_engine engine_stripelog;
/* CREATE VIEW: not in the registry (no CREATE TABLE … ENGINE = View); the catalog gives it
 * to tables whose statement is CREATE VIEW, the analyzer expands it. */
extern const table_engine engine_view;
/* CREATE MATERIALIZED VIEW (engine_mview.c): likewise outside the registry. Its rows are
 * its target's: mview_target gives the target table (a reference; UNKNOWN_TABLE when it
 * was dropped), mview_has_inner whether the target is the view's own inner table
 * (`.inner_id.<uuid>`, dropped with the view). */
extern const table_engine engine_materialized_view;
int mview_target(const table *mv, query_ctx *q, table **out);
bool mview_has_inner(const table *mv);

/* system.parts: every part of every MergeTree-family table (storage/mergetree). */
int mergetree_system_parts(query_ctx *q, source **out);
/* system.merges (running merges) and system.part_log (<path>/system/part_log.tsv). */
int mergetree_system_merges(query_ctx *q, source **out);
int mergetree_part_log(query_ctx *q, source **out);

/* Mutations (storage/mergetree/mutate.c). add: records a mutation of the commands
 * (ALTER command text as system.mutations shows it, each in parentheses, comma-separated:
 * "(DELETE WHERE a = 1), (UPDATE b = 2 WHERE 1)") in mutation_N.txt and returns N; the
 * background threads apply it. wait: applies it in the calling thread and returns when
 * every part is at version N or above (mutations_sync = 1 / 2); fails with the error of
 * a part that cannot be mutated. for_reopen: only write the file, for an ALTER that
 * reopens the table with new columns next (the reopened table loads it). system.mutations:
 * a row per command. */
int mergetree_mutation_add(table *t, const char *commands, bool for_reopen, query_ctx *q, int64_t *version);
int mergetree_mutation_wait(table *t, int64_t version, query_ctx *q);
int mergetree_system_mutations(query_ctx *q, source **out);
/* KILL MUTATION: forgets mutation N (its file removed); parts already rewritten stay.
 * Returns 1 if it was there, 0 if not, -1 on error. */
int mergetree_mutation_kill(table *t, int64_t version);

/* Resumable INSERT … SELECT (setting resumable_insert; storage/mergetree/resume.c). lookup:
 * the version recorded for a finished object, or NULL (*version malloc'ed); -1 for tables
 * that are not MergeTree. begin/end bracket the load of one object; end(ok = false)
 * removes what the object's load committed. */
int mergetree_resume_lookup(table *t, const char *name, char **version);
int mergetree_resume_begin(table *t, const char *name, const char *version, int64_t *first);
int mergetree_resume_end(table *t, const char *name, const char *version, int64_t first, bool ok);

static inline table *table_ref(table *t)
{
    atomic_fetch_add(&t->refs, 1);
    return t;
}
/* Drops a reference; the last one closes the engine and frees the table. */
void table_unref(table *t);

/* "db.name", for messages (a static per-thread buffer). */
const char *table_full_name(const table *t);

#endif
