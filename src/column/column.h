/* column: a typed vector of values, the unit every operator and function works on.
 *
 * Layout by type (type.h says which types use which):
 *   fixed-width   data = len * width bytes, values in native byte order
 *   String        data = all bytes back to back; offs = len+1 uint64, offs[0] = 0, value i
 *                 is data[offs[i] .. offs[i+1])
 *   FixedString   data = len * width bytes
 *   Nullable(T)   nulls = len bytes (1 = NULL); inner = a column of T with len rows whose
 *                 value at a NULL row is T's default
 *   Array(T)      offs = len+1 uint64 into inner, a column of T with all elements
 *   Tuple         fields[i] = one column per element, each with len rows
 *
 * A constant column (is_const) stores exactly one physical row and stands for `len` equal
 * rows; use col_idx(c, i) to index it. Functions may receive constants; helpers such as
 * col_materialize turn them into full columns.
 *
 * A dictionary-coded column (dict != NULL) stands for dict's values picked by codes:
 * data = len uint32 codes into dict, an ordinary String column that may be shared by
 * several coded columns (a Parquet column chunk's dictionary). Only a source that was
 * asked for it (source.accept_codes) produces one, and only the operators that asked
 * (exec/select.c) see one: every other function expects ordinary columns.
 * col_materialize, col_slice and col_filter accept coded columns (col_materialize
 * decodes; the other two keep the codes).
 *
 * Ownership: a column is created by col_new and owned by whoever holds the pointer; it is
 * reference counted so a block may pass a column through to another block without a copy
 * (col_ref). col_free drops one reference. A column being modified must have refs == 1.
 * Not thread-safe, except the reference count, which is atomic so that read-only columns
 * (e.g. literal constants, a join's build side) can be shared between threads. */
#ifndef SHALE_COLUMN_COLUMN_H
#define SHALE_COLUMN_COLUMN_H

#include "base/buf.h"
#include "base/i256.h"
#include "column/type.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct column {
    const type *type;
    size_t len;
    bool is_const;
    int refs;
    buf data;
    buf offs;
    buf nulls;
    struct column *inner;
    struct column **fields;
    int nfields;
    struct column *dict;         /* dictionary-coded: the values the codes in data index */
} column;

column *col_new(const type *t);
/* A column of t with n default values (0, '', NULL for Nullable, [] for Array). */
column *col_new_defaults(const type *t, size_t n);
/* A constant column of `len` rows from the first row of `one` (which it takes over). */
column *col_new_const(column *one, size_t len);
/* An empty dictionary-coded column over dict (a String column; takes the reference), with
 * room for `rows` codes: append codes with buf_grow(&c->data, 4 * n) and raise len. */
column *col_new_coded(column *dict, size_t rows);
static inline const uint32_t *col_codes(const column *c) { return (const uint32_t *)(const void *)c->data.p; }
/* Appends dict's values picked by codes[0..n) to dst (both String columns; codes must be
 * below dict->len). */
void col_append_from_dict(column *dst, const column *dict, const uint32_t *codes, size_t n);
column *col_ref(column *c);
void col_free(column *c);

static inline size_t col_idx(const column *c, size_t i) { return c->is_const ? 0 : i; }

/* Typed access to fixed-width data. */
#define COL_DATA(c, T) ((T *)(void *)(c)->data.p)
static inline const uint64_t *col_offs(const column *c) { return (const uint64_t *)(const void *)c->offs.p; }

/* String / FixedString value i (no NUL terminator). */
static inline const char *col_str(const column *c, size_t i, size_t *len)
{
    i = col_idx(c, i);
    if (c->type->width) { /* FixedString */
        *len = c->type->width;
        return (const char *)c->data.p + i * c->type->width;
    }
    const uint64_t *o = col_offs(c);
    *len = (size_t)(o[i + 1] - o[i]);
    return (const char *)c->data.p + o[i];
}

static inline bool col_is_null(const column *c, size_t i)
{
    return c->nulls.p && c->nulls.p[col_idx(c, i)];
}

/* Appending (column must not be const). */
void col_reserve(column *c, size_t rows);
void col_push_str(column *c, const char *s, size_t len);   /* String, FixedString (pads/truncates) */
void col_push_default(column *c);                          /* for any type */
void col_push_null(column *c);                             /* Nullable only */
/* Appends raw fixed-width bytes (width of the type) for fixed-width types. */
void col_push_fixed(column *c, const void *value);
/* Marks the last pushed inner value of a Nullable as present: push to c->inner, then call. */
void col_nullable_commit(column *c, bool is_null);
/* Appends row i of src (same physical type) to dst. Slow path for generic code. */
void col_push_from(column *dst, const column *src, size_t i);
/* Appends rows [from, from+n) of src to dst (same physical type); fast for fixed/strings. */
void col_push_range(column *dst, const column *src, size_t from, size_t n);
/* Closes an array row: call after pushing its elements to c->inner. */
void col_array_commit(column *c);

/* New columns built from rows of src. */
column *col_materialize(column *c);            /* takes c; returns a non-const, non-coded column */
column *col_slice(const column *src, size_t from, size_t n);
column *col_filter(const column *src, const uint8_t *keep, size_t kept); /* kept = count of 1s */
column *col_gather(const column *src, const uint32_t *rows, size_t n);
column *col_clone(const column *src);

/* Compares row i of a with row j of b (same type). nulls_first: NULL sorts before values.
 * Strings compare bytewise, floats with NaN last (ClickHouse's default: NaN is greater
 * than everything, nulls_direction applies to NaN too). */
int col_compare(const column *a, size_t i, const column *b, size_t j, int nan_direction);

/* 64-bit hash of row i for hash tables (not stable across versions; not cityHash64). */
uint64_t col_hash_row(const column *c, size_t i);
/* Mixes the hashes of rows into h[0..n) (h must be initialised). */
void col_hash_update(const column *c, uint64_t *h, size_t n);
/* Row equality (same type). */
bool col_equal_rows(const column *a, size_t i, const column *b, size_t j);

/* Bytes the column occupies in memory (data, offsets, null maps, inner). */
size_t col_bytes(const column *c);

/* Numeric value of row i of a number/date/time/enum/bool column as double or int64
 * (decimals: the scaled integer). Nullable must be unwrapped by the caller. */
double col_get_f64(const column *c, size_t i);
int64_t col_get_i64(const column *c, size_t i);
uint64_t col_get_u64(const column *c, size_t i);
/* Any integer, Bool, Date/time or Decimal (its scaled integer) as a 256-bit value, sign- or
 * zero-extended by the type; floats truncate. The one reader for 256-bit code paths. */
i256 col_get_i256(const column *c, size_t i);
/* Rows [0, n) of c the same way into v (n values; a constant column repeats its value),
 * with the type switch outside the loop. */
void col_get_i256_n(const column *c, size_t n, i256 *v);

#endif
