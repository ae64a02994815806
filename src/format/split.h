/* Row boundaries for parallel parsing of text formats.
 *
 * fmt_find_row_start looks at a chunk p[0..n) cut at an arbitrary byte offset of a CSV,
 * TSV (any TabSeparated variant) or JSONEachRow stream and sets *offset to the first row
 * start at or after p: 0 if p itself starts a row is not knowable, so the convention is
 * that a chunk's first row starts after the first row terminator in it (the previous
 * chunk's reader finishes the row that straddles the cut). Returns 0, 1 when no boundary
 * lies in the chunk, -1 with ERR_UNKNOWN_FORMAT for other formats.
 *
 * Caveat: CSV quoted fields may contain newlines, and whether a given newline is inside
 * quotes cannot be decided without reading from the start of the file. The heuristic
 * here (a newline followed by an even number of quotes up to the next newline) can be
 * wrong for such files; callers must fall back to sequential parsing for CSV when a
 * chunk's row fails to parse, or only split CSV that has no quoted newlines.
 * TSV escapes newlines (\n), so a raw LF always ends a row; JSONEachRow rows end at a
 * newline outside strings, which holds for one-object-per-line input.
 * Thread-safe (pure function). */
#ifndef SHALE_FORMAT_SPLIT_H
#define SHALE_FORMAT_SPLIT_H

#include <stddef.h>

int fmt_find_row_start(const char *format, const char *p, size_t n, size_t *offset);

#endif
