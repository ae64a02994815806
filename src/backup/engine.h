/* engine: the push (read files with O_DIRECT, compress blocks, upload objects) and the
 * restore/verify (fetch blocks, check, decompress, write) of a backup's files.
 *
 * Push: files are handed out largest first to `concurrency` readers. Each reader is a pair
 * of threads: one reads files into a ring of BK_READ_AHEAD aligned buffers of
 * max(read_size, 1 MiB) while the other checksums, compresses and writes the buffers read
 * before (so reads and compression overlap), with a compression buffer and one output object
 * at a time (bk_repo_writer: S3 multipart with parts_in_flight parts, or a local file written
 * with O_DIRECT); all buffers together are what bk_settings_planned computed. A file is
 * opened with O_DIRECT when the settings ask; a file or filesystem that refuses it
 * (EINVAL on open or on the first read) is read buffered, counted and reported. Blocks are
 * 1 MiB; a delta file (a relation present in the parent) ships pgpage.h payloads instead.
 *
 * Restore: the chain (full backup first) is applied in order by `concurrency` threads;
 * consecutive blocks of one object are fetched in one ranged read of up to 16 MiB; every
 * block's checksum is checked before it is written, a mismatch names the file, block,
 * object and offset. Verify does the same without writing and reports every bad block.
 *
 * Ownership: the caller owns the manifests; the engine fills the files' blocks and the
 * manifest's objects. Thread-safety: each call runs its own threads and joins them.
 * Errors: -1 with err_set; the first error stops the other threads. */
#ifndef SHALE_BACKUP_ENGINE_H
#define SHALE_BACKUP_ENGINE_H

#include "backup/manifest.h"
#include "backup/repo.h"
#include "backup/tune.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

typedef struct bk_push_stats {
    uint64_t bytes_read, bytes_stored;
    uint64_t files, files_direct, files_buffered_fallback, files_delta;
    uint64_t files_aio; /* read to the end with several O_DIRECT reads in flight (native AIO) */
    uint64_t pages_shipped, pages_skipped;
    char fallback_example[512]; /* the first file that refused O_DIRECT, and why */
} bk_push_stats;

/* Pacing (--max-latency-ms): a controller thread lowers `readers` (readers with an id at
 * or above it wait) and sets `rate` (bytes per second for all readers together, 0 =
 * unlimited); readers call bk_pace_wait before each read. Thread-safe. */
typedef struct bk_pace {
    _Atomic int readers;
    _Atomic uint64_t rate;
    pthread_mutex_t lock;
    double next_start;  /* token bucket: when the next read may start (CLOCK_MONOTONIC s) */
} bk_pace;

void bk_pace_init(bk_pace *p, int readers);
void bk_pace_wait(bk_pace *p, int reader, size_t bytes);
/* One step of the controller, once per second with the p99 of the last second's probes:
 * above the bound, one reader fewer, and once at one reader the rate halves (starting at
 * 256 MiB/s, at least 4 MiB/s); below half the bound, the rate doubles (unlimited from
 * 1 GiB/s) and then readers come back one by one. Returns -1 lowered, 1 raised, 0 kept. */
int bk_pace_adjust(bk_pace *p, int max_readers, double p99_ms, double bound_ms);

/* Reads the files of m (type BK_FILE; abs[i] is the source path of m->files[i]) into
 * objects under backups/<m->name>/data/, filling blocks, size, sum and m->objects. With
 * parent, relation files present there ship only pages newer than parent->start_lsn. */
int bk_push_files(bk_repo *r, const bk_settings *s, bk_manifest *m, char *const *abs, const bk_manifest *parent,
                  bk_pace *pace, FILE *log, bk_push_stats *st);

/* Maps a manifest path to a target path (tablespaces elsewhere); NULL ctx: target/path. */
typedef char *(*bk_path_map_fn)(void *ctx, const char *relpath);

/* Applies chain[0] (a full backup) then chain[1..n) (deltas) into target; files not in
 * the last manifest are removed afterwards. */
int bk_restore(bk_repo *r, bk_manifest *const *chain, size_t n, const char *target, bk_path_map_fn map, void *map_ctx,
               int concurrency, FILE *log);
/* Re-reads every block of m and checks it; every problem is printed to log, the error
 * names the first one and the count. */
int bk_verify(bk_repo *r, const bk_manifest *m, int concurrency, FILE *log);

/* Block codecs: the stored size, or -1 with err_set. */
long bk_compress(const char *method, int level, const void *src, size_t n, void *dst, size_t cap);
size_t bk_compress_bound(size_t n);
/* Decompresses exactly rawlen bytes (a different size is an error). */
int bk_decompress(const char *method, const void *src, size_t zn, void *dst, size_t rawlen);

#endif
