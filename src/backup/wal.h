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

#endif
