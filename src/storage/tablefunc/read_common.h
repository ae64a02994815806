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

/* Copies of the filters among f[0..n) on the nfile file columns (not _path/_file), their
 * values referenced: a new array of *nout, freed with read_filters_free. */
src_filter *read_file_filters(const src_filter *f, int n, int nfile, int *nout);
void read_filters_free(src_filter *f, int n);
/* The filters among f[0..n) on the nfile file columns, for fmt_reader_set_filters (names
 * and types borrowed from file_schema, values from f): a new array, *nout of them. */
fmt_filter *read_format_filters(const src_filter *f, int n, const schema *file_schema, int *nout);

/* Filter columns first for the sources that read through a format reader
 * (source.set_prefilter): the reader's early blocks (file columns) are shown to the
 * query's fn in the layout next() returns, virtual _path/_file included. */
typedef struct read_prefilter {
    const int *cols;           /* the iterator's requested columns (borrowed) */
    int ncols, nfile;
    const char *path;          /* for _path / _file (borrowed) */
    bool *pre;                 /* per requested column: read by the filter */
    fmt_prefilter_fn fn;
    void *ctx;
} read_prefilter;
/* Fills p and returns the per-file-column flags to give the reader (caller frees), or NULL
 * when the filter reads something the reader cannot provide early (_size). */
bool *read_prefilter_init(read_prefilter *p, const int *cols, int ncols, int nfile, const char *path,
                          const bool *pre, fmt_prefilter_fn fn, void *ctx);
/* The fmt_prefilter_fn to give the reader, with p as its ctx. */
long read_prefilter_call(void *p, const block *b, uint8_t *keep);
void read_prefilter_free(read_prefilter *p);

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
