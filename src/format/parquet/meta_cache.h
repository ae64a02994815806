/* The Parquet metadata cache: decoded footers (FileMetaData: schema, row groups, column
 * chunk offsets and sizes, statistics, plus the reader's schema tree) of the Parquet files
 * and objects a process has read, so that a repeated query over object storage fetches no
 * footer, and one over local files reads and decodes none. ClickHouse has the same cache
 * (setting use_parquet_metadata_cache, server settings parquet_metadata_cache_size and
 * parquet_metadata_cache_max_entries, ProfileEvents ParquetMetadataCacheHits/Misses).
 *
 * Keys and invalidation. An entry is keyed by the object's identity (an S3 object's URL, a
 * local file's absolute path) and remembers its version: the ETag for S3 (which the LIST of
 * a glob, or the HEAD of a single key, returns anyway, so a hit costs no request), size +
 * mtime + inode for a local file (taken with fstat of the descriptor that is then read).
 * A lookup with another version is a miss and drops the entry: the object changed.
 *
 * Two levels.
 *  1. Memory: shared by every query of the process (so `shale server` keeps it warm),
 *     bounded by bytes (the decoded footer's arenas) and entries, least recently used
 *     evicted first. Entries are reference-counted: a reader holds its footer while it
 *     reads, and an evicted footer is freed by the last reader that releases it.
 *  2. Disk (`shale local` only, pqmc_configure with a directory): the footer's bytes as the
 *     file holds them, one file per object named by a hash of the key, bounded by bytes
 *     (oldest use evicted first; a hit touches the file's mtime so a later process sees the
 *     order). A new process finds the footers of the last one there: a memory miss that
 *     hits on disk decodes the bytes again and counts as a hit. Entries are written whole to
 *     a temporary file and renamed, so a reader never sees half an entry; each carries a
 *     checksum of everything in it and repeats the key and version, and an entry that fails
 *     any check (or whose footer does not decode) is never trusted: it is removed with a log
 *     line and the footer is read from the object.
 *
 * Memory accounting: footers are decoded and freed with no query tracker attached (only
 * the process tracker sees them), since they outlive the query that read them.
 *
 * Thread-safety: every function may be called from any thread (one mutex per level; disk
 * file I/O happens outside the lock). Errors: none are returned; a disk store that cannot
 * be written is skipped (logged once). */
#ifndef SHALE_FORMAT_PARQUET_META_CACHE_H
#define SHALE_FORMAT_PARQUET_META_CACHE_H

#include "base/buf.h"
#include "format/parquet/thrift.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A decoded footer as the cache holds it. m, schema and file_size are read-only once made. */
typedef struct pq_footer {
    pq_meta *m;
    void *schema;                      /* the reader's schema tree (format/parquet/reader.c) */
    void (*schema_free)(void *schema);
    uint64_t file_size;                /* the size of the file it was read from */
    size_t charge;                     /* bytes counted against the memory bound */
    _Atomic long refs;
} pq_footer;

/* A new footer holding m and schema (taken), one reference held by the caller. */
pq_footer *pq_footer_new(pq_meta *m, void *schema, void (*schema_free)(void *), uint64_t file_size);
void pq_footer_release(pq_footer *f); /* NULL is fine */

typedef struct pqmc_config {
    uint64_t max_bytes;        /* memory bound in bytes; 0 disables the cache */
    uint64_t max_entries;      /* memory bound in entries; 0 disables the cache */
    const char *disk_dir;      /* NULL or "": no disk level */
    uint64_t disk_max_bytes;   /* disk bound; 0: no disk level */
} pqmc_config;

/* ClickHouse's defaults for parquet_metadata_cache_size and _max_entries, and shale's for
 * the disk level (parquet_metadata_cache_disk_size). */
#define PQMC_DEFAULT_MAX_BYTES 536870912ULL
#define PQMC_DEFAULT_MAX_ENTRIES 5000ULL
#define PQMC_DEFAULT_DISK_BYTES 268435456ULL

/* Sets the bounds (evicting what no longer fits) and the disk directory (created on the
 * first write). The memory level works with the defaults without a call. */
void pqmc_configure(const pqmc_config *c);

/* The footer of the object, with a reference for the caller (pq_footer_release), or NULL.
 * Looks in memory, then on disk: a disk entry is decoded with decode(ctx, raw, len,
 * file_size), which returns a new footer or NULL (the entry is then dropped as corrupt).
 * expect_size: the object's size when known (a disk entry of another size is stale), else
 * UINT64_MAX. */
typedef pq_footer *(*pqmc_decode_fn)(void *ctx, const uint8_t *raw, size_t len, uint64_t file_size);
pq_footer *pqmc_get(const char *key, const char *version, uint64_t expect_size, pqmc_decode_fn decode, void *ctx);
/* Caches f (the cache takes its own reference) under key and version, replacing any
 * entry of the key, and writes it to disk when there is a disk level. */
void pqmc_put(const char *key, const char *version, pq_footer *f);
/* Forgets every entry in memory and on disk (SYSTEM DROP PARQUET METADATA CACHE). */
void pqmc_clear(void);

typedef struct pqmc_stats {
    uint64_t entries, bytes;             /* memory level now */
    uint64_t disk_entries, disk_bytes;   /* disk level as this process knows it */
    uint64_t hits, misses, disk_hits, evictions, corrupt;
} pqmc_stats;
void pqmc_get_stats(pqmc_stats *s);

/* Where the log lines go (a corrupt disk entry, a disk level that cannot be written);
 * default: stderr. */
void pqmc_set_logger(void (*fn)(const char *msg));

#endif
