/* ClickHouse's JSONPath subset, for JSON_VALUE, JSON_QUERY and JSON_EXISTS (jsonpath.c).
 *
 * Grammar (tokens may be separated by whitespace and SQL comments):
 *   path   := '$' step*
 *   step   := '.' name                      member: name is [A-Za-z0-9_]+, "quoted" or `quoted`
 *           | '[' 'string' ']' | '["string"]'   member
 *           | '[' '*' ']'                    every element of an array
 *           | '[' range (',' range)* ']'     elements by 0-based index
 *   range  := int | int 'to' int             [a, b): a < b, else an error; ints decimal or 0x hex
 * Not supported (errors): '.*', '..', negative indexes, filters, a bare word in brackets.
 *
 * jp_parse returns -1 with ERR_BAD_ARGUMENTS ("Unable to parse JSONPath") or the error
 * ClickHouse gives (a fractional index: BAD_GET; an empty range: BAD_ARGUMENTS). A parsed
 * path is immutable and may be shared between threads; free it with jp_free. */
#ifndef SHALE_FUNC_SCALAR_JSONPATH_H
#define SHALE_FUNC_SCALAR_JSONPATH_H

#include "func/scalar/json_doc.h"

#include <stddef.h>
#include <stdint.h>

typedef enum { JP_KEY, JP_STAR, JP_RANGES } jp_step_kind;

typedef struct jp_step {
    jp_step_kind kind;
    char *key;       /* JP_KEY, unescaped */
    size_t key_len;
    uint64_t *ranges; /* JP_RANGES: pairs [from, to) */
    int nranges;
} jp_step;

typedef struct jp_path {
    jp_step *steps;
    int nsteps;
} jp_path;

int jp_parse(const char *s, size_t n, jp_path **out);
void jp_free(jp_path *p);

/* Calls fn on every value the path reaches in the document's root, in ClickHouse's order,
 * until fn returns false. */
typedef bool (*jp_visit_fn)(const jd_val *v, void *ctx);
void jp_eval(const jp_path *p, const jd_val *root, jp_visit_fn fn, void *ctx);

#endif
