/* pg: PostgreSQL backups — push (pg_backup_start/pg_backup_stop over libpq, loaded on
 * first use), fetch into a runnable data directory, list, verify and delete --retain.
 *
 * push: connects (conninfo string, or libpq's PG* environment when NULL), starts a
 * non-exclusive backup (fast checkpoint) on that one connection, enumerates the data
 * directory as pg_basebackup does (pg_wal, pg_replslot, pg_stat_tmp, ... kept empty;
 * postmaster.pid, pg_internal.init, pgsql_tmp* skipped), follows pg_tblspc/ links into
 * the tablespaces, runs the engine, stops the backup (waiting for the WAL to be archived)
 * and writes the manifest with backup_label and tablespace_map, last. The source cluster
 * must archive WAL to the same repository (archive_command = shale backup wal push ...).
 *
 * fetch: the chain of the named backup (full first), applied into an empty target; then
 * backup_label, tablespace_map (with the locations the tablespaces were restored to),
 * recovery.signal and restore_command = '<this binary> backup wal fetch --repo URL %f %p'
 * in postgresql.auto.conf (with the recovery target, if one is given).
 *
 * Errors: -1 with err_set. Not thread-safe (command-line entry points). */
#ifndef SHALE_BACKUP_PG_H
#define SHALE_BACKUP_PG_H

#include "backup/repo.h"
#include "backup/tune.h"

#include <stdio.h>

typedef struct bk_pg_push_opts {
    const char *pgdata;
    const char *conninfo;   /* NULL: the PG* environment */
    const char *delta_from; /* NULL, a name or LATEST */
    bk_settings settings;   /* before fitting; the push fits them to the bound */
    bool s3;
    int max_latency_ms;     /* 0: no pacing; else probe latency and slow down above it */
    FILE *log;
} bk_pg_push_opts;

int bk_pg_push(bk_repo *r, const bk_pg_push_opts *o);

typedef struct bk_ts_map {
    char *oid;
    char *dir;
} bk_ts_map;

typedef struct bk_pg_fetch_opts {
    const char *backup;     /* a name or LATEST */
    const char *target;
    const bk_ts_map *ts_map;
    size_t nts_map;
    const char *target_lsn; /* recovery_target_lsn, or NULL */
    const char *target_time;/* recovery_target_time, or NULL */
    const char *self;       /* this binary, for restore_command */
    int concurrency;
    FILE *log;
} bk_pg_fetch_opts;

int bk_pg_fetch(bk_repo *r, const bk_pg_fetch_opts *o);
int bk_pg_list(bk_repo *r, FILE *out);
int bk_pg_verify(bk_repo *r, const char *backup, int concurrency, FILE *log);
int bk_pg_delete_retain(bk_repo *r, int retain, FILE *log);

#endif
