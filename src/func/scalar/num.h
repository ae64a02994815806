/* Internal helpers for numeric kernels: loading any fixed-width numeric column into an
 * array of a wide "compute" type, and storing such an array into a result column of a
 * narrower type. Kernels convert operands once (a cheap memory-bound pass), then run a
 * tight loop on one type the compiler can vectorize; narrowing afterwards reproduces
 * ClickHouse's two's-complement wrapping. Thread-safe, no state. */
#ifndef SHALE_FUNC_SCALAR_NUM_H
#define SHALE_FUNC_SCALAR_NUM_H

#include "base/mem.h"
#include "column/column.h"

#include <string.h>

/* GCC at -O2 uses its "very cheap" vectorizer cost model: a loop is vectorized only when
 * its trip count is a known multiple of the vector length and no runtime alias check is
 * needed. NUM_FOR(i, n, BODY) runs BODY for i in [0, n) as fixed NUM_CHUNK-row chunks
 * plus a scalar tail, so (with restrict-qualified pointers) the chunk loop vectorizes
 * under gcc -O2 as well as clang. */
#define NUM_CHUNK 64
#define NUM_FOR(i, n, BODY)                                                                      \
    do {                                                                                         \
        size_t b_ = 0, n_ = (n);                                                                 \
        for (; b_ + NUM_CHUNK <= n_; b_ += NUM_CHUNK)                                            \
            for (size_t i = b_; i < b_ + NUM_CHUNK; i++) { BODY; }                               \
        for (size_t i = b_; i < n_; i++) { BODY; }                                               \
    } while (0)

/* Rows to load: a constant column holds one. */
static inline size_t num_rows(const column *c, size_t rows) { return c->is_const ? 1 : rows; }

#define NUM_LOAD_CASES(OUTT)                                                                     \
    switch (t->id) {                                                                             \
    case T_UINT8: case T_BOOL: { const uint8_t *s = (const uint8_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_UINT16: case T_DATE: { const uint16_t *s = (const uint16_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_UINT32: case T_DATETIME: { const uint32_t *s = (const uint32_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_UINT64: { const uint64_t *s = (const uint64_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_UINT128: case T_UUID: { const uint128_t *s = (const uint128_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_INT8: case T_ENUM8: { const int8_t *s = (const int8_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_INT16: case T_ENUM16: { const int16_t *s = (const int16_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_INT32: case T_DATE32: case T_DECIMAL32: { const int32_t *s = (const int32_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_INT64: case T_DATETIME64: case T_DECIMAL64: { const int64_t *s = (const int64_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_INT128: case T_DECIMAL128: { const int128_t *s = (const int128_t *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_FLOAT32: { const float *s = (const float *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    case T_FLOAT64: { const double *s = (const double *)p; for (size_t i = 0; i < n; i++) out[i] = (OUTT)s[i]; break; } \
    default: memset(out, 0, n * sizeof *out); break;                                             \
    }

/* Each loader converts n values of physical type t at p into out[]. Float to integer
 * conversions of out-of-range values are avoided by callers (they compute in floats). */
static inline void num_load_u64(const type *t, const void *p, size_t n, uint64_t *out) { NUM_LOAD_CASES(uint64_t) }
static inline void num_load_i64(const type *t, const void *p, size_t n, int64_t *out) { NUM_LOAD_CASES(int64_t) }
static inline void num_load_f64(const type *t, const void *p, size_t n, double *out) { NUM_LOAD_CASES(double) }
static inline void num_load_i128(const type *t, const void *p, size_t n, int128_t *out) { NUM_LOAD_CASES(int128_t) }
static inline void num_load_ld(const type *t, const void *p, size_t n, long double *out) { NUM_LOAD_CASES(long double) }

/* Stores n values from in[] (of compute type INT) into a new column of type rt. */
#define NUM_STORE_CASES(INT)                                                                    \
    column *c = col_new(rt);                                                                     \
    void *d = buf_grow(&c->data, n * type_phys(rt)->width);                                      \
    c->len = n;                                                                                  \
    switch (type_phys(rt)->id) {                                                                 \
    case T_UINT8: case T_BOOL: { uint8_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (uint8_t)in[i]; break; } \
    case T_UINT16: case T_DATE: { uint16_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (uint16_t)in[i]; break; } \
    case T_UINT32: case T_DATETIME: { uint32_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (uint32_t)in[i]; break; } \
    case T_UINT64: { uint64_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (uint64_t)in[i]; break; } \
    case T_UINT128: case T_UUID: { uint128_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (uint128_t)in[i]; break; } \
    case T_INT8: case T_ENUM8: { int8_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (int8_t)in[i]; break; } \
    case T_INT16: case T_ENUM16: { int16_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (int16_t)in[i]; break; } \
    case T_INT32: case T_DATE32: case T_DECIMAL32: { int32_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (int32_t)in[i]; break; } \
    case T_INT64: case T_DATETIME64: case T_DECIMAL64: { int64_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (int64_t)in[i]; break; } \
    case T_INT128: case T_DECIMAL128: { int128_t *o = d; for (size_t i = 0; i < n; i++) o[i] = (int128_t)in[i]; break; } \
    case T_FLOAT32: { float *o = d; for (size_t i = 0; i < n; i++) o[i] = (float)in[i]; break; } \
    case T_FLOAT64: { double *o = d; for (size_t i = 0; i < n; i++) o[i] = (double)in[i]; break; } \
    default: memset(d, 0, n * type_phys(rt)->width); break;                                      \
    }                                                                                            \
    return c;

static inline column *num_store_u64(const type *rt, const uint64_t *in, size_t n) { NUM_STORE_CASES(uint64_t) }
static inline column *num_store_i64(const type *rt, const int64_t *in, size_t n) { NUM_STORE_CASES(int64_t) }
static inline column *num_store_f64(const type *rt, const double *in, size_t n) { NUM_STORE_CASES(double) }
static inline column *num_store_i128(const type *rt, const int128_t *in, size_t n) { NUM_STORE_CASES(int128_t) }

/* A column of n UInt8 values whose data the caller fills. */
static inline column *num_new_u8(size_t n, uint8_t **data)
{
    column *c = col_new(type_simple(T_UINT8));
    *data = buf_grow(&c->data, n);
    c->len = n;
    return c;
}

/* Rank of an integer/float type for result-type rules: byte size. */
static inline unsigned num_size(const type *t)
{
    switch (t->id) {
    case T_BOOL: return 1;
    default: return t->width;
    }
}

static inline bool num_is_int(const type *t) { return (t->id >= T_UINT8 && t->id <= T_INT128) || t->id == T_BOOL; }
static inline bool num_is_uint(const type *t)
{
    return (t->id >= T_UINT8 && t->id <= T_UINT128) || t->id == T_BOOL;
}
static inline bool num_is_float(const type *t) { return t->id == T_FLOAT32 || t->id == T_FLOAT64; }

/* The integer type with the given signedness and byte size (1..16). */
static inline const type *num_int_type(bool is_signed, unsigned size)
{
    static const type_id u[] = {T_UINT8, T_UINT16, T_UINT32, T_UINT64, T_UINT128};
    static const type_id s[] = {T_INT8, T_INT16, T_INT32, T_INT64, T_INT128};
    int k = size <= 1 ? 0 : size <= 2 ? 1 : size <= 4 ? 2 : size <= 8 ? 3 : 4;
    return type_simple(is_signed ? s[k] : u[k]);
}

#endif
