/* Data types, with ClickHouse's names.
 *
 * Types are interned: every distinct type exists once for the life of the process, so
 * types are compared by pointer and never freed. All functions are thread-safe.
 *
 * Physical layout (see column.h):
 *   fixed-width  numbers, Bool (UInt8), Date (UInt16 days), Date32 (Int32 days),
 *                DateTime (UInt32 seconds), DateTime64 (Int64 ticks), Enum8/16 (Int8/16),
 *                Decimal32/64/128 (scaled Int32/64/128), UUID (UInt128), Nothing (1 byte),
 *                Int256/UInt256/Decimal256 (32 bytes, base/i256.h's little-endian limbs),
 *                IPv4 (UInt32, host order, as ClickHouse), IPv6 (16 bytes in network order,
 *                as ClickHouse keeps it in memory and on disk; ordered by memcmp)
 *   FixedString  `width` bytes per value
 *   String       bytes + offsets
 *   Nullable(T)  null map + a column of T
 *   Array(T)     offsets + a column of T
 *   Tuple(...)   one column per field
 *   Map(K, V)    Array(Tuple(keys K, values V))'s layout, as ClickHouse stores it: offsets +
 *                a Tuple column of keys and values; `inner` is that Tuple type
 *   LowCardinality(T) has T's layout: the type is kept for names and output, values are
 *                stored plainly (type_phys strips it).
 *   AggregateFunction([version, ]f[(params)], T...) (T_AGGSTATE) has String's layout: each value is
 *                one state in ClickHouse's binary serialization (func/agg_state.h reads and
 *                writes them); `agg_func` is f with its parameters as ClickHouse prints
 *                them ("quantiles(0.5, 0.9)") and `fields` the argument types.
 *   SimpleAggregateFunction(f, T) is T itself under another name: a copy of T's type
 *                with `agg_func` = f and `simple_agg` set, so every function sees T. */
#ifndef SHALE_COLUMN_TYPE_H
#define SHALE_COLUMN_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef __int128 int128_t;
typedef unsigned __int128 uint128_t;

typedef enum type_id {
    T_NOTHING,
    T_UINT8, T_UINT16, T_UINT32, T_UINT64, T_UINT128,
    T_INT8, T_INT16, T_INT32, T_INT64, T_INT128,
    T_FLOAT32, T_FLOAT64,
    T_BOOL,
    T_STRING, T_FIXEDSTRING,
    T_DATE, T_DATE32, T_DATETIME, T_DATETIME64,
    T_ENUM8, T_ENUM16,
    T_DECIMAL32, T_DECIMAL64, T_DECIMAL128,
    T_UUID,
    T_IPV4, T_IPV6,
    T_NULLABLE, T_LOWCARDINALITY, T_ARRAY, T_TUPLE,
    T_MAP,
    T_AGGSTATE,              /* AggregateFunction(f, T...): serialized states, String's layout */
    /* 256-bit kinds (base/i256.h layout, 32 bytes), kept out of the ranges above on purpose:
     * range tests such as num_is_int() must not take them for narrower integers. Code that
     * handles them says so explicitly (type_is_wide). */
    T_UINT256, T_INT256, T_DECIMAL256,
    T__COUNT
} type_id;

typedef struct enum_item {
    const char *name;
    int16_t value;
} enum_item;

typedef struct type {
    type_id id;
    const char *name;            /* canonical ClickHouse spelling, e.g. "DateTime64(3, 'UTC')" */
    uint32_t width;              /* bytes per value for fixed-width layouts, else 0 */
    uint8_t precision;           /* Decimal P */
    uint8_t scale;               /* Decimal S; DateTime64 precision */
    const char *tz;              /* DateTime/DateTime64 explicit time zone, or NULL */
    const struct type *inner;    /* Nullable, LowCardinality, Array; Map: Tuple(keys K, values V) */
    int nitems;                  /* Enum: items sorted by value */
    const enum_item *items;
    int nfields;                 /* Tuple */
    const struct type *const *fields;
    const char *const *field_names; /* NULL when unnamed */
    const char *agg_func;        /* AggregateFunction / SimpleAggregateFunction: the function */
    bool simple_agg;             /* SimpleAggregateFunction(agg_func, T) over T's layout */
    const struct type *plain;    /* SimpleAggregateFunction: T */
} type;

/* Parses a ClickHouse type name (also SQL aliases such as INT, BIGINT, VARCHAR(n), DOUBLE,
 * TEXT, BOOLEAN). Returns NULL with ERR_UNKNOWN_TYPE / ERR_SYNTAX_ERROR set on failure. */
const type *type_parse(const char *s, size_t len);
const type *type_parse_cstr(const char *s);

const type *type_simple(type_id id); /* non-parametric types; NULL for parametric ids */
const type *type_nullable(const type *t);   /* idempotent */
const type *type_lowcard(const type *t);
const type *type_array(const type *t);
const type *type_fixedstring(uint32_t n);
const type *type_decimal(int precision, int scale); /* picks 32/64/128/256 from precision */
const type *type_datetime(const char *tz);          /* tz may be NULL */
const type *type_datetime64(int precision, const char *tz);
/* items need not be sorted; names are copied. 8 or 16 selects Enum8/Enum16. */
const type *type_enum(int bits, int n, const enum_item *items);
const type *type_tuple(int n, const type *const *fields, const char *const *names);
/* Map(K, V). Returns NULL with ERR_BAD_ARGUMENTS when K is Nullable (ClickHouse's rule). */
const type *type_map(const type *k, const type *v);

/* AggregateFunction(func, args...): func is the function with parameters as ClickHouse
 * prints it ("sum", "quantiles(0.5, 0.9)"). Returns NULL with the hook's error when the
 * registered validator (see type_agg_hooks) rejects it. */
const type *type_aggstate(const char *func, int nargs, const type *const *args);
/* SimpleAggregateFunction(func, t). */
const type *type_simple_agg(const char *func, const type *t);
/* The plain type under a SimpleAggregateFunction (t itself otherwise). */
const type *type_strip_simple_agg(const type *t);

/* The aggregate-function layer (func/) registers these so that the column layer can check
 * an AggregateFunction type when it is made and build its default value (the serialized
 * empty state) without depending on func/. Set once at start-up, read without locks. */
typedef struct type_agg_hooks {
    int (*validate)(const type *t);                       /* -1 with an error when unusable */
    void (*default_state)(const type *t, void *buf_out);  /* appends the empty state to a buf */
    int (*validate_simple)(const char *func, const type *t);
    /* 0 when p[0..n) is exactly one well-formed state of t, else -1 with an error. */
    int (*check_state)(const type *t, const void *p, size_t n);
    /* The serialization version a state of func(args) is written in (ClickHouse's
     * versioned functions: 1 for sumMap's array form), 0 when not versioned. */
    int (*version)(const char *func, int nargs, const type *const *args);
} type_agg_hooks;
void type_set_agg_hooks(const type_agg_hooks *h);
const type_agg_hooks *type_get_agg_hooks(void);

/* Strips LowCardinality at the top level: the type whose layout the column has. */
static inline const type *type_phys(const type *t)
{
    return t->id == T_LOWCARDINALITY ? t->inner : t;
}
/* Strips Nullable (and LowCardinality around it) at the top level. */
const type *type_strip_nullable(const type *t);
/* Strips LowCardinality and Nullable, in any nesting order, at the top level. */
const type *type_base(const type *t);

static inline bool type_is_nullable(const type *t) { return type_phys(t)->id == T_NULLABLE; }
bool type_is_integer(const type *t);   /* Int*, UInt* (not Bool) */
bool type_is_signed(const type *t);    /* signed ints, floats, decimals */
bool type_is_float(const type *t);
bool type_is_decimal(const type *t);
bool type_is_number(const type *t);    /* ints, floats, Bool, decimals */
bool type_is_string(const type *t);    /* String or FixedString */
bool type_is_date_or_time(const type *t);
bool type_is_ip(const type *t);       /* IPv4 or IPv6 */
/* Int256, UInt256 or Decimal256 (under Nullable/LowCardinality too). These are not
 * type_is_integer / type_is_decimal / type_is_number: code written for the narrower kinds
 * reads values through 64- or 128-bit accessors, so it must opt in. */
bool type_is_wide(const type *t);
bool type_can_be_nullable(const type *t); /* false for Array, Tuple, Map, Nullable, LowCardinality */

/* For Decimal: 10^scale as int128. */
int128_t type_decimal_scale_multiplier(const type *t);

const char *type_id_name(type_id id);

#endif
