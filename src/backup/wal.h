/* wal: archive_command and restore_command for PostgreSQL's WAL (wal/<NAME>.lz4 in the
 * repository, one lz4 frame per file).
 *
 * push: compresses the file and writes it atomically; an object of that name already in
 * the repository with the same content is success (the archiver retries after crashes),
 * with other content an error (never overwritten). fetch: the file from the prefetch
 * directory (<dir of DEST>/.shale-prefetch) when a previous fetch got it, else from the
 * repository; a missing object returns 1 (what restore_command reports for "not
 * archived"). After fetching a segment, a detached child process prefetches the next
 * `prefetch` segments with parallel downloads (one prefetcher at a time: a lock file).
 *
 * Errors: -1 with err_set. Not thread-safe (a command-line entry point). */
#ifndef SHALE_BACKUP_WAL_H
#define SHALE_BACKUP_WAL_H

#include "backup/repo.h"

#include <stdbool.h>
#include <stdint.h>

int bk_wal_push(bk_repo *r, const char *path);
/* 0 fetched, 1 not in the archive, -1 error. */
int bk_wal_fetch(bk_repo *r, const char *name, const char *dest, int prefetch);
/* Whether name is a WAL segment file name (24 hexadecimal digits). */
bool bk_wal_is_segment(const char *name);
/* The segment after name for segments of seg_size bytes (out: 25 bytes). */
void bk_wal_next(const char *name, uint64_t seg_size, char *out);
/* The backup history file PostgreSQL writes at pg_backup_stop for a backup started at
 * start_lsn on timeline tli: "TTTTTTTTLLLLLLLLSSSSSSSS.OOOOOOOO.backup" (out: 41 bytes). */
void bk_wal_history_name(uint32_t tli, uint64_t start_lsn, uint64_t seg_size, char *out);
/* Whether PostgreSQL's archiver is done with WAL file name, by its own rule (XLogArchiveIsBusy):
 * archive_status/NAME.done exists, or neither NAME.ready nor the file itself remain in
 * pg_wal_dir (a checkpoint removed it once archived). */
bool bk_wal_archive_done(const char *pg_wal_dir, const char *name);

#endif
