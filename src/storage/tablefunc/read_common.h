/* Pieces shared by the table functions that read files or objects through a format
 * reader (file, s3, input/format): the requested-column list, the column selection for
 * the reader, and the projection that adds the virtual columns (_path, _file, _size). */
#ifndef SHALE_STORAGE_READ_COMMON_H
#define SHALE_STORAGE_READ_COMMON_H

#include "column/block.h"
#include "format/format.h"

/* A copy of the requested column indexes (owned by the caller; never NULL). */
int *read_cols_copy(const int *cols, int ncols);
/* The requested columns among the nfile file columns, as one bool each (caller frees). */
bool *read_needed(const int *cols, int ncols, int nfile);
/* Tells the reader to parse only the requested columns among the nfile file columns. */
void read_select_columns(fmt_reader *r, const int *cols, int ncols, int nfile);
/* Builds the block of the requested columns from a block of the nfile file columns (taken):
 * index nfile is _path, nfile + 1 _file, nfile + 2 _size (when size >= 0), as constants. */
block *read_project(block *b, const int *cols, int ncols, int nfile, const char *path, int64_t size);

#endif
