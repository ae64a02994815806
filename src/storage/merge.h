/* ENGINE = Merge(db, 'regexp') and the table function merge([db,] 'regexp'): a read-only
 * view over every table of a database whose name matches a regular expression (PCRE2,
 * partial match, as ClickHouse's RE2 PartialMatch), the table itself left out.
 *
 * The rows of each table come with the Merge table's columns, matched by name: a column
 * the table lacks is its type's default value, a column of another type is CAST; the
 * virtual columns _database and _table name where each row comes from. The tables are
 * looked up at each read, so tables created later are seen. A Merge table over another
 * Merge table reads through it; a chain deeper than 16 fails (TOO_DEEP_RECURSION).
 *
 * Ownership: merge_source_new returns a source the caller frees (source_free); it holds
 * the sources of the tables it read. Thread-safety: as every source. Errors: -1 with
 * err_set (CANNOT_COMPILE_REGEXP, UNKNOWN_DATABASE, CANNOT_EXTRACT_TABLE_STRUCTURE). */
#ifndef SHALE_STORAGE_MERGE_H
#define SHALE_STORAGE_MERGE_H

#include "storage/table.h"

/* A source over the tables of db matching regexp, except self_db.self_name (may be NULL).
 * sch: the columns to offer (a Merge table's); NULL: the union of the matching tables'
 * columns in order of first appearance, each of its least common supertype (merge()). */
int merge_source_new(query_ctx *q, const char *db, const char *regexp, const char *self_db, const char *self_name,
                     const schema *sch, source **out);

extern const table_engine engine_merge;

#endif
