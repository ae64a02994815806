/* backup: physical backups of PostgreSQL data directories to a repository (a local
 * directory or S3), read so that they leave the database's page cache and query latency
 * alone (SPEC §5).
 *
 * ---- Why it reads the way it does ----
 * A backup reads every data file once and never again. Buffered reads would pull all of
 * it through the page cache and evict the pages the database is serving queries from, so
 * files are read with O_DIRECT into page-aligned buffers. O_DIRECT loses the kernel's
 * readahead, so each read is large: 1 MiB per data drive of the RAID0 array under the file
 * (4 MiB on four drives), detected from /sys (sysinfo.h), and several files are read at
 * once (concurrency = vCPUs on dense-NVMe machines and on machines with <= 2 vCPUs, else
 * half the vCPUs). Compression (lz4 frames, zstd optionally) runs in the reader threads.
 * All buffers together — read buffers, compression buffers, S3 parts in flight — stay
 * under a hard bound (default 5 % of RAM) computed before anything is allocated
 * (settings.h, bk_settings_fit); the push reports the bound and the process's peak RSS.
 * The process moves itself into a cgroup with a low CPU weight where it may (cgroup.h).
 *
 * ---- Repository layout (repo.h) ----
 *   backups/<NAME>/data/<k>.<method>   the data objects: concatenated compressed blocks
 *   backups/<NAME>/manifest.json       the manifest (manifest.h), written last
 *   wal/<SEGMENT>.lz4                  archived WAL (wal.h)
 * Every file is cut into blocks of 1 MiB; each block is compressed on its own, so a block
 * can be fetched, verified and reported on (file and block number) by itself. The manifest
 * records, per file, its size, mtime, mode, checksum (XXH64 over its blocks' checksums) and
 * per block its object, offset, stored length, raw length and XXH3 of the raw payload.
 *
 * ---- The backup state machine: a backup is listed only when complete ----
 *   (none) --bk_push begins--> WRITING --all objects closed--> DATA_DONE
 *          --pg_backup_stop ok--> STOPPED --manifest written--> COMPLETE
 * Invariants:
 *   1. A backup exists for every reader (list, fetch, verify, delete --retain, a later
 *      --delta-from LATEST) iff backups/<NAME>/manifest.json exists. The listing
 *      (bk_list) enumerates manifests only; a prefix without one is invisible.
 *   2. The manifest is written after every data object is closed and acknowledged (S3's
 *      CompleteMultipartUpload / PUT returned 200, or a local file fsync'ed), and after
 *      pg_backup_stop returned the stop LSN and backup_label — so a manifest never names an
 *      object or a state that does not exist.
 *   3. The manifest is written atomically: one PUT on S3; on a local repository a
 *      temporary file fsync'ed, renamed and the directory fsync'ed (repo_put).
 *   4. A failure or a kill at any point before the manifest leaves at most unlisted data
 *      objects (and on S3 possibly an incomplete multipart upload, which the push aborts
 *      when it fails cleanly and a bucket lifecycle rule removes after kill -9). The next
 *      push picks a new name and is unaffected. On a failure the push also calls
 *      pg_backup_stop (the session ending does it for a kill).
 *   5. Deletion reverses the order: the manifest goes first (the backup stops existing),
 *      then its objects; a crash in between leaves unlisted garbage, never a listed
 *      backup with missing objects.
 *   6. A delta backup's manifest names its parent; the parent cannot be deleted while a
 *      retained backup depends on it (delete --retain keeps whole chains).
 *
 * ---- Incremental (delta) backups ----
 * With a parent, a PostgreSQL relation main-fork file (base/ global/ pg_tblspc/, name of
 * digits with an optional .N segment) present in the parent is shipped as its 8 KiB pages
 * whose header LSN is newer than the parent's start LSN (or zero, or beyond the parent's
 * size) — pgpage.h; other files are shipped whole. This is safe because pg_backup_start
 * runs a checkpoint: every page modified after the parent's start was written back with
 * an LSN above it, and any change after this backup's own start is replayed from WAL
 * (full-page writes are forced during a backup). Fetch restores the chain's full backup
 * and applies each delta in order (pages written in place, files truncated or extended to
 * the recorded size, files absent from the last manifest removed).
 *
 * Errors: every function returns 0 or -1 with err_set (base/err.h); corrupt data names the
 * file, block and object. Thread-safety: noted per module. */
#ifndef SHALE_BACKUP_BACKUP_H
#define SHALE_BACKUP_BACKUP_H

#include <stdint.h>

#define BK_BLOCK_SIZE (1u << 20) /* the unit of compression, checksums and fetch */
#define BK_PAGE_SIZE 8192u       /* PostgreSQL's BLCKSZ */
#define BK_PAGES_PER_BLOCK (BK_BLOCK_SIZE / BK_PAGE_SIZE)
#define BK_READ_AHEAD 4          /* read buffers per reader (engine.h) */
#define BK_TOOL_VERSION "shale-backup 0.1.0"

#endif
