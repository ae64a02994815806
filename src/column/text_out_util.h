/* Low-level pieces of the text output (text_out.c) that the output formats reuse for
 * headers and numbers: fast integer formatting and string escaping per style.
 * Thread-safe; no allocation except growing the caller's buf. */
#ifndef SHALE_COLUMN_TEXT_OUT_UTIL_H
#define SHALE_COLUMN_TEXT_OUT_UTIL_H

#include "column/text.h"

/* Decimal digits of v into out (no NUL); returns the length (at most 40 chars). */
size_t text_u64(uint64_t v, char *out);
size_t text_i64(int64_t v, char *out);
size_t text_u128(uint128_t v, char *out);
size_t text_i128(int128_t v, char *out);

/* Appends s[0..n) escaped for the style: TSV escapes, CSV "..." with "" doubling, JSON
 * "..." with \uXXXX, QUOTED '...' with backslash escapes, RAW as is. */
void text_write_string(buf *out, const char *s, size_t n, text_style style);

#endif
