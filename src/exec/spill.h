/* spill: temporary files for work larger than memory (external GROUP BY, external sort).
 *
 * A spill file is anonymous: it is created with O_TMPFILE under the query's temporary
 * directory (tmp_path of the server, <data path>/tmp of `shale local`), or created and
 * unlinked at once where O_TMPFILE is not supported. Its name never stays in the
 * directory, so the file is gone as soon as its descriptor is closed — on success, on an
 * error, on cancellation, and even when the process dies. That is the invariant the
 * callers rely on instead of a cleanup list.
 *
 * Writes are buffered (1 MiB, ClickHouse's temporary_files_buffer_size); reads are pread
 * at offsets the writer reported, after spill_flush. The bytes are the callers' own
 * format (agg_spill.c), or blocks as records (external_sort.c, sql/join_grace.c): a spill
 * file is never read by another process.
 *
 * Thresholds: spill_threshold reads ClickHouse's pair of settings for one operator
 * (max_bytes_before_external_X / max_bytes_ratio_before_external_X).
 *
 * Errors: -1 with err_set — CANNOT_OPEN_FILE / CANNOT_CREATE_DIRECTORY (the directory),
 * CANNOT_WRITE_TO_FILE_DESCRIPTOR or NOT_ENOUGH_SPACE (a write), CANNOT_READ_ALL_DATA (a
 * read past what was written). Thread-safety: one spill file per thread; the global
 * counters are atomics. */
#ifndef SHALE_EXEC_SPILL_H
#define SHALE_EXEC_SPILL_H

#include "base/buf.h"
#include "column/block.h"
#include "exec/query.h"

#include <stddef.h>
#include <stdint.h>

typedef struct spill_file spill_file;

/* The directory spill files of q go to (q->tmp_path, else <data_path>/tmp, else the
 * system's temporary directory), written to out. */
void spill_dir(const query_ctx *q, char *out, size_t cap);
/* Creates an anonymous file under dir (made when missing). */
int spill_file_create(const char *dir, spill_file **out);
/* Appends n bytes. */
int spill_write(spill_file *f, const void *p, size_t n);
/* Bytes written so far: the offset the next write lands at. */
uint64_t spill_size(const spill_file *f);
/* Writes out the buffer; call before reading what was written. */
int spill_flush(spill_file *f);
/* Reads n bytes at off (only bytes already flushed). */
int spill_read_at(spill_file *f, uint64_t off, void *dst, size_t n);
/* A block as a record: u64 length, then the block in FORMAT Native with BlockInfo (hdr
 * names the columns; its types are the block's). io is the caller's scratch buffer. */
int spill_write_block(spill_file *f, buf *io, const schema *hdr, const block *b);
/* Reads the record at *pos (flushed) into *out and moves *pos past it. */
int spill_read_block(spill_file *f, uint64_t *pos, buf *io, block **out);
/* Closes the descriptor: the file and its disk space are released. NULL is fine. */
void spill_file_close(spill_file *f);

/* Spill files open in this process and bytes written to spill files since it started
 * (for tests and the query log's figures). */
int64_t spill_open_files(void);
uint64_t spill_bytes_written(void);

/* The threshold of an operator: the bytes setting when non-zero, else the ratio setting
 * times the memory left under the strictest limit above the query (the server's, as
 * ClickHouse's getMostStrictAvailableSystemMemory: the query's own max_memory_usage does
 * not count), else 0 = never spill. BAD_ARGUMENTS for a ratio outside [0, 1). */
int spill_threshold(const query_ctx *q, const char *bytes_setting, const char *ratio_setting, uint64_t *out);

#endif
