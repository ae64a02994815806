/* The schema inference cache: the structure inferred for one object (a file, an S3 object,
 * a URL) in one format under one set of inference settings, kept for the life of the
 * process so that a second query over the same object reads nothing to learn its columns.
 * ClickHouse's equivalent is shown by system.schema_inference_cache and is bypassed by
 * schema_inference_use_cache_for_{file,s3,url} = 0.
 *
 * An entry is keyed by (storage, source, format, format info) and remembers the object's
 * version (local files: size and modification time; S3: the ETag; URLs: the ETag, else
 * Last-Modified/size as the server reports them). A lookup with a different version drops
 * the entry: the object changed. An object without a version is never cached.
 *
 * Ownership: lookups return a new schema (the caller frees it); entries copy what they
 * are given. Thread-safety: all functions may be called from any thread (one mutex).
 * Errors: none; allocation never fails. */
#ifndef SHALE_STORAGE_SCHEMA_CACHE_H
#define SHALE_STORAGE_SCHEMA_CACHE_H

#include "column/block.h"
#include "exec/source.h"
#include "format/format.h"

typedef struct schema_cache_key {
    const char *storage; /* "File", "S3", "URL" (ClickHouse's names) */
    const char *source;  /* absolute path, object URL or URL */
    const char *format;  /* canonical input format name */
    const char *info;    /* schema_cache_format_info() of the query's settings */
    const char *version; /* NULL or "": the object cannot be cached */
} schema_cache_key;

/* The inference settings an inferred structure depends on, as one string
 * (system.schema_inference_cache.additional_format_info); free() it. */
char *schema_cache_format_info(const fmt_settings *fs);

/* The cached structure of the object, or NULL (not cached, or cached for another version,
 * which is then forgotten). */
schema *schema_cache_get(const schema_cache_key *k);
/* Remembers s as the structure of the object (replacing an older entry). */
void schema_cache_put(const schema_cache_key *k, const schema *s);
/* Forgets everything (SYSTEM DROP SCHEMA CACHE; tests). */
void schema_cache_clear(void);

/* system.schema_inference_cache: storage, source, format, additional_format_info,
 * registration_time, schema, number_of_rows (always NULL here), schema_inference_mode. */
int schema_cache_source(query_ctx *q, source **out);

#endif
