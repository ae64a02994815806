/* A JSON document over a string, for the JSON functions (json.c): validation with the rules
 * ClickHouse's parser (simdjson) applies, and navigation over the validated text without
 * building a tree.
 *
 * Rules (checked against ClickHouse): RFC 8259 strictly (no trailing commas, no leading
 * zeros, no "+1", ".5", "1.", NaN or Infinity, no raw control characters in strings), valid
 * UTF-8 in strings, \u escapes with surrogate pairs (a lone surrogate is invalid), whitespace
 * around the single top value, nesting at most JD_MAX_DEPTH. Numbers: an integer literal is
 * Int64 when it fits, else UInt64 when it fits, else the document is invalid; a literal with
 * a fraction or an exponent is Double, and is invalid when it overflows to infinity.
 *
 * A jd_val points into the caller's string (which must outlive it). Everything is
 * reentrant: no shared state, no allocation except into the caller's buffers. */
#ifndef SHALE_FUNC_SCALAR_JSON_DOC_H
#define SHALE_FUNC_SCALAR_JSON_DOC_H

#include "base/buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JD_MAX_DEPTH 1024

typedef enum jd_kind { JD_NULL, JD_BOOL, JD_INT64, JD_UINT64, JD_DOUBLE, JD_STRING, JD_ARRAY, JD_OBJECT } jd_kind;

typedef struct jd_val {
    const char *p; /* the value's text, without surrounding whitespace */
    size_t n;
    jd_kind kind;
} jd_val;

/* s[0..n), a decimal integer with an optional '-' (and '+' when allow_plus) and nothing else:
 * JD_INT64 with *i when it fits, else JD_UINT64 with *u; false when it is not one or overflows. */
bool jd_parse_integer(const char *s, size_t n, bool allow_plus, jd_kind *kind, int64_t *i, uint64_t *u);

/* Validates s[0..n) as one JSON document; true with *root set when it is valid. */
bool jd_parse(const char *s, size_t n, jd_val *root);

/* Iteration over an array's elements or an object's members (of a validated document). */
typedef struct jd_iter {
    const char *p, *end;
    bool object;
} jd_iter;
void jd_iter_init(jd_iter *it, const jd_val *v); /* v: JD_ARRAY or JD_OBJECT */
/* The next element (key stays unset for arrays); false at the end. */
bool jd_next(jd_iter *it, jd_val *key, jd_val *val);
size_t jd_count(const jd_val *v); /* elements or members; 0 for scalars */

/* Object member by key (the first one when keys repeat; keys compare unescaped). */
bool jd_find_key(const jd_val *obj, const char *key, size_t klen, jd_val *out);
/* Element (or object member value) by 1-based index, negative from the end; 0 finds nothing. */
bool jd_find_index(const jd_val *v, int64_t idx, jd_val *out);

/* The unescaped text of a JD_STRING value, appended to out. */
void jd_string(const jd_val *v, buf *out);
/* Numbers of a validated value of that kind. */
int64_t jd_int64(const jd_val *v);
uint64_t jd_uint64(const jd_val *v);
double jd_double(const jd_val *v); /* any number kind */

/* The value as ClickHouse serializes an element: no whitespace, numbers in their shortest
 * form, strings re-escaped (", \, control characters, U+2028/9; '/' is left alone). */
void jd_to_text(const jd_val *v, buf *out);
/* s as a JSON string literal with the same escaping. */
void jd_put_string(buf *out, const char *s, size_t n);

#endif
