/* ch_meta: the `.backup` file of a ClickHouse BACKUP — the list of a backup's files, which
 * shale writes and reads so that backups of shale tables and ClickHouse's move both ways.
 *
 * The file is XML, written last (a backup without it does not exist):
 *   <config><version>1</version><deduplicate_files>1</deduplicate_files>
 *     <timestamp>2026-12-01 22:26:46</timestamp><uuid>…</uuid><backup_id>…</backup_id>
 *     [<base_backup>File('…')</base_backup><base_backup_uuid>…</base_backup_uuid>]
 *     <contents><file><name>data/db/t/all_1_1_0/data.bin</name><size>112</size>
 *       <checksum>d227…</checksum>[<use_base>true</use_base>][<data_file>…</data_file>]
 *     </file>…</contents></config>
 * A file's checksum is ClickHouse's hashing-buffer CityHash128 of its bytes
 * (base/cityhash.h mt_hasher), printed high 64 bits first; an empty file has none.
 * `use_base`: the bytes are in the base backup (found there by size and checksum);
 * `data_file`: the bytes are stored under another name of this backup (deduplication).
 * Files whose base holds only a prefix (ClickHouse's base_size/base_checksum, for
 * append-only files) are refused as NOT_IMPLEMENTED when read.
 *
 * Ownership: a ch_meta owns its strings. Thread-safety: none needed (one query).
 * Errors: ch_meta_parse returns -1 with BACKUP_DAMAGED naming `where`. */
#ifndef SHALE_BACKUP_CH_META_H
#define SHALE_BACKUP_CH_META_H

#include "base/buf.h"
#include "base/cityhash.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ch_meta_file {
    char *name;
    uint64_t size;
    u128 checksum;
    bool use_base;
    char *data_file; /* NULL: stored under its own name */
} ch_meta_file;

typedef struct ch_meta {
    char uuid[40];
    char timestamp[24];        /* "YYYY-MM-DD hh:mm:ss", UTC */
    bool deduplicate_files;
    char *base_backup;         /* the base's name as written (File('…')), or NULL */
    char base_uuid[40];
    size_t n, cap;
    ch_meta_file *files;
} ch_meta;

/* Appends a file entry (strings copied; data_file may be NULL). */
void ch_meta_add(ch_meta *m, const char *name, uint64_t size, u128 checksum, bool use_base, const char *data_file);
/* The entry named name, or NULL. Linear: callers with many lookups build their own index. */
const ch_meta_file *ch_meta_find(const ch_meta *m, const char *name);
/* The XML text of the file. */
void ch_meta_format(const ch_meta *m, buf *out);
int ch_meta_parse(const char *text, size_t len, const char *where, ch_meta *out);
void ch_meta_free(ch_meta *m);

/* The checksum of a local file as the `.backup` records it; -1 with an error naming path. */
int ch_meta_file_checksum(const char *path, uint64_t *size, u128 *sum);
/* "d227b5f5101daad2d3fbbe01a42594aa" (33 bytes with the NUL). */
void ch_meta_checksum_hex(u128 sum, char out[33]);

#endif
