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
int catalog_open(const char *data_path, query_ctx *q, catalog **out);
/* Closes every table (stops background merges) and frees the catalog. */
void catalog_close(catalog *c);

/* The table, referenced (table_unref when done); database NULL = the current one. */
int catalog_get(catalog *c, const char *database, const char *name, table **out);
/* Every table of every database, referenced, sorted by (database, name); the caller
 * unrefs each and frees the array. */
int catalog_list(catalog *c, table ***out, int *n);
/* The current database (USE db). */
const char *catalog_current_database(catalog *c);

#endif
