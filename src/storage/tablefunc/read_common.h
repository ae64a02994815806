/* Pieces shared by the table functions that read files or objects through a format
 * reader (file, s3, input/format): the requested-column list, the column selection for
 * the reader, and the projection that adds the virtual columns (_path, _file, _size). */
#ifndef SHALE_STORAGE_READ_COMMON_H
#define SHALE_STORAGE_READ_COMMON_H

#include "column/block.h"
#include "exec/source.h"
#include "format/format.h"

/* A copy of the requested column indexes (owned by the caller; never NULL). */
int *read_cols_copy(const int *cols, int ncols);
/* The requested columns among the nfile file columns, as one bool each (caller frees). */
bool *read_needed(const int *cols, int ncols, int nfile);
/* Tells the reader to parse only the requested columns among the nfile file columns, and
 * which of them it may return dictionary-coded (coded: one flag per file column, or NULL;
 * source.accept_codes). */
void read_select_columns(fmt_reader *r, const int *cols, int ncols, int nfile, const bool *coded);
/* source.accept_codes for the file-reading sources: the flags of the nfile file columns
 * (a new array in *dst, replacing any earlier one). */
void read_accept_codes(bool **dst, const bool *coded, int nfile);
/* The source schema: the file columns, then the virtual _path and _file, and _size when
 * with_size (the layout read_project produces). */
schema *read_source_schema(const schema *file_schema, bool with_size);
/* Builds the block of the requested columns from a block of the nfile file columns (taken):
 * index nfile is _path, nfile + 1 _file, nfile + 2 _size (when size >= 0), as constants. */
block *read_project(block *b, const int *cols, int ncols, int nfile, const char *path, int64_t size);

/* Whether an object whose _path is `path` may hold rows the query keeps, judging by the
 * filters on the virtual columns _path (source column nfile) and _file (nfile + 1):
 * =, !=, <, <=, >, >=, IN and NOT IN against string constants, and [NOT] [I]LIKE patterns
 * (matched by the engine's like functions). Other filters are ignored (true). Lets s3(), url() and file() drop objects from a glob before opening any. */
bool read_object_may_match(const src_filter *f, int n, int nfile, const char *path);
/* Whether any of f[0..n) is on _path or _file. */
bool read_has_path_filter(const src_filter *f, int n, int nfile);
/* The last segment of a path or URL path (_file). */
const char *read_base_name(const char *path);

#endif
