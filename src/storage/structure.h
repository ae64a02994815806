/* Table structure strings: 'a UInt32, b Nullable(String)' as used by file(), s3(),
 * format() and input(). */
#ifndef SHALE_STORAGE_STRUCTURE_H
#define SHALE_STORAGE_STRUCTURE_H

#include "column/block.h"

#include <stddef.h>

/* *out is a new schema; -1 with ERR_SYNTAX_ERROR / ERR_UNKNOWN_TYPE on bad text. */
int structure_parse(const char *s, size_t n, schema **out);

#endif
