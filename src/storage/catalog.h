/* The catalog: databases and their tables, persisted under the data directory in
 * ClickHouse's Ordinary-database layout:
 *   <path>/metadata/<db>.sql             ATTACH DATABASE <db> ENGINE = Ordinary
 *   <path>/metadata/<db>/<table>.sql     ATTACH TABLE <table> (…) ENGINE = … (canonical text)
 *   <path>/data/<db>/<table>/            the table's data (engines with a data directory)
 * Databases `default` and `system` always exist (system is read-only and virtual).
 * Metadata files are written to a temporary name, fsync'd and renamed, so a crash leaves
 * either the old or the new definition.
 *
 * Ownership: the catalog owns its tables; catalog_get returns a reference the caller
 * drops with table_unref. Thread-safety: all calls take the catalog's lock; tables are
 * safe to use from several threads (see table.h).
 * Errors: -1 with err_set: UNKNOWN_DATABASE, UNKNOWN_TABLE ("Table db.t does not exist"),
 * TABLE_ALREADY_EXISTS, DATABASE_ALREADY_EXISTS, DATABASE_NOT_EMPTY, UNKNOWN_STORAGE, … */
#ifndef SHALE_STORAGE_CATALOG_H
#define SHALE_STORAGE_CATALOG_H

#include "storage/table.h"

typedef struct catalog catalog;

/* Loads every database and table under data_path (creating metadata/ and data/ and the
 * default database when missing); engines recover their data (storage/table.h open()). */
/* Names on disk and in backups: ClickHouse's escapeForFileName ([A-Za-z0-9_] as is, any
 * other byte as %XX) appended to out, and back (a new string). */
void catalog_escape_name(buf *out, const char *s);
char *catalog_unescape_name(const char *s, size_t n);

int catalog_open(const char *data_path, query_ctx *q, catalog **out);
/* SQL user-defined functions persist as <path>/user_defined/function_<name>.sql holding
 * the create query (ClickHouse's layout); catalog_open registers them (func/udf.h).
 * create_query NULL removes the file. */
int catalog_store_function(catalog *c, const char *name, const char *create_query);
/* Closes every table (stops background merges) and frees the catalog. */
void catalog_close(catalog *c);

/* The table, referenced (table_unref when done). The current database is the session's
 * (query_ctx.database): callers resolve an unqualified name before calling. */
int catalog_get(catalog *c, const char *database, const char *name, table **out);
/* The table a query names: an unqualified name is the session's temporary table first
 * (q->temp_catalog), as in ClickHouse, then a table of the current database (q->database). */
int catalog_get_for_query(query_ctx *q, const char *database, const char *name, table **out);
/* Every table of every database, referenced, sorted by (database, name); the caller
 * unrefs each and frees the array. */
int catalog_list(catalog *c, table ***out, int *n);

/* ---- DDL (interp/ddl.c checks statements and builds the canonical text) ---- */

/* True for `system` and every database created. */
bool catalog_has_database(catalog *c, const char *name);
/* Database names, sorted, `system` included; the caller frees each and the array. */
int catalog_list_databases(catalog *c, char ***out, int *n);
int catalog_create_database(catalog *c, const char *name, bool if_not_exists);
/* Drops the database with every table in it (their data too). */
int catalog_drop_database(catalog *c, const char *name, bool if_exists);
/* Creates a table from its canonical text ("CREATE TABLE db.name\n(…)\nENGINE = …",
 * see ddl_canonical_create): builds the columns, opens the engine (created = true),
 * persists the metadata. *out (may be NULL) gets a reference; it is set to NULL when
 * the table existed and if_not_exists said to do nothing. or_replace drops the existing
 * table first. */
int catalog_create_table(catalog *c, const char *database, const char *name, const char *create_sql,
                         bool if_not_exists, bool or_replace, query_ctx *q, table **out);
/* Removes the table from the catalog, its metadata and (has_data_dir) its data. */
int catalog_drop_table(catalog *c, const char *database, const char *name, bool if_exists);
/* DETACH TABLE: the table leaves the catalog (its engine is closed once the queries using it
 * end); its metadata and data stay on disk and it is loaded again at the next start — unless
 * permanently: then its metadata file is renamed to <table>.sql.detached. While detached, a
 * CREATE of its name fails (TABLE_ALREADY_EXISTS) and ATTACH TABLE brings it back. */
int catalog_detach_table(catalog *c, const char *database, const char *name, bool if_exists, bool permanently);
/* ATTACH TABLE name (the short form): loads the table from its metadata file (.sql, or
 * .sql.detached, which is renamed back) and opens it over its data.
 * CANNOT_GET_CREATE_TABLE_QUERY when there is no metadata. */
int catalog_attach_table(catalog *c, const char *database, const char *name, bool if_not_exists, query_ctx *q);
/* RENAME TABLE db.name TO to_db.to_name: moves the metadata and the data directory
 * (engines with a data directory are closed and opened again at the new path). */
int catalog_rename_table(catalog *c, const char *database, const char *name, const char *to_database,
                         const char *to_name, query_ctx *q);

/* EXCHANGE TABLES db.name AND to_db.to_name: the two swap names (and databases). Done as
 * three renames through a temporary name under the catalog lock: a crash in between
 * leaves one table under `.exchange_tmp_<name>` (ClickHouse's Atomic databases swap
 * with one renameat2; the Ordinary layout here has no such step). */
int catalog_exchange_tables(catalog *c, const char *database, const char *name, const char *to_database,
                            const char *to_name, query_ctx *q);
/* ALTER TABLE: replaces the table's definition by create_sql (same database and name):
 * persists it, then closes the engine and opens it again over the same data (engines
 * with a data directory read their data in the new layout). The table object stays the
 * same; the old columns and schema are kept until the table is freed, for queries that
 * still hold them. */
int catalog_alter_table(catalog *c, table *t, const char *create_sql, query_ctx *q);

#endif
