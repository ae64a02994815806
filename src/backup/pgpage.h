/* pgpage: PostgreSQL page-level deltas (see backup.h, "Incremental backups").
 *
 * A delta block carries the changed 8 KiB pages of one 1 MiB block of a relation file:
 * a 16-byte bitmap (bit i = page i of the block, little-endian bit order) followed by the
 * marked pages in order. A page ships when its header LSN (pd_lsn, the first 8 bytes:
 * xlogid then xrecoff, host byte order as PostgreSQL writes them) is newer than the
 * threshold (the parent's start LSN), when it is zero (a page extended but never logged),
 * or when it lies beyond the parent's copy of the file.
 *
 * Pure functions; thread-safe. Errors: bk_pg_delta_apply returns -1 with err_set
 * (ERR_CORRUPTED_DATA) for a payload whose length does not match its bitmap. */
#ifndef SHALE_BACKUP_PGPAGE_H
#define SHALE_BACKUP_PGPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BK_DELTA_BITMAP 16

/* Whether a data-directory-relative path is a relation's main fork segment
 * (base/D/R[.N], global/R[.N], pg_tblspc/T/PG_.../D/R[.N]), the files shipped by pages. */
bool bk_pg_is_relation(const char *relpath);
uint64_t bk_pg_page_lsn(const uint8_t *page);
/* Encodes the block data[0, len) (len a multiple of 8 KiB), whose first page is page
 * first_page of the file, against a parent whose copy had parent_pages pages. Writes the
 * payload to out (room for BK_DELTA_BITMAP + len) and returns its length, 0 when no page
 * ships. */
size_t bk_pg_delta_encode(const uint8_t *data, size_t len, uint64_t first_page, uint64_t parent_pages,
                          uint64_t threshold, uint8_t *out);
/* Calls put(ctx, page_in_block, page) for every page in a payload. */
int bk_pg_delta_apply(const uint8_t *payload, size_t len, int (*put)(void *ctx, unsigned page, const uint8_t *data),
                      void *ctx);

#endif
