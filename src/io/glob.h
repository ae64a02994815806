/* ClickHouse path globs, for file(), s3() and friends.
 *
 * Syntax (as in ClickHouse's file() and s3() paths):
 *   *        any run of characters except '/'
 *   ?        any one character except '/'
 *   **       any run of characters including '/'. A path segment that is exactly "**"
 *            descends into every directory level below (including none); "**" inside a
 *            segment (e.g. "**.csv") matches within that one directory level, as ClickHouse
 *            does when listing local files.
 *   {a,b,c}  any one of the alternatives; alternatives may contain '/' and other globs
 *   {N..M}   any integer from N to M inclusive (M < N is swapped). If N or M is written
 *            with a leading zero, numbers are zero-padded to the longer of the two widths:
 *            {01..10} gives 01, 02, ..., 10. "{x..y}" with non-numbers is a one-item list.
 * There is no escaping and no character classes ('[' is literal).
 *
 * Thread-safety: all functions are reentrant. Errors: -1 with err_set. */
#ifndef SHALE_IO_GLOB_H
#define SHALE_IO_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/* True if s contains any of '*', '?', '{'. */
bool glob_has_magic(const char *s);

/* True if the whole of path matches pattern. */
bool glob_match(const char *pattern, const char *path);

/* Lists the local regular files matching pattern, sorted bytewise and without duplicates.
 * Walks only directories that can match: a literal prefix is used as is, and only magic
 * segments are listed. A pattern without magic yields the path itself if it is a regular
 * file. No match is not an error: *n = 0 (callers raise ClickHouse's message for their
 * context). *paths is an xmalloc'ed array of xmalloc'ed strings; free with glob_free.
 * Errors: ERR_BAD_ARGUMENTS for an unbalanced '{' or an expansion of more than 1,000,000
 * patterns. Unreadable directories are skipped. */
int glob_expand_local(const char *pattern, char ***paths, size_t *n);
void glob_free(char **paths, size_t n);

#endif
