/* manifest: what a backup holds (backups/<NAME>/manifest.json), its JSON form and the
 * listing of complete backups. See backup.h for the layout and the state machine: the
 * manifest is the last object written, and its presence is what makes a backup exist.
 *
 * Ownership: a bk_manifest owns every string and array in it (bk_manifest_free).
 * Thread-safety: none; built by one thread (the push's collector) and read-only after.
 * Errors: -1 with err_set; a malformed manifest is ERR_CORRUPTED_DATA naming the backup. */
#ifndef SHALE_BACKUP_MANIFEST_H
#define SHALE_BACKUP_MANIFEST_H

#include "backup/repo.h"
#include "base/buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bk_block {
    uint32_t idx;      /* block number in the file (offset / BK_BLOCK_SIZE) */
    uint32_t obj;      /* index into bk_manifest.objects */
    uint64_t off;      /* offset of the compressed block in the object */
    uint32_t zlen;     /* stored (compressed) bytes */
    uint32_t rawlen;   /* bytes after decompression */
    uint64_t sum;      /* checksum of the raw payload (bk_manifest.block_sum, bk_block_sum) */
} bk_block;

typedef enum { BK_FILE = 'f', BK_DIR = 'd' } bk_ftype;

typedef struct bk_file {
    char *path;        /* relative to the data directory ("base/5/1259") */
    char type;         /* BK_FILE or BK_DIR */
    uint32_t mode;     /* permission bits */
    int64_t mtime;     /* seconds */
    uint64_t size;     /* bytes read (the restored size) */
    bool delta;        /* blocks carry changed pages only (pgpage.h), not the whole block */
    bool direct;       /* read with O_DIRECT */
    uint64_t sum;      /* whole-file checksum of the bytes read (see bk_manifest.sum_of_blocks) */
    bk_block *blocks;  /* ascending idx; a full file has every block, a delta file some */
    size_t nblocks;
} bk_file;

typedef struct bk_tblspc {
    char *oid;
    char *path;        /* the tablespace's location on the source */
} bk_tblspc;

typedef struct bk_settings_used {
    uint64_t read_size;
    int concurrency;
    bool direct_io;
    uint64_t buffer_limit;
    uint64_t buffer_planned;
    uint64_t part_size;
    int parts_in_flight;
    int cpu_weight;
    char compression[8];
    int level;
} bk_settings_used;

typedef struct bk_manifest {
    char *name;
    char *parent;          /* NULL for a full backup */
    char *tool_version;
    char *start_time, *stop_time; /* ISO 8601 UTC */
    uint64_t start_lsn, stop_lsn;
    uint32_t timeline;
    char *system_id;
    int pg_version;
    char *backup_label, *tablespace_map; /* as pg_backup_stop returned them */
    char *compression;     /* "lz4", "zstd" or "none" */
    bk_settings_used settings;
    char **objects;
    size_t nobjects;
    bk_file *files;
    size_t nfiles;
    bk_tblspc *tblspcs;
    size_t ntblspcs;
    uint64_t stored_bytes; /* sum of compressed block sizes */
    /* How bk_file.sum was computed: true (every manifest written now, "file_checksum":
     * "xxh64-of-blocks") = XXH64 over the little-endian XXH64s of the file's 1 MiB blocks of raw
     * bytes, so a push hashes each byte once; false (manifests without the field) = XXH64 of
     * the bytes themselves. */
    bool sum_of_blocks;
    /* How bk_block.sum was computed: BK_SUM_XXH3 (every manifest written now, "block_checksum":
     * "xxh3") or BK_SUM_XXH64 (manifests without the field). XXH3 runs about three times as
     * fast as XXH64 with the library's AVX2 dispatch, and a push hashes every byte it reads. */
    enum { BK_SUM_XXH64, BK_SUM_XXH3 } block_sum;
} bk_manifest;

/* The checksum of one block's raw payload, as m->block_sum says. Thread-safe. */
uint64_t bk_block_sum(const bk_manifest *m, const void *p, size_t n);

void bk_manifest_free(bk_manifest *m);
void bk_manifest_to_json(const bk_manifest *m, buf *out);
int bk_manifest_from_json(const char *text, size_t len, const char *what, bk_manifest *m);
/* "0/2000028" <-> LSN */
void bk_lsn_format(uint64_t lsn, char out[24]);
int bk_lsn_parse(const char *s, uint64_t *lsn);
/* The file with this path (binary search: files are sorted by path), or NULL. */
const bk_file *bk_manifest_find(const bk_manifest *m, const char *path);
void bk_manifest_sort(bk_manifest *m);

/* "backups/<name>/" + tail */
char *bk_backup_key(const char *name, const char *tail);
/* Complete backups (those with a manifest), oldest first: names malloc'ed. */
int bk_list_names(bk_repo *r, char ***names, size_t *n);
void bk_names_free(char **names, size_t n);
/* Loads a backup's manifest; "LATEST" is the newest complete backup. */
int bk_manifest_load(bk_repo *r, const char *name, bk_manifest *m);

#endif
