/* repo: where backups live — a driver interface with two drivers, a local directory
 * ("file:///dir" or a plain absolute path) and S3 ("http(s)://host[:port]/bucket/prefix",
 * credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY as s3() takes them, io/s3.h).
 * Keys are relative to the repository root ("backups/X/manifest.json").
 *
 * Ownership: a bk_repo owns its S3 client; buffers returned are the caller's. Thread-safety:
 * a repository may be used from many threads at once (the S3 client is immutable; the file
 * driver uses only per-call descriptors). Errors: -1 with err_set naming the key and the
 * repository; a missing object is reported through *missing where the call offers it. */
#ifndef SHALE_BACKUP_REPO_H
#define SHALE_BACKUP_REPO_H

#include "base/buf.h"
#include "io/stream.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bk_repo bk_repo;

int bk_repo_open(const char *url, bk_repo **out);
/* As bk_repo_open, with S3 credentials given (both NULL: from the environment). */
int bk_repo_open_creds(const char *url, const char *key_id, const char *secret, bk_repo **out);
void bk_repo_close(bk_repo *r);
const char *bk_repo_url(const bk_repo *r);
bool bk_repo_is_s3(const bk_repo *r);

/* Writes a whole object atomically (a reader sees the old state or all of it): one PUT on
 * S3; a temporary file, fsync, rename and directory fsync locally. */
int bk_repo_put(bk_repo *r, const char *key, const void *p, size_t n);
/* A whole object into out (appended). A missing object: *missing = true and 0 returned
 * when missing is not NULL, else an error. */
int bk_repo_get(bk_repo *r, const char *key, buf *out, bool *missing);
/* Exactly n bytes at off into dst; a short object is an error. */
int bk_repo_read(bk_repo *r, const char *key, uint64_t off, size_t n, void *dst);
/* A streaming writer for large objects. S3: the multipart path of outstream_open_s3 with
 * parts of part_size bytes, at most in_flight uploading at once; local: a file written in
 * place, with O_DIRECT when direct (buffered with write-behind otherwise and where refused),
 * and fsync'ed on close.
 * bk_repo_writer_abort discards it (aborting the upload). */
int bk_repo_writer(bk_repo *r, const char *key, uint64_t part_size, int in_flight, bool direct, outstream **out);
/* The aligned staging buffer a local writer holds (its objects are written with O_DIRECT). */
#define BK_REPO_STAGE ((size_t)1 << 20)
void bk_repo_writer_abort(bk_repo *r, outstream *w);
/* Keys under prefix (recursively), with sizes; arrays malloc'ed (bk_repo_list_free). */
int bk_repo_list(bk_repo *r, const char *prefix, char ***keys, uint64_t **sizes, size_t *n);
void bk_repo_list_free(char **keys, uint64_t *sizes, size_t n);
/* Deletes keys; missing ones are not an error. Local empty directories left are removed. */
int bk_repo_delete(bk_repo *r, char *const *keys, size_t n);

/* Local file helpers shared by the backup modules. bk_write_all: all n bytes or an error
 * naming path. bk_mkdirs: dir and its missing parents (parents 0700, dir itself mode). */
int bk_write_all(int fd, const void *p, size_t n, const char *path);
int bk_mkdirs(const char *dir, unsigned mode);

#endif
