/* BACKUP and RESTORE of shale tables, in ClickHouse's SQL and ClickHouse's backup layout:
 *
 *   BACKUP TABLE [db.]t [AS [db.]t2] | DATABASE d [AS d2] [, …]
 *       TO File('path') | S3('url'[, 'key', 'secret'])
 *       [SETTINGS id = '…', base_backup = File(…) | S3(…), deduplicate_files = 1,
 *                 structure_only = 0, async = 0] [ASYNC]
 *   RESTORE … FROM … [SETTINGS …, allow_non_empty_tables = 0]
 *
 * A backup is a directory (or S3 prefix) holding metadata/<db>/<t>.sql (the CREATE
 * statement), data/<db>/<t>/<part>/<file> (the files of the parts active at one instant:
 * parts are immutable, so the backup is consistent while inserts and merges run) and,
 * written last, `.backup` (backup/ch_meta.h) listing every file with its size and
 * checksum. A backup exists once `.backup` does. With base_backup, a file whose size and
 * checksum the base already has is recorded as use_base and not stored again:
 * incremental backups by part. RESTORE creates the tables it does not find and attaches
 * the parts under fresh block numbers, verifying every file's checksum.
 *
 * File('path'): relative paths are under the first allowed backup path; absolute ones
 * must be inside one (instance.backup_paths, the server's <backups><allowed_path>;
 * `<path>/backups/` when none is configured — ClickHouse requires the setting).
 *
 * Ownership: the result block and schema are the caller's. Thread-safety: one statement
 * per session; an ASYNC operation continues on its own thread (exec/backup_list.h).
 * Errors: -1 with ClickHouse's codes (BACKUP_ALREADY_EXISTS, BACKUP_NOT_FOUND,
 * BACKUP_ENTRY_NOT_FOUND, CANNOT_RESTORE_TABLE, CHECKSUM_DOESNT_MATCH, …). */
#ifndef SHALE_INTERP_BACKUP_SQL_H
#define SHALE_INTERP_BACKUP_SQL_H

#include "column/block.h"
#include "exec/query.h"
#include "parse/ast.h"

/* Runs a BACKUP or RESTORE statement; the result is one row (id, status). */
int backup_sql_run(const ast *stmt, query_ctx *q, schema **sch, block **out);

#endif
