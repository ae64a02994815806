/* bjson: the small JSON reader and writer the backup manifest needs.
 *
 * The reader builds a tree (objects keep their key order); numbers are kept as text and
 * converted on access, so 64-bit integers (sizes, LSNs) stay exact. The writer escapes
 * strings as RFC 8259 requires. Ownership: bjson_parse returns a tree the caller frees
 * with bjson_free; accessors return borrowed pointers into it. Not thread-safe per tree.
 * Errors: bjson_parse returns NULL with err_set (ERR_CANNOT_PARSE_TEXT) naming what and
 * the byte offset; typed accessors return a default when the member is missing or of
 * another type, and bjson_req_* set an error naming the member. */
#ifndef SHALE_BACKUP_BJSON_H
#define SHALE_BACKUP_BJSON_H

#include "base/buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { BJ_NULL, BJ_BOOL, BJ_NUM, BJ_STR, BJ_ARR, BJ_OBJ } bjson_kind;

typedef struct bjson {
    bjson_kind kind;
    bool b;
    char *s;               /* BJ_STR: the string; BJ_NUM: its text */
    struct bjson **items;  /* BJ_ARR, BJ_OBJ */
    char **keys;           /* BJ_OBJ */
    size_t n;
} bjson;

bjson *bjson_parse(const char *text, size_t len, const char *what);
void bjson_free(bjson *j);

const bjson *bjson_get(const bjson *obj, const char *key); /* NULL if absent */
const char *bjson_str(const bjson *obj, const char *key);  /* NULL if absent or not a string */
uint64_t bjson_u64(const bjson *obj, const char *key, uint64_t dflt);
int64_t bjson_i64(const bjson *obj, const char *key, int64_t dflt);
bool bjson_bool(const bjson *obj, const char *key, bool dflt);
uint64_t bjson_as_u64(const bjson *v); /* a number element (0 if not) */

/* Writer helpers. */
void bjson_put_str(buf *b, const char *s); /* quoted and escaped; NULL writes null */

#endif
